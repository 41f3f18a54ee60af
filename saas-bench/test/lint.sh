#!/usr/bin/env bash
# clang-format (style: .clang-format) and clang-tidy (checks: .clang-tidy) over the C++ of the
# given top-level folders; any finding fails.
# Usage: lint.sh <build dir with compile_commands.json> [folder ...]   (default: saas-bench cpp-common)
set -euo pipefail
build=$1
shift
folders=("$@")
[ ${#folders[@]} -gt 0 ] || folders=(saas-bench cpp-common)
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
mapfile -t sources < <(for f in "${folders[@]}"; do find "$f" \( -path '*/src/*' -o -path '*/test/*' -o -path '*/fuzz/*' \) \
  \( -name '*.cpp' -o -name '*.hpp' \); done | sort)
clang-format --dry-run -Werror "${sources[@]}"
echo "[${folders[*]}] clang-format: ${#sources[@]} files clean"
# Every translation unit the release build compiles (headers are checked through them). The
# fuzz targets are only in the ASan/fuzz build's database: formatted here, not tidied.
mapfile -t units < <(python3 -c '
import json, sys
dirs = ["/%s/" % f for f in sys.argv[2:]]
for e in json.load(open(sys.argv[1])):
    if any(d in e["file"] for d in dirs): print(e["file"])' "$build/compile_commands.json" "${folders[@]}" | sort -u)
[ ${#units[@]} -gt 0 ] || { echo "lint.sh: no sources of ${folders[*]} in $build/compile_commands.json" >&2; exit 1; }
python3 saas-bench/test/tidy_cached.py "$build" "${SAAS_BENCH_JOBS:-2}" "${units[@]}"
echo "[${folders[*]}] clang-tidy: ${#units[@]} translation units clean"
