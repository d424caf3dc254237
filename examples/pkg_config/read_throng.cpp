// read_throng: a program built against an installed throng with pkg-config alone (throng.pc, the
// runtime): read a .throng file and skin its first vertex at the middle of every clip from the
// baked matrices (baked.h's layout), printing how far it moves.
//   c++ -std=c++20 read_throng.cpp $(pkg-config --cflags --libs throng) -o read_throng
//   read_throng FILE.throng
#include <throng/baked.h>
#include <throng/format.h>

#include <cstdio>

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: read_throng FILE.throng\n");
        return 2;
    }
    const throng::Result<throng::BakedAsset> r = throng::readThrong(argv[1]);
    if (!r) {
        std::fprintf(stderr, "read_throng: %s\n", r.error().message.c_str());
        return 1;
    }
    const throng::BakedAsset& a = r.value();
    std::printf("%s: %u joints, %zu vertices, %zu clips\n", argv[1], a.joint_count, a.vertices.size(), a.clips.size());
    if (a.vertices.empty() || a.joint_count == 0) return 1;
    const throng::BakedVertex& v = a.vertices[0];
    const glm::vec4 p(v.position[0], v.position[1], v.position[2], 1.0f);
    for (uint32_t c = 0; c < a.clips.size(); ++c) {
        const uint32_t frame = a.clips[c].frame_count / 2;
        glm::vec3 skinned(0.0f);
        for (int k = 0; k < 4; ++k)
            for (uint32_t row = 0; row < 3; ++row)
                skinned[row] += v.weights[k] * glm::dot(throng::bakedTexel(a, c, frame, v.joints[k], row), p);
        std::printf("  clip %s, frame %u: vertex 0 moved %.3f\n", a.clips[c].name.c_str(), frame,
                    glm::length(skinned - glm::vec3(p)));
    }
    return 0;
}
