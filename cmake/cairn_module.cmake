# cairn_module(NAME SOURCES file... [LINKS target...]): one of cairn's
# libraries, cairn_NAME (alias cairn::NAME): its sources, its public
# headers in NAME's include/ (installed as they lie there), its src/ kept
# private, the modules it builds on (LINKS, public), the project's warnings
# and the private layer. Every module is declared through this one place,
# so they build and install alike.
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
  set_target_properties(${lib} PROPERTIES EXPORT_NAME ${name})
  install(TARGETS ${lib} EXPORT cairnTargets
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
    RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  install(DIRECTORY include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
          FILES_MATCHING PATTERN "*.h")
endfunction()
