// EXR images of RGBA texels through tinyexr (Debian's libtinyexr-dev), in memory.
#pragma once

#include <throng/result.h>

#include <cstdint>
#include <vector>

namespace throng::exporter {

// `width` x `height` RGBA texels, row-major, top row first: `f32` (4 floats a texel) written as
// 32-bit float channels, or `f16` (4 IEEE half bit patterns a texel) as half channels; exactly
// one of them is non-empty. ZIP-compressed, scanlines, channels A, B, G, R (OpenEXR's order).
Result<std::vector<uint8_t>> encodeExr(uint32_t width, uint32_t height, const std::vector<float>& f32,
                                       const std::vector<uint16_t>& f16);

} // namespace throng::exporter
