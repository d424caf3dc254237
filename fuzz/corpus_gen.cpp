// corpus_gen.cpp — writes the fuzz targets' seeds into a build folder (nothing generated is
// checked in): the replay tests' fixture (fuzz/replay.cmake) and fuzz/run.sh run it.
//   fuzz_throng/  fish.throng (what `throng bake builtin:fish` writes), the two-joint rig of
//                 tests/gltf_builder.h baked float, half + vertex animation, and with every
//                 section stored uncompressed (so mutations hit the parsers, not zstd); with
//                 root motion and events, uncompressed; with a part in a slot, uncompressed
//   fuzz_gltf/    the rig as .gltf and .glb with each feature the builder offers, and the
//                 smallest glTF
//   fuzz_assimp/  a selector byte (fuzz_assimp.cpp) + the rig as Collada, small OBJ, PLY, STL,
//                 DirectX .x, OFF, BVH and SMD files
//   fuzz_cli/     command lines, one word per line
//   fuzz_kit/     kit files: built-in parts rigid and skinned, a base alone, a slot past 100%
//   regressions/TARGET/  every input that once made a target fail, rebuilt (fuzz/regressions.cpp)
//   with ASSETS_DIR (the shared models, ../shared/assets): also their .glb/.gltf files for
//                 fuzz_gltf and their Collada and FBX files (with the selector byte) for
//                 fuzz_assimp, named shared-*: read in place, copied only into OUT_DIR
// Usage: fuzz_corpus_gen OUT_DIR [ASSETS_DIR]. Existing files of the same names are replaced.
#include "corpus_gen.h"
#include "gltf_builder.h"

#include <throng/bake.h>
#include <throng/builtin.h>
#include <throng/format.h>
#include <throng/import.h>

#include <zstd.h>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace corpus {

[[noreturn]] void fail(const std::string& message) {
    std::fprintf(stderr, "fuzz_corpus_gen: %s\n", message.c_str());
    std::exit(1);
}

Bytes readAll(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) fail("cannot read " + path.string());
    return Bytes(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void writeAll(const fs::path& path, const void* data, size_t size) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(static_cast<const char*>(data), std::streamsize(size));
    if (!out) fail("cannot write " + path.string());
    std::printf("%s (%zu bytes)\n", path.c_str(), size);
}
void writeText(const fs::path& path, const std::string& text) { writeAll(path, text.data(), text.size()); }

// --- fuzz_throng ---------------------------------------------------------------------------

throng::Model rigModel(const throng::test::RigOptions& options) {
    throng::test::GltfBuilder b = throng::test::makeRig(options);
    const fs::path tmp = fs::temp_directory_path() / ("throng-corpus-rig-" + std::to_string(getpid()) + ".glb");
    b.writeGlb(tmp.string());
    const Bytes glb = readAll(tmp);
    fs::remove(tmp);
    throng::Result<throng::Model> model = throng::importGltfBytes(glb, true, "", "rig.glb");
    if (!model) fail("rig: " + model.error().message);
    return std::move(model).value();
}

void bakeTo(const throng::Model& model, const throng::BakeOptions& options, const fs::path& path) {
    throng::Result<throng::BakedAsset> baked = throng::bake(model, options);
    if (!baked) fail(path.string() + ": " + baked.error().message);
    if (throng::Status s = throng::writeThrong(baked.value(), path.string()); !s)
        fail(path.string() + ": " + s.message);
    std::printf("%s (%ju bytes)\n", path.c_str(), uintmax_t(fs::file_size(path)));
}

