# smoke: the reduced loop `make test` checks (a few steps, 2 tenants, one class):
# simulation -> calibration JSON -> REST -> SloClass status with a cut-off.
# Requests cost ~5 ms of CPU (cpu 150 units, docs/results/README.md#scaling); a 200m pod
# serves at most ~40 req/s, so the last steps overload it and the cut-off falls inside the run.
# Committed rates (40 each) lie above the ramp so that no request is refused with a 429.
CLASSES=(e2egold)
CLASS_e2egold=$(class_body e2egold 200m 128Mi 0 1 1 80)
TENANTS=(
  '{"tenantId":"e2e-t1","sloClass":"e2egold","committedRps":40,"profile":{"cpu":150,"memory":0,"io":0}}'
  '{"tenantId":"e2e-t2","sloClass":"e2egold","committedRps":40,"profile":{"cpu":150,"memory":0,"io":0}}'
)
SIMULATION=LinearRampCalibration
URL_PROPS=(baseUrl=e2egold)
# Steps of 60 requests at 5, 20, 35, 50 req/s: ~18 s of load.
SIM_ARGS=(-Disolato.sloClass=e2egold -Disolato.tenants=e2e-t1,e2e-t2 -Disolato.startRate=5
  -Disolato.rateStep=15 -Disolato.steps=4 -Disolato.requestsPerStep=60 -Disolato.warmupSeconds=2
  -Disolato.context=podCpu=200m,podMemory=128Mi,replicas=1)
