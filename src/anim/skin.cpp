// SkinningJob: linear blend skinning in float (the path the CPU technique builds on).
#include <throng/anim.h>

#include <cmath>

namespace throng {

bool SkinningJob::validate() const {
    const size_t n = positions.size();
    if (joints.size() != n || weights.size() != n || out_positions.size() != n) return false;
    if (normals.empty() != out_normals.empty()) return false;
    if (!normals.empty() && (normals.size() != n || out_normals.size() != n)) return false;
    for (const glm::u16vec4& j : joints)
        if (j.x >= matrices.size() || j.y >= matrices.size() || j.z >= matrices.size() || j.w >= matrices.size()) return false;
    return true;
}

bool SkinningJob::run() const {
    if (!validate()) return false;
    const size_t n = positions.size();
    const bool with_normals = !normals.empty();
    for (size_t v = 0; v < n; ++v) {
        const glm::u16vec4 j = joints[v];
        const glm::vec4 w = weights[v];
        // Blend only the affine 3x4 part: the last row of a skinning matrix is (0, 0, 0, 1).
        glm::vec3 c0 = glm::vec3(matrices[j.x][0]) * w.x, c1 = glm::vec3(matrices[j.x][1]) * w.x;
        glm::vec3 c2 = glm::vec3(matrices[j.x][2]) * w.x, c3 = glm::vec3(matrices[j.x][3]) * w.x;
        for (int i = 1; i < 4; ++i) {
            if (w[i] == 0.0f) continue;
            const glm::mat4& m = matrices[j[i]];
            c0 += glm::vec3(m[0]) * w[i];
            c1 += glm::vec3(m[1]) * w[i];
            c2 += glm::vec3(m[2]) * w[i];
            c3 += glm::vec3(m[3]) * w[i];
        }
        const glm::vec3 p = positions[v];
        out_positions[v] = c0 * p.x + c1 * p.y + c2 * p.z + c3;
        if (with_normals) {
            // Cofactor columns = det * inverse transpose: right for non-uniform scale too.
            const glm::vec3 k0 = glm::cross(c1, c2), k1 = glm::cross(c2, c0), k2 = glm::cross(c0, c1);
            const glm::vec3 nrm = normals[v];
            glm::vec3 r = k0 * nrm.x + k1 * nrm.y + k2 * nrm.z;
            if (glm::dot(c0, k0) < 0.0f) r = -r;  // a mirroring matrix: keep the outward side
            const float len = glm::length(r);
            out_normals[v] = len > 0.0f ? r / len : nrm;
        }
    }
    return true;
}

} // namespace throng