Bytes uncompressed(const Bytes& in, const SectionEdit& edit) {
    const uint32_t count = load<uint32_t>(in, 12);
    std::vector<Bytes> raw(count);
    Bytes table(in.begin() + 48, in.begin() + 48 + count * 40);
    for (uint32_t i = 0; i < count; ++i) {
        const size_t e = 48 + size_t(i) * 40;
        const uint32_t flags = load<uint32_t>(in, e + 4);
        const uint64_t offset = load<uint64_t>(in, e + 8), stored = load<uint64_t>(in, e + 16),
                       size = load<uint64_t>(in, e + 24);
        raw[i].resize(size);
        if (flags & 1u) {
            if (ZSTD_decompress(raw[i].data(), size, in.data() + offset, stored) != size) fail("zstd");
        } else {
            std::memcpy(raw[i].data(), in.data() + offset, size);
        }
        if (edit) edit(std::string(reinterpret_cast<const char*>(in.data() + e), 4), raw[i]);
    }
    Bytes out(in.begin(), in.begin() + 48);
    out.insert(out.end(), table.begin(), table.end());
    for (uint32_t i = 0; i < count; ++i) {
        while (out.size() % 16 != 0) out.push_back(0);
        const size_t e = 48 + size_t(i) * 40;
        store<uint32_t>(out, e + 4, 0);
        store<uint64_t>(out, e + 8, out.size());
        store<uint64_t>(out, e + 16, raw[i].size());
        store<uint64_t>(out, e + 24, raw[i].size());
        store<uint64_t>(out, e + 32, throng::throngChecksum(raw[i].data(), raw[i].size()));
        out.insert(out.end(), raw[i].begin(), raw[i].end());
    }
    store<uint64_t>(out, 16, out.size());
    const uint64_t sum =
        throng::throngChecksum(out.data() + 48, size_t(count) * 40, throng::throngChecksum(out.data(), 24));
    store<uint64_t>(out, 24, sum);
    return out;
}

void assimpSeed(const fs::path& path, Ext ext, const std::string& text) { writeText(path, std::string(1, ext) + text); }

const char* const kRigSmd =
    "version 1\nnodes\n0 \"root\" -1\n1 \"bone\" 0\nend\nskeleton\ntime 0\n0 0 0 0 0 0 0\n1 0 1 0 0 0 0\n"
    "time 1\n0 0 0 0 0 0 0\n1 0 1 0 0 0 1.5708\nend\ntriangles\nstrip\n"
    "0 0 0 0 0 0 1 0 0 1 0 1\n0 1 0 0 0 0 1 1 0 1 0 1\n0 0 1 0 0 0 1 0 1 2 0 0.5 1 0.5\n"
    "strip\n0 0 1 0 0 0 1 0 1 2 0 0.5 1 0.5\n0 1 0 0 0 0 1 1 0 1 0 1\n1 1 1 0 0 0 1 1 1 1 1 1\n"
    "strip\n1 0 2 0 0 0 1 0 1 1 1 1\n1 0 1 0 0 0 1 0 1 2 0 0.5 1 0.5\n1 1 1 0 0 0 1 1 1 1 1 1\nend\n";

} // namespace corpus

