# cairn_module(NAME SOURCES file... [LINKS target...]): one of cairn's
# libraries, cairn_NAME (alias cairn::NAME): its sources, its public
# headers in NAME's include/ (installed as they lie there), its src/ kept
# private, the modules it builds on (LINKS, public), the project's warnings
# and the private layer. Every module is declared through this one place,
# so they build and install alike.
#
# Symbols are hidden but for the declarations the public headers mark
# CAIRN_<NAME>_API (cairn/export.h), so a shared library exports the API
# and nothing else; it carries the project's version, and its major
# version (major.minor while the major is 0) in its SONAME.
function(cairn_module name)
  cmake_parse_arguments(M "" "" "SOURCES;LINKS" ${ARGN})
  set(lib cairn_${name})
  add_library(${lib} ${M_SOURCES})
  add_library(cairn::${name} ALIAS ${lib})
  target_include_directories(${lib}
    PUBLIC $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>
           $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>
    PRIVATE src)
  target_link_libraries(${lib} PUBLIC ${M_LINKS}
    PRIVATE $<BUILD_INTERFACE:cairn_warnings> $<BUILD_INTERFACE:cairn_private>)
  # Bit-identical results on every platform (docs/design.md): no fused
  # multiply-add, which GCC and Clang would otherwise form where the target
  # has one (aarch64, x86-64 with FMA) and not elsewhere.
  if(CMAKE_C_COMPILER_ID MATCHES "GNU|Clang")
    target_compile_options(${lib} PRIVATE -ffp-contract=off)
  endif()
  string(TOUPPER ${name} upper)
  target_compile_definitions(${lib} PRIVATE CAIRN_BUILDING_${upper}
    $<$<BOOL:${BUILD_SHARED_LIBS}>:CAIRN_SHARED_BUILD>)
  if(PROJECT_VERSION_MAJOR EQUAL 0)
    set(soversion ${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR})
  else()
    set(soversion ${PROJECT_VERSION_MAJOR})
  endif()
  set_target_properties(${lib} PROPERTIES
    EXPORT_NAME ${name}
    C_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON
    VERSION ${PROJECT_VERSION}
    SOVERSION ${soversion})
  install(TARGETS ${lib} EXPORT cairnTargets
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
    RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  install(DIRECTORY include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
          FILES_MATCHING PATTERN "*.h")
endfunction()
