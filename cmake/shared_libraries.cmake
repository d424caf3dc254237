# Shared libraries (cmake -DBUILD_SHARED_LIBS=ON; docs/PACKAGE.md): throng's three components as
# three libraries, made of the objects the static libraries compile (position-independent, hidden
# visibility: set before those are defined, in CMakeLists.txt), each exporting only the public API
# (include/throng between THRONG_API_BEGIN and THRONG_API_END; cmake/throng.map) under a versioned
# soname: libthrong.so.0.1 (before 1.0 a minor version may change the ABI).
#   libthrong.so          throng::runtime  the model, the CPU animation runtime, the .throng reader
#   libthrong-offline.so  throng::offline  import, bake, export, built-in creatures
#   libthrong-render.so   throng::render   the crowd renderer in a host's Vulkan frame
# A component's dependencies are its library's own (DT_NEEDED): a host that plays .throng files
# with the renderer loads neither assimp nor tinygltf.

set(THRONG_VERSION_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/throng.map)

# throng_shared_library(TARGET OUTPUT_NAME EXPORT_NAME OBJECTS static-lib... LINK item...)
function(throng_shared_library target output export_name)
  cmake_parse_arguments(PARSE_ARGV 3 arg "" "" "OBJECTS;LINK")
  set(objects "")
  foreach(lib IN LISTS arg_OBJECTS)
    list(APPEND objects $<TARGET_OBJECTS:${lib}>)
  endforeach()
  add_library(${target} SHARED ${objects})
  target_link_libraries(${target} ${arg_LINK})
  target_link_options(${target} PRIVATE -Wl,--version-script=${THRONG_VERSION_SCRIPT} -Wl,--no-undefined)
  set_target_properties(${target} PROPERTIES
    OUTPUT_NAME ${output} EXPORT_NAME ${export_name}
    VERSION ${PROJECT_VERSION} SOVERSION ${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR}
    LINK_DEPENDS ${THRONG_VERSION_SCRIPT}
    # offline and render find libthrong.so.0.1 beside them wherever the package is installed or moved
    INSTALL_RPATH "\$ORIGIN")
endfunction()

throng_shared_library(throng_runtime_shared throng runtime
  OBJECTS throng_model throng_io throng_anim throng_format
  LINK PUBLIC glm::glm PRIVATE zstd::libzstd_shared TBB::tbb)
target_include_directories(throng_runtime_shared INTERFACE
  $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include> $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
target_compile_definitions(throng_runtime_shared INTERFACE GLM_ENABLE_EXPERIMENTAL)

throng_shared_library(throng_offline_shared throng-offline offline
  OBJECTS throng_import throng_builtin throng_bake throng_export throng_texture
  LINK PUBLIC throng_runtime_shared
       PRIVATE TinyGLTF::TinyGLTF assimp::assimp meshoptimizer::meshoptimizer tinyexr::tinyexr TBB::tbb)

throng_shared_library(throng_render_shared throng-render render
  OBJECTS throng_render_api throng_sim throng_render throng_gpu throng_texture
  LINK PUBLIC throng_runtime_shared Vulkan::Vulkan PRIVATE meshoptimizer::meshoptimizer TBB::tbb)

set(THRONG_SHARED_LIBRARIES throng_runtime_shared throng_offline_shared throng_render_shared)
