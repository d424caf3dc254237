// A picture of motion vectors; see throng/headless.h.
#include <throng/headless.h>

#include <algorithm>
#include <cmath>

namespace throng {

std::vector<uint8_t> velocityPicture(std::span<const glm::vec2> velocity, float& scale) {
    if (!(scale > 0.0f) || !std::isfinite(scale)) {
        std::vector<float> lengths;
        for (const glm::vec2& v : velocity)
            if (const float l = glm::length(v); l > 0.0f && std::isfinite(l)) lengths.push_back(l);
        scale = 1.0f;
        if (!lengths.empty()) {
            const size_t at = std::min(lengths.size() - 1, size_t(0.99 * double(lengths.size())));
            std::nth_element(lengths.begin(), lengths.begin() + ptrdiff_t(at), lengths.end());
            scale = std::max(lengths[at], 1.0f);
        }
    }
    std::vector<uint8_t> rgba(velocity.size() * 4, 0);
    for (size_t i = 0; i < velocity.size(); ++i) {
        const glm::vec2 v = velocity[i];
        const float length = glm::length(v);
        rgba[i * 4 + 3] = 255;
        if (!(length > 0.0f) || !std::isfinite(length)) continue;
        const float value = std::min(length / scale, 1.0f);
        // Hue from the angle, six sectors of the colour wheel (full saturation).
        float hue = std::atan2(v.y, v.x) / (2.0f * 3.14159265f);
        if (hue < 0.0f) hue += 1.0f;
        const float h = hue * 6.0f, f = h - std::floor(h);
        const int sector = int(h) % 6;
        const float rise = f, fall = 1.0f - f;
        const float rgb[6][3] = {{1, rise, 0}, {fall, 1, 0}, {0, 1, rise}, {0, fall, 1}, {rise, 0, 1}, {1, 0, fall}};
        for (int c = 0; c < 3; ++c) rgba[i * 4 + size_t(c)] = uint8_t(std::lround(255.0f * value * rgb[sector][c]));
    }
    return rgba;
}

} // namespace throng
