# accuracy: one ramp on a class of REPLICAS pods of 200m (environment, default 1; 3 such pods
# fit on this 2-core machine). Each replica count gets its own class acc<R>, pinned to R pods,
# with committed rates that its quota admits and the ramp never exceeds (no 429s); the class is
# deleted after the run. gatling/experiments/model-accuracy.sh then posts the runs at 1 and 2
# replicas to one class, predicts the cut-off at 3 from its fit and compares with the measured.
R=${REPLICAS:-1}
CLASSES=("acc$R")
declare "CLASS_acc$R=$(class_body "acc$R" 200m 128Mi 500 "$R" "$R" 90)"
add_tenants "acc$R" 2 $((45 * R)) 150
SIMULATION=LinearRampCalibration
URL_PROPS=("baseUrl=acc$R")
RESULTS_DIR=$REPO_ROOT/docs/results/model-accuracy/replicas-$R
SIM_ARGS=("-Disolato.sloClass=acc$R" "-Disolato.tenants=acc$R-t1,acc$R-t2"
  -Disolato.startRate=$((8 * R)) -Disolato.rateStep=$((8 * R)) -Disolato.steps=10
  -Disolato.requestsPerStep=$((100 * R)) "-Disolato.context=podCpu=200m,podMemory=128Mi,replicas=$R")
finish() { delete_created; } # free the node's CPU for the next replica count
