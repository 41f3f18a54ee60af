# aggressive: three tenants commit 25 req/s each (75 of the 400m pod's measured 90 req/s); one
# of them sends k x its commitment (k = 1, 2, 4, 6: 75 ... 200 req/s in total) while the two
# others stay at theirs. ADMISSION (environment: enforce or off, default enforce) is the class's
# spec.admission: with enforce each pod answers the excess with 429 before any work, with off
# the excess queues in front of the abiding tenants' requests. aggressive.py compares the two.
# Not a calibration (the 429s say nothing about capacity), so nothing is posted.
A=${ADMISSION:-enforce}
case $A in enforce | off) ;; *) die "ADMISSION must be enforce or off, not '$A'" ;; esac
CLASSES=("agg$A")
declare "CLASS_agg$A=$(class_body "agg$A" 400m 256Mi 1000 1 1 90 "$A")"
add_tenants "agg$A" 3 25 150
SIMULATION=AggressiveTenant
CALIBRATE=false
URL_PROPS=("baseUrl=agg$A")
RESULTS_DIR=$REPO_ROOT/docs/results/aggressive/admission-$A
SIM_ARGS=("-Disolato.sloClass=agg$A" "-Disolato.tenants=agg$A-t1,agg$A-t2,agg$A-t3"
  -Disolato.committedRps=25 "-Disolato.aggressiveTenant=agg$A-t1" -Disolato.factors=1,2,4,6
  -Disolato.requestsPerStep=600 "-Disolato.context=podCpu=400m,podMemory=256Mi,replicas=1,admission=$A")
finish() { delete_created; }
