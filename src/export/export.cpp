// A baked asset written for other engines; see throng/export.h and docs/EXPORT.md.
#include <throng/export.h>
#include <throng/files.h>

#include "exr.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>

namespace throng {

namespace {

// The model's name as the exports carry it: the file's name only (BakedAsset::name is the path
// the model was loaded from, which is the baking machine's business, not the engine's).
std::string exportedName(const BakedAsset& asset) { return std::filesystem::path(asset.name).filename().string(); }

using nlohmann::json;

constexpr uint32_t kFormatVersion = 1;

// Per channel (R, G, B, A) the smallest and largest value of `texels` (4 floats each).
json valueRange(const std::vector<float>& texels) {
    float lo[4], hi[4];
    std::fill(lo, lo + 4, std::numeric_limits<float>::max());
    std::fill(hi, hi + 4, -std::numeric_limits<float>::max());
    for (size_t i = 0; i + 3 < texels.size(); i += 4)
        for (int c = 0; c < 4; ++c) {
            lo[c] = std::min(lo[c], texels[i + c]);
            hi[c] = std::max(hi[c], texels[i + c]);
        }
    return {{"min", {lo[0], lo[1], lo[2], lo[3]}}, {"max", {hi[0], hi[1], hi[2], hi[3]}}};
}

// The image of the asset's precision: floats, or half bits; `values` gets the floats either way
// (for the value ranges).
struct Texels {
    std::vector<float> f32;
    std::vector<uint16_t> f16;
    std::vector<float> values;
};

void put(Texels& t, const BakedAsset& asset, size_t texel, glm::vec4 v) {
    for (int c = 0; c < 4; ++c) t.values[texel * 4 + c] = v[c];
    if (asset.precision == Precision::Float16)
        for (int c = 0; c < 4; ++c) t.f16[texel * 4 + c] = floatToHalf(v[c]);
    else
        for (int c = 0; c < 4; ++c) t.f32[texel * 4 + c] = v[c];
}

Texels makeTexels(const BakedAsset& asset, size_t texels) {
    Texels t;
    t.values.assign(texels * 4, 0.0f);
    if (asset.precision == Precision::Float16)
        t.f16.assign(texels * 4, 0);
    else
        t.f32.assign(texels * 4, 0.0f);
    return t;
}

// Rows of each clip in the stacked images: clip c starts at row first[c].
std::vector<uint32_t> firstRows(const BakedAsset& asset) {
    std::vector<uint32_t> first;
    uint32_t row = 0;
    for (const BakedClip& c : asset.clips) {
        first.push_back(row);
        row += c.frame_count;
    }
    first.push_back(row); // the total
    return first;
}

// The glTF mesh (LOD 0) and its binary buffer.
struct GltfFiles {
    std::string json;
    std::vector<uint8_t> bin;
};

template <class T> size_t append(std::vector<uint8_t>& bin, const T* data, size_t count) {
    while (bin.size() % 4 != 0) bin.push_back(0);
    const size_t offset = bin.size();
    bin.resize(offset + count * sizeof(T));
    std::memcpy(bin.data() + offset, data, count * sizeof(T));
    return offset;
}

GltfFiles makeGltf(const BakedAsset& asset) {
    const size_t n = asset.vertices.size();
    std::vector<float> positions(n * 3), normals(n * 3), uvs(n * 2), weights(n * 4), vat_index(n);
    std::vector<uint8_t> colors(n * 4);
    std::vector<uint16_t> joints(n * 4);
    glm::vec3 lo(std::numeric_limits<float>::max()), hi(-std::numeric_limits<float>::max());
    for (size_t v = 0; v < n; ++v) {
        const BakedVertex& b = asset.vertices[v];
        for (int c = 0; c < 3; ++c) {
            positions[v * 3 + c] = b.position[c];
            normals[v * 3 + c] = b.normal[c];
            lo[c] = std::min(lo[c], b.position[c]);
            hi[c] = std::max(hi[c], b.position[c]);
        }
        uvs[v * 2] = b.uv[0];
        uvs[v * 2 + 1] = b.uv[1];
        for (int c = 0; c < 4; ++c) {
            colors[v * 4 + c] = b.color[c];
            joints[v * 4 + c] = b.joints[c];
            weights[v * 4 + c] = b.weights[c];
        }
        vat_index[v] = float(v);
    }
    GltfFiles out;
    json views = json::array(), accessors = json::array();
    auto view = [&](size_t offset, size_t bytes, int target) {
        json v = {{"buffer", 0}, {"byteOffset", offset}, {"byteLength", bytes}};
        if (target != 0) v["target"] = target;
        views.push_back(v);
        return views.size() - 1;
    };
    auto accessor = [&](size_t view_index, int component, size_t count, const char* type, bool normalized) {
        json a = {{"bufferView", view_index}, {"componentType", component}, {"count", count}, {"type", type}};
        if (normalized) a["normalized"] = true;
        accessors.push_back(a);
        return accessors.size() - 1;
    };
    constexpr int kFloat = 5126, kUnsignedShort = 5123, kUnsignedByte = 5121, kUnsignedInt = 5125;
    constexpr int kArray = 34962, kElements = 34963;
    json attributes;
    attributes["POSITION"] =
        accessor(view(append(out.bin, positions.data(), positions.size()), n * 12, kArray), kFloat, n, "VEC3", false);
    accessors[attributes["POSITION"].get<size_t>()]["min"] = {lo.x, lo.y, lo.z};
    accessors[attributes["POSITION"].get<size_t>()]["max"] = {hi.x, hi.y, hi.z};
    attributes["NORMAL"] =
        accessor(view(append(out.bin, normals.data(), normals.size()), n * 12, kArray), kFloat, n, "VEC3", false);
    attributes["TEXCOORD_0"] =
        accessor(view(append(out.bin, uvs.data(), uvs.size()), n * 8, kArray), kFloat, n, "VEC2", false);
    attributes["COLOR_0"] =
        accessor(view(append(out.bin, colors.data(), colors.size()), n * 4, kArray), kUnsignedByte, n, "VEC4", true);
    attributes["JOINTS_0"] =
        accessor(view(append(out.bin, joints.data(), joints.size()), n * 8, kArray), kUnsignedShort, n, "VEC4", false);
    attributes["WEIGHTS_0"] =
        accessor(view(append(out.bin, weights.data(), weights.size()), n * 16, kArray), kFloat, n, "VEC4", false);
    attributes["_VAT_INDEX"] =
        accessor(view(append(out.bin, vat_index.data(), vat_index.size()), n * 4, kArray), kFloat, n, "SCALAR", false);

    json images = json::array(), textures = json::array(), materials = json::array(), primitives = json::array();
    std::vector<int> texture_of(asset.textures.size(), -1);
    for (size_t t = 0; t < asset.textures.size(); ++t) {
        const BakedTexture& tex = asset.textures[t];
        if (tex.encoded.empty()) continue; // the source only named a file (bake warned)
        const size_t v = view(append(out.bin, tex.encoded.data(), tex.encoded.size()), tex.encoded.size(), 0);
        images.push_back({{"bufferView", v}, {"mimeType", tex.mime_type}});
        textures.push_back({{"source", images.size() - 1}});
        texture_of[t] = int(textures.size() - 1);
    }
    for (const BakedSubmesh& s : asset.submeshes) {
        json pbr = {{"baseColorFactor", {s.base_color.r, s.base_color.g, s.base_color.b, s.base_color.a}},
                    {"metallicFactor", 0.0},
                    {"roughnessFactor", 1.0}};
        if (s.texture >= 0 && size_t(s.texture) < texture_of.size() && texture_of[size_t(s.texture)] >= 0)
            pbr["baseColorTexture"] = {{"index", texture_of[size_t(s.texture)]}};
        materials.push_back({{"pbrMetallicRoughness", pbr}});
        const size_t v = view(append(out.bin, asset.indices.data() + s.first_index, s.index_count),
                              size_t(s.index_count) * 4, kElements);
        primitives.push_back({{"attributes", attributes},
                              {"indices", accessor(v, kUnsignedInt, s.index_count, "SCALAR", false)},
                              {"material", materials.size() - 1},
                              {"mode", 4}});
    }
    while (out.bin.size() % 4 != 0) out.bin.push_back(0);
    json gltf = {{"asset", {{"version", "2.0"}, {"generator", "throng bake --export"}}},
                 {"scene", 0},
                 {"scenes", {{{"nodes", {0}}}}},
                 {"nodes", {{{"mesh", 0}, {"name", exportedName(asset)}}}},
                 {"meshes", {{{"primitives", primitives}}}},
                 {"materials", materials},
                 {"buffers", {{{"uri", "mesh.bin"}, {"byteLength", out.bin.size()}}}},
                 {"bufferViews", views},
                 {"accessors", accessors}};
    if (!images.empty()) {
        gltf["images"] = images;
        gltf["textures"] = textures;
    }
    out.json = gltf.dump(1) + "\n";
    return out;
}

Status writeBytes(const std::filesystem::path& path, const void* data, size_t size) {
    return io::writeFileAtomic(path.string(), data, size);
}

} // namespace

Status checkExportDirectory(const std::string& dir) {
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::path path(dir);
    if (!path.has_filename()) path = path.parent_path(); // "out/" names "out"
    if (fs::exists(path, ec) && !fs::is_directory(path, ec)) return Status::failure("not a directory");
    if (!fs::exists(path, ec) && !fs::is_directory(path.parent_path().empty() ? "." : path.parent_path(), ec))
        return Status::failure("its parent directory does not exist");
    return {};
}

Result<ExportReport> exportForEngines(const BakedAsset& asset, const std::string& dir, const ExportOptions& options) {
    if (Status s = validate(asset); !s) return Error{s.message};
    const uint32_t max_width = options.max_width & ~1u;
    if (max_width < 2) return Error{"the largest row width must be at least 2 texels"};
    if (asset.texelsPerRow() > max_width)
        return Error{std::to_string(asset.joint_count) + " joints need " + std::to_string(asset.texelsPerRow()) +
                     " texels a row; exports hold at most " + std::to_string(max_width / 3) + " joints"};
    namespace fs = std::filesystem;
    if (Status s = checkExportDirectory(dir); !s) return Error{s.message};
    std::error_code ec;
    const fs::path root(dir);
    if (!fs::exists(root, ec) && !fs::create_directory(root, ec))
        return Error{"cannot create the directory: " + ec.message()};

    ExportReport report;
    const std::vector<uint32_t> first = firstRows(asset);
    const uint32_t rows = first.back();

    // The bone-matrix animation: clip c's frame f is row first[c] + f.
    report.animation_width = asset.texelsPerRow();
    report.animation_height = rows;
    Texels anim = makeTexels(asset, size_t(report.animation_width) * rows);
    for (uint32_t c = 0; c < asset.clips.size(); ++c)
        for (uint32_t f = 0; f < asset.clips[c].frame_count; ++f)
            for (uint32_t j = 0; j < asset.joint_count; ++j)
                for (uint32_t r = 0; r < 3; ++r)
                    put(anim, asset, size_t(first[c] + f) * report.animation_width + 3 * j + r,
                        bakedTexel(asset, c, f, j, r));
    Result<std::vector<uint8_t>> anim_exr =
        exporter::encodeExr(report.animation_width, report.animation_height, anim.f32, anim.f16);
    if (!anim_exr) return anim_exr.error();

    // Vertex animation: a frame's 2 * vertices texels over rows_per_frame rows of `width`.
    std::vector<uint8_t> vat_exr;
    json vat_json;
    if (asset.hasVat()) {
        const uint64_t per_frame = asset.vatTexelsPerRow();
        report.vat_width = uint32_t(std::min<uint64_t>(per_frame, max_width));
        report.vat_rows_per_frame = uint32_t((per_frame + report.vat_width - 1) / report.vat_width);
        report.vat_height = rows * report.vat_rows_per_frame;
        Texels vat = makeTexels(asset, size_t(report.vat_width) * report.vat_height);
        for (uint32_t c = 0; c < asset.clips.size(); ++c)
            for (uint32_t f = 0; f < asset.clips[c].frame_count; ++f) {
                const size_t base = size_t(first[c] + f) * report.vat_rows_per_frame * report.vat_width;
                for (uint32_t v = 0; v < asset.vertices.size(); ++v) {
                    put(vat, asset, base + 2 * size_t(v), vatTexel(asset, c, f, v, false));
                    put(vat, asset, base + 2 * size_t(v) + 1, vatTexel(asset, c, f, v, true));
                }
            }
        Result<std::vector<uint8_t>> encoded =
            exporter::encodeExr(report.vat_width, report.vat_height, vat.f32, vat.f16);
        if (!encoded) return encoded.error();
        vat_exr = std::move(encoded).value();
        vat_json = {{"file", "vat.exr"},
                    {"width", report.vat_width},
                    {"height", report.vat_height},
                    {"rows_per_frame", report.vat_rows_per_frame},
                    {"texels_per_vertex", 2},
                    {"pixel_type", asset.precision == Precision::Float16 ? "half" : "float"},
                    {"texel", "i = 2 * vertex (+1 for the normal); x = i % width, "
                              "y = (first_row + frame) * rows_per_frame + i / width"},
                    {"position", "xyz = skinned position (model space), w = 1"},
                    {"normal", "xyz = skinned unit normal, w = 0"},
                    {"value_range", valueRange(vat.values)}};
    }

    // The descriptor.
    json clips = json::array();
    for (uint32_t c = 0; c < asset.clips.size(); ++c) {
        const BakedClip& clip = asset.clips[c];
        json entry = {{"name", clip.name},
                      {"index", c},
                      {"first_row", first[c]},
                      {"frame_count", clip.frame_count},
                      {"duration", clip.duration},
                      {"fps", clip.duration > 0.0f ? double(clip.frame_count - 1) / double(clip.duration) : 0.0},
                      {"loop", clip.loop}};
        if (!clip.root_motion.empty()) { // throng/root_motion.h: per frame travel x, z and yaw
            json frames = json::array();
            for (const glm::vec3& m : clip.root_motion) frames.push_back({m.x, m.y, m.z});
            entry["root_motion"] = {{"pivot", {clip.root_pivot.x, clip.root_pivot.y}}, {"frames", frames}};
        }
        clips.push_back(entry);
    }
    json joints = json::array();
    for (uint32_t j = 0; j < asset.joint_count; ++j) {
        json joint = {{"index", j}};
        if (!asset.source.empty() && j < asset.source.palette.size()) {
            const uint32_t node = asset.source.palette[j].joint;
            if (node < asset.source.skeleton.names.size()) joint["name"] = asset.source.skeleton.names[node];
        }
        joints.push_back(joint);
    }
    json descriptor = {
        {"format", "throng-export"},
        {"version", kFormatVersion},
        {"source", exportedName(asset)},
        {"precision", toString(asset.precision)},
        {"animation",
         {{"file", "animation.exr"},
          {"width", report.animation_width},
          {"height", report.animation_height},
          {"texels_per_joint", 3},
          {"pixel_type", asset.precision == Precision::Float16 ? "half" : "float"},
          {"texel", "x = 3 * joint + r, y = first_row + frame: row r (0..2) of the joint's 3x4 skinning matrix "
                    "(model space, inverse bind applied), so p' = vec3(dot(row0, p), dot(row1, p), dot(row2, p)) "
                    "for p = vec4(position, 1)"},
          {"value_range", valueRange(anim.values)}}},
        {"sampling", "local = loop ? mod(t, duration) : clamp(t, 0, duration); u = duration > 0 ? clamp(local / "
                     "duration * (frame_count - 1), 0, frame_count - 1) : 0; frames floor(u) and min(floor(u) + 1, "
                     "frame_count - 1), weight fract(u)"},
        {"clips", clips},
        {"root_joint", asset.root_joint.empty() ? json(nullptr) : json(asset.root_joint)},
        {"joints", joints},
        {"mesh",
         {{"file", "mesh.gltf"},
          {"vertices", asset.vertices.size()},
          {"triangles", asset.submeshes.empty() ? 0 : lodLevels(asset)[0].triangleCount()},
          {"attributes", {"POSITION", "NORMAL", "TEXCOORD_0", "COLOR_0", "JOINTS_0", "WEIGHTS_0", "_VAT_INDEX"}},
          {"bind_bounds",
           {{"min", {asset.bind_bounds.min.x, asset.bind_bounds.min.y, asset.bind_bounds.min.z}},
            {"max", {asset.bind_bounds.max.x, asset.bind_bounds.max.y, asset.bind_bounds.max.z}}}}}}};
    if (!vat_json.is_null()) descriptor["vat"] = vat_json;

    const GltfFiles gltf = makeGltf(asset);
    const std::string text = descriptor.dump(2) + "\n";
    struct File {
        const char* name;
        const void* data;
        size_t size;
    };
    std::vector<File> files = {{"animation.exr", anim_exr.value().data(), anim_exr.value().size()},
                               {"mesh.bin", gltf.bin.data(), gltf.bin.size()},
                               {"mesh.gltf", gltf.json.data(), gltf.json.size()}};
    if (!vat_exr.empty()) files.push_back({"vat.exr", vat_exr.data(), vat_exr.size()});
    files.push_back({"throng.json", text.data(), text.size()}); // last: a complete export has it
    for (const File& f : files) {
        if (Status s = writeBytes(root / f.name, f.data, f.size); !s)
            return Error{f.name + std::string(": ") + s.message};
        report.files.push_back(f.name);
    }
    // A vat.exr of an earlier export with vertex animation is not this export's: throng.json (now
    // without "vat") no longer names it. Removed after the descriptor, so that a failure before
    // leaves the earlier export whole.
    if (vat_exr.empty()) fs::remove(root / "vat.exr", ec);
    return report;
}

} // namespace throng
