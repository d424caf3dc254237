# throng — the commands a user and CI run. See README.md.
#   make          Release build (build/release)
#   make deps     install the Debian packages that are missing
#   make demo     deps + build + the main job
#   make test     deps + the format check + warnings-as-errors build + every test, then most of them under ASan+UBSan, and the fuzz targets briefly
#   make test-all the same with every picture test under ASan+UBSan too, the test files instrumented, every fault point swept (a release's full matrix)
#   make bench    deps + build + a small benchmark sweep: out/bench.{json,csv} and charts
#   make fuzz     deps + the libFuzzer targets (clang, build/fuzz), each run FUZZ_SECONDS (docs/FUZZING.md)
JOBS ?= $(shell nproc)
ASSETS ?= $(abspath ../shared/assets)
REQUIRE_ASSETS ?= OFF
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?= fuzz_throng fuzz_gltf fuzz_cli fuzz_assimp fuzz_kit
# Ninja for a build folder made here (a quarter faster than make's on 2 cores); a folder an older
# checkout configured keeps the generator it has (CMake refuses to change it).
GEN = $(if $(wildcard $(1)/CMakeCache.txt),,-G Ninja)

.PHONY: all release deps demo bench test test-all test-format test-release test-install test-install-static test-aarch64 test-sanitize test-fuzz asan-build fuzz fuzz-build fuzz-long format clean FORCE

all: release

deps:
	@./tools/deps.sh

release:
	@cmake $(call GEN,build/release) -S . -B build/release -DCMAKE_BUILD_TYPE=Release -DTHRONG_ASSETS_DIR=$(ASSETS) >/dev/null
	@cmake --build build/release -j $(JOBS)

# Only the CLI: what the demo needs.
build/release/throng: FORCE
	@cmake $(call GEN,build/release) -S . -B build/release -DCMAKE_BUILD_TYPE=Release -DTHRONG_ASSETS_DIR=$(ASSETS) >/dev/null
	@cmake --build build/release -j $(JOBS) --target throng
FORCE:

# The main job: a crowd of 2,000 built-in walkers rendered headless (lavapipe where there is no GPU).
demo: deps build/release/throng
	@mkdir -p out
	./build/release/throng render --model builtin:walker --instances 2000 --frames 2 --time 1.5 --out out/crowd.png

# A small sweep on any machine: every technique at 100 and 1,000 walkers (the default --raster auto),
# and baked through the hardware rasterizer alone for comparison; JSON, CSV and charts in out/.
bench: deps build/release/throng
	@mkdir -p out
	./build/release/throng bench --model builtin:walker --techniques all,baked@hardware --instances 100,1000 --frames 10 --warmup 3 \
	  --size 960x540 --json out/bench.json --csv out/bench.csv
	/usr/bin/python3 tools/plot_bench.py out/bench.json out/bench
	@echo "wrote out/bench.json out/bench.csv out/bench-frame.png out/bench-speedup.png"

test: deps test-format test-release test-install test-aarch64 test-sanitize test-fuzz

# The test builds keep line tables (-g1: every backtrace and sanitizer report names file and line)
# without full debug info, which costs a quarter of the release build's compile time. The
# sanitizer build is optimised lightly (-O1, asserts on: AddressSanitizer's usual setting): at
# -O0 its CPU-heavy tests (references in double, baking, import) run several times slower.
TEST_FLAGS = -O2 -g1 -DNDEBUG
ASAN_FLAGS = -O1 -g1

# The -Werror build is a shared build (-DBUILD_SHARED_LIBS=ON): it also makes libthrong.so,
# libthrong-offline.so and libthrong-render.so (their exports checked by shared_library_test),
# and test-install checks the package it installs. The CLI and the tests link the static
# libraries either way; `make test-all` also checks a static build's package (test-install-static).
test-release:
	@cmake $(call GEN,build/test) -S . -B build/test -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$(TEST_FLAGS)" -DTHRONG_TEST_COMPILE_OPTIONS=-O1 -DTHRONG_WERROR=ON -DBUILD_SHARED_LIBS=ON \
	  -DTHRONG_ASSETS_DIR=$(ASSETS) -DTHRONG_REQUIRE_ASSETS=$(REQUIRE_ASSETS) >/dev/null
	@cmake --build build/test -j $(JOBS)
	cd build/test && ctest --output-on-failure -j $(JOBS)

