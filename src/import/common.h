// Shared steps of every importer (internal to throng_import).
#pragma once

#include <throng/model.h>

#include <string>
#include <vector>

namespace throng::detail {

struct Influence {
    uint32_t joint = 0; // palette index
    float weight = 0.0f;
};

// Reduces `influences` to the kMaxInfluences largest (ties: lower joint first), drops
// non-positive weights, renormalises to sum 1 and writes them to joints/weights (unused slots:
// joint 0, weight 0). Returns the largest weight that was dropped (0 when none), measured
// after normalising the full set to sum 1. A vertex with no positive weight gets
// weight 1 on `fallback_joint`.
float limitInfluences(std::vector<Influence> influences, uint32_t fallback_joint, glm::u16vec4& joints,
                      glm::vec4& weights);

// Orders a node forest parent-before-child. `parents[i]` is node i's parent or kNoParent.
// On success `order` lists node indices in the new order and `remap[old] = new`.
// Errors: a parent index out of range, or a cycle (names the node).
Status orderParentsFirst(const std::vector<int32_t>& parents, const std::vector<std::string>& names,
                         std::vector<uint32_t>& order, std::vector<int32_t>& remap);

// Model-space rest matrices of the skeleton (rest pose composed through the hierarchy).
std::vector<glm::mat4> restModelMatrices(const Skeleton& skeleton);

// Index of the palette entry (joint, inverse_bind); appended when no identical entry exists.
uint32_t addPaletteEntry(Model& model, uint32_t joint, const glm::mat4& inverse_bind);

// Area-weighted vertex normals from the triangles (for meshes that have none). Only vertices
// from `first_vertex` and triangles from `first_index` on are touched, so a primitive without
// normals can be appended to a mesh whose earlier primitives had them.
void computeNormals(Mesh& mesh, size_t first_vertex = 0, size_t first_index = 0);

// Turns a mesh given in the local space of `joint` into a mesh skinned with weight 1 to a
// palette entry of that joint: positions/normals move to model space with the joint's rest
// model matrix (`rest_model[joint]`), inverse_bind = inverse of that matrix. Sets rigid_joint.
void bindRigidMesh(Model& model, Mesh& mesh, uint32_t joint, const std::vector<glm::mat4>& rest_model);

// Puts a skinned mesh's bind positions in model space. Files store skinned positions in the
// space of the mesh's node (whose transform skinning then ignores), so skinning with the rest
// pose gives B * p rather than p. When every palette entry the mesh uses has the same rest
// skinning matrix B (the rest pose is the bind pose), positions and normals become B * p and the
// entries become (joint, inverse_bind * B^-1): skinning results are unchanged, and the rest pose
// now reproduces the bind positions. Otherwise the mesh stays as it is, with a warning.
void placeSkinnedMeshAtRest(Model& model, Mesh& mesh, const std::vector<glm::mat4>& rest_model);

// Last step of every importer: drops palette entries no mesh uses, clip durations (max key time when a clip says 0), a
// warning for non-uniform scale in the rest pose or in scale tracks, then validate(). Errors carry validate()'s
// message.
Result<Model> finishImport(Model model);

// One line of at most 200 bytes of valid UTF-8 (messages may end up in JSON): parsers' errors can
// quote kilobytes of the file (a whole data URI), including raw bytes. Invalid bytes become '?'.
std::string oneLine(const std::string& in);

} // namespace throng::detail
