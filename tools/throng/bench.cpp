// `throng bench`: every technique x every crowd size, headless; medians and p95 of GPU time per
// pass and CPU time per stage after warm-up frames; JSON and CSV reports (plots: tools/plot_bench.py).
#include "commands.h"

#include <throng/files.h>
#include <throng/headless.h>
#include <throng/technique.h>

#include <throng/bake.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <thread>

namespace throng::cli {

namespace {

struct Spread {
    double median = 0.0, p95 = 0.0;
};

Spread spread(std::vector<double> v) {
    if (v.empty()) return {};
    std::sort(v.begin(), v.end());
    const auto at = [&](double q) { return v[std::min(v.size() - 1, size_t(q * double(v.size() - 1) + 0.5))]; };
    return {v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]), at(0.95)};
}

std::string cpuName() {
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
    return "unknown CPU";
}

std::vector<std::string> splitList(const std::string& text) {
    std::vector<std::string> out;
    std::stringstream in(text);
    std::string item;
    while (std::getline(in, item, ','))
        if (!item.empty()) out.push_back(item);
    return out;
}

nlohmann::json spreadJson(const Spread& s) { return {{"median", s.median}, {"p95", s.p95}}; }

// A technique as `--techniques` names it: NAME or NAME@VARIANT, where the variant sets, for that
// series only, one option the technique reads (kVariantOptions).
struct Variant {
    std::string label; // as given: the report's "technique", one series in the charts
    std::string technique;
    JointEncoding encoding = JointEncoding::Matrix;
    Precision bones = Precision::Float32;
    AnimationStorage storage = AnimationStorage::Auto;
    bool dual_quaternion = false;
    bool hardware = false; // --raster hardware for this series (baked@hardware: the gain of the default stays measured)
    bool velocity = false; // motion vectors written (baked@velocity: their cost beside the series without)
    bool taa = false;      // temporal anti-aliasing (baked@taa)
};

// The variants: the values of an option, for the techniques whose descriptor says they read it.
struct VariantOption {
    bool TechniqueInfo::*reads; // null: every technique
    bool readBy(const TechniqueInfo& t) const { return reads == nullptr || t.*reads; }
    const char* option; // what the variant stands for on the command line
    std::vector<std::string> values;
    void (*apply)(Variant& variant, const std::string& value);
};
const VariantOption kVariantOptions[] = {
    // a palette's encoding (palette@quat)
    {&TechniqueInfo::encodes_joints,
     "--encoding",
     {"mat", "quat"},
     [](Variant& v, const std::string& value) { parseJointEncoding(value, v.encoding); }},
    // the joint texels' precision (bonetex@half)
    {&TechniqueInfo::texel_precision,
     "--precision",
     {"float", "half"},
     [](Variant& v, const std::string& value) { v.bones = value == "half" ? Precision::Float16 : Precision::Float32; }},
    // where the baked animation lives (baked@texel-buffer)
    {&TechniqueInfo::animation_storage,
     "--animation",
     {"image", "texel-buffer", "buffer"},
     [](Variant& v, const std::string& value) { parseAnimationStorage(value, v.storage); }},
    // dual-quaternion skinning, as --skinning dual-quaternion (baked@dq)
    {&TechniqueInfo::dual_quaternion,
     "--skinning dual-quaternion",
     {"dq"},
     [](Variant& v, const std::string&) { v.dual_quaternion = true; }},
    // the hardware rasterizer alone, as --raster hardware (baked@hardware), beside the default's series
    {&TechniqueInfo::compute_raster,
     "--raster hardware",
     {"hardware"},
     [](Variant& v, const std::string&) { v.hardware = true; }},
    // motion vectors into a velocity target (baked@velocity; render --velocity), every technique
    {nullptr, "--velocity", {"velocity"}, [](Variant& v, const std::string&) { v.velocity = true; }},
    // temporal anti-aliasing, as render --aa taa (baked@taa)
    {nullptr, "--aa taa", {"taa"}, [](Variant& v, const std::string&) { v.taa = true; }},
};