# The CPU animation runtime (model, anim, builtin) and its tests built for 64-bit ARM with Debian's
# cross compiler and arm64 libraries, run under qemu-user (cmake/aarch64-linux-gnu.cmake,
# THRONG_CPU_RUNTIME_ONLY): the code an ARM machine runs is tested here, not assumed. Left out:
# the one test that starts oneTBB's threads (SkinningJob::runParallel): Debian's arm64 oneTBB
# 2021.8 spins forever under qemu-user 7.2 before it starts a thread (a ten-line parallel_for
# does too, with the parallelism limited to 1 as well), so it is run natively only. A test that
# hangs there fails after 120 s.
AARCH64_SKIP = ^Skinning\.RunParallelWritesTheSameBitsAsRun$$
test-aarch64:
	@cmake $(call GEN,build/aarch64) -S . -B build/aarch64 -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$(TEST_FLAGS)" -DTHRONG_TEST_COMPILE_OPTIONS=-O1 -DTHRONG_WERROR=ON -DTHRONG_CPU_RUNTIME_ONLY=ON >/dev/null
	@cmake --build build/aarch64 -j $(JOBS)
	cd build/aarch64 && ctest --output-on-failure -j $(JOBS) --timeout 120 -E '$(AARCH64_SKIP)'

# In `make test`, after the tests: `cmake --install` of that build into a temporary prefix, then
# examples/cpu_animation (a shared model, builtin:walker without them) and examples/embed_vulkan
# (a walker crowd baked by the installed CLI, the validation layer on through the environment)
# configured against it with find_package(throng CONFIG REQUIRED), built and run; the embedded
# picture must hold the host's clear, its white frame and the crowd. Then the same package, moved,
# with pkg-config alone (tools/pkg_config_check.sh). INSTALL_BUILD: the build installed (the
# -Werror build, shared; test-install-static a static one).
INSTALL_BUILD ?= build/test
test-install:
	@rm -rf $(INSTALL_BUILD)/install-check $(INSTALL_BUILD)/example-cpu
	@cmake --install $(INSTALL_BUILD) --prefix $(INSTALL_BUILD)/install-check >/dev/null
	@cmake -S examples/cpu_animation -B $(INSTALL_BUILD)/example-cpu -DCMAKE_PREFIX_PATH=$(abspath $(INSTALL_BUILD)/install-check) >/dev/null
	@cmake --build $(INSTALL_BUILD)/example-cpu -j $(JOBS) >/dev/null
	@model=$(ASSETS)/CesiumMan/CesiumMan.glb; test -f $$model || model=builtin:walker; \
	  ./$(INSTALL_BUILD)/example-cpu/cpu_animation $$model && echo "install: examples/cpu_animation built and ran against the installed package"
	@rm -rf $(INSTALL_BUILD)/example-embed
	@cmake -S examples/embed_vulkan -B $(INSTALL_BUILD)/example-embed -DCMAKE_PREFIX_PATH=$(abspath $(INSTALL_BUILD)/install-check) >/dev/null
	@cmake --build $(INSTALL_BUILD)/example-embed -j $(JOBS) >/dev/null
	@./$(INSTALL_BUILD)/install-check/bin/throng bake builtin:walker -o $(INSTALL_BUILD)/example-embed/walker.throng >/dev/null 2>&1
	@VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation ./$(INSTALL_BUILD)/example-embed/embed_vulkan \
	  $(INSTALL_BUILD)/example-embed/walker.throng $(INSTALL_BUILD)/example-embed/crowd.png > $(INSTALL_BUILD)/example-embed/run.log 2>&1 \
	  || { cat $(INSTALL_BUILD)/example-embed/run.log; exit 1; }
	@if grep -qi 'validation' $(INSTALL_BUILD)/example-embed/run.log; then cat $(INSTALL_BUILD)/example-embed/run.log; exit 1; fi
	@if ldd $(INSTALL_BUILD)/example-embed/embed_vulkan | grep -qiE 'assimp|tinygltf'; then \
	  echo "install: embed_vulkan plays .throng files and must link neither assimp nor tinygltf"; exit 1; fi
	@if ls $(INSTALL_BUILD)/install-check/lib*/libthrong-render.so >/dev/null 2>&1; then \
	  ldd $(INSTALL_BUILD)/example-embed/embed_vulkan | grep -q 'libthrong-render.so.0.1 => .*install-check' \
	  || { echo "install: embed_vulkan does not load the installed libthrong-render.so.0.1"; exit 1; }; fi
	@grep -q '^corner 255 255 255, background 3[0-9] 4[0-9] [78][0-9],' $(INSTALL_BUILD)/example-embed/run.log \
	  && awk '/crowd pixels/ { exit !($$NF > 5000) }' $(INSTALL_BUILD)/example-embed/run.log \
	  || { cat $(INSTALL_BUILD)/example-embed/run.log; echo "install: embed_vulkan's picture lacks the host's passes or the crowd"; exit 1; }
	@echo "install: examples/embed_vulkan built against the installed package, drew $$(awk '/crowd pixels/ {print $$NF}' $(INSTALL_BUILD)/example-embed/run.log) crowd pixels between its own passes (validation on)"
	@model=$(ASSETS)/CesiumMan/CesiumMan.glb; test -f $$model || model=builtin:walker; \
	  tools/pkg_config_check.sh $(INSTALL_BUILD)/install-check $(INSTALL_BUILD)/example-pc $$model