namespace {

using namespace corpus;

void throngSeeds(const fs::path& dir) {
    throng::Result<throng::Model> fish = throng::makeBuiltin("fish");
    if (!fish) fail("builtin:fish: " + fish.error().message);
    bakeTo(fish.value(), {}, dir / "fish.throng"); // as `throng bake builtin:fish -o fish.throng`

    const throng::Model rig = rigModel();
    throng::BakeOptions options;
    options.fps = 4.0f;
    bakeTo(rig, options, dir / "rig.throng");
    const Bytes raw = uncompressed(readAll(dir / "rig.throng"));
    if (!throng::readThrongBytes(raw)) fail("rig-raw.throng does not read back");
    writeAll(dir / "rig-raw.throng", raw.data(), raw.size());

    options.fps = 2.0f;
    options.precision = throng::Precision::Float16;
    options.vat = true;
    bakeTo(rigModel({.interpolation = "CUBICSPLINE"}), options, dir / "rig-cubic-half-vat.throng");

    // Root motion and events (sections ROOT and EVNT), uncompressed.
    throng::BakeOptions motion;
    motion.fps = 4.0f;
    motion.lods = 1;
    motion.root_motion = rig.skeleton.names[0];
    motion.events[rig.clips.at(0).name] = {{0.0f, "start"}, {0.25f, "tick"}};
    bakeTo(rig, motion, dir / "rig-root-events.throng");
    const Bytes motion_raw = uncompressed(readAll(dir / "rig-root-events.throng"));
    writeAll(dir / "rig-root-events.throng", motion_raw.data(), motion_raw.size());

    // A part in a slot (section PART) and a look (section LOOK: a material of its own, two
    // colours, each with a texture: section LKTX; the textures' bytes need not decode), uncompressed.
    throng::Model parted = rig;
    parted.parts = {throng::Part{"half", "look", 0.5f, 0, uint32_t(rig.meshes.size())}};
    parted.materials.push_back(throng::Material{"dyed", glm::vec4(1.0f), -1});
    for (throng::Mesh& m : parted.meshes) {
        if (m.submeshes.empty()) m.submeshes.push_back({0, uint32_t(m.indices.size()), -1});
        for (throng::Submesh& sub : m.submeshes) sub.material = int32_t(parted.materials.size() - 1);
    }
    const int32_t first_texture = int32_t(parted.textures.size());
    for (const char* name : {"red", "blue"})
        parted.textures.push_back(throng::Texture{name, "image/png", "", {0x89, 'P', 'N', 'G', 13, 10, 26, 10}});
    parted.looks = {throng::Look{"dye",
                                 {uint32_t(parted.materials.size() - 1)},
                                 {{1, 0, 0}, {0, 0, 1}},
                                 {3, 1},
                                 {first_texture, first_texture + 1}}};
    throng::BakeOptions small;
    small.fps = 4.0f;
    small.lods = 1;
    bakeTo(parted, small, dir / "rig-parts.throng");
    const Bytes parts_raw = uncompressed(readAll(dir / "rig-parts.throng"));
    writeAll(dir / "rig-parts.throng", parts_raw.data(), parts_raw.size());

    // Small impostors posed as dual quaternions (sections IMPS and IMSK), uncompressed.
    throng::BakeOptions pictures;
    pictures.fps = 4.0f;
    pictures.lods = 1;
    pictures.impostors = {true, 4, 2, 1, 1.0f, throng::Skinning::DualQuaternion};
    bakeTo(rig, pictures, dir / "rig-impostors-dq.throng");
    const Bytes pictures_raw = uncompressed(readAll(dir / "rig-impostors-dq.throng"));
    writeAll(dir / "rig-impostors-dq.throng", pictures_raw.data(), pictures_raw.size());
}

// --- fuzz_gltf -----------------------------------------------------------------------------

void gltfSeeds(const fs::path& dir) {
    using throng::test::makeRig;
    auto both = [&](const std::string& name, const throng::test::RigOptions& o) {
        makeRig(o).writeGltf((dir / (name + ".gltf")).string());
        makeRig(o).writeGlb((dir / (name + ".glb")).string());
        std::printf("%s.gltf, .glb\n", (dir / name).c_str());
    };
    both("rig", {});
    both("rig-cubic-ushort",
         {.interpolation = "CUBICSPLINE", .weight_type = throng::test::kUShort, .joint_type = throng::test::kUShort});
    both("rig-step-sparse-ubyte",
         {.interpolation = "STEP", .weight_type = throng::test::kUByte, .sparse_position = true});
    makeRig({.skin = false}).writeGltf((dir / "rig-noskin.gltf").string());
    writeText(dir / "minimal.gltf", R"({"asset":{"version":"2.0"}})");
}

// --- fuzz_assimp ---------------------------------------------------------------------------

// The rig of gltf_builder.h (two joints, a six-vertex strip, clip "wave") in Collada 1.4.1.
const char* kRigCollada = R"(<?xml version="1.0" encoding="utf-8"?>
<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">
  <asset><unit name="meter" meter="1"/><up_axis>Y_UP</up_axis></asset>
  <library_geometries>
    <geometry id="strip-mesh" name="strip"><mesh>
      <source id="strip-positions">
        <float_array id="strip-positions-array" count="18">0 0 0 1 0 0 0 1 0 1 1 0 0 2 0 1 2 0</float_array>
        <technique_common><accessor source="#strip-positions-array" count="6" stride="3">
          <param name="X" type="float"/><param name="Y" type="float"/><param name="Z" type="float"/>
        </accessor></technique_common>
      </source>
      <vertices id="strip-vertices"><input semantic="POSITION" source="#strip-positions"/></vertices>
      <triangles count="4"><input semantic="VERTEX" source="#strip-vertices" offset="0"/><p>0 1 2 2 1 3 2 3 4 4 3 5</p></triangles>
    </mesh></geometry>
  </library_geometries>
  <library_controllers>
    <controller id="strip-skin" name="skin"><skin source="#strip-mesh">
      <bind_shape_matrix>1 0 0 0 0 1 0 0 0 0 1 0 0 0 0 1</bind_shape_matrix>
      <source id="skin-joints"><Name_array id="skin-joints-array" count="2">root bone</Name_array>
        <technique_common><accessor source="#skin-joints-array" count="2" stride="1"><param name="JOINT" type="name"/></accessor></technique_common></source>
      <source id="skin-binds"><float_array id="skin-binds-array" count="32">1 0 0 0 0 1 0 0 0 0 1 0 0 0 0 1 1 0 0 0 0 1 0 -1 0 0 1 0 0 0 0 1</float_array>
        <technique_common><accessor source="#skin-binds-array" count="2" stride="16"><param name="TRANSFORM" type="float4x4"/></accessor></technique_common></source>
      <source id="skin-weights"><float_array id="skin-weights-array" count="2">1 0.5</float_array>
        <technique_common><accessor source="#skin-weights-array" count="2" stride="1"><param name="WEIGHT" type="float"/></accessor></technique_common></source>
      <joints><input semantic="JOINT" source="#skin-joints"/><input semantic="INV_BIND_MATRIX" source="#skin-binds"/></joints>
      <vertex_weights count="6">
        <input semantic="JOINT" source="#skin-joints" offset="0"/><input semantic="WEIGHT" source="#skin-weights" offset="1"/>
        <vcount>1 1 2 2 1 1</vcount>
        <v>0 0 0 0 0 1 1 1 0 1 1 1 1 0 1 0</v>
      </vertex_weights>
    </skin></controller>
  </library_controllers>
  <library_animations>
    <animation id="wave" name="wave">
      <source id="wave-input"><float_array id="wave-input-array" count="3">0 1 2</float_array>
        <technique_common><accessor source="#wave-input-array" count="3" stride="1"><param name="TIME" type="float"/></accessor></technique_common></source>
      <source id="wave-output"><float_array id="wave-output-array" count="3">0 90 0</float_array>
        <technique_common><accessor source="#wave-output-array" count="3" stride="1"><param name="ANGLE" type="float"/></accessor></technique_common></source>
      <source id="wave-interpolation"><Name_array id="wave-interpolation-array" count="3">LINEAR LINEAR LINEAR</Name_array>
        <technique_common><accessor source="#wave-interpolation-array" count="3" stride="1"><param name="INTERPOLATION" type="name"/></accessor></technique_common></source>
      <sampler id="wave-sampler"><input semantic="INPUT" source="#wave-input"/><input semantic="OUTPUT" source="#wave-output"/><input semantic="INTERPOLATION" source="#wave-interpolation"/></sampler>
      <channel source="#wave-sampler" target="bone/rotateZ.ANGLE"/>
    </animation>
  </library_animations>
  <library_visual_scenes>
    <visual_scene id="scene" name="scene">
      <node id="root" name="root" sid="root" type="JOINT">
        <node id="bone" name="bone" sid="bone" type="JOINT"><translate sid="translate">0 1 0</translate><rotate sid="rotateZ">0 0 1 0</rotate></node>
      </node>
      <node id="body" name="body" type="NODE"><instance_controller url="#strip-skin"><skeleton>#root</skeleton></instance_controller></node>
    </visual_scene>
  </library_visual_scenes>
  <scene><instance_visual_scene url="#scene"/></scene>
</COLLADA>
)";

