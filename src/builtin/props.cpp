// props.cpp — builtin:sword and builtin:hat, small rigid props for attachments (throng/attach.h).
//
// Both are valid models on their own (one joint "root", everything rigid on it, no clips), built
// from flat-shaded boxes and capped cylinders with vertex colours, deterministic.
//   sword: the grip centred on the origin, the blade along +z (forward, as models face): grip
//          z -0.10..0, crossguard at z 0, blade z 0..0.75, 0.05 wide, 0.012 thick.
//   hat:   a brim (radius 0.17, 0.012 thick) with its underside at y = 0 and a crown (radius
//          0.105) up to y = 0.13: sits on whatever is under the origin.
#include <throng/builtin.h>

#include "shapes.h"

#include <glm/gtc/constants.hpp>

#include <array>
#include <cmath>

namespace throng {
namespace {

using namespace shapes;

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
