// kit.cpp — builtin:kit, the walker with parts in four slots (throng/builtin.h; issue #25's kits).
//
// Every part is one mesh of flat-coloured shapes (shapes.h) in the walker's bind pose, skinned
// rigidly (weight 1) to the joint it sits on: hair, hats and face pieces to `head`, bags to
// `chest`. Each slot's shares add up to less than 1: the rest of the members wear none of it.
// Parts keep their own colours (the member's tint is the body's).
//
// Looks (throng/looks.h): the walker's body regions become materials of their own (skin, top,
// bottom, shoes, hair: the triangles grouped by their vertices' colours), and four looks colour
// them: skin tones, tops, trousers and hair colours, the hair look also colouring the hair parts
// and the beard (a member's hair, bun and beard are one colour).
#include <throng/builtin.h>

#include "shapes.h"
#include "walker_colors.h"

#include <array>
#include <functional>
#include <string>

namespace throng {
namespace {

using namespace shapes;

struct PartDef {
    const char* slot;
    const char* name;
    float share;
    const char* joint;
    std::function<void(Mesh&)> build;
    bool hair = false; // coloured by the hair look (its vertex colours made white)
};

// The kit's materials: the body's regions, then the parts' (white: their vertex colours show).
enum KitMaterial : uint32_t {
    kSkinMaterial,
    kTopMaterial,
    kBottomMaterial,
    kShoesMaterial,
    kHairMaterial,
    kPartMaterial
};

const glm::vec4 kBrown{0.23f, 0.13f, 0.07f, 1.0f}, kBlond{0.78f, 0.62f, 0.32f, 1.0f}, kBlack{0.05f, 0.05f, 0.06f, 1.0f},
    kRed{0.75f, 0.12f, 0.08f, 1.0f}, kFelt{0.10f, 0.09f, 0.08f, 1.0f}, kBlue{0.12f, 0.25f, 0.62f, 1.0f},
    kSteel{0.55f, 0.57f, 0.60f, 1.0f}, kCanvas{0.42f, 0.45f, 0.28f, 1.0f}, kLeather{0.40f, 0.22f, 0.10f, 1.0f},
    kOrange{0.90f, 0.45f, 0.08f, 1.0f}, kWhite{0.92f, 0.92f, 0.90f, 1.0f}, kGrey{0.35f, 0.35f, 0.37f, 1.0f};

// The head's crown: the walker's head is about 0.18 wide, 0.20 deep, its top at y = 1.80.
void hairCap(Mesh& m, const glm::vec4& c) {
    addEllipsoid(m, {0.0f, 1.685f, 0.008f}, {0.098f, 0.125f, 0.108f}, c, 8, 0.05f);
}

// A cylinder about +y centred on (x, z).
void cylinderAt(Mesh& m, float x, float z, float radius, float y0, float y1, const glm::vec4& c) {
    const size_t first = m.positions.size();
    addCylinder(m, radius, y0, y1, c, 14);
    for (size_t v = first; v < m.positions.size(); ++v) m.positions[v] += glm::vec3(x, 0.0f, z);
}

std::vector<PartDef> kitParts() {
    return {
        {"hair", "short hair", 0.30f, "head", [](Mesh& m) { hairCap(m, kBrown); }, true},
        {"hair", "bun", 0.25f, "head",
         [](Mesh& m) {
             hairCap(m, kBlond);
             addEllipsoid(m, {0.0f, 1.76f, -0.085f}, glm::vec3(0.045f), kBlond, 6);
         },
         true},
        {"hair", "long hair", 0.20f, "head",
         [](Mesh& m) {
             hairCap(m, kBlack);
             addBox(m, {-0.088f, 1.44f, -0.105f}, {0.088f, 1.70f, -0.055f}, kBlack);
         },
         true},
        {"hair", "mohawk", 0.15f, "head",
         [](Mesh& m) {
             addBox(m, {-0.014f, 1.70f, -0.09f}, {0.014f, 1.87f, 0.09f}, kRed);
         }},

        {"hat", "brimmed hat", 0.20f, "head",
         [](Mesh& m) {
             cylinderAt(m, 0.0f, 0.01f, 0.17f, 1.765f, 1.777f, kFelt);
             cylinderAt(m, 0.0f, 0.01f, 0.105f, 1.777f, 1.90f, kFelt);
         }},
        {"hat", "cap", 0.20f, "head",
         [](Mesh& m) {
             addEllipsoid(m, {0.0f, 1.75f, 0.01f}, {0.105f, 0.075f, 0.112f}, kBlue, 8, 0.0f);
             addBox(m, {-0.07f, 1.748f, 0.09f}, {0.07f, 1.758f, 0.19f}, kBlue);
         }},
        {"hat", "top hat", 0.10f, "head",
         [](Mesh& m) {
             cylinderAt(m, 0.0f, 0.01f, 0.14f, 1.77f, 1.78f, kBlack);
             cylinderAt(m, 0.0f, 0.01f, 0.085f, 1.78f, 2.0f, kBlack);
         }},
        {"hat", "helmet", 0.10f, "head",
         [](Mesh& m) {
             addEllipsoid(m, {0.0f, 1.70f, 0.008f}, {0.112f, 0.135f, 0.122f}, kSteel, 8, 0.0f);
         }},

        {"bag", "backpack", 0.25f, "chest",
         [](Mesh& m) {
             addBox(m, {-0.12f, 1.04f, -0.25f}, {0.12f, 1.40f, -0.105f}, kCanvas);
         }},
        {"bag", "satchel", 0.20f, "chest",
         [](Mesh& m) {
             addBox(m, {0.165f, 0.86f, -0.07f}, {0.215f, 1.04f, 0.10f}, kLeather);
             addBox(m, {-0.15f, 1.04f, 0.105f}, {0.20f, 1.08f, 0.125f}, kLeather); // strap
         }},
        {"bag", "tall pack", 0.15f, "chest",
         [](Mesh& m) {
             addBox(m, {-0.10f, 1.00f, -0.27f}, {0.10f, 1.58f, -0.105f}, kOrange);
             cylinderAt(m, 0.0f, -0.19f, 0.06f, 1.58f, 1.66f, kGrey); // bedroll
         }},
        {"bag", "drum", 0.10f, "chest", [](Mesh& m) { cylinderAt(m, 0.0f, 0.24f, 0.12f, 0.95f, 1.10f, kWhite); }},

        {"face", "glasses", 0.25f, "head",
         [](Mesh& m) {
             addBox(m, {-0.075f, 1.69f, 0.095f}, {-0.012f, 1.725f, 0.115f}, kBlack);
             addBox(m, {0.012f, 1.69f, 0.095f}, {0.075f, 1.725f, 0.115f}, kBlack);
             addBox(m, {-0.012f, 1.70f, 0.10f}, {0.012f, 1.71f, 0.11f}, kBlack);
         }},
        {"face", "beard", 0.20f, "head",
         [](Mesh& m) {
             addEllipsoid(m, {0.0f, 1.625f, 0.06f}, {0.072f, 0.065f, 0.06f}, kBrown, 6);
         },
         true},
        {"face", "mask", 0.10f, "head",
         [](Mesh& m) {
             addBox(m, {-0.08f, 1.60f, 0.085f}, {0.08f, 1.67f, 0.112f}, kWhite);
         }},
        {"face", "eye patch", 0.05f, "head",
         [](Mesh& m) {
             addBox(m, {-0.07f, 1.69f, 0.098f}, {-0.02f, 1.725f, 0.116f}, kBlack);
         }},
    };
}

// The walker's one mesh as a submesh per region: each triangle goes to the region most of its
// vertices' colours name (the first vertex's where all three differ); the vertex colours become
// white but the eyes' (dark on the skin's colour), so the looks colour the regions.
void splitBody(Model& model) {
    using namespace walker_colors;
    Mesh& body = model.meshes[0];
    auto region = [](const glm::vec4& c) {
        return c == kShirt      ? kTopMaterial
               : c == kTrousers ? kBottomMaterial
               : c == kShoes    ? kShoesMaterial
               : c == kHair     ? kHairMaterial
                                : kSkinMaterial;
    };
    std::array<std::vector<uint32_t>, kPartMaterial> by_region;
    for (size_t t = 0; t + 2 < body.indices.size(); t += 3) {
        const uint32_t r[3] = {region(body.colors[body.indices[t]]), region(body.colors[body.indices[t + 1]]),
                               region(body.colors[body.indices[t + 2]])};
        const uint32_t chosen = r[1] == r[2] ? r[1] : r[0];
        by_region[chosen].insert(by_region[chosen].end(), body.indices.begin() + t, body.indices.begin() + t + 3);
    }
    body.indices.clear();
    body.submeshes.clear();
    for (uint32_t m = 0; m < by_region.size(); ++m) {
        if (by_region[m].empty()) continue;
        body.submeshes.push_back(Submesh{uint32_t(body.indices.size()), uint32_t(by_region[m].size()), int32_t(m)});
        body.indices.insert(body.indices.end(), by_region[m].begin(), by_region[m].end());
    }
    for (glm::vec4& c : body.colors) c = c == kEyes ? glm::vec4(glm::vec3(kEyes / kSkin), 1.0f) : glm::vec4(1.0f);
}

// Each palette holds the walker's own colour (the skin's third, the others' first).
std::vector<Look> kitLooks() {
    using namespace walker_colors;
    return {
        {"skin",
         {kSkinMaterial},
         {{0.80f, 0.58f, 0.45f},
          {0.68f, 0.45f, 0.32f},
          glm::vec3(kSkin),
          {0.45f, 0.26f, 0.16f},
          {0.30f, 0.17f, 0.10f},
          {0.17f, 0.09f, 0.05f}},
         {}},
        {"top",
         {kTopMaterial},
         {glm::vec3(kShirt),
          {0.05f, 0.08f, 0.25f},
          {0.10f, 0.30f, 0.08f},
          {0.80f, 0.60f, 0.10f},
          {0.80f, 0.80f, 0.78f},
          {0.20f, 0.20f, 0.22f},
          {0.04f, 0.32f, 0.34f},
          {0.25f, 0.07f, 0.35f}},
         {4.0f, 2.0f, 2.0f, 1.0f, 1.0f, 2.0f, 1.0f, 1.0f}},
        {"bottom",
         {kBottomMaterial},
         {glm::vec3(kTrousers), {0.02f, 0.02f, 0.02f}, {0.35f, 0.28f, 0.16f}, {0.20f, 0.20f, 0.22f}},
         {0.40f, 0.25f, 0.20f, 0.15f}},
        {"hair",
         {kHairMaterial},
         {glm::vec3(kHair),
          {0.23f, 0.13f, 0.07f},
          {0.78f, 0.62f, 0.32f},
          {0.012f, 0.012f, 0.014f},
          {0.45f, 0.12f, 0.04f},
          {0.45f, 0.45f, 0.45f}},
         {3.0f, 3.0f, 2.0f, 2.0f, 1.0f, 1.0f}},
    };
}

} // namespace

Model makeKit() {
    using namespace walker_colors;
    Model model = makeWalker();
    model.source = "builtin:kit";
    model.materials = {Material{"skin", glm::vec4(1.0f), -1},   Material{"top", glm::vec4(1.0f), -1},
                       Material{"bottom", glm::vec4(1.0f), -1}, Material{"shoes", kShoes, -1},
                       Material{"hair", glm::vec4(1.0f), -1},   Material{"part", glm::vec4(1.0f), -1}};
    splitBody(model);
    model.looks = kitLooks();
    for (const PartDef& def : kitParts()) {
        uint16_t joint = 0;
        for (uint16_t j = 0; j < model.skeleton.names.size(); ++j)
            if (model.skeleton.names[j] == def.joint) joint = j; // the walker's palette entry j is joint j
        Mesh mesh;
        mesh.name = def.name;
        mesh.skin = 0;
        def.build(mesh);
        mesh.joints.assign(mesh.positions.size(), glm::u16vec4(joint, 0, 0, 0));
        mesh.weights.assign(mesh.positions.size(), glm::vec4(1.0f, 0.0f, 0.0f, 0.0f));
        if (def.hair) mesh.colors.assign(mesh.colors.size(), glm::vec4(1.0f));
        mesh.submeshes = {Submesh{0, uint32_t(mesh.indices.size()), int32_t(def.hair ? kHairMaterial : kPartMaterial)}};
        model.parts.push_back(Part{def.name, def.slot, def.share, uint32_t(model.meshes.size()), 1});
        model.meshes.push_back(std::move(mesh));
    }
    return model;
}

} // namespace throng
