# smoke: the reduced loop `make test` checks (a few steps, 2 tenants, one class):
# simulation -> calibration JSON -> REST -> SloClass status with a cut-off.
CLASSES=(e2egold)
CLASS_e2egold='{"name":"e2egold","spec":{"latency":{"percentile":95,"targetMs":25},
  "resources":{"cpu":"200m","memory":"128Mi"},"minReplicas":1,"maxReplicas":1,
  "perPodCutoffRps":20}}'
TENANTS=(
  '{"tenantId":"e2e-t1","sloClass":"e2egold","committedRps":5,"profile":{"cpu":300,"memory":0,"io":0}}'
  '{"tenantId":"e2e-t2","sloClass":"e2egold","committedRps":5,"profile":{"cpu":300,"memory":0,"io":0}}'
)
SIMULATION=LinearRampCalibration
URL_PROPS=(baseUrl=e2egold)
# Steps of 60 requests at 10, 40, 70, 100 req/s: ~10 s of load; the last steps overload 200m.
SIM_ARGS=(-Disolato.sloClass=e2egold -Disolato.tenants=e2e-t1,e2e-t2 -Disolato.startRate=10
  -Disolato.rateStep=30 -Disolato.steps=4 -Disolato.requestsPerStep=60 -Disolato.warmupSeconds=2
  '-Disolato.context={"podCpu":"200m","podMemory":"128Mi","replicas":1}')
