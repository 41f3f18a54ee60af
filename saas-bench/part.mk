# saas-bench: the multi-tenant CPU/memory/IO stress service (C++20, CMake + Ninja); the build
# directories also hold cpp-common and isolato-gate (gate/part.mk), one CMake project.
#   build/saas-bench       release build with gcc, static service binary (the image's)
#   build/saas-bench-asan  the same sources and tests with clang + ASan/UBSan, plus libFuzzer
.PHONY: saas-bench-build saas-bench-asan-build test-saas-bench-unit test-saas-bench-asan \
        test-saas-bench-fuzz test-saas-bench-lint test-saas-bench-e2e saas-bench-image bench-saas-bench
BUILD_TARGETS += saas-bench-build
UNIT_TEST_TARGETS += test-saas-bench-unit test-saas-bench-asan test-saas-bench-fuzz test-saas-bench-lint
UNIT_TEST_PREREQS += saas-bench-build saas-bench-asan-build
E2E_TEST_TARGETS += test-saas-bench-e2e

SAAS_BENCH_BUILD := $(CURDIR)/build/saas-bench
SAAS_BENCH_ASAN := $(CURDIR)/build/saas-bench-asan
SAAS_BENCH_BIN := $(SAAS_BENCH_BUILD)/saas-bench/saas-bench
SAAS_BENCH_FUZZ_SECONDS ?= 30
SAAS_BENCH_JOBS ?= 2
# ccache keeps the objects of every clone (a clean clone, as CI's, otherwise compiles both builds
# again: 7.6 of its minutes on a 2-core host). BASEDIR makes paths relative so that clones at
# other paths hit; NOHASHDIR, so that the debug build does too (its objects then name the first
# clone's directory in their debug info, which only a debugger would read).
CCACHE := $(shell command -v ccache)
export CCACHE_BASEDIR := $(CURDIR)
export CCACHE_NOHASHDIR := 1
CMAKE_LAUNCHER := $(if $(CCACHE),-DCMAKE_CXX_COMPILER_LAUNCHER=$(CCACHE) -DCMAKE_C_COMPILER_LAUNCHER=$(CCACHE))

saas-bench-build: ## build saas-bench (static binary) and its tests
	@[ -f $(SAAS_BENCH_BUILD)/build.ninja ] || cmake -S . -B $(SAAS_BENCH_BUILD) -G Ninja $(CMAKE_LAUNCHER) \
	  -DCMAKE_BUILD_TYPE=Release -DSAAS_BENCH_STATIC=ON >/dev/null
	@ninja -C $(SAAS_BENCH_BUILD) -j$(SAAS_BENCH_JOBS) --quiet >&2

saas-bench-asan-build:
	@[ -f $(SAAS_BENCH_ASAN)/build.ninja ] || CC=clang CXX=clang++ cmake -S . -B $(SAAS_BENCH_ASAN) -G Ninja $(CMAKE_LAUNCHER) \
	  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSAAS_BENCH_SANITIZE=ON -DSAAS_BENCH_FUZZ=ON >/dev/null
	@ninja -C $(SAAS_BENCH_ASAN) -j$(SAAS_BENCH_JOBS) --quiet

test-saas-bench-unit: saas-bench-build ## saas-bench unit, HTTP and process tests
	@cd $(SAAS_BENCH_BUILD) && ctest --output-on-failure -R '^saasbench_'
	@echo "[saas-bench] unit + HTTP + process tests passed"

test-saas-bench-asan: saas-bench-asan-build ## the saas-bench tests again under ASan+UBSan (LSan on)
	@cd $(SAAS_BENCH_ASAN) && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  ctest --output-on-failure -R '^saasbench_'
	@echo "[saas-bench] ASan+UBSan tests passed"

test-saas-bench-fuzz: saas-bench-asan-build ## libFuzzer: HTTP request path and table parser, bounded
	@saas-bench/test/fuzz.sh $(SAAS_BENCH_ASAN)/saas-bench $(SAAS_BENCH_FUZZ_SECONDS)

saas-bench-image: saas-bench-build ## stage the FROM-scratch image context; prints its directory
	@saas-bench/image/stage.sh $(SAAS_BENCH_BIN) $(CURDIR)/build/saas-bench-image

test-saas-bench-lint: saas-bench-build ## clang-format and clang-tidy on saas-bench (any finding fails; clean units are remembered, saas-bench/test/tidy_cached.py)
	@source gatling/experiments/venv.sh && "$$PY" -m pytest -q saas-bench/test/test_tidy_cached.py
	@SAAS_BENCH_JOBS=$(SAAS_BENCH_JOBS) saas-bench/test/lint.sh $(SAAS_BENCH_BUILD)

test-saas-bench-e2e: saas-bench-build ## saas-bench as a pod behind a Service on localkube
	@saas-bench/test/e2e.sh $(SAAS_BENCH_BIN)

bench-saas-bench: saas-bench-build ## wrk: saas-bench vs nginx → docs/benchmarks-log.md
	@saas-bench/bench/bench.sh $(SAAS_BENCH_BIN)
