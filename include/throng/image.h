// throng/image.h — pictures out: PNG files of what a renderer drew.
#pragma once

#include <throng/api.h>
#include <throng/result.h>

#include <cstdint>
#include <string>
#include <vector>

THRONG_API_BEGIN
namespace throng {

// Writes `rgba` (width * height * 4 bytes, top row first, sRGB) as a PNG, atomically: a
// temporary file renamed over `path`, which may be nothing or a regular file (never a directory
// or a special file). Errors: a size that does not match, a path that cannot be written.
Status writePng(const std::string& path, const std::vector<uint8_t>& rgba, uint32_t width, uint32_t height);

} // namespace throng
THRONG_API_END
