#!/usr/bin/env bash
# clang-format (style: saas-bench/.clang-format) and clang-tidy (checks: saas-bench/.clang-tidy)
# over saas-bench's C++; any finding fails. Usage: lint.sh <build dir with compile_commands.json>
set -euo pipefail
build=$1
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
mapfile -t sources < <(find src test fuzz -name '*.cpp' -o -name '*.hpp' | sort)
clang-format --dry-run -Werror "${sources[@]}"
echo "[saas-bench] clang-format: ${#sources[@]} files clean"
# Every translation unit the release build compiles (headers are checked through them). The
# fuzz targets are only in the ASan/fuzz build's database: formatted here, not tidied.
mapfile -t units < <(python3 -c '
import json, sys
for e in json.load(open(sys.argv[1])):
    if "/saas-bench/" in e["file"]: print(e["file"])' "$build/compile_commands.json" | sort -u)
[ ${#units[@]} -gt 0 ] || { echo "lint.sh: no saas-bench sources in $build/compile_commands.json" >&2; exit 1; }
printf '%s\0' "${units[@]}" | xargs -0 -n 4 -P "${SAAS_BENCH_JOBS:-2}" clang-tidy -p "$build" --quiet
echo "[saas-bench] clang-tidy: ${#units[@]} translation units clean"