# Under ASan every test but those that run the throng executable over and over to sweep fault
# points, signals or flag values (each start of an ASan binary costs seconds; the same sweeps run
# in process under ASan, fuzz_cli parses flags under ASan, and the executable runs them all in
# test-release) and the numeric sweeps: the skinning comparison of every shared model,
# error-bounded baking's searches and the simulated striders' foot sliding (test-release; sim_test
# runs the same simulation under ASan); also the in-process fault
# sweeps of cpu, palette, pose and static (they share every failure path with bonetex and baked,
# which stay), the million-walker simulation (the 10,000-walker tests run the same code), and
# pictures and numbers compared at length whose code other tests run under ASan: the buffer
# paths, the impostors' silhouettes, the compute rasterizer's picture, the bench's full report,
# the viewer's bad commands (ViewState runs them in process) and impostors, pose's layers over
# five techniques and its CLI (pose_test's other cases stay): that keeps CI under 30 minutes on
# 2 cores.
ASAN_SKIP = ThroughTheCli|^Viewer\.|^Interrupt\.|^View\.Soak|^Hostile\.NumericFlagsAndLists$$|SharedModelsSkinningMatchesCpuReference|^Rate\.|^RootMotion\.SimulatedFeetStayPlanted$$|OutOfMemoryAtEveryFaultPointInProcess/(cpu|palette|pose|static)$$|^Sim\.MillionWalkers$$|^View\.(PoseDrawsLayers|BadCommandsSayWhyAndChangeNothing|ImpostorsDrawTheFarCrowd)$$|^Gpu\.BufferPathsMatchCpuReference$$|^Impostors\.SilhouettesAgreeWithTheMeshAtTheSwitchingSize$$|^ComputeRaster\.PictureAgreesWithTheHardwareRasterizer$$|^Cli\.BenchWritesAReportForEveryConfiguration$$|^PoseGpu\.CrossFadesAndLayersMatchTheDoubleReference$$|^PoseCli\.

