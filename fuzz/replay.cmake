# Every fuzz target replayed over its seeds and every input that once made it fail, as ctest tests
# of any build: gcc, -Werror and ASan (`make test`). Both are written into the build tree first by
# the fixture `fuzz_seeds` (fuzz_corpus_gen: seeds, regressions/TARGET from fuzz/regressions.cpp,
# and the shared models when THRONG_ASSETS_DIR exists). Included from
# tests/CMakeLists.txt. docs/FUZZING.md.
include(${CMAKE_SOURCE_DIR}/fuzz/targets.cmake)

set(THRONG_FUZZ_SEEDS ${CMAKE_BINARY_DIR}/fuzz-seeds)
if(EXISTS ${THRONG_ASSETS_DIR})
  add_test(NAME fuzz_seeds COMMAND fuzz_corpus_gen ${THRONG_FUZZ_SEEDS} ${THRONG_ASSETS_DIR})
else()
  add_test(NAME fuzz_seeds COMMAND fuzz_corpus_gen ${THRONG_FUZZ_SEEDS})
endif()
set_tests_properties(fuzz_seeds PROPERTIES LABELS fuzz FIXTURES_SETUP fuzz_seeds)

foreach(target ${THRONG_FUZZ_TARGETS})
  throng_fuzz_executable(replay_${target} ${target} ${THRONG_FUZZ_DIR}/replay_main.cpp)
  add_test(NAME ${target}_replay
           COMMAND replay_${target} ${THRONG_FUZZ_SEEDS}/${target} ${THRONG_FUZZ_SEEDS}/regressions/${target})
  set_tests_properties(${target}_replay PROPERTIES LABELS fuzz TIMEOUT 600 FIXTURES_REQUIRED fuzz_seeds)
endforeach()
