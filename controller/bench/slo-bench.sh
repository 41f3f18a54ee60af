#!/usr/bin/env bash
# SLO engine benchmark (issue 5): JMH benchmarks from the controller's test classpath, each
# goal beside a reference measured in the same run, figures appended to docs/benchmarks-log.md
# under "## SLO engine". Goals: planning 10,000 tenants across 10 classes <= 50 ms; a fit on
# 50 steps <= 20 ms. Exits 1 when a goal is missed.
# Usage: controller/bench/slo-bench.sh   (env: FORKS=2 WARMUPS=3 ITERATIONS=5 SECONDS_PER_ITERATION=1;
#        SUMMARY_ONLY=1 re-summarises the last run's controller/target/slo-bench/jmh.json)
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"
FORKS="${FORKS:-2}"
WARMUPS="${WARMUPS:-3}"
ITERATIONS="${ITERATIONS:-5}"
SECONDS_PER_ITERATION="${SECONDS_PER_ITERATION:-1}"
OUT="controller/target/slo-bench"
mkdir -p "$OUT"

if [[ "${SUMMARY_ONLY:-0}" != 1 ]]; then
echo "[slo-bench] compiling the controller and its benchmarks (JMH annotation processing)"
# One reactor run (-am: the calibration-format module is resolved from its target/classes); the
# controller, last in the reactor, writes the classpath file last.
./mvnw -B -q --no-transfer-progress -pl controller -am test-compile dependency:build-classpath \
  -Dmdep.includeScope=test -Dmdep.outputFile="$ROOT/$OUT/classpath.txt"
CP="controller/target/test-classes:controller/target/classes:$(cat "$OUT/classpath.txt")"

echo "[slo-bench] running JMH: $FORKS forks x $ITERATIONS iterations of ${SECONDS_PER_ITERATION}s (+$WARMUPS warm-up) per benchmark"
java -cp "$CP" org.openjdk.jmh.Main 'dev\.isolato\.slo\.bench\..*' \
  -f "$FORKS" -wi "$WARMUPS" -i "$ITERATIONS" -w "${SECONDS_PER_ITERATION}s" -r "${SECONDS_PER_ITERATION}s" \
  -rf json -rff "$OUT/jmh.json" | grep -E '^(# Benchmark:|# Fork|Iteration|Result|Benchmark|SloEngine)' || true
fi

echo "[slo-bench] summarising into docs/benchmarks-log.md"
python3 - "$OUT/jmh.json" docs/benchmarks-log.md "$(uname -n)" "$(nproc)" \
  "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')" "$(java -version 2>&1 | head -1)" \
  "$(cut -d' ' -f1-3 /proc/loadavg)" <<'PY'
import json, sys, datetime
jmh_json, doc, host, nproc, cpu, jvm, load = sys.argv[1:8]
results = {r["benchmark"].rsplit(".", 1)[1]: r for r in json.load(open(jmh_json))}

def ms(name):
    m = results[name]["primaryMetric"]
    raw = [v for fork in m["rawData"] for v in fork]
    raw.sort()
    median = (raw[(len(raw) - 1) // 2] + raw[len(raw) // 2]) / 2
    return m["score"] / 1000, m["scoreError"] / 1000, median / 1000, raw[0] / 1000, raw[-1] / 1000, len(raw)

rows = [
    ("plan10kTenantsUsl", "plan 10,000 tenants / 10 classes, USL planner", 50.0, "plan10kTenantsLinearReference"),
    ("plan10kTenantsLinearReference", "  reference: linear baseline, same requests", None, None),
    ("fit50StepsUsl", "fit on 50 steps (1 replica count, σ assumed)", 20.0, "fit50StepsLinearLeastSquaresReference"),
    ("fit50StepsUslWithSigma", "fit on 50 steps (2 replica counts, σ fitted)", 20.0, "fit50StepsLinearLeastSquaresReference"),
    ("fit50StepsLinearLeastSquaresReference", "  reference: linear least squares (QR), same steps", None, None),
    ("ingest50StepRun", "ingest a 50-step run (validate, detect, fit)", None, None),
]
ok = True
lines = [f"### {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC — {host}, {nproc} CPUs, {cpu}, {jvm}, load average after the run {load}", "",
         "| measurement | mean ms | ± (99.9%) | median ms | min–max ms | iterations | goal (mean + error) | mean ratio to reference |",
         "| --- | ---: | ---: | ---: | ---: | ---: | --- | ---: |"]
for name, label, goal, ref in rows:
    mean, err, median, lo, hi, n = ms(name)
    verdict = ""
    if goal is not None:
        met = mean + err <= goal
        ok &= met
        verdict = f"≤ {goal:g} ms: {'met' if met else 'MISSED'}"
    ratio = f"{mean / ms(ref)[0]:.1f}×" if ref else ""
    lines.append(f"| {label} | {mean:.3f} | {err:.3f} | {median:.3f} | {lo:.3f}–{hi:.3f} | {n} | {verdict} | {ratio} |")
lines.append("")
if float(load.split()[0]) > int(nproc):
    lines.append(f"Contended run: load average {load.split()[0]} on {nproc} CPUs (other builds and tests were running), "
                 "so absolute times measure the scheduler as much as the code; the ratios to the reference, measured "
                 "under the same load, are the comparable figures. Re-run on an idle machine to check the goals.")
    lines.append("")
block = "\n".join(lines) + "\n"
print(block)

try:
    text = open(doc).read()
except FileNotFoundError:
    text = "# Benchmarks\n\nFigures appended by the bench scripts; each run compares against a reference measured in the same run.\n"
header = "## SLO engine"
if header not in text:
    text = text.rstrip("\n") + "\n\n" + header + "\n\nRun by `controller/bench/slo-bench.sh` (JMH, benchmarks in " \
        "`controller/src/test/java/dev/isolato/slo/bench/`). Goals from issue 5.\n\n"
start = text.index(header) + len(header)
nxt = text.find("\n## ", start)
end = len(text) if nxt < 0 else nxt + 1
section = text[:end].rstrip("\n") + "\n\n" + block
text = section + ("" if nxt < 0 else "\n" + text[end:])
open(doc, "w").write(text)
print("[slo-bench] goals", "met" if ok else "MISSED")
sys.exit(0 if ok else 1)
PY