Result<Variant> parseVariant(const std::string& spec) {
    Variant v;
    v.label = spec;
    const size_t at = spec.find('@');
    v.technique = spec.substr(0, at);
    const TechniqueInfo* technique = findTechnique(v.technique);
    if (technique == nullptr) return Error{"unknown technique '" + v.technique + "'"};
    if (at == std::string::npos) return v;
    const std::string option = spec.substr(at + 1);
    for (const VariantOption& o : kVariantOptions)
        if (o.readBy(*technique) && std::find(o.values.begin(), o.values.end(), option) != o.values.end()) {
            o.apply(v, option);
            return v;
        }
    return Error{"unknown variant '" + spec + "' (" + benchVariants() + ")"};
}

// One configuration: renders warm-up + timed frames and summarises the timed ones.
// The vertex cache's report (compute rasterizer, the techniques it skins: TechniqueInfo::skinned_in_compute): what it
// held, the bytes its pass must move at least, and that pass's rate against the device's measured copy bandwidth.
nlohmann::json vertexCacheJson(const VertexCacheReport& c, double cache_pass_ms, double bandwidth_gbps) {
    nlohmann::json j = {{"capacity_bytes", c.capacity_bytes},     {"cached_members", c.cached_members},
                        {"cached_vertices", c.cached_vertices},   {"uncached_members", c.uncached_members},
                        {"cache_pass_bytes", c.cache_pass_bytes}, {"raster_read_bytes", c.raster_read_bytes},
                        {"cache_pass_ms", cache_pass_ms}};
    if (cache_pass_ms > 0.0) {
        const double gbps = double(c.cache_pass_bytes) / (cache_pass_ms * 1e-3) * 1e-9;
        j["cache_pass_gbps"] = gbps;
        // The bandwidth bound: the time the pass's bytes take at the copy's rate; the share is
        // that bound over the time the pass took (1: the pass runs at the copy's rate).
        if (bandwidth_gbps > 0.0) j["share_of_bandwidth_bound"] = gbps / bandwidth_gbps;
    }
    return j;
}

