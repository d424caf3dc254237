// PNG output through stb_image_write, written by io::writeFileAtomic (throng/files.h: temporary
// file, then rename; only over nothing or a regular file).
#pragma once

#include <throng/result.h>

#include <cstdint>
#include <string>
#include <vector>

namespace throng::gpu {

// rgba: width * height * 4 bytes, top row first.
Status writePng(const std::string& path, const std::vector<uint8_t>& rgba, uint32_t width, uint32_t height);

} // namespace throng::gpu
