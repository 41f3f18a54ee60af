# finding3: the SAC'20 Finding 3 layout scaled to this node. Linear scaling = one pod per tenant:
# MIX (environment, gold:bronze, default 3:1) gold tenants on as many 400m pods and bronze
# tenants on as many 100m pods, every tenant at the same rate r = 3, 6, ... 30 req/s (TenantMix; a 100m pod collapsed near 28 alone).
# The paper replaced gold by bronze tenants from 4:1 to 1:4 and saw the bronze per-tenant cut-off
# move; 4 pods of 400m do not fit next to the load generator on 2 cores, so the mixes here are
# 3:1, 2:2 and 1:3 (4 pods). The classes are deleted afterwards, so each mix starts on an empty node.
MIX=${MIX:-3:1}
[[ $MIX =~ ^[1-9]:[1-9]$ ]] || die "MIX must look like 3:1 (gold:bronze pods, 1-9 each), not '$MIX'"
G=${MIX%%:*} B=${MIX##*:}
CLASSES=(f3gold f3bronze)
CLASS_f3gold=$(class_body f3gold 400m 256Mi 1000 "$G" "$G" 200)
CLASS_f3bronze=$(class_body f3bronze 100m 128Mi 100 "$B" "$B" 60)
add_tenants f3gold "$G" 32 150   # committed above the ramp's 30 req/s: no 429
add_tenants f3bronze "$B" 32 150
ids() { local i out=(); for i in $(seq 1 "$2"); do out+=("$1-t$i"); done; (IFS=,; echo "${out[*]}"); }
SIMULATION=TenantMix
URL_PROPS=(goldBaseUrl=f3gold bronzeBaseUrl=f3bronze)
RESULTS_DIR=$REPO_ROOT/docs/results/finding3/mix-$G-$B
SIM_ARGS=("-Disolato.mix=$MIX" -Disolato.goldClass=f3gold -Disolato.bronzeClass=f3bronze
  "-Disolato.goldTenants=$(ids f3gold "$G")" "-Disolato.bronzeTenants=$(ids f3bronze "$B")"
  -Disolato.startRate=3 -Disolato.rateStep=3 -Disolato.steps=10 -Disolato.requestsPerStep=200
  "-Disolato.f3gold.context=podCpu=400m,podMemory=256Mi,replicas=$G"
  "-Disolato.f3bronze.context=podCpu=100m,podMemory=128Mi,replicas=$B")
finish() { delete_created; }
