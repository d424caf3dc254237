// shapes.cpp — see shapes.h.
#include "shapes.h"

#include <glm/gtc/constants.hpp>

#include <algorithm>
#include <cmath>

namespace throng::shapes {

void addVertex(Mesh& mesh, const glm::vec3& p, const glm::vec3& n, const glm::vec4& color) {
    mesh.positions.push_back(p);
    mesh.normals.push_back(n);
    mesh.uvs.emplace_back(0.0f);
    mesh.colors.push_back(color);
}

void addQuad(Mesh& mesh, const std::array<glm::vec3, 4>& q, const glm::vec3& n, const glm::vec4& color) {
    const uint32_t base = uint32_t(mesh.positions.size());
    for (const glm::vec3& p : q) addVertex(mesh, p, n, color);
    for (uint32_t i : {0u, 1u, 2u, 0u, 2u, 3u}) mesh.indices.push_back(base + i);
}

void addBox(Mesh& mesh, const glm::vec3& lo, const glm::vec3& hi, const glm::vec4& color) {
    for (int axis = 0; axis < 3; ++axis)
        for (int side = 0; side < 2; ++side) {
            glm::vec3 n(0.0f);
            n[axis] = side ? 1.0f : -1.0f;
            const int u = (axis + 1) % 3, v = (axis + 2) % 3;
            std::array<glm::vec3, 4> q;
            for (int k = 0; k < 4; ++k) {
                glm::vec3 p;
                p[axis] = side ? hi[axis] : lo[axis];
                const bool a = k == 1 || k == 2, b = k >= 2;
                p[u] = a ? hi[u] : lo[u];
                p[v] = b ? hi[v] : lo[v];
                q[k] = p;
            }
            if (!side) std::swap(q[1], q[3]); // keep the winding outward
            addQuad(mesh, q, n, color);
        }
}

void addCylinder(Mesh& mesh, float radius, float y0, float y1, const glm::vec4& color, int segments) {
    // Side: two rings of shared vertices with radial normals (smooth); each cap a fan around its
    // centre with its own ring (a hard edge against the side): 4 * segments + 2 vertices.
    const uint32_t n = uint32_t(segments);
    auto ring = [&](float y, const glm::vec3* cap_normal) {
        for (uint32_t i = 0; i < n; ++i) {
            const float a = glm::two_pi<float>() * float(i) / float(segments);
            const glm::vec3 d(std::sin(a), 0.0f, std::cos(a));
            addVertex(mesh, d * radius + glm::vec3(0.0f, y, 0.0f), cap_normal != nullptr ? *cap_normal : d, color);
        }
    };
    const glm::vec3 up(0.0f, 1.0f, 0.0f), down(0.0f, -1.0f, 0.0f);
    const uint32_t side = uint32_t(mesh.positions.size());
    ring(y0, nullptr);
    ring(y1, nullptr);
    for (uint32_t i = 0; i < n; ++i) {
        const uint32_t j = (i + 1) % n;
        mesh.indices.insert(mesh.indices.end(),
                            {side + i, side + j, side + n + j, side + i, side + n + j, side + n + i});
    }
    const uint32_t top = uint32_t(mesh.positions.size());
    addVertex(mesh, glm::vec3(0.0f, y1, 0.0f), up, color);
    ring(y1, &up);
    for (uint32_t i = 0; i < n; ++i) mesh.indices.insert(mesh.indices.end(), {top, top + 1 + i, top + 1 + (i + 1) % n});
    const uint32_t bottom = uint32_t(mesh.positions.size());
    addVertex(mesh, glm::vec3(0.0f, y0, 0.0f), down, color);
    ring(y0, &down);
    for (uint32_t i = 0; i < n; ++i)
        mesh.indices.insert(mesh.indices.end(), {bottom, bottom + 1 + (i + 1) % n, bottom + 1 + i});
}

void addEllipsoid(Mesh& mesh, const glm::vec3& centre, const glm::vec3& radii, const glm::vec4& color, int rings,
                  float cut) {
    const int segments = 2 * rings;
    const float top = 0.0f, bottom = std::acos(std::clamp(cut, -1.0f, 1.0f)); // polar angle from +y
    const uint32_t base = uint32_t(mesh.positions.size());
    for (int i = 0; i <= rings; ++i) {
        const float theta = top + (bottom - top) * float(i) / float(rings);
        for (int j = 0; j <= segments; ++j) {
            const float phi = glm::two_pi<float>() * float(j) / float(segments);
            const glm::vec3 d(std::sin(theta) * std::sin(phi), std::cos(theta), std::sin(theta) * std::cos(phi));
            addVertex(mesh, centre + d * radii, glm::normalize(d / radii), color);
        }
    }
    const uint32_t row = uint32_t(segments + 1);
    for (int i = 0; i < rings; ++i)
        for (int j = 0; j < segments; ++j) {
            const uint32_t a = base + uint32_t(i) * row + uint32_t(j), b = a + row;
            for (uint32_t k : {a, b, a + 1, a + 1, b, b + 1}) mesh.indices.push_back(k);
        }
}

} // namespace throng::shapes