void assimpSeeds(const fs::path& dir) {
    assimpSeed(dir / "rig.dae", Dae, kRigCollada);
    assimpSeed(dir / "quad.obj", Obj,
               "o quad\nv 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nvt 0 0\nvt 1 0\nvt 0 1\nvt 1 1\nvn 0 0 1\n"
               "f 1/1/1 2/2/1 3/3/1\nf 3/3/1 2/2/1 4/4/1\n");
    assimpSeed(dir / "triangle.ply", Ply,
               "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\n"
               "element face 1\nproperty list uchar int vertex_indices\nend_header\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n");
    assimpSeed(dir / "triangle.stl", Stl,
               "solid t\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\n"
               "endsolid t\n");
    assimpSeed(
        dir / "quad.x", X,
        "xof 0303txt 0032\nFrame Root {\n FrameTransformMatrix {\n  1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,0.0,0.0,1.0,0.0,"
        "0.0,0.0,0.0,1.0;;\n }\n Mesh quad {\n  4;\n  0.0;0.0;0.0;,\n  1.0;0.0;0.0;,\n  0.0;1.0;0.0;,\n  "
        "1.0;1.0;0.0;;\n"
        "  2;\n  3;0,1,2;,\n  3;2,1,3;;\n }\n}\n");
    assimpSeed(dir / "quad.off", Off, "OFF\n4 2 0\n0 0 0\n1 0 0\n0 1 0\n1 1 0\n3 0 1 2\n3 2 1 3\n");
    assimpSeed(dir / "wave.bvh", Bvh,
               "HIERARCHY\nROOT root\n{\n OFFSET 0 0 0\n CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation "
               "Yrotation\n JOINT bone\n {\n  OFFSET 0 1 0\n  CHANNELS 3 Zrotation Xrotation Yrotation\n  End Site\n  "
               "{\n   OFFSET 0 1 0\n  }\n }\n}\nMOTION\nFrames: 2\nFrame Time: 1\n0 0 0 0 0 0 0 0 0\n"
               "0 0 0 0 0 0 90 0 0\n");
    assimpSeed(dir / "rig.smd", Smd, kRigSmd);
}

