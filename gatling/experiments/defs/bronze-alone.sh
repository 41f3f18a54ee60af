# bronze-alone: the bronze half of gold-alone's layout: 100m pods (1/4 of gold), same
# 5 ms requests and 4 tenants, ramped alone; 100 requests per step keep the run near 90 s.
CLASSES=(bronze)
CLASS_bronze=$(class_body bronze 100m 128Mi 100 1 1 60)
add_tenants bronze 4 15 150 # committed above the ramp per tenant: no 429 in calibration
SIMULATION=LinearRampCalibration
URL_PROPS=(baseUrl=bronze)
SIM_ARGS=(-Disolato.sloClass=bronze -Disolato.tenants=bronze-t1,bronze-t2,bronze-t3,bronze-t4
  -Disolato.startRate=4 -Disolato.rateStep=3 -Disolato.maxRate=31 -Disolato.requestsPerStep=100
  -Disolato.context=podCpu=100m,podMemory=128Mi,replicas=1)
