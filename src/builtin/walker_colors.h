// walker_colors.h — the colours builtin:walker's vertices carry, by body region (walker.cpp),
// which builtin:kit (kit.cpp) reads back to make the regions materials of their own.
#pragma once

#include <glm/glm.hpp>

namespace throng::walker_colors {

constexpr glm::vec4 kSkin{0.60f, 0.36f, 0.24f, 1.0f}; // linear RGBA
constexpr glm::vec4 kShirt{0.45f, 0.08f, 0.06f, 1.0f};
constexpr glm::vec4 kTrousers{0.06f, 0.09f, 0.20f, 1.0f};
constexpr glm::vec4 kShoes{0.03f, 0.025f, 0.02f, 1.0f};
constexpr glm::vec4 kHair{0.04f, 0.025f, 0.015f, 1.0f};
constexpr glm::vec4 kEyes{0.01f, 0.01f, 0.01f, 1.0f};

} // namespace throng::walker_colors