// --- fuzz_cli ------------------------------------------------------------------------------

void cliSeeds(const fs::path& dir) {
    const std::vector<std::pair<std::string, std::vector<std::string>>> lines = {
        {"help", {"--help"}},
        {"version", {"--version"}},
        {"info", {"info", "--json", "builtin:fish"}},
        {"animate", {"animate", "builtin:walker", "--clip", "walk", "--frames", "10"}},
        {"bake", {"bake", "builtin:walker", "-o", "walker.throng", "--fps", "12.5", "--precision", "half", "--vat"}},
        {"render", {"render", "--technique", "baked", "--time", "nan"}},
        {"render-all", {"render",      "--model",     "walker.throng",
                        "--instances", "2000",        "--technique",
                        "palette",     "--encoding",  "quat",
                        "--size",      "960x540",     "--seed",
                        "7",           "--frames",    "2",
                        "--fps",       "30",          "--precision",
                        "float",       "--animation", "texel-buffer",
                        "--out",       "a.png"}},
        {"render-swim",
         {"render", "--model", "builtin:fish", "--technique", "procedural", "--swim",
          "side=0.04,pivot=0.12,wave=0.12,twist=0.25,frequency=3.14,beats=1.5,mask_head=0.6,mask_tail=-0.6"}},
        {"bench",
         {"bench", "--techniques", "baked@image,palette@quat,bonetex@half,cpu", "--instances", "100,1000", "--frames",
          "10", "--warmup", "3", "--size", "64x64", "--json", "b.json", "--csv", "b.csv"}},
        {"view",
         {"view", "builtin:fish", "--technique", "vat", "--present", "mailbox", "--exec",
          "technique cpu; wait 10; screenshot a.png", "--frames", "30", "--console"}},
        {"bad-count", {"render", "--instances", "-1", "--size", "16x99999"}},
    };
    for (const auto& [name, words] : lines) {
        std::string text;
        for (const std::string& w : words) text += (text.empty() ? "" : "\n") + w;
        writeText(dir / name, text);
    }
}

