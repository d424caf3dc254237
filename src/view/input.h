// Mouse and keys for the camera, read once a frame after the overlay's new frame began (Dear ImGui
// says whether it wants the mouse or the keyboard; then they are its alone): left or right drag
// orbits, middle drag pans, the wheel zooms, W/A/S/D/Q/E fly (shift: faster), F frames the crowd,
// C switches orbit and fly.
#pragma once

#include "camera.h"

struct GLFWwindow;

namespace throng::view {

// Moves `camera` by what was pressed over the last `seconds`; `crowd` and `aspect` for F. Returns
// true when the console key (backtick) went down.
bool handleInput(GLFWwindow* window, float seconds, Camera& camera, const Bounds& crowd, float aspect);

} // namespace throng::view
