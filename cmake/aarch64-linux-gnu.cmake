# Cross build for 64-bit ARM on Debian: the compiler from g++-aarch64-linux-gnu, the libraries
# (oneTBB, GoogleTest) as Debian's arm64 packages installed beside the native ones (multiarch:
# /usr/lib/aarch64-linux-gnu), glm's headers shared. Programs run under qemu-user, which CMake
# uses for gtest_discover_tests and ctest (CMAKE_CROSSCOMPILING_EMULATOR). `make test-aarch64`
# uses it with THRONG_CPU_RUNTIME_ONLY (the model, the CPU animation runtime and their tests).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
# The arm64 packages' files lie under /usr (lib/aarch64-linux-gnu, share, include) with the host's:
# /usr is searched as well as the cross root, and CMAKE_LIBRARY_ARCHITECTURE puts the arm64
# folders first (oneTBB's and GoogleTest's packages are found there: build/aarch64's cache shows).
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)
# -L: the cross C library's loader and libc (libc6-arm64-cross) for programs qemu starts.
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64;-L;/usr/aarch64-linux-gnu)
