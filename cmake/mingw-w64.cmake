# Cross-compiling cairn for 64-bit Windows with MinGW-w64 (Debian's
# gcc-mingw-w64-x86-64); ctest runs the programs under Wine (wine64).
#   cmake -S . -B build-mingw --toolchain cmake/mingw-w64.cmake
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(cairn_mingw x86_64-w64-mingw32)
set(CMAKE_C_COMPILER ${cairn_mingw}-gcc)
set(CMAKE_CXX_COMPILER ${cairn_mingw}-g++)
set(CMAKE_RC_COMPILER ${cairn_mingw}-windres)
set(CMAKE_FIND_ROOT_PATH /usr/${cairn_mingw})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
# No DLLs to find at run time: the compiler's own runtime goes into every
# program.
set(CMAKE_EXE_LINKER_FLAGS_INIT "-static")
find_program(cairn_wine NAMES wine64 wine PATHS /usr/lib/wine)
if(cairn_wine)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${cairn_wine})
endif()
