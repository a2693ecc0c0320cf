# `make install PREFIX=DIR`: the tools, the acl/ headers and geflow's C++ API
# headers, two shared libraries with sonames, geflow.pc, the CMake package
# (geflowConfig.cmake: geflow::acl, geflow::compiler) and the Python module.
#
# The libraries are the static ones the tools link, folded whole into two .so:
#   libgeflow_acl.so       runtime, OM, kernels, executor: aclrt*, aclmdl*, the
#                          geflowrt* extensions and the C++ API under them;
#   libgeflow_compiler.so  import, passes, driver, profiler, over
#                          libgeflow_acl.so (one runtime in a process).
# Every object is already PIC (LLVM's HandleLLVMOptions adds -fPIC), so no
# second compile. Version scripts export the C API and geflow:: only: the
# static MLIR copied into libgeflow_compiler.so stays private to it.
include(GNUInstallDirs)
set(GEFLOW_SOVERSION 0)
set(GEFLOW_VERSION 0.1.0)
# Plain lib/, never Debian's multiarch lib/x86_64-linux-gnu: geflow.pc, the CMake
# package and PYTHONPATH=PREFIX/lib/python3/dist-packages count on it.
set(GEFLOW_LIBDIR lib)

# The static libraries whose every object goes into `target`.
function(geflow_link_whole target)
  set(files)
  foreach(lib ${ARGN})
    list(APPEND files $<TARGET_FILE:${lib}>)
    add_dependencies(${target} ${lib})
  endforeach()
  target_link_libraries(${target} PRIVATE -Wl,--whole-archive ${files}
                        -Wl,--no-whole-archive)
endfunction()

# Every symbol resolved inside the libraries, except in a sanitized build:
# there the sanitizer's runtime comes with the executable that loads them
# (-z undefs overrides the -z defs of LLVM's build flags).
set(_geflow_so_options -Wl,--version-script=${PROJECT_SOURCE_DIR}/cmake/geflow.map)
if(GEFLOW_SANITIZE)
  list(APPEND _geflow_so_options -Wl,-z,undefs)
else()
  list(APPEND _geflow_so_options -Wl,--no-undefined)
endif()

set(_geflow_acl_parts GeflowSoc GeflowRuntime GeflowOmProto GeflowOm
    GeflowKernels GeflowExecutor)
add_library(geflow_acl SHARED cmake/Empty.c)
geflow_link_whole(geflow_acl ${_geflow_acl_parts})
# Linked again plainly for their own dependencies (protobuf, xxhash, threads).
target_link_libraries(geflow_acl PRIVATE ${_geflow_acl_parts})
set_target_properties(geflow_acl PROPERTIES
  VERSION ${GEFLOW_VERSION} SOVERSION ${GEFLOW_SOVERSION}
  LINK_DEPENDS ${PROJECT_SOURCE_DIR}/cmake/geflow.map)
target_link_options(geflow_acl PRIVATE ${_geflow_so_options})

add_library(geflow_compiler SHARED cmake/Empty.c)
# Over libgeflow_acl.so: one runtime in a process. The compiler's static
# libraries are linked by file, not as targets, because their targets would
# bring the runtime's static libraries along, and ld takes archive members
# even for symbols a shared library already defines. So their other
# dependencies are listed here: MLIR (static), LLVM, ONNX, protobuf.
geflow_link_whole(geflow_compiler GeflowStreamPlan GeflowOnnxFrontend GeflowIR
  GeflowPasses GeflowShapeOperands GeflowDriver GeflowTensorFiles GeflowProfile)
target_link_libraries(geflow_compiler PRIVATE geflow_acl MLIRIR MLIRPass
  MLIRFuncDialect MLIRTransforms MLIRTransformUtils MLIRSupport
  MLIRSideEffectInterfaces MLIRControlFlowInterfaces MLIRInferTypeOpInterface
  LLVM onnx onnx_proto protobuf::libprotobuf nlohmann_json::nlohmann_json)
