// The time ruler; see time_ruler.h.
#include "time_ruler.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>

namespace throng::view {

std::vector<GpuPassTime> gpuPassTimes(std::span<const uint64_t> ticks, std::span<const std::string> names,
                                      double ms_per_tick) {
    std::vector<GpuPassTime> passes;
    for (size_t i = 0; i < names.size() && i + 1 < ticks.size(); ++i)
        passes.push_back(
            {names[i], double(ticks[i] - ticks[0]) * ms_per_tick, double(ticks[i + 1] - ticks[i]) * ms_per_tick});
    return passes;
}

double FrameCosts::gpuMs(const std::string& pass) const {
    for (const GpuPassTime& p : gpu_passes)
        if (p.name == pass) return p.length_ms;
    return 0.0;
}

namespace {

// A colour per pass a frame may have; others grey.
uint32_t passColor(const std::string& name) {
    if (name == "simulate") return IM_COL32(90, 200, 120, 255);
    if (name == "cull") return IM_COL32(80, 200, 230, 255);
    if (name == "upload") return IM_COL32(230, 210, 70, 255);
    if (name == "draw") return IM_COL32(230, 80, 80, 255);
    if (name == "overlay") return IM_COL32(170, 120, 220, 255);
    return IM_COL32(160, 160, 160, 255);
}

} // namespace

std::vector<RulerBar> rulerBars(const FrameCosts& c) {
    std::vector<RulerBar> bars;
    double t = 0.0;
    auto cpu = [&](std::string name, double ms, uint32_t color) {
        bars.push_back({std::move(name), 0, t, std::max(ms, 0.0), color});
        t += std::max(ms, 0.0);
    };
    cpu("wait", c.cpu_wait_ms, IM_COL32(110, 110, 110, 255));
    cpu("sample", c.cpu_sample_ms, IM_COL32(80, 170, 240, 255));
    cpu("skin", c.cpu_skin_ms, IM_COL32(240, 150, 60, 255));
    cpu("upload", c.cpu_upload_ms, IM_COL32(230, 210, 70, 255));
    cpu("ui", c.cpu_ui_ms, IM_COL32(170, 120, 220, 255));
    cpu("record", c.cpu_record_ms, IM_COL32(120, 200, 120, 255));
    for (const GpuPassTime& p : c.gpu_passes) bars.push_back({p.name, 1, p.start_ms, p.length_ms, passColor(p.name)});
    return bars;
}

void drawTimeRuler(const std::vector<RulerBar>& bars, double target_ms, float width) {
    double end = target_ms;
    for (const RulerBar& b : bars) end = std::max(end, b.start_ms + b.length_ms);
    const float label = 34.0f, lane_height = 18.0f, axis = 14.0f;
    const float span = std::max(width - label, 10.0f);
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const double scale = span / std::max(end, 1e-3);
    const char* lanes[] = {"CPU", "GPU"};
    for (int lane = 0; lane < 2; ++lane) {
        const float y = origin.y + lane * (lane_height + 2.0f);
        draw->AddText(ImVec2(origin.x, y + 2.0f), IM_COL32(220, 220, 220, 255), lanes[lane]);
        draw->AddRectFilled(ImVec2(origin.x + label, y), ImVec2(origin.x + label + span, y + lane_height),
                            IM_COL32(40, 40, 40, 200));
    }
    for (const RulerBar& b : bars) {
        if (b.length_ms <= 0.0) continue;
        const float y = origin.y + b.lane * (lane_height + 2.0f);
        const float x0 = origin.x + label + float(b.start_ms * scale);
        const float x1 = std::max(x0 + 1.0f, origin.x + label + float((b.start_ms + b.length_ms) * scale));
        draw->AddRectFilled(ImVec2(x0, y + 1.0f), ImVec2(x1, y + lane_height - 1.0f), b.color);
        if (x1 - x0 > ImGui::CalcTextSize(b.name.c_str()).x + 4.0f)
            draw->AddText(ImVec2(x0 + 2.0f, y + 2.0f), IM_COL32(0, 0, 0, 255), b.name.c_str());
        if (ImGui::IsMouseHoveringRect(ImVec2(x0, y), ImVec2(x1, y + lane_height)))
            ImGui::SetTooltip("%s %s: %.3f ms (from %.3f ms)", b.lane == 0 ? "CPU" : "GPU", b.name.c_str(), b.length_ms,
                              b.start_ms);
    }
    const float bottom = origin.y + 2.0f * (lane_height + 2.0f);
    const float tx = origin.x + label + float(target_ms * scale);
    draw->AddLine(ImVec2(tx, origin.y - 2.0f), ImVec2(tx, bottom), IM_COL32(255, 255, 255, 255), 2.0f);
    char text[48];
    std::snprintf(text, sizeof text, "%.1f ms target", target_ms);
    draw->AddText(ImVec2(std::min(tx + 3.0f, origin.x + width - ImGui::CalcTextSize(text).x), bottom),
                  IM_COL32(255, 255, 255, 255), text);
    if (tx - (origin.x + label) > 40.0f)
        draw->AddText(ImVec2(origin.x + label, bottom), IM_COL32(160, 160, 160, 255), "0");
    if (end > target_ms * 1.2) { // the axis runs past the target: say how far
        std::snprintf(text, sizeof text, "%.1f ms", end);
        draw->AddText(ImVec2(origin.x + width - ImGui::CalcTextSize(text).x, origin.y - 14.0f),
                      IM_COL32(160, 160, 160, 255), text);
    }
    ImGui::Dummy(ImVec2(width, 2.0f * (lane_height + 2.0f) + axis + 2.0f));
}

} // namespace throng::view