void kitSeeds(const fs::path& dir) {
    writeText(dir / "builtin-parts.json", R"({"base": "builtin:walker", "parts": [
  {"name": "hat", "model": "builtin:hat", "slot": "head", "share": 0.4, "joint": "head", "offset": [0, 0.2, 0]},
  {"name": "big hat", "model": "builtin:hat", "slot": "head", "share": 0.2, "joint": "head",
   "offset": [0, 0.2, 0, 0, 45, 0, 1.5]},
  {"model": "builtin:sword", "share": 0.3, "joint": "hand_r", "offset": [0, 0, 0, 20, 0, 0]},
  {"model": "coat.glb", "slot": "top", "share": 1}]})");
    writeText(dir / "base-only.json", R"({"base": "rig.glb"})");
    writeText(dir / "looks.json", R"({"base": "builtin:walker", "looks": [
  {"name": "dye", "materials": ["walker"], "colors": ["#b35045", [0.05, 0.08, 0.25], "#ffffff"], "shares": [2, 1, 1]},
  {"name": "hat", "materials": ["hat", "walker"], "colors": [[1, 1, 1]]},
  {"name": "print", "materials": ["walker"], "textures": ["a.png", "b.jpg"], "shares": [1, 3]}]})");
    writeText(dir / "bad-share.json", R"({"base": "a", "parts": [{"model": "b", "slot": "s", "share": 0.75},
  {"model": "c", "slot": "s", "share": 0.5}]})");
}

// --- the shared models --------------------------------------------------------------------

// Real files from elsewhere as replay inputs (up to 1 MB each): glTF as they are, Collada and FBX
// behind fuzz_assimp's selector byte.
void sharedSeeds(const fs::path& assets, const fs::path& out) {
    std::vector<fs::path> files;
    for (const fs::directory_entry& e : fs::recursive_directory_iterator(assets))
        if (e.is_regular_file() && e.file_size() <= (1u << 20)) files.push_back(e.path());
    std::sort(files.begin(), files.end());
    for (const fs::path& f : files) {
        const std::string ext = f.extension().string();
        const std::string name = "shared-" + f.filename().string();
        if (ext == ".glb" || ext == ".gltf") {
            const Bytes b = readAll(f);
            writeAll(out / "fuzz_gltf" / name, b.data(), b.size());
        } else if (ext == ".dae" || ext == ".fbx") {
            Bytes b = readAll(f);
            b.insert(b.begin(), uint8_t(ext == ".dae" ? Dae : 5)); // kExtensions[5] is .fbx
            writeAll(out / "fuzz_assimp" / name, b.data(), b.size());
        }
    }
}

} // namespace

int main(int argc, char** argv) {
    if (argc != 2 && argc != 3) fail("usage: fuzz_corpus_gen OUT_DIR [ASSETS_DIR]");
    const fs::path out = argv[1];
    for (const char* t : {"fuzz_throng", "fuzz_gltf", "fuzz_assimp", "fuzz_cli", "fuzz_kit"})
        fs::create_directories(out / t);
    throngSeeds(out / "fuzz_throng");
    gltfSeeds(out / "fuzz_gltf");
    assimpSeeds(out / "fuzz_assimp");
    cliSeeds(out / "fuzz_cli");
    kitSeeds(out / "fuzz_kit");
    writeRegressions(out / "regressions");
    if (argc == 3) {
        if (!fs::is_directory(argv[2])) fail(std::string("no folder ") + argv[2]);
        sharedSeeds(argv[2], out);
    }
    return 0;
}