set_target_properties(geflow_compiler PROPERTIES
  VERSION ${GEFLOW_VERSION} SOVERSION ${GEFLOW_SOVERSION}
  LINK_DEPENDS ${PROJECT_SOURCE_DIR}/cmake/geflow.map)
target_link_options(geflow_compiler PRIVATE ${_geflow_so_options})
set_target_properties(geflow_acl geflow_compiler PROPERTIES
  INSTALL_RPATH "$ORIGIN")

install(TARGETS geflow atc geflow-opt RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS geflow_acl geflow_compiler
  LIBRARY DESTINATION ${GEFLOW_LIBDIR})
install(FILES executor/runner/include/acl/acl.h runtime/include/acl/acl_base.h
  runtime/include/acl/acl_rt.h executor/runner/include/acl/acl_mdl.h
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/acl)
# The C++ API (tools/driver/CompileDriver.h, executor/runner/ModelExecutor.h
# and what they include) keeps the repository's paths under include/geflow.
foreach(dir runtime executor frontends ir passes tools/driver)
  install(DIRECTORY ${dir}/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/geflow/${dir}
    FILES_MATCHING PATTERN "*.h" PATTERN "*.def" PATTERN "include" EXCLUDE)
  install(DIRECTORY ${PROJECT_BINARY_DIR}/${dir}/
    DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/geflow/${dir}
    FILES_MATCHING PATTERN "*.h" PATTERN "*.h.inc" PATTERN "CMakeFiles" EXCLUDE)
endforeach()

# What a CANN program's build expects: -lascendcl, and a toolkit folder for
# the samples' CMakeLists (DDK_PATH/runtime/include, NPU_HOST_LIB):
#   export DDK_PATH=$(pkg-config --variable=ascend_home geflow)
#   export NPU_HOST_LIB=$DDK_PATH/runtime/lib64/stub
#   export LD_LIBRARY_PATH=$DDK_PATH/runtime/lib64   (as CANN's set_env.sh)
# Relative links, so the prefix may move.
install(CODE [[
  set(_lib "$ENV{DESTDIR}${CMAKE_INSTALL_PREFIX}/lib")
  set(_home "${_lib}/geflow/ascend")
  file(MAKE_DIRECTORY "${_home}/runtime/lib64/stub")
  execute_process(COMMAND ${CMAKE_COMMAND} -E create_symlink
    libgeflow_acl.so "${_lib}/libascendcl.so")
  execute_process(COMMAND ${CMAKE_COMMAND} -E create_symlink
    ../../../../include "${_home}/runtime/include")
  execute_process(COMMAND ${CMAKE_COMMAND} -E create_symlink
    ../../../../../libgeflow_acl.so "${_home}/runtime/lib64/stub/libascendcl.so")
  execute_process(COMMAND ${CMAKE_COMMAND} -E create_symlink
    stub/libascendcl.so "${_home}/runtime/lib64/libascendcl.so")
  execute_process(COMMAND ${CMAKE_COMMAND} -E create_symlink
    ../../../../libgeflow_acl.so.0 "${_home}/runtime/lib64/libgeflow_acl.so.0")
]])

# geflow.pc and the CMake package find the prefix from where they are, so
# that a prefix may be moved after installation.
configure_file(cmake/geflow.pc.in ${PROJECT_BINARY_DIR}/geflow.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/geflow.pc
  DESTINATION ${GEFLOW_LIBDIR}/pkgconfig)
configure_file(cmake/geflowConfig.cmake.in
  ${PROJECT_BINARY_DIR}/geflowConfig.cmake @ONLY)
include(CMakePackageConfigHelpers)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/geflowConfigVersion.cmake
  VERSION ${GEFLOW_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/geflowConfig.cmake
  ${PROJECT_BINARY_DIR}/geflowConfigVersion.cmake
  DESTINATION ${GEFLOW_LIBDIR}/cmake/geflow)