nlohmann::json measure(HeadlessDevice& device, std::span<const BakedAsset* const> models, const Variant& v,
                       uint32_t instances, const BenchOptions& o, double bandwidth_gbps) {
    nlohmann::json r = {{"technique", v.label}, {"instances", instances}};
    CrowdJob job;
    job.technique = v.technique;
    job.encoding = v.encoding;
    job.bone_precision = v.bones;
    job.animation = v.storage;
    job.members = instances;
    job.seed = o.seed;
    job.width = o.width;
    job.height = o.height;
    job.frames = o.warmup + o.frames;
    job.settle_seconds = device.capabilities().cpu ? 0.0f : o.settle; // a CPU device has no clocks to raise
    job.time = float(job.frames) / 60.0f;
    job.readback = false;
    applyCrowdFlags(o.crowd, job);
    if (v.dual_quaternion) job.skinning = Skinning::DualQuaternion;
    if (v.hardware) job.raster = Raster::Hardware;
    job.velocity = v.velocity;
    job.taa = job.taa || v.taa;                                 // --aa taa: every series
    if (!techniqueTakesLayers(v.technique)) job.layers.clear(); // --layer: for the series that blend layers

    job.model_shares = o.shares;
    job.model_size = o.model_size;
    const Result<CrowdJobResult> out = renderCrowd(device, models, job);
    if (!out) {
        r["error"] = out.error().message;
        return r;
    }
    {
        const CrowdJobResult& result = out.value();
        std::vector<std::vector<double>> pass_ms(result.passes.size());
        std::vector<double> frame_ms, sample, skin, upload_cpu, record, cpu_total;
        uint64_t bytes = 0;
        double simulate_ms = 0.0; // the simulation's passes and steps over the measured frames
        uint64_t sim_steps = 0;
        for (size_t i = o.warmup; i < result.frames.size(); ++i) {
            const JobFrame& f = result.frames[i];
            simulate_ms += f.passMs("simulate");
            sim_steps += f.sim_steps;
            for (size_t p = 0; p < pass_ms.size(); ++p) pass_ms[p].push_back(f.passMs(result.passes[p].name));
            frame_ms.push_back(f.gpu_frame_ms);
            sample.push_back(f.sample_ms);
            skin.push_back(f.skin_ms);
            upload_cpu.push_back(f.upload_ms);
            record.push_back(f.record_ms);
            cpu_total.push_back(f.sample_ms + f.skin_ms + f.upload_ms + f.record_ms);
            bytes = f.upload_bytes;
        }
        r["variant"] = result.technique;
        r["raster"] = toString(result.raster); // who drew it (auto falls back to the hardware where it must)
        for (const std::string& w : result.warnings) r["notes"].push_back(w);
        r["triangles"] = result.triangles;                     // drawn in the last frame, after culling and LOD
        r["submitted_triangles"] = result.submitted_triangles; // every member at full detail
        nlohmann::json per_lod = nlohmann::json::array();
        for (uint32_t n : result.drawn.per_lod) per_lod.push_back(n);
        while (per_lod.size() > 1 && per_lod.back() == 0) per_lod.erase(per_lod.size() - 1);
        r["visible"] = {{"members", instances},
                        {"in_frustum", result.drawn.in_frustum},
                        {"occluded", result.drawn.occluded},
                        {"impostors", result.drawn.impostors},
                        {"splats", result.drawn.splats},
                        {"per_lod", per_lod}};
        // Every pass by name, in frame order; "gpu_ms" also keys them by name beside "frame".
        r["passes"] = nlohmann::json::array();
        r["gpu_ms"] = {{"frame", spreadJson(spread(frame_ms))}};
        double raster_ms = 0.0; // the compute rasterizer's passes: `raster` and, with occlusion, `raster-late`
        for (size_t p = 0; p < pass_ms.size(); ++p) {
            const Spread sp = spread(pass_ms[p]);
            r["passes"].push_back({{"name", result.passes[p].name}, {"median", sp.median}, {"p95", sp.p95}});
            r["gpu_ms"][result.passes[p].name] = spreadJson(sp);
            if (result.passes[p].name == "raster" || result.passes[p].name == "raster-late") raster_ms += sp.median;
            if (result.passes[p].name == "cache")
                r["vertex_cache"] = vertexCacheJson(result.vertex_cache, sp.median, bandwidth_gbps);
        }
        // One step of the simulation: it steps at its own rate (1/30 s), so at 60 frames a second
        // about every other frame's `simulate` pass takes none, and its median may be half a step.
        if (sim_steps > 0) r["simulate_ms_per_step"] = simulate_ms / double(sim_steps);
        // The compute rasterizer's rate: the triangles drawn over its passes' median times.
        if (raster_ms > 0.0) r["raster_triangles_per_second"] = double(result.triangles) / (raster_ms * 1e-3);
        r["cpu_ms"] = {{"sample", spreadJson(spread(sample))},
                       {"skin", spreadJson(spread(skin))},
                       {"upload", spreadJson(spread(upload_cpu))},
                       {"record", spreadJson(spread(record))},
                       {"total", spreadJson(spread(cpu_total))}};
        // A frame takes the longer of its CPU and GPU parts when they overlap (frames in flight).
        r["frame_ms"] = std::max(spread(frame_ms).median, spread(cpu_total).median);
        r["upload_bytes_per_frame"] = bytes;
        r["gpu_memory_bytes"] = result.gpu_memory_bytes;
        // What a member costs, everything the crowd holds spread over its members (the models'
        // own share is the report's models[].asset_bytes).
        r["gpu_memory_bytes_per_member"] = double(result.gpu_memory_bytes) / double(std::max(instances, 1u));
    }
    return r;
}

// A CSV field: quoted (RFC 4180) when it holds a comma, a quote or a line break.
std::string csvField(std::string text) {
    if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
    std::string quoted = "\"";
    for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    return quoted + "\"";
}

// What `bench --csv FILE` prints instead of the CSV: a line per series, its frame, GPU and CPU
// medians (or its error).
std::string summary(const nlohmann::json& report) {
    std::string out;
    char line[512];
    std::snprintf(line, sizeof line, "%-28s %10s %10s %10s %10s\n", "technique", "members", "frame ms", "GPU ms",
                  "CPU ms");
    out += line;
    for (const nlohmann::json& r : report["results"]) {
        const std::string name = r["technique"].get<std::string>();
        const uint64_t members = r["instances"].get<uint64_t>();
        if (r.contains("error"))
            std::snprintf(line, sizeof line, "%-28s %10llu failed: %s\n", name.c_str(), (unsigned long long)members,
                          r["error"].get<std::string>().c_str());
        else
            std::snprintf(line, sizeof line, "%-28s %10llu %10.3f %10.3f %10.3f\n", name.c_str(),
                          (unsigned long long)members, r["frame_ms"].get<double>(),
                          r["gpu_ms"]["frame"]["median"].get<double>(), r["cpu_ms"]["total"]["median"].get<double>());
        out += line;
    }
    return out;
}

