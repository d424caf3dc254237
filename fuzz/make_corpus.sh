#!/usr/bin/env bash
# fuzz/make_corpus.sh — recreates the generated seeds of fuzz/corpus/ with fuzz/corpus_gen.cpp:
# the baked .throng files (the fish as `throng bake builtin:fish` writes it, the glTF rig of
# tests/gltf_builder.h baked), the glTF/GLB files, the small assimp files and the command lines.
# Builds the generator in build/fuzz (the `make fuzz` build). Keep the corpus small (< 300 KB).
set -euo pipefail
cd "$(dirname "$0")/.."
make -s fuzz-build
cmake --build build/fuzz -j "$(nproc)" --target fuzz_corpus_gen >/dev/null
ASAN_OPTIONS=detect_leaks=1 ./build/fuzz/fuzz/fuzz_corpus_gen fuzz/corpus
du -sh fuzz/corpus
