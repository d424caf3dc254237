// cpu_animation: import a model, sample every clip at its middle, skin every mesh on the CPU, and
// print how far the skinned vertices lie from the bind pose. Built against an installed throng
// (find_package(throng CONFIG REQUIRED), target throng::offline).
//   cpu_animation MODEL   (a .gltf/.glb/.fbx/.dae file, or builtin:walker)
#include <throng/anim.h>
#include <throng/import.h>

#include <algorithm>
#include <cstdio>
#include <vector>

int main(int argc, char** argv) {
    const char* source = argc > 1 ? argv[1] : "builtin:walker";
    throng::Result<throng::Model> r = throng::importModel(source);
    if (!r) {
        std::fprintf(stderr, "cpu_animation: %s: %s\n", source, r.error().message.c_str());
        return 1;
    }
    const throng::Model& m = r.value();
    std::vector<throng::Transform> local(m.skeleton.size());
    std::vector<glm::mat4> world(m.skeleton.size()), skin(m.palette.size());
    std::vector<glm::vec3> positions, normals;
    std::printf("%s: %zu joints, %zu meshes, %zu clips\n", source, m.palette.size(), m.meshes.size(), m.clips.size());
    for (const throng::Clip& clip : m.clips) {
        throng::SamplingJob{&m.skeleton, &clip, clip.duration * 0.5f, true, local}.run();
        throng::LocalToModelJob{&m.skeleton, local, world}.run();
        throng::SkinningMatricesJob{m.palette, world, skin}.run();
        float travel = 0.0f;
        size_t vertices = 0;
        for (const throng::Mesh& mesh : m.meshes) {
            positions.resize(mesh.positions.size());
            normals.resize(mesh.positions.size());
            throng::SkinningJob{skin, mesh.positions, mesh.normals, mesh.joints, mesh.weights, positions, normals}
                .run();
            for (size_t v = 0; v < positions.size(); ++v)
                travel = std::max(travel, glm::length(positions[v] - mesh.positions[v]));
            vertices += positions.size();
        }
        std::printf("  %-20s at %.3f s: %zu vertices skinned, farthest %.4f from the bind pose\n", clip.name.c_str(),
                    double(clip.duration * 0.5f), vertices, double(travel));
    }
    return 0;
}