// One line per result; after the fixed columns, a median and a p95 column per pass name found in
// any result (in order of first appearance), empty where a result has no such pass.
std::string csv(const nlohmann::json& report) {
    std::vector<std::string> pass_names;
    for (const nlohmann::json& r : report["results"])
        for (const nlohmann::json& p : r.value("passes", nlohmann::json::array()))
            if (std::find(pass_names.begin(), pass_names.end(), p["name"].get<std::string>()) == pass_names.end())
                pass_names.push_back(p["name"].get<std::string>());
    std::string out =
        "technique,variant,instances,triangles,frame_ms,gpu_frame_median_ms,gpu_frame_p95_ms,cpu_sample_ms,cpu_skin_ms,"
        "cpu_upload_ms,cpu_record_ms,cpu_total_ms,upload_bytes_per_frame,gpu_memory_bytes,";
    for (const std::string& name : pass_names)
        out += csvField("gpu_" + name + "_median_ms") + "," + csvField("gpu_" + name + "_p95_ms") + ",";
    out += "error\n";
    for (const nlohmann::json& r : report["results"]) {
        std::ostringstream line;
        line << csvField(r["technique"].get<std::string>()) << "," << csvField(r.value("variant", "")) << ","
             << r["instances"] << ",";
        if (r.contains("error")) {
            line << std::string(11 + 2 * pass_names.size(), ',') << csvField(r["error"].get<std::string>());
        } else {
            line << r["triangles"] << "," << r["frame_ms"] << "," << r["gpu_ms"]["frame"]["median"] << ","
                 << r["gpu_ms"]["frame"]["p95"] << "," << r["cpu_ms"]["sample"]["median"] << ","
                 << r["cpu_ms"]["skin"]["median"] << "," << r["cpu_ms"]["upload"]["median"] << ","
                 << r["cpu_ms"]["record"]["median"] << "," << r["cpu_ms"]["total"]["median"] << ","
                 << r["upload_bytes_per_frame"] << "," << r["gpu_memory_bytes"] << ",";
            for (const std::string& name : pass_names) {
                if (r["gpu_ms"].contains(name))
                    line << r["gpu_ms"][name]["median"] << "," << r["gpu_ms"][name]["p95"] << ",";
                else
                    line << ",,";
            }
        }
        out += line.str() + "\n";
    }
    return out;
}

// The technique list as variants, or the first item that is not one. `all` (alone or among others): the techniques with
// TechniqueInfo::in_bench_all, and the model's own where it is not one of them (procedural where
// the model swims).
Result<std::vector<Variant>> parseVariants(const std::string& list, const std::string& model) {
    std::vector<std::string> names;
    for (const std::string& item : splitList(list)) {
        if (item != "all") {
            names.push_back(item);
            continue;
        }
        for (const TechniqueInfo& t : techniques())
            if (t.in_bench_all) names.emplace_back(t.name);
        const std::string own = naturalTechnique(model);
        if (std::find(names.begin(), names.end(), own) == names.end()) names.push_back(own);
    }
    if (names.empty()) return Error{"--techniques: empty list (give NAME[,NAME...] or all)"};
    std::vector<Variant> variants;
    for (const std::string& t : names) {
        Result<Variant> v = parseVariant(t);
        if (!v) return Error{"--techniques: " + v.error().message};
        variants.push_back(v.value());
    }
    return variants;
}

Result<std::vector<uint32_t>> parseCounts(const std::string& list) {
    std::vector<uint32_t> counts;
    for (const std::string& n : splitList(list)) {
        char* end = nullptr;
        const unsigned long v = std::strtoul(n.c_str(), &end, 10);
        if (n.front() == '-' || end == n.c_str() || *end != '\0' || v == 0 || v > (16ul << 20))
            return Error{"--instances: '" + n + "' is not a count in 1 .. 16777216"};
        counts.push_back(uint32_t(v));
    }
    if (counts.empty()) return Error{"--instances: empty list (give N[,N...])"};
    return counts;
}

} // namespace

