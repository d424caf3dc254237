#!/usr/bin/env bash
# Installs the Debian packages throng needs, only those missing, non-interactively.
# Run as root on Debian 12 (`make deps` calls it; sudo is used when not root and available).
set -euo pipefail

# One line per package, with what needs it.
packages=(
  build-essential   # g++ 12, make
  cmake             # >= 3.25 (Debian 12 has 3.25.1)
  ninja-build       # the builds make configures (the Makefile's GEN)
  pkg-config
  libglm-dev        # math
  libtinygltf-dev   # glTF 2.0 import
  nlohmann-json3-dev  # tinygltf's JSON and `throng info --json`
  libstb-dev        # image headers used with tinygltf
  libassimp-dev     # FBX, Collada and other formats
  libcli11-dev      # the command line
  libzstd-dev       # .throng section compression
  libtinyexr-dev    # EXR images of `throng bake --export`
  libtbb-dev        # oneTBB: CPU pose sampling and skinning on all cores
  libmeshoptimizer-dev  # LOD chains (meshopt_simplify) in throng bake
  libvulkan-dev     # Vulkan 1.3 headers and loader
  glslc             # GLSL -> SPIR-V at build time
  mesa-vulkan-drivers     # lavapipe: Vulkan on the CPU where there is no GPU
  vulkan-validationlayers # validation in every GPU test and with --validate
  libglfw3-dev      # the viewer's window (throng view)
  libimgui-dev      # the viewer's overlay (Dear ImGui 1.86, Vulkan + GLFW backends)
  xvfb              # viewer tests on machines without a display (xvfb-run)
  godot3            # examples/godot-crowd and its test (Godot 3 playing throng's export)
  xauth             # xvfb-run needs it (only recommended by xvfb, and we install without recommends)
  python3-matplotlib  # tools/plot_bench.py (make bench)
  libbenchmark-dev  # Google Benchmark (bench/)
  libgtest-dev      # tests
  googletest
  clang             # the sanitizer build and the libFuzzer targets (make test, make fuzz): clang 14
  libclang-rt-14-dev  # libFuzzer and the sanitizer runtimes for clang 14
  clang-format      # make format, and the format check in make test (clang-format 14)
  g++-aarch64-linux-gnu  # make test-aarch64: the CPU runtime built for 64-bit ARM
  qemu-user         # ... and its tests run under emulation
  libtbb-dev:arm64  # ... with Debian's arm64 libraries beside the native ones (multiarch)
  libgtest-dev:arm64
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "deps: all ${#packages[@]} packages present"
  exit 0
fi
echo "deps: installing ${missing[*]}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "deps: need root (or sudo) to install: ${missing[*]}" >&2; exit 1; }
  sudo=sudo
fi
export DEBIAN_FRONTEND=noninteractive
# Packages named for another architecture (arm64) need it added to dpkg before apt's update.
for p in "${missing[@]}"; do
  case "$p" in
  *:*) arch=${p##*:}
    dpkg --print-foreign-architectures | grep -qx "$arch" || $sudo dpkg --add-architecture "$arch" ;;
  esac
done
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
