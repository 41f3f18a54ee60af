# gold-alone: the SAC'20 Table 2 layout scaled to this 2-core machine (docs/results/README.md):
# gold pods get 4x the CPU of bronze pods (400m vs 100m; the paper: 950m vs 237m), each
# request costs ~5 ms of CPU (cpu 150 units). The class is ramped alone by 4 tenants.
# 300 requests per step (the paper: 1600) keep the run near 90 s.
CLASSES=(gold)
CLASS_gold=$(class_body gold 400m 256Mi 1000 1 1 200)
add_tenants gold 4 50 150 # committed above the ramp per tenant: no 429 in calibration
SIMULATION=LinearRampCalibration
URL_PROPS=(baseUrl=gold)
SIM_ARGS=(-Disolato.sloClass=gold -Disolato.tenants=gold-t1,gold-t2,gold-t3,gold-t4
  -Disolato.startRate=15 -Disolato.rateStep=15 -Disolato.maxRate=150 -Disolato.requestsPerStep=300
  -Disolato.context=podCpu=400m,podMemory=256Mi,replicas=1)
