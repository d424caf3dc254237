// Parsing of the viewer's console commands; see console.h.
#include "console.h"

#include <throng/camera.h>

#include "../render/crowd_renderer.h"

#include <throng/technique.h>

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace throng::view {

namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
    return s;
}

std::vector<std::string> words(std::string_view line) {
    std::vector<std::string> out;
    size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
        const size_t start = i;
        while (i < line.size() && !std::isspace(static_cast<unsigned char>(line[i]))) ++i;
        if (i > start) out.emplace_back(line.substr(start, i - start));
    }
    return out;
}

// A whole-word finite number, or false.
bool toNumber(const std::string& text, double& value) {
    char* end = nullptr;
    value = std::strtod(text.c_str(), &end);
    return end != text.c_str() && *end == '\0' && std::isfinite(value);
}

struct Spec {
    const char* name;
    CommandKind kind;
    const char* usage; // argument, or "" for none
    const char* help;  // "{}" stands for the techniques that have `ability`, the last two joined by `last`
    bool TechniqueInfo::*ability = nullptr;
    const char* last = " and ";
};

constexpr Spec kSpecs[] = {
    {"help", CommandKind::Help, "", "list the commands"},
    {"technique", CommandKind::Technique, "NAME", "switch technique"},
    {"instances", CommandKind::Instances, "N", "crowd size (1 to 10,000,000)"},
    {"clip", CommandKind::Clip, "NAME|INDEX|mixed", "every member plays one clip, or the mixed crowd again"},
    {"speed", CommandKind::Speed, "X", "playback rate, 0 (paused) to 100"},
    {"precision", CommandKind::Precision, "float|half", "texel precision of {} and of the baked animation",
     &TechniqueInfo::texel_precision},
    {"vsync", CommandKind::Vsync, "on|off", "FIFO presentation, or mailbox/immediate"},
    {"cull", CommandKind::Cull, "on|off", "frustum culling on the GPU"},
    {"lod", CommandKind::Lod, "on|off", "level of detail chosen on the GPU by size on screen"},
    {"occlusion", CommandKind::Occlusion, "on|off", "with cull: members hidden behind others are not drawn"},
    {"lod-error", CommandKind::LodError, "PX", "the largest error a coarser LOD may make on screen, 0 to 10000 pixels"},
    {"splats", CommandKind::Splats, "PX",
     "members fewer pixels across drawn by the compute rasterizer as splats of their coverage and colour, 0 (none) "
     "to 8"},
    {"view", CommandKind::View, "overview|street", "the whole crowd, or standing at its edge looking across it"},
    {"simulate", CommandKind::Simulate, "on|off", "members move on the GPU ({})", &TechniqueInfo::members_on_gpu, ", "},
    {"impostors", CommandKind::Impostors, "PX",
     "members fewer pixels tall drawn as animated impostors, 0 (none) to 10000"},
    {"raster", CommandKind::Raster, "hardware|compute|auto",
     "who rasterizes the crowd: compute needs {} and 64-bit atomics", &TechniqueInfo::compute_raster, " or "},
    {"shadows", CommandKind::Shadows, "on|off|SIZE",
     "shadows of the crowd on itself and a ground: on (2048 texels a side), off, or 16 to 16384"},
    {"aa", CommandKind::Aa, "taa|off",
     "temporal anti-aliasing: frames drawn through sub-pixel jitters, blended along the motion vectors"},
    {"skinning", CommandKind::Skinning, "linear|dual-quaternion",
     "how {} blend a vertex's joints: matrices, or dual quaternions (no collapse where one twists)",
     &TechniqueInfo::dual_quaternion},
    {"light", CommandKind::Light, "AZ,EL",
     "where the sun stands, degrees: azimuth about +y (0: from +z), elevation 5 to 90"},
    {"events", CommandKind::Events, "",
     "the animation events (bake --events) the members reached in the last second, by name"},
    {"overlay", CommandKind::Overlay, "on|off", "show or hide the panel (key H); the console stays as it is"},
    {"size", CommandKind::Size, "WxH", "resize the window"},
    {"screenshot", CommandKind::Screenshot, "FILE.png", "write the next frame, overlay included"},
    {"stats", CommandKind::Stats, "", "print technique, crowd, frame times, GPU passes and CPU stages"},
    {"models", CommandKind::Models, "", "list the crowd's models, each with its members and their share"},
    {"camera", CommandKind::Camera, "[EYE:TARGET[:FOV]]",
     "print where the camera stands, or place it: points x,y,z, field of view in degrees (render --camera)"},
    {"wait", CommandKind::Wait, "N", "scripts: let N frames pass before the next command"},
    {"quit", CommandKind::Quit, "", "close the viewer"},
};

