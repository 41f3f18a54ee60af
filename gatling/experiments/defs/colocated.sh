# colocated: a gold pod (400m) and a bronze pod (100m) on the same node, ramped side by side
# (the SAC'20 Tables 3-4 layout scaled to this machine, docs/results/README.md). Gold tenants'
# requests burn CPU; BRONZE_PROFILE (environment: cpu, memory or io, default cpu) sets what the
# bronze tenants' requests do: cpu is the homogeneous run, memory and io the heterogeneous ones.
# Each profile costs about the same ≈3.4 ms of one core uncontended (saas-bench calibrate:
# cpu 150 rounds, memory 4000 KiB, io 3000 blocks). Ramps: gold 15..150 req/s, bronze 1.5..15,
# 6 s per step; the classes are deleted afterwards so the next profile starts on an empty node.
P=${BRONZE_PROFILE:-cpu}
case $P in
  cpu) BRONZE_WORK=150 ;;
  memory) BRONZE_WORK='{"cpu":0,"memory":4000,"io":0}' ;;
  io) BRONZE_WORK='{"cpu":0,"memory":0,"io":3000}' ;;
  *) die "BRONZE_PROFILE must be cpu, memory or io, not '$P'" ;;
esac
CLASSES=(cogold cobronze)
CLASS_cogold=$(class_body cogold 400m 256Mi 1000 1 1 200)
CLASS_cobronze=$(class_body cobronze 100m 128Mi 100 1 1 60)
add_tenants cogold 4 40 150          # committed above the ramp: no 429 in calibration
add_tenants cobronze 4 4 "$BRONZE_WORK"
SIMULATION=CoLocatedRamp
URL_PROPS=(cogold.baseUrl=cogold cobronze.baseUrl=cobronze)
RESULTS_DIR=$REPO_ROOT/docs/results/colocated/bronze-$P
SIM_ARGS=(-Disolato.classes=cogold,cobronze -Disolato.steps=10 -Disolato.stepSeconds=6
  -Disolato.cogold.tenantCount=4 -Disolato.cogold.startRate=15 -Disolato.cogold.rateStep=15
  -Disolato.cobronze.tenantCount=4 -Disolato.cobronze.startRate=1.5 -Disolato.cobronze.rateStep=1.5
  "-Disolato.cogold.context=podCpu=400m,podMemory=256Mi,replicas=1,profile=cpu"
  "-Disolato.cobronze.context=podCpu=100m,podMemory=128Mi,replicas=1,profile=$P")
finish() { delete_created; }
