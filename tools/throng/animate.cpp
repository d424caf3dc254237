// `throng animate`: runs the CPU runtime (float jobs) over every clip and compares each skinned
// vertex with the double-precision reference. The main job prints this until the GPU
// renderer exists.
#include "commands.h"

#include <throng/anim.h>
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

} // namespace

int runAnimate(const AnimateOptions& options) {
    Result<Model> loaded = importModel(options.source);
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