std::string benchVariants() {
    std::string list;
    for (const TechniqueInfo& t : techniques()) {
        std::string values;
        for (const VariantOption& o : kVariantOptions)
            if (o.readBy(t))
                for (const std::string& value : o.values) values += (values.empty() ? "" : "|") + value;
        if (!values.empty()) list += (list.empty() ? "" : ", ") + std::string(t.name) + "@" + values;
    }
    return list;
}

std::string benchVariantOptions() {
    std::string list;
    for (const VariantOption& o : kVariantOptions) {
        std::string values;
        for (const std::string& value : o.values) values += (values.empty() ? "" : "|") + value;
        list += (list.empty() ? "" : ", ") + values + " as " + o.option;
    }
    return list;
}

Status checkBenchOptions(const BenchOptions& o) {
    Result<std::vector<Variant>> v = parseVariants(o.techniques, o.model);
    if (!v) return Status::failure(v.error().message);
    for (const Variant& variant : v.value())
        if (Status s = checkSimulate(o.crowd, variant.technique); !s) return s;
    if (Result<std::vector<uint32_t>> n = parseCounts(o.instances); !n) return Status::failure(n.error().message);
    return {};
}

// The bytes a model's data take on the GPU (vertices, indices, animation, vertex animation, encoded
// textures as a lower bound of their decoded size): what one more model costs a crowd.
uint64_t assetBytes(const BakedAsset& a) {
    uint64_t bytes = a.vertices.size() * sizeof(BakedVertex) + a.indices.size() * 4 +
                     (a.animation_f32.size() * 4 + a.animation_f16.size() * 2) +
                     (a.vat_f32.size() * 4 + a.vat_f16.size() * 2);
    for (const BakedTexture& t : a.textures) bytes += t.encoded.size();
    return bytes;
}