# In `make test` (not `make test-all`) the sanitizers also leave out the GPU tests that compare
# pictures at length, keeping the cheaper tests of every subsystem they belong to: the host code
# of each (its setup, uploads, descriptor writes, failures and their cleanup) still runs under
# ASan, and the pictures are compared in test-release under the validation layers. Left out:
# the compute rasterizer's cache, auto split and props pictures (its visibility ids, refusals and
# vertex caches stay), the viewer's events, shadows, TAA and compute toggles (its technique
# switches, resizing and overlay stay), the looks' colour and texture pictures (one impostor
# look stays), every technique's vertices (the skeletal techniques' picture stays), the motion
# vectors of a still crowd and the warp (the teleport and the limbs stay), the TAA flicker and
# still-walker ghost (the crossing walker stays), the shared models' compute shading, the shadow
# pictures (the passes and off-screen casters stay), received shadows, the mixed crowds'
# pictures (their ids and refusals stay), the splat pictures (the splat tables stay, CPU), the
# frame-synchronization sweep, the kit's and occlusion culling's no-pixel-changed checks.
ASAN_SKIP_PICTURES = ^ComputeRaster\.(PictureIsTheSameWithAndWithoutTheVertexCache|CpuFedVertexCachesHoldTheReferenceBlend|AutoSplitAgreesWithTheHardwareRasterizer|PaletteVertexCacheHoldsTheReferenceBlend)$$|^ComputeRasterProps\.|^View\.(EventsCountWhatMembersReach|ShadowsTurnOnAndOff|TemporalAntiAliasingTurnsOnAndOff|ComputeRasterDrawsAndRefusesWhatItCannot)$$|^LooksGpu\.(MembersWearTheColoursTheirKeysChoose|MembersWearTheTexturesTheirKeysChoose|ImpostorsKeepTheirMembersColours)$$|^Gpu\.EveryTechniquePlacesVerticesWhereTheCpuReferenceDoes$$|^Motion\.(AStillCrowdHasTheCamerasMotionOnEveryPath|TheLastFrameWarpedByTheVectorsIsThisFrame)$$|^Taa\.(FlickerOfTheOverviewAtLeastHalved|NoGhostWhereAStillWalkerStood)$$|^SharedModels\.ComputeShadesAsTheHardwareDoes$$|^Shadows\.(ComputeMapsAgreeWithTheHardwares|FallWhereTheCpuProjectionSays)$$|^ShadowsReceived\.|^MixedThree\.ComputeRasterizerDrawsTheCrowdAsTheHardwareDoes$$|^Mixed\.ModelsDrawAsTheirOwnCrowdsComposed$$|^Splats\.|^SplatMixed\.|^FrameSync\.|^KitGpu\.CullingByWornPartsChangesNoPixel$$|^Cull\.OcclusionHidesMembersAndChangesNoPixel$$
# And, past one GPU test per subsystem, the further pictures through the CLI and the viewer (their
# parsing, refusals and one-line errors stay: Cli's, View's resizing, ViewState's changes and
# out-of-memory sweep), the limbs' and a move's vectors and the targets' two clears alike (the
# teleport stays), the host's crowd of several models (the member calls over several models
# stay), the skeletal techniques' shared picture (Gpu's references stay), the simulation's timing
# (its GPU-against-CPU tests stay), the impostors' split (their refusals stay), and the fish's and
# twist's compute pictures (the compute rasterizer's own tests stay). Without parentheses: ctest's
# regular expressions hold at most nine groups, and the lists above take them.
ASAN_SKIP_DEPTH = ^View\.SwitchesThroughEveryTechniqueAndScreenshotsCrowdAndOverlay$$|^View\.OverlayHides$$|^Motion\.PaletteVectorsCarryTheLimbs$$|^Motion\.AMoveShowsInItsFrameOnly$$|^Motion\.TargetsClearedByComputeOrByTheLoadOpGiveTheSameFrames$$|^Cli\.RenderDrawsSeveralModelsAsOneCrowd$$|^Cli\.AntiAliasingAndTheGround$$|^Cli\.BenchComparesVariantsOfATechnique$$|^Cli\.BenchReportsTheComputeRasterizer$$|^Cli\.BenchReportsEachModelOfACrowd$$|^Embed\.SeveralModelsAreOneCrowdOfTheHost$$|^ViewState\.SeveralModelsAreOneCrowd$$|^Gpu\.SkeletalTechniquesDrawTheSamePicture$$|^Sim\.TimingOf100kWalkers$$|^Impostors\.ThresholdSplitsNearMeshesFromFarImpostors$$|^ComputeRasterFish\.|^ComputeRasterTwist\.
# And the second and later GPU tests of a subsystem that draw or render through the CLI what the
# first already drove through the same host code (each keeps its refusals, failures, cleanup and
# one picture under the sanitizers): the in-process device-loss sweeps past baked and vat (the
# out-of-memory ones above likewise), the CLI's camera, raster default, bench street view, kit,
# root-motion and dual-quaternion renders (their parsing and refusals stay, fuzz_cli parses),
# the host's settling job, shadows, events and vectors (its frame, edits, targets, callbacks and
# refusals stay), the viewer state's raster and technique changes (its command text, passes and
# out-of-memory sweep stay), the kit's second rasterizer, the compute rasterizer's pose and vat
# vertex caches (the reference pose's stays), pose's large skeletons, culling's coarse picture and
# Godot's picture of throng's export (the members file through the CLI stays: Cli's).
ASAN_SKIP_SECOND = ^Techniques/Faults\.DeviceLostAtEveryLossPointInProcess/cpu$$|^Techniques/Faults\.DeviceLostAtEveryLossPointInProcess/palette$$|^Techniques/Faults\.DeviceLostAtEveryLossPointInProcess/bonetex$$|^Techniques/Faults\.DeviceLostAtEveryLossPointInProcess/pose$$|^Techniques/Faults\.DeviceLostAtEveryLossPointInProcess/static$$|^Cli\.CameraOfTheUsersChoosing$$|^Cli\.RasterAutoIsTheDefault$$|^Cli\.BenchReportsSimulatedCulledStreetView$$|^Cli\.KitFilesBakeAndRender$$|^RootMotion\.CommandLine$$|^DualQuaternionCli\.RenderDrawsTheTwistAndRefusesWhatItCannot$$|^Embed\.ASettlingJobDrawsTheSameFrames$$|^Embed\.ShadowsMatchTheHeadlessRenderer$$|^Embed\.MembersEventsFromTheClipTimeFunction$$|^Embed\.MotionVectorsAndTeleports$$|^ViewState\.RasterChangesInPlaceAndFallsBackWithALine$$|^ViewState\.SwitchesTechniqueAndInstanceCount$$|^KitGpu\.BothRasterizersDrawTheSameParts$$|^ComputeRaster\.PoseVertexCacheHoldsTheReferenceBlend$$|^ComputeRaster\.VatVertexCacheHoldsTheBakedVertices$$|^PoseGpu\.LargeSkeletonsTakeThePerMemberPass$$|^Cull\.CoarseSkinningChangesLittleOfThePicture$$|^GodotCrowd\.PlaysTheExportAsThrongDrawsIt$$
ASAN_FULL ?= OFF
ASAN_EXCLUDE = $(ASAN_SKIP)$(if $(filter ON,$(ASAN_FULL)),,|$(ASAN_SKIP_PICTURES)|$(ASAN_SKIP_DEPTH)|$(ASAN_SKIP_SECOND))

