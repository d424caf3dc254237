// Mouse and keys for the camera, read once a frame after the overlay's new frame began (Dear ImGui
// says whether it wants the mouse or the keyboard; then they are its alone): left or right drag
// orbits, middle drag pans, the wheel zooms, W/A/S/D/Q/E fly (shift: faster), F frames the crowd,
// C switches orbit and fly, H hides or shows the overlay's panel.
#pragma once

#include "camera.h"

struct GLFWwindow;

namespace throng::view {

// Keys that act outside the camera, as they went down this frame.
struct InputActions {
    bool console = false; // backtick: open or close the console
    bool overlay = false; // H: hide or show the panel
};

// Moves `camera` by what was pressed over the last `seconds`; `crowd` and `aspect` for F.
InputActions handleInput(GLFWwindow* window, float seconds, Camera& camera, const Bounds& crowd, float aspect);

} // namespace throng::view
