// props.cpp — builtin:sword and builtin:hat, small rigid props for attachments (throng/attach.h).
//
// Both are valid models on their own (one joint "root", everything rigid on it, no clips), built
// from flat-shaded boxes and capped cylinders with vertex colours, deterministic.
//   sword: the grip centred on the origin, the blade along +z (forward, as models face): grip
//          z -0.10..0, crossguard at z 0, blade z 0..0.75, 0.05 wide, 0.012 thick.
//   hat:   a brim (radius 0.17, 0.012 thick) with its underside at y = 0 and a crown (radius
//          0.105) up to y = 0.13: sits on whatever is under the origin.
#include <throng/builtin.h>

#include <glm/gtc/constants.hpp>

#include <array>
#include <cmath>

namespace throng {
namespace {

void addVertex(Mesh& mesh, const glm::vec3& p, const glm::vec3& n, const glm::vec4& color) {
    mesh.positions.push_back(p);
    mesh.normals.push_back(n);
    mesh.uvs.emplace_back(0.0f);
    mesh.colors.push_back(color);
}

// Two triangles over the quad a b c d (counter-clockwise seen from where `n` points).
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

// A cylinder about +y from y0 to y1 with both caps.
void addCylinder(Mesh& mesh, float radius, float y0, float y1, const glm::vec4& color, int segments = 16) {
    for (int i = 0; i < segments; ++i) {
        const float a0 = glm::two_pi<float>() * float(i) / float(segments);
        const float a1 = glm::two_pi<float>() * float(i + 1) / float(segments);
        const glm::vec3 d0(std::sin(a0), 0.0f, std::cos(a0)), d1(std::sin(a1), 0.0f, std::cos(a1));
        const glm::vec3 n = glm::normalize(d0 + d1);
        addQuad(mesh,
                {d0 * radius + glm::vec3(0, y0, 0), d1 * radius + glm::vec3(0, y0, 0),
                 d1 * radius + glm::vec3(0, y1, 0), d0 * radius + glm::vec3(0, y1, 0)},
                n, color);
        const uint32_t base = uint32_t(mesh.positions.size());
        addVertex(mesh, glm::vec3(0, y1, 0), glm::vec3(0, 1, 0), color); // top fan
        addVertex(mesh, d0 * radius + glm::vec3(0, y1, 0), glm::vec3(0, 1, 0), color);
        addVertex(mesh, d1 * radius + glm::vec3(0, y1, 0), glm::vec3(0, 1, 0), color);
        addVertex(mesh, glm::vec3(0, y0, 0), glm::vec3(0, -1, 0), color); // bottom fan
        addVertex(mesh, d1 * radius + glm::vec3(0, y0, 0), glm::vec3(0, -1, 0), color);
        addVertex(mesh, d0 * radius + glm::vec3(0, y0, 0), glm::vec3(0, -1, 0), color);
        for (uint32_t k = 0; k < 6; ++k) mesh.indices.push_back(base + k);
    }
}

Model rigidModel(const char* name, Mesh mesh) {
    Model model;
    model.source = std::string("builtin:") + name;
    model.format = "built-in (generated)";
    model.skeleton.names = {"root"};
    model.skeleton.parents = {kNoParent};
    model.skeleton.rest = {Transform{}};
    model.palette = {PaletteEntry{0, glm::mat4(1.0f)}};
    model.materials = {Material{name, glm::vec4(1.0f), -1}}; // colour is in the vertices
    mesh.name = name;
    mesh.joints.assign(mesh.positions.size(), glm::u16vec4(0));
    mesh.weights.assign(mesh.positions.size(), glm::vec4(1.0f, 0.0f, 0.0f, 0.0f));
    mesh.submeshes = {Submesh{0, uint32_t(mesh.indices.size()), 0}};
    model.meshes.push_back(std::move(mesh));
    return model;
}

} // namespace

Model makeSword() {
    Mesh mesh;
    const glm::vec4 steel{0.62f, 0.64f, 0.68f, 1.0f}, leather{0.20f, 0.10f, 0.05f, 1.0f},
        brass{0.60f, 0.45f, 0.12f, 1.0f};
    addBox(mesh, {-0.016f, -0.016f, -0.10f}, {0.016f, 0.016f, 0.0f}, leather);  // grip
    addBox(mesh, {-0.09f, -0.014f, 0.0f}, {0.09f, 0.014f, 0.022f}, brass);      // crossguard
    addBox(mesh, {-0.025f, -0.006f, 0.022f}, {0.025f, 0.006f, 0.75f}, steel);   // blade
    addBox(mesh, {-0.022f, -0.022f, -0.125f}, {0.022f, 0.022f, -0.10f}, brass); // pommel
    return rigidModel("sword", std::move(mesh));
}

Model makeHat() {
    Mesh mesh;
    const glm::vec4 felt{0.08f, 0.07f, 0.06f, 1.0f}, band{0.55f, 0.08f, 0.06f, 1.0f};
    addCylinder(mesh, 0.17f, 0.0f, 0.012f, felt);   // brim
    addCylinder(mesh, 0.106f, 0.012f, 0.04f, band); // band
    addCylinder(mesh, 0.105f, 0.04f, 0.13f, felt);  // crown
    return rigidModel("hat", std::move(mesh));
}

} // namespace throng
