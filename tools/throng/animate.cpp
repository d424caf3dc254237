// `throng animate`: runs the CPU runtime (float jobs) over every clip and compares each skinned
// vertex with the double-precision reference. The main job prints this until the GPU
// renderer exists.
#include "commands.h"

#include <throng/anim.h>
#include <throng/format.h>
#include <throng/import.h>

#include <chrono>
#include <cstdio>

namespace throng::cli {
namespace {

struct ClipReport {
    double max_error = 0.0;  // largest |float - reference| over every vertex and frame
    double max_travel = 0.0; // largest distance a vertex moves from its bind position
    double seconds = 0.0;    // time spent in the float jobs
    uint64_t vertices = 0;   // vertices skinned by the float path
};

ClipReport animateClip(const Model& model, const Clip* clip, int frames) {
    ClipReport r;
    const uint32_t joints = model.skeleton.size();
    std::vector<Transform> local(joints);
    std::vector<glm::mat4> world(joints), skinning(model.palette.size());
    std::vector<glm::vec3> positions, normals;
    const double duration = clip != nullptr ? clip->duration : 0.0;
    for (int f = 0; f < frames; ++f) {
        const double t = duration * f / frames;
        const auto start = std::chrono::steady_clock::now();
        if (clip != nullptr) {
            SamplingJob sampling{&model.skeleton, clip, float(t), true, local};
            sampling.run();
        } else {
            local = model.skeleton.rest;
        }
        LocalToModelJob{&model.skeleton, local, world}.run();
        SkinningMatricesJob{model.palette, world, skinning}.run();
        for (const Mesh& mesh : model.meshes) {
            positions.resize(mesh.positions.size());
            normals.resize(mesh.positions.size());
            SkinningJob{skinning, mesh.positions, mesh.normals, mesh.joints, mesh.weights, positions, normals}.run();
            r.vertices += mesh.positions.size();
        }
        r.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        // The check runs outside the timed part: reference in double, per mesh.
        const std::vector<glm::dmat4> ref = referenceSkinningMatrices(model, clip, t, true);
        for (const Mesh& mesh : model.meshes) {
            positions.resize(mesh.positions.size());
            normals.resize(mesh.positions.size());
            SkinningJob{skinning, mesh.positions, mesh.normals, mesh.joints, mesh.weights, positions, normals}.run();
            const SkinnedVertices exact = referenceSkin(mesh, ref);
            for (size_t v = 0; v < positions.size(); ++v) {
                r.max_error = std::max(r.max_error, glm::length(glm::dvec3(positions[v]) - exact.positions[v]));
                r.max_travel = std::max(r.max_travel, glm::length(exact.positions[v] - glm::dvec3(mesh.positions[v])));
            }
        }
    }
    return r;
}

// A baked .throng file as a model the CPU runtime animates: its source animation (skeleton,
// palette, clips: what bake stores for the techniques that sample poses on the CPU) and its LOD 0
// mesh as one skinned mesh. Files without the source animation are refused.
Result<Model> modelOfBaked(const std::string& source) {
    Result<BakedAsset> read = readThrong(source);
    if (!read) return read.error();
    const BakedAsset& a = read.value();
    if (a.source.empty())
        return Error{"carries no source animation to animate on the CPU (bake it again from its model)"};
    Model m;
    m.source = source;
    m.format = "baked .throng";
    m.skeleton = a.source.skeleton;
    m.palette = a.source.palette;
    m.clips = a.source.clips;
    Mesh mesh;
    mesh.name = "baked";
    for (const BakedVertex& v : a.vertices) {
        mesh.positions.emplace_back(v.position[0], v.position[1], v.position[2]);
        mesh.normals.emplace_back(v.normal[0], v.normal[1], v.normal[2]);
        mesh.joints.emplace_back(v.joints[0], v.joints[1], v.joints[2], v.joints[3]);
        mesh.weights.emplace_back(v.weights[0], v.weights[1], v.weights[2], v.weights[3]);
    }
    for (const BakedSubmesh& sm : a.submeshes) // LOD 0's triangles
        mesh.indices.insert(mesh.indices.end(), a.indices.begin() + sm.first_index,
                            a.indices.begin() + sm.first_index + sm.index_count);
    m.meshes.push_back(std::move(mesh));
    return m;
}

} // namespace

int runAnimate(const AnimateOptions& options) {
    Result<Model> loaded = isThrongFile(options.source) ? modelOfBaked(options.source) : importModel(options.source);
    if (!loaded) {
        printError(options.source, loaded.error().message);
        return 1;
    }
    const Model& model = loaded.value();
    const double diagonal = std::max(double(bindPoseBounds(model).diagonal()), 1e-12);
    std::vector<const Clip*> clips;
    for (const Clip& c : model.clips)
        if (options.clip.empty() || c.name == options.clip) clips.push_back(&c);
    if (!options.clip.empty() && clips.empty()) {
        printError(options.source, "no clip named '" + options.clip + "'");
        return 1;
    }
    if (clips.empty()) clips.push_back(nullptr); // no clips: the rest pose
    std::printf("%s: CPU animation of %u vertices, %zu palette joints; float path vs double reference\n",
                options.source.c_str(), vertexCount(model), model.palette.size());
    for (const Clip* clip : clips) {
        const ClipReport r = animateClip(model, clip, options.frames);
        std::printf(
            "  %-24s %7.3f s  %4d frames  max error %.2e of diagonal  max travel %.3f of diagonal  %.1f M vertices/s\n",
            clip != nullptr ? clip->name.c_str() : "(rest pose)", clip != nullptr ? double(clip->duration) : 0.0,
            options.frames, r.max_error / diagonal, r.max_travel / diagonal,
            r.seconds > 0.0 ? double(r.vertices) / r.seconds * 1e-6 : 0.0);
    }
    return 0;
}

} // namespace throng::cli