std::string commandList() {
    std::string names;
    for (const Spec& s : kSpecs) names += (names.empty() ? "" : ", ") + std::string(s.name);
    return names;
}

} // namespace

std::vector<std::string> commandHelp() {
    std::vector<std::string> lines;
    for (const Spec& s : kSpecs) {
        std::string head = std::string(s.name) + (*s.usage ? " " : "") + s.usage;
        head.resize(std::max<size_t>(head.size() + 1, 28), ' '); // a space at least before a long usage's help
        std::string help = s.help;
        if (const size_t at = help.find("{}"); s.ability != nullptr && at != std::string::npos)
            help.replace(at, 2, techniquesWith(s.ability, s.last));
        lines.push_back(head + help);
    }
    return lines;
}

std::vector<std::string> splitScript(std::string_view script) {
    std::vector<std::string> out;
    size_t start = 0;
    while (start <= script.size()) {
        const size_t end = std::min(script.find(';', start), script.size());
        const std::string_view item = trim(script.substr(start, end - start));
        if (!item.empty()) out.emplace_back(item);
        start = end + 1;
    }
    return out;
}

Result<Command> parseCommand(std::string_view line, const std::vector<std::string_view>& techniques) {
    const std::vector<std::string> w = words(line);
    if (w.empty()) return Error{"empty command (type help)"};
    const Spec* spec = nullptr;
    for (const Spec& s : kSpecs)
        if (w[0] == s.name) spec = &s;
    if (spec == nullptr) return Error{"unknown command '" + w[0] + "' (commands: " + commandList() + ")"};
    const bool optional = spec->usage[0] == '['; // "[ARG]": with or without it
    const size_t wanted = *spec->usage && !(optional && w.size() == 1) ? 2 : 1;
    const std::string usage = std::string("usage: ") + spec->name + (*spec->usage ? " " : "") + spec->usage;
    if (w.size() != wanted)
        return Error{w.size() < wanted ? usage + " (missing argument)" : usage + " (unexpected '" + w[wanted] + "')"};

    Command c;
    c.kind = spec->kind;
    const std::string arg = wanted == 2 ? w[1] : std::string();
    switch (c.kind) {
    case CommandKind::Technique: {
        std::string names;
        for (std::string_view t : techniques) {
            if (t == arg) {
                c.text = arg;
                return c;
            }
            names += (names.empty() ? "" : ", ") + std::string(t);
        }
        return Error{"unknown technique '" + arg + "' (available: " + names + ")"};
    }
    case CommandKind::Instances:
    case CommandKind::Wait: {
        const double hi = c.kind == CommandKind::Instances ? double(kMaxInstances) : 1e6;
        const double lo = c.kind == CommandKind::Instances ? 1.0 : 0.0;
        if (!toNumber(arg, c.number) || c.number != std::floor(c.number) || c.number < lo || c.number > hi)
            return Error{usage + ": '" + arg + "' is not a whole number from " + std::to_string(int64_t(lo)) + " to " +
                         std::to_string(int64_t(hi))};
        return c;
    }
    case CommandKind::Speed:
        if (!toNumber(arg, c.number) || c.number < 0.0 || c.number > 100.0)
            return Error{usage + ": '" + arg + "' is not a number from 0 to 100"};
        return c;
    case CommandKind::Precision:
        if (arg != "float" && arg != "half") return Error{usage + ": '" + arg + "' is neither float nor half"};
        c.text = arg;
        return c;
    case CommandKind::Vsync:
    case CommandKind::Cull:
    case CommandKind::Lod:
    case CommandKind::Occlusion:
    case CommandKind::Simulate:
    case CommandKind::Overlay:
        if (arg != "on" && arg != "off") return Error{usage + ": '" + arg + "' is neither on nor off"};
        c.on = arg == "on";
        return c;
    case CommandKind::LodError:
    case CommandKind::Impostors:
        if (!toNumber(arg, c.number) || c.number < 0.0 || c.number > 10000.0)
            return Error{usage + ": '" + arg + "' is not a number from 0 to 10000"};
        return c;
    case CommandKind::Splats:
        if (!toNumber(arg, c.number) || c.number < 0.0 || c.number > double(CullSettings::kMaxSplatPx))
            return Error{usage + ": '" + arg + "' is not a number from 0 to 8"};
        return c;
    case CommandKind::Shadows:
        if (arg == "on" || arg == "off") {
            c.number = arg == "on" ? kDefaultShadowMapSize : 0.0;
            return c;
        }
        if (arg.find_first_not_of("0123456789") != std::string::npos || !toNumber(arg, c.number) || c.number < 16.0 ||
            c.number > 16384.0)
            return Error{usage + ": '" + arg + "' is not on, off or texels from 16 to 16384"};
        return c;
    case CommandKind::Aa:
        if (arg != "taa" && arg != "off") return Error{usage + ": '" + arg + "' is neither taa nor off"};
        c.on = arg == "taa";
        return c;
    case CommandKind::Light: {
        if (!render::parseSunAngles(arg, c.azimuth, c.elevation))
            return Error{usage + ": '" + arg + "' is not AZIMUTH,ELEVATION in degrees (elevation 5 to 90)"};
        return c;
    }
    case CommandKind::Skinning:
        if (arg != "linear" && arg != "dual-quaternion")
            return Error{usage + ": '" + arg + "' is neither linear nor dual-quaternion"};
        c.text = arg;
        return c;
    case CommandKind::Raster:
        if (arg != "hardware" && arg != "compute" && arg != "auto")
            return Error{usage + ": '" + arg + "' is not hardware, compute or auto"};
        c.text = arg;
        return c;
    case CommandKind::View:
        if (arg != "overview" && arg != "street")
            return Error{usage + ": '" + arg + "' is neither overview nor street"};
        c.text = arg;
        return c;
    case CommandKind::Size: {
        unsigned sx = 0, sy = 0;
        char tail = 0;
        if (std::sscanf(arg.c_str(), "%ux%u%c", &sx, &sy, &tail) != 2 || sx < 16 || sy < 16 || sx > 16384 || sy > 16384)
            return Error{usage + ": '" + arg + "' is not WxH with each side 16 to 16384"};
        c.width = sx;
        c.height = sy;
        return c;
    }
    case CommandKind::Screenshot:
        if (arg.size() < 5 || arg.compare(arg.size() - 4, 4, ".png") != 0)
            return Error{usage + ": '" + arg + "' does not end in .png"};
        c.text = arg;
        return c;
    case CommandKind::Clip: c.text = arg; return c;
    case CommandKind::Camera:
        if (!arg.empty()) {
            Result<throng::Camera> camera = parseCamera(arg);
            if (!camera) return Error{usage + ": " + camera.error().message};
            c.camera = camera.value();
        }
        return c;
    case CommandKind::Help:
    case CommandKind::Stats:
    case CommandKind::Models:
    case CommandKind::Events:
    case CommandKind::Quit: return c;
    }
    return c;
}

} // namespace throng::view
