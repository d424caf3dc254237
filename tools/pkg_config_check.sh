#!/usr/bin/env bash
# `make test`'s pkg-config check (Makefile: test-install). The installed package is copied to
# another folder (the .pc files find their prefix from their own folder), then three consumers
# are built with `pkg-config --cflags --libs` alone and run: examples/pkg_config (throng.pc, the
# runtime) on a walker baked by the installed CLI, examples/cpu_animation (throng-offline.pc) on
# MODEL, and examples/embed_vulkan (throng-render.pc) builds. A shared build's package: they run
# with the moved libraries on LD_LIBRARY_PATH and must load them.
#   tools/pkg_config_check.sh PREFIX WORK MODEL
set -euo pipefail
prefix=$1 work=$(realpath -m "$2") model=$3
rm -rf "$work"
mkdir -p "$work"
cp -r "$prefix" "$work/moved"
libdir=$(cd "$work/moved" && ls -d lib*/pkgconfig | head -1)
export PKG_CONFIG_PATH="$work/moved/$libdir"
export LD_LIBRARY_PATH="$work/moved/$(dirname "$libdir")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
shared=$(ls "$work/moved/$(dirname "$libdir")"/libthrong.so 2>/dev/null || true)
build() { # source, package, output
  # shellcheck disable=SC2046 # pkg-config's flags are meant to split
  c++ -std=c++20 -O1 "$1" $(pkg-config --cflags --libs "$2") -o "$work/$3" ||
    { echo "pkg-config: $1 does not build with $2.pc alone" >&2; exit 1; }
}
build examples/pkg_config/read_throng.cpp throng read_throng
build examples/cpu_animation/main.cpp throng-offline cpu_animation
build examples/embed_vulkan/main.cpp throng-render embed_vulkan
"$work/moved/bin/throng" bake builtin:walker -o "$work/walker.throng" >/dev/null 2>&1
"$work/read_throng" "$work/walker.throng" >"$work/read.log"
grep -q 'clips' "$work/read.log" || { cat "$work/read.log"; exit 1; }
"$work/cpu_animation" "$model" >"$work/cpu.log"
if ldd "$work/read_throng" | grep -qiE 'assimp|vulkan'; then
  echo "pkg-config: read_throng (throng.pc) must link neither assimp nor Vulkan" >&2
  exit 1
fi
if [ -n "$shared" ]; then
  for consumer in read_throng cpu_animation embed_vulkan; do
    ldd "$work/$consumer" | grep -q "libthrong.so.0.1 => $work/moved" ||
      { echo "pkg-config: $consumer does not load the moved libthrong.so.0.1" >&2; exit 1; }
  done
fi
echo "install: pkg-config alone built examples/pkg_config, cpu_animation and embed_vulkan against the package moved to another folder${shared:+ (shared libraries)}; $(head -1 "$work/read.log")"