# The sanitizer build: clang, ASan + UBSan at -O1 with assertions, every library also carrying
# libFuzzer's coverage (THRONG_FUZZ) so that the same build holds the fuzz targets test-fuzz runs:
# one build fewer than a separate fuzz build. The test files' own code is not instrumented
# (THRONG_SANITIZE_TEST_FILES, tests/CMakeLists.txt says what that gives up) except under
# `make test-all`. Each library is compiled eight files at a time (CMAKE_UNITY_BUILD: the
# libraries 199 -> 134 s on 2 cores, 2026-12-07); the -Werror build compiles every file alone, as
# users' builds do, so a file that leans on a neighbour's includes still fails there. (Test files
# at -O0 were tried, 2026-12-07: the build 72 s shorter, the tests 63 s longer, from a fresh
# clone: no gain, docs/CI_TIME.md.) A build/asan an older checkout made with gcc goes.
asan-build:
	@test ! -f build/asan/CMakeCache.txt || grep -qs '^CMAKE_CXX_COMPILER:.*clang' build/asan/CMakeCache.txt || rm -rf build/asan
	@CC=clang CXX=clang++ cmake $(call GEN,build/asan) -S . -B build/asan -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="$(ASAN_FLAGS)" \
	  -DTHRONG_TEST_COMPILE_OPTIONS= -DTHRONG_SANITIZE_TEST_FILES=$(ASAN_FULL) -DCMAKE_UNITY_BUILD=ON -DTHRONG_WERROR=ON -DTHRONG_SANITIZE=ON -DTHRONG_FUZZ=ON -DTHRONG_BENCHMARKS=OFF \
	  -DTHRONG_ASSETS_DIR=$(ASSETS) -DTHRONG_REQUIRE_ASSETS=$(REQUIRE_ASSETS) >/dev/null
	@cmake --build build/asan -j $(JOBS)

