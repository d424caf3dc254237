// PNG output through stb_image_write, written atomically (temporary file, then rename).
#pragma once

#include <throng/result.h>

#include <cstdint>
#include <string>
#include <vector>

namespace throng::gpu {

// Writes `bytes` to PATH.tmp-<pid>, then renames it over PATH: PATH is replaced whole or not at all.
Status writeFileAtomically(const std::string& path, const void* bytes, size_t size);

// rgba: width * height * 4 bytes, top row first.
Status writePng(const std::string& path, const std::vector<uint8_t>& rgba, uint32_t width, uint32_t height);

} // namespace throng::gpu
