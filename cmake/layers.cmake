# The library's layers (docs/architecture.md), one CMake target per folder of native/src.
# A layer's headers are included by folder ("cpu/median_cpu.hpp"), and the only include root
# that holds a folder is the layer's own, <build>/layers/<folder>/, which holds nothing but a
# link to that folder: a target sees a layer's headers only by linking it, so an include that
# climbs the layers does not compile (tests/layers shows it).
function(fastmedian_layer target folder)
  set(root ${PROJECT_BINARY_DIR}/layers/${folder})
  file(MAKE_DIRECTORY ${root})
  file(CREATE_LINK ${CMAKE_CURRENT_SOURCE_DIR} ${root}/${folder} SYMBOLIC)
  get_target_property(type ${target} TYPE)
  if(type STREQUAL "INTERFACE_LIBRARY")
    target_include_directories(${target} INTERFACE ${root})
  else()
    target_include_directories(${target} PUBLIC ${root})
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra>)
  endif()
  set_property(GLOBAL APPEND PROPERTY FASTMEDIAN_LAYER_ROOTS ${root})
endfunction()
