// The console commands carried out; see commands.h.
#include "commands.h"

#include <algorithm>

#include <cstdio>

namespace throng::view {

// "models: builtin:walker 750 members (75.0%), builtin:fish 250 (25.0%)": the crowd's models in
// order, each with the members dealt it.
std::string Commands::modelsLine() const {
    const std::vector<Scene>& scenes = crowd_.scenes();
    std::vector<size_t> members(scenes.size(), 0);
    for (const gpu::shader::InstanceRecord& r : crowd_.crowd().instances)
        ++members[std::min<size_t>(gpu::shader::throngAssetOf(r.clips), members.size() - 1)];
    const size_t total = std::max<size_t>(crowd_.crowd().instances.size(), 1);
    std::string line = "models:";
    for (size_t m = 0; m < scenes.size(); ++m) {
        char share[32];
        std::snprintf(share, sizeof share, " (%.1f%%)", 100.0 * double(members[m]) / double(total));
        line += (m == 0 ? " " : ", ") + scenes[m].source + " " + std::to_string(members[m]) +
                (m == 0 ? " members" : "") + share;
    }
    return line;
}

Commands::Commands(LiveCrowd& crowd, CommandHost& host, std::string_view script) : crowd_(crowd), host_(host) {
    for (const std::string& line : splitScript(script)) script_.push_back(line);
}

bool Commands::execute(const std::string& line) {
    host_.log("> " + line);
    Result<Command> parsed = parseCommand(line, render::techniqueNames());
    if (!parsed) {
        host_.log("error: " + parsed.error().message);
        return false;
    }
    return apply(parsed.value());
}

void Commands::runPending(bool screenshot_waiting) {
    for (const std::string& line : typed_)
        if (!line.empty()) execute(line);
    typed_.clear();
    if (wait_frames_ > 0) {
        --wait_frames_;
        return;
    }
    if (script_.empty() || screenshot_waiting) return;
    const std::string line = script_.front();
    script_.pop_front();
    if (!execute(line)) failed_ = true;
}

bool Commands::change(const CrowdState& want, bool reframe) {
    if (host_.applyState(want, reframe)) return true;
    host_.log("error: " + crowd_.lastError() + " (nothing changed)");
    return false;
}

bool Commands::apply(const Command& c) {
    CrowdState want = crowd_.state();
    switch (c.kind) {
    case CommandKind::Help:
        for (const std::string& h : commandHelp()) host_.log("  " + h);
        return true;
    case CommandKind::Technique:
        want.technique = c.text;
        if (!change(want, false)) return false;
        host_.log("technique: " + crowd_.techniqueName());
        return true;
    case CommandKind::Instances:
        want.instances = uint32_t(c.number);
        if (!change(want, true)) return false;
        host_.log("instances: " + std::to_string(want.instances));
        return true;
    case CommandKind::Clip: return changeClip(c.text);
    case CommandKind::Precision: return changePrecision(c.text);
    case CommandKind::Speed:
        host_.setSpeed(float(c.number));
        host_.log("speed: " + std::to_string(float(c.number)));
        return true;
    case CommandKind::Vsync: {
        const char* mode = host_.setVsync(c.on);
        host_.log(std::string("vsync ") + (c.on ? "on" : "off") + ": present mode " + mode);
        return true;
    }
    case CommandKind::Cull:
    case CommandKind::Lod:
    case CommandKind::Occlusion:
    case CommandKind::LodError:
    case CommandKind::Splats: { // the next frames' culling: nothing is rebuilt
        CullSettings cull = crowd_.cull();
        const std::string on = c.on ? "on" : "off";
        std::string done;
        if (c.kind == CommandKind::Cull) {
            cull.cull = c.on;
            done = "cull: " + on;
        } else if (c.kind == CommandKind::Lod) {
            cull.lod = c.on;
            done = "lod: " + on;
        } else if (c.kind == CommandKind::Occlusion) {
            cull.occlusion = c.on;
            done = "occlusion: " + on;
        } else if (c.kind == CommandKind::Splats) {
            cull.splat_px = float(c.number);
            done = "splats: " + std::to_string(float(c.number)) + " px" +
                   (crowd_.state().raster == Raster::Hardware ? " (the hardware rasterizer draws none)" : "");
        } else {
            cull.lod_error_px = float(c.number);
            done = "lod-error: " + std::to_string(float(c.number)) + " px";
        }
        crowd_.setCull(cull);
        host_.log(done);
        return true;
    }
    case CommandKind::Simulate:
        want.simulate = c.on;
        if (!change(want, false)) return false;
        host_.log(std::string("simulate: ") + (c.on ? "on" : "off"));
        return true;
    case CommandKind::Raster: {
        parseRaster(c.text, want.raster); // the parser admits only the three names
        if (std::string why = crowd_.rasterProblem(want.raster); !why.empty()) {
            host_.log("error: raster " + c.text + ": " + why);
            return false;
        }
        if (!change(want, false)) return false;
        host_.log("raster: " + c.text);
        return true;
    }
    case CommandKind::Impostors: {
        want.impostor_px = float(c.number);
        if (std::string why = want.impostor_px > 0.0f ? crowd_.impostorProblem() : ""; !why.empty()) {
            if (!render::impostorProblem(crowd_.asset().baked()).empty())
                why += ": start the viewer with --impostors PX to bake them";
            host_.log("error: impostors: " + why);
            return false;
        }
        if (!change(want, false)) return false;
        host_.log("impostors: under " + std::to_string(float(c.number)) + " px");
        return true;
    }
    case CommandKind::Shadows: {
        want.shadows = uint32_t(c.number);
        if (!change(want, false)) return false;
        const std::string side = std::to_string(want.shadows);
        host_.log(want.shadows == 0 ? std::string("shadows: off")
                                    : "shadows: on, a " + side + " x " + side + " shadow map");
        return true;
    }
    case CommandKind::Aa:
        want.taa = c.on;
        if (!change(want, false)) return false;
        host_.log(std::string("aa: ") + (c.on ? "taa" : "off"));
        return true;
    case CommandKind::Skinning: {
        parseSkinning(c.text, want.skinning); // the parser admits only the two names
        if (!change(want, false)) return false;
        host_.log("skinning: " + c.text + " (technique " + crowd_.techniqueName() + ")");
        return true;
    }
    case CommandKind::Light: {
        host_.setLight(c.azimuth, c.elevation);
        char line[96];
        std::snprintf(line, sizeof line, "light: azimuth %.1f, elevation %.1f degrees", c.azimuth, c.elevation);
        host_.log(line);
        return true;
    }
    case CommandKind::View: {
        render::ViewKind view = render::ViewKind::Overview;
        parseViewKind(c.text, view);
        host_.setView(view);
        host_.log("view: " + c.text);
        return true;
    }
    case CommandKind::Overlay:
        host_.setOverlay(c.on);
        host_.log(std::string("overlay: ") + (c.on ? "on" : "off"));
        return true;
    case CommandKind::Size:
        host_.resizeWindow(c.width, c.height);
        host_.log("size: asked for " + std::to_string(c.width) + "x" + std::to_string(c.height));
        return true;
    case CommandKind::Screenshot:
        if (host_.screenshot(c.text)) return true;
        host_.log("error: this window's swapchain images cannot be copied (no TRANSFER_SRC usage, or not 8-bit RGBA)");
        return false;
    case CommandKind::Stats: host_.log(host_.statsLine()); return true;
    case CommandKind::Models: host_.log(modelsLine()); return true;
    case CommandKind::Camera:
        if (c.camera) host_.setCamera(*c.camera);
        host_.log("camera: " + host_.cameraText());
        return true;
    case CommandKind::Events: {
        const double now = crowd_.clock();
        const auto counts = crowd_.eventCounts(now - 1.0, now);
        std::string line = "events in the last second:";
        for (const auto& [name, n] : counts) line += " " + name + " " + std::to_string(n);
        if (counts.empty()) {
            const BakedAsset& a = crowd_.asset().baked();
            const bool any =
                std::any_of(a.clips.begin(), a.clips.end(), [](const BakedClip& k) { return !k.events.empty(); });
            line += !any ? " none (the asset has no events: bake --events auto)"
                    : crowd_.state().simulate && crowd_.state().instances > LiveCrowd::kMaxMirroredMembers
                        ? " not followed for simulated crowds of more than 200,000 members"
                        : " none";
        }
        host_.log(line);
        return true;
    }
    case CommandKind::Wait: wait_frames_ = uint32_t(c.number); return true;
    case CommandKind::Quit: host_.quit(); return true;
    }
    return false;
}

// By name or index, or `mixed`: the seeded mixed crowd.
bool Commands::changeClip(const std::string& name) {
    const std::vector<BakedClip>& clips = crowd_.asset().baked().clips;
    int clip = name == "mixed" ? -1 : -2;
    for (size_t i = 0; i < clips.size() && clip == -2; ++i)
        if (clips[i].name == name || std::to_string(i) == name) clip = int(i);
    if (clip == -2) {
        std::string names;
        for (size_t i = 0; i < clips.size(); ++i) names += (i ? ", " : "") + clips[i].name;
        host_.log("error: no clip '" + name + "' (clips: " + names + "; or an index, or mixed)");
        return false;
    }
    const std::string done = "clip: " + (clip < 0 ? std::string("mixed") : clips[size_t(clip)].name);
    CrowdState want = crowd_.state();
    want.clip = clip;
    if (!change(want, false)) return false;
    host_.log(done);
    return true;
}

// A .throng file keeps the precision it was baked at: only bonetex's texels follow.
bool Commands::changePrecision(const std::string& name) {
    CrowdState want = crowd_.state();
    want.precision = name == "half" ? Precision::Float16 : Precision::Float32;
    const BakedAsset& baked = crowd_.asset().baked();
    const std::string note = crowd_.scene().model || baked.precision == want.precision
                                 ? std::string()
                                 : " (bonetex; the baked animation stays " + std::string(toString(baked.precision)) +
                                       " as stored in " + crowd_.scene().source + ")";
    if (!change(want, false)) return false;
    host_.log("precision: " + name + note);
    return true;
}

} // namespace throng::view
