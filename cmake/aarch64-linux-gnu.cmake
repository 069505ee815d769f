# Cross-compiling cairn for 64-bit Arm Linux (Debian's gcc-aarch64-linux-gnu);
# ctest runs the programs under qemu-user with the cross libraries.
#   cmake -S . -B build-arm64 --toolchain cmake/aarch64-linux-gnu.cmake
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(cairn_triple aarch64-linux-gnu)
set(CMAKE_C_COMPILER ${cairn_triple}-gcc)
set(CMAKE_CXX_COMPILER ${cairn_triple}-g++)
set(CMAKE_FIND_ROOT_PATH /usr/${cairn_triple})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
# -L: the cross sysroot; -E: its libraries first (without it, threads hang
# once arm64 multiarch libraries are installed beside the native ones).
find_program(cairn_qemu qemu-aarch64)
if(cairn_qemu)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${cairn_qemu} -L /usr/${cairn_triple}
      -E LD_LIBRARY_PATH=/usr/${cairn_triple}/lib)
endif()
