# Every fuzz target replayed over its seed corpus (fuzz/corpus/TARGET) and every input that once
# made it fail (fuzz/regressions/TARGET), as ctest tests of any build: gcc, -Werror and ASan
# (`make test`). Included from tests/CMakeLists.txt. docs/FUZZING.md.
include(${CMAKE_SOURCE_DIR}/fuzz/targets.cmake)

foreach(target ${THRONG_FUZZ_TARGETS})
  throng_fuzz_executable(replay_${target} ${target} ${THRONG_FUZZ_DIR}/replay_main.cpp)
  add_test(NAME ${target}_replay
           COMMAND replay_${target} ${THRONG_FUZZ_DIR}/corpus/${target} ${THRONG_FUZZ_DIR}/regressions/${target})
  set_tests_properties(${target}_replay PROPERTIES LABELS fuzz TIMEOUT 600)
endforeach()
