// Camera input; see input.h.
#include "input.h"

#include <GLFW/glfw3.h>
#include <imgui.h>

namespace throng::view {

InputActions handleInput(GLFWwindow* window, float seconds, Camera& camera, const Bounds& crowd, float aspect) {
    ImGuiIO& io = ImGui::GetIO();
    InputActions actions;
    actions.console = ImGui::IsKeyPressed(GLFW_KEY_GRAVE_ACCENT, false);
    if (!io.WantCaptureMouse) {
        const ImVec2 d = io.MouseDelta;
        if (ImGui::IsMouseDown(ImGuiMouseButton_Left) || ImGui::IsMouseDown(ImGuiMouseButton_Right))
            orbit(camera, -d.x * 0.005f, d.y * 0.005f);
        if (ImGui::IsMouseDown(ImGuiMouseButton_Middle)) pan(camera, -d.x * 0.0015f, d.y * 0.0015f);
        if (io.MouseWheel != 0.0f) zoom(camera, io.MouseWheel);
    }
    if (!io.WantCaptureKeyboard) {
        const float step = seconds * (glfwGetKey(window, GLFW_KEY_LEFT_SHIFT) == GLFW_PRESS ? 2.0f : 0.5f);
        glm::vec3 move(0.0f);
        if (glfwGetKey(window, GLFW_KEY_W) == GLFW_PRESS) move.z += step;
        if (glfwGetKey(window, GLFW_KEY_S) == GLFW_PRESS) move.z -= step;
        if (glfwGetKey(window, GLFW_KEY_D) == GLFW_PRESS) move.x += step;
        if (glfwGetKey(window, GLFW_KEY_A) == GLFW_PRESS) move.x -= step;
        if (glfwGetKey(window, GLFW_KEY_E) == GLFW_PRESS) move.y += step;
        if (glfwGetKey(window, GLFW_KEY_Q) == GLFW_PRESS) move.y -= step;
        if (move != glm::vec3(0.0f)) fly(camera, move);
        if (ImGui::IsKeyPressed(GLFW_KEY_F, false)) camera = frameCrowd(crowd, aspect);
        if (ImGui::IsKeyPressed(GLFW_KEY_C, false))
            setMode(camera, camera.mode == CameraMode::Orbit ? CameraMode::Fly : CameraMode::Orbit);
        actions.overlay = ImGui::IsKeyPressed(GLFW_KEY_H, false);
    }
    return actions;
}

} // namespace throng::view