int runBench(const BenchOptions& o) {
    if (Status s = checkBenchOptions(o); !s) { // checked by the parser already (cli.cpp)
        printError("bench", s.message);
        return 2;
    }
    const std::vector<Variant> variants = parseVariants(o.techniques, o.model).value();
    const std::vector<uint32_t> counts = parseCounts(o.instances).value();
    for (const std::string& out : {o.json, o.csv})
        if (!out.empty() && !checkOutput(out)) return 1;
    BakeOptions bake_options;
    bake_options.vat = std::any_of(variants.begin(), variants.end(),
                                   [](const Variant& v) { return findTechnique(v.technique)->needs_vat; });
    bake_options.impostors.enabled = o.crowd.impostor_px > 0.0f;
    parseSkinning(o.crowd.skinning, bake_options.impostors.skinning); // as the crowd skins
    bake_options.root_motion = o.crowd.root_motion;
    if (Status s = eventsFromText(o.crowd.events, bake_options); !s) {
        printError(o.model, s.message);
        return 1;
    }
    std::vector<BakedAsset> assets;
    const std::vector<std::string> models = o.models.empty() ? std::vector<std::string>{o.model} : o.models;
    for (const std::string& model : models) {
        Result<LoadedAsset> asset = loadAsset(model, bake_options);
        if (!asset) {
            printError(model, asset.error().message);
            return 1;
        }
        if (Status s = attachFromText(asset.value().baked, o.crowd.attach); !s) {
            printError(model, s.message);
            return 1;
        }
        assets.push_back(std::move(asset).value().baked);
    }
    std::vector<const BakedAsset*> crowd_models;
    for (const BakedAsset& a : assets) crowd_models.push_back(&a);
    // Each model's share (equal where none was given) and what its data take on the GPU.
    nlohmann::json model_list = nlohmann::json::array();
    for (size_t m = 0; m < models.size(); ++m)
        model_list.push_back(
            {{"model", models[m]},
             {"share", m < o.shares.size() ? double(o.shares[m]) / 100.0 : 1.0 / double(models.size())},
             {"asset_bytes", assetBytes(assets[m])}});
    HeadlessDeviceOptions device_options;
    device_options.validation = o.validate;
    device_options.device_name = o.device;
    Result<std::unique_ptr<HeadlessDevice>> created = HeadlessDevice::create(device_options);
    if (!created) {
        printError(o.model, created.error().message);
        return 1;
    }
    std::unique_ptr<HeadlessDevice> device = std::move(created).value();
    nlohmann::json report = {{"device", device->name()},
                             {"driver", device->driver()},
                             {"cpu", cpuName()},
                             {"view", o.crowd.camera.empty() ? o.crowd.view : "camera"},
                             {"camera", o.crowd.camera}, // EYE:TARGET[:FOV] as given, "" for a view
                             {"simulate", o.crowd.simulate},
                             {"cull", o.crowd.cull},
                             {"lod", o.crowd.lod},
                             {"lod_error_px", o.crowd.lod_error},
                             {"occlusion", o.crowd.occlusion && device->capabilities().occlusion_culling},
                             {"coarse_skinning", o.crowd.coarse_skinning},
                             {"raster", o.crowd.raster},
                             {"hardware_triangle_px", o.crowd.hardware_triangle_px},
                             {"cores", std::thread::hardware_concurrency()},
                             {"model", o.model},
                             {"models", model_list},
                             {"size", {o.width, o.height}},
                             {"frames", o.frames},
                             {"warmup", o.warmup},
                             {"settle_seconds", o.settle},
                             {"results", nlohmann::json::array()}};
    std::string names;
    for (const std::string& m : models) names += (names.empty() ? "" : " + ") + m;
    std::fprintf(stderr, "bench: %s on %s (%s, %u cores)\n", names.c_str(), device->name().c_str(),
                 report["cpu"].get<std::string>().c_str(), std::thread::hardware_concurrency());
    // The compute rasterizer's vertex cache is measured against the memory bandwidth a copy gets.
    double bandwidth_gbps = 0.0;
    if (o.crowd.raster != "hardware") {
        const Result<double> measured = measureCopyBandwidth(*device);
        if (measured) {
            bandwidth_gbps = measured.value();
            std::fprintf(stderr, "bench: memory bandwidth by a compute copy %.0f GB/s\n", bandwidth_gbps);
        } else {
            std::fprintf(stderr, "bench: memory bandwidth not measured: %s\n", measured.error().message.c_str());
        }
        report["memory_bandwidth_gbps"] = bandwidth_gbps;
    }
    const size_t total = variants.size() * counts.size();
    size_t done = 0;
    for (uint32_t n : counts) {
        for (const Variant& v : variants) {
            std::fprintf(stderr, "bench: [%zu/%zu] %s x %u ... ", ++done, total, v.label.c_str(), n);
            std::fflush(stderr);
            const nlohmann::json r = measure(*device, crowd_models, v, n, o, bandwidth_gbps);
            if (r.contains("error"))
                std::fprintf(stderr, "failed: %s\n", r["error"].get<std::string>().c_str());
            else
                std::fprintf(stderr, "frame %.2f ms (GPU %.2f ms, CPU %.2f ms)\n", r["frame_ms"].get<double>(),
                             r["gpu_ms"]["frame"]["median"].get<double>(),
                             r["cpu_ms"]["total"]["median"].get<double>());
            report["results"].push_back(r);
        }
    }
    const bool validation_failed = HeadlessDevice::release(std::move(device)) > 0;
    if (!o.json.empty()) {
        const std::string text = report.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
        if (Status s = io::writeFileAtomic(o.json, text.data(), text.size()); !s) {
            printError(o.json, s.message);
            return 1;
        }
    }
    if (!o.csv.empty()) {
        const std::string text = csv(report);
        if (Status s = io::writeFileAtomic(o.csv, text.data(), text.size()); !s) {
            printError(o.csv, s.message);
            return 1;
        }
    }
    // Standard output: the CSV, unless it went to a file; then a table to read.
    std::printf("%s", (o.csv.empty() ? csv(report) : summary(report)).c_str());
    if (validation_failed) {
        std::fprintf(stderr, "throng: error: Vulkan validation errors during the benchmark\n");
        return 1;
    }
    return 0;
}

} // namespace throng::cli
