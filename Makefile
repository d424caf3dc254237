# throng — the commands a user and CI run. See README.md.
#   make          Release build (build/release)
#   make deps     install the Debian packages that are missing
#   make demo     deps + build + the main job
#   make test     deps + warnings-as-errors build + every test, then the same tests under ASan+UBSan
#   make bench    deps + build + a small benchmark sweep: out/bench.{json,csv} and charts
JOBS ?= $(shell nproc)
ASSETS ?= $(abspath ../shared/assets)
REQUIRE_ASSETS ?= OFF

.PHONY: all release deps demo bench test test-release test-sanitize format clean FORCE

all: release

deps:
	@./tools/deps.sh

release:
	@cmake -S . -B build/release -DCMAKE_BUILD_TYPE=Release -DTHRONG_ASSETS_DIR=$(ASSETS) >/dev/null
	@cmake --build build/release -j $(JOBS)

# Only the CLI: what the demo needs.
build/release/throng: FORCE
	@cmake -S . -B build/release -DCMAKE_BUILD_TYPE=Release -DTHRONG_ASSETS_DIR=$(ASSETS) >/dev/null
	@cmake --build build/release -j $(JOBS) --target throng
FORCE:

# The main job: a crowd of 2,000 built-in walkers rendered headless (lavapipe where there is no GPU).
demo: deps build/release/throng
	@mkdir -p out
	./build/release/throng render --model builtin:walker --instances 2000 --frames 2 --time 1.5 --out out/crowd.png

# A small sweep on any machine: every technique at 100 and 1,000 walkers; JSON, CSV and charts in out/.
bench: deps build/release/throng
	@mkdir -p out
	./build/release/throng bench --model builtin:walker --techniques all --instances 100,1000 --frames 10 --warmup 3 \
	  --size 960x540 --json out/bench.json --csv out/bench.csv
	/usr/bin/python3 tools/plot_bench.py out/bench.json out/bench
	@echo "wrote out/bench.json out/bench.csv out/bench-frame.png out/bench-speedup.png"

test: deps test-release test-sanitize

test-release:
	@cmake -S . -B build/test -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTHRONG_WERROR=ON \
	  -DTHRONG_ASSETS_DIR=$(ASSETS) -DTHRONG_REQUIRE_ASSETS=$(REQUIRE_ASSETS) >/dev/null
	@cmake --build build/test -j $(JOBS)
	cd build/test && ctest --output-on-failure -j $(JOBS)

test-sanitize:
	@cmake -S . -B build/asan -DCMAKE_BUILD_TYPE=Debug -DTHRONG_WERROR=ON -DTHRONG_SANITIZE=ON \
	  -DTHRONG_ASSETS_DIR=$(ASSETS) -DTHRONG_REQUIRE_ASSETS=$(REQUIRE_ASSETS) >/dev/null
	@cmake --build build/asan -j $(JOBS)
	cd build/asan && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ctest --output-on-failure -j $(JOBS)

format:
	@clang-format -i $$(git ls-files '*.cpp' '*.h')

clean:
	rm -rf build out
