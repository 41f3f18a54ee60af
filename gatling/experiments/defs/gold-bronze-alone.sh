# gold-bronze-alone: the SAC'20 Table 2 layout scaled to this 2-core machine. Gold pods get 4x
# the CPU of bronze pods (400m vs 100m; the paper: 950m vs 237m); each request costs ~5 ms of
# CPU (profile cpu rounds, calibrate with saas-bench's own benchmark). Each class is ramped
# alone, 4 tenants, 1600 requests per step as in the paper.
CLASSES=(gold)
CLASS_gold='{"name":"gold","spec":{"latency":{"percentile":95,"targetMs":30},
  "resources":{"cpu":"400m","memory":"512Mi"},"priority":1000,"minReplicas":1,"maxReplicas":1,
  "perPodCutoffRps":60}}'
TENANTS=()
for i in 1 2 3 4; do
  TENANTS+=("{\"tenantId\":\"gold-t$i\",\"sloClass\":\"gold\",\"committedRps\":10,\"profile\":{\"cpu\":300,\"memory\":0,\"io\":0}}")
done
SIMULATION=LinearRampCalibration
URL_PROPS=(baseUrl=gold)
SIM_ARGS=(-Disolato.sloClass=gold -Disolato.tenants=gold-t1,gold-t2,gold-t3,gold-t4
  -Disolato.startRate=20 -Disolato.rateStep=10 -Disolato.maxRate=120
  '-Disolato.context={"podCpu":"400m","podMemory":"512Mi","replicas":1}')