test-sanitize: asan-build
	cd build/asan && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ctest --output-on-failure -j $(JOBS) -E '$(ASAN_EXCLUDE)'

# The whole matrix, for a release: `make test` with the picture tests under the sanitizers too,
# and the sweeps `make test` steps through more coarsely through every point (THRONG_TEST_ALL).
test-all:
	THRONG_TEST_ALL=1 $(MAKE) test ASAN_FULL=ON
	$(MAKE) test-install-static

# The default, static package checked as test-install checks the shared one: a build of the
# libraries and the CLI alone (build/static), installed, its consumers built and run.
test-install-static:
	@cmake $(call GEN,build/static) -S . -B build/static -DCMAKE_BUILD_TYPE=Release -DTHRONG_TESTS=OFF -DTHRONG_BENCHMARKS=OFF >/dev/null
	@cmake --build build/static -j $(JOBS)
	@$(MAKE) --no-print-directory test-install INSTALL_BUILD=build/static

# The libFuzzer targets (fuzz/, docs/FUZZING.md): clang with ASan + UBSan, assertions on.
fuzz-build:
	@CC=clang CXX=clang++ cmake -S . -B build/fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -gline-tables-only" \
	  -DTHRONG_FUZZ=ON -DTHRONG_TESTS=OFF -DTHRONG_BENCHMARKS=OFF >/dev/null
	@cmake --build build/fuzz -j $(JOBS) --target $(FUZZ_TARGETS) fuzz_corpus_gen

# Each target FUZZ_SECONDS on a copy of its seeds; fails on any crash, leak, time-out (10 s per
# input) or out-of-memory (2 GB); inputs in build/fuzz/artifacts/TARGET/.
fuzz: deps fuzz-build
	./fuzz/run.sh --seconds $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# Long runs, one target after another at low priority: 1,000,000 executions each (fuzz_assimp at
# most an hour). Logs in build/fuzz/logs/TARGET.log. Run it in the background:
#   nohup make fuzz-long > build/fuzz-long.out 2>&1 &
fuzz-long: deps fuzz-build
	./fuzz/run.sh --long

# In `make test` (and so CI): every fuzz target 10 s, from the sanitizer build (-O1: fewer
# executions than `make fuzz`'s -O2 build, which long runs use).
test-fuzz: asan-build
	FUZZ_BUILD=build/asan FUZZ_PARALLEL=$(JOBS) ./fuzz/run.sh --seconds 10 $(FUZZ_TARGETS)

format:
	@clang-format -i $$(git ls-files '*.cpp' '*.h')

# In `make test`: every tracked C++ file as .clang-format lays it out (make format fixes them).
test-format:
	@clang-format --dry-run --Werror $$(git ls-files '*.cpp' '*.h') || { echo "format: run make format" >&2; exit 1; }
	@echo "format: $$(git ls-files '*.cpp' '*.h' | wc -l) C++ files as .clang-format lays them out"

clean:
	rm -rf build out
