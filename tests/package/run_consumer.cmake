# Installs the build into a scratch prefix, then configures, builds and runs the consumer
# project against it with find_package(fastmedian), the README's C++ example included.
set(prefix ${WORK_DIR}/prefix)
file(REMOVE_RECURSE ${WORK_DIR})
file(READ ${README} readme)
string(REGEX MATCH "```cpp\n([^`]*)```" example "${readme}")
if(NOT example)
  message(FATAL_ERROR "${README} has no ```cpp block")
endif()
file(WRITE ${WORK_DIR}/example/readme_example.inc "${CMAKE_MATCH_1}")
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix}
                RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "install failed: ${rc}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/build
                        -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_BUILD_TYPE=Release
                        -DREADME_EXAMPLE_DIR=${WORK_DIR}/example
                RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "configuring the consumer failed: ${rc}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK_DIR}/build RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "building the consumer failed: ${rc}")
endif()
execute_process(COMMAND ${WORK_DIR}/build/consumer RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "the consumer failed: ${rc}")
endif()
# The installed command runs and finds the installed library.
if(EXISTS ${BUILD_DIR}/native/src/cli/fastmedian)
  execute_process(COMMAND ${prefix}/bin/fastmedian --version RESULT_VARIABLE rc
                  OUTPUT_VARIABLE out)
  if(rc OR NOT out MATCHES "^fastmedian [0-9]+\\.[0-9]+\\.[0-9]+\n$")
    message(FATAL_ERROR "the installed fastmedian --version failed: ${rc} '${out}'")
  endif()
endif()
