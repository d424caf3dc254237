# The fuzz targets and what each links, shared by the libFuzzer build (fuzz/CMakeLists.txt,
# THRONG_FUZZ=ON) and the replay tests of every other build (fuzz/replay.cmake). docs/FUZZING.md.
set(THRONG_FUZZ_TARGETS fuzz_throng fuzz_gltf fuzz_assimp fuzz_cli fuzz_kit)
set(THRONG_FUZZ_DIR ${CMAKE_SOURCE_DIR}/fuzz)

# throng_fuzz_executable(EXE TARGET [extra sources...]): EXE built from fuzz/TARGET.cpp.
function(throng_fuzz_executable exe target)
  add_executable(${exe} ${THRONG_FUZZ_DIR}/${target}.cpp ${ARGN})
  target_link_libraries(${exe} PRIVATE throng_warnings)
  if(target STREQUAL "fuzz_throng")
    target_link_libraries(${exe} PRIVATE throng_format)
  elseif(target STREQUAL "fuzz_gltf" OR target STREQUAL "fuzz_assimp" OR target STREQUAL "fuzz_kit")
    target_link_libraries(${exe} PRIVATE throng_import)
  elseif(target STREQUAL "fuzz_cli")
    # The parser calls the option checks of render.cpp and bench.cpp, whose objects need info.cpp
    # (printError, checkOutput) and the libraries the CLI links; main.cpp and the viewer stay out.
    target_sources(${exe} PRIVATE $<TARGET_OBJECTS:throng_cli_core>)
    target_link_libraries(${exe} PRIVATE throng_render_api throng_bake throng_import throng_builtin throng_anim throng_io
                          CLI11::CLI11 nlohmann_json::nlohmann_json)
  else()
    message(FATAL_ERROR "unknown fuzz target ${target}")
  endif()
endfunction()

# The seeds and the regressions: fuzz_corpus_gen writes them into a build folder (fuzz/replay.cmake's
# fixture, fuzz/run.sh); nothing generated is checked in.
if(NOT TARGET fuzz_corpus_gen)
  add_executable(fuzz_corpus_gen ${THRONG_FUZZ_DIR}/corpus_gen.cpp ${THRONG_FUZZ_DIR}/regressions.cpp)
  target_include_directories(fuzz_corpus_gen PRIVATE ${CMAKE_SOURCE_DIR}/tests)
  target_link_libraries(fuzz_corpus_gen PRIVATE throng_bake throng_builtin throng_import throng_format
                        nlohmann_json::nlohmann_json zstd::libzstd_shared throng_warnings)
endif()
