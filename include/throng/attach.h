// throng/attach.h — props that follow a joint of a crowd's model: swords in hands, hats on heads
// (issue #13, part 2; docs/GAME_CROWDS.md).
//
// attachProps() makes a prop (any Model: a file, builtin:sword, builtin:hat) more geometry of
// the crowd's own model: its meshes, in their bind pose, are placed where the joint is in the
// model's bind pose times `offset`, and skinned to that joint alone with weight 1, in submeshes
// of their own. So every technique draws the prop with its own skinning (cpu, palette,
// palette-ubo, bonetex and baked read the joint's matrix; the vertex animation of `vat` is
// extended with the prop's vertices), in the member's own draw: culled with the member, at the
// member's level of detail, casting shadows with it. A prop is drawn whole at the levels whose
// error is under a quarter of its size and not at coarser ones (where it would cover fewer than
// about 4 pixels).
//
// Each member carries a prop or not by a seeded hash of its key (InstanceRecord::key, else its
// index) against the prop's share (throngWears in src/shaders/shared.h, the same on the CPU and
// the GPU); the vertex shader moves a prop's triangles out of view on members without it.
//
// Props in a slot (Attachment::slot; issue #25's kits: hats, hair, bags) are its parts: a member
// wears at most one part of a slot, each part on its share of the members (the shares of a slot
// add up to 1 or less; the rest wear none), chosen by one hash of the key per slot.
//
// Not stored in .throng files: attach after loading (`--attach` in render, bench and view does).
// The compute rasterizer draws a prop's clusters only on the members that carry it (untinted, as
// the hardware path). Left out: impostors (pictures baked without props) show none.
#pragma once

#include <throng/api.h>
#include <throng/baked.h>
#include <throng/result.h>

#include <span>
#include <string>
#include <string_view>
#include <vector>

THRONG_API_BEGIN
namespace throng {

struct Attachment {
    std::string joint;      // a joint of the asset's skinning palette, by name
    Model prop;             // drawn rigid in its bind pose (its skins are ignored), with its materials and textures
    glm::mat4 offset{1.0f}; // the prop's placement in the joint's frame (its bind-pose transform)
    float share = 1.0f;     // of the members that carry it, in [0, 1] (steps of 1/256)
    std::string slot;       // the kit slot it is a part of (empty: none, carried on its own share)
};

// The most props one asset carries, its own parts included (they are numbered in 7 bits).
constexpr uint32_t kMaxProps = kMaxParts;

// Appends each attachment's prop to `asset` (vertices, indices at every level of detail,
// submeshes, textures, the props list), grows every frame bound and the bind bounds by the prop
// where the joint carries it, and extends the vertex animation when the asset has one.
// Errors (one line; `asset` unchanged): no skeleton to name joints by (a .throng file without
// its source animation); no palette joint of that name (the message lists them); a prop with no
// triangles or invalid; more than kMaxProps props; a non-finite offset; a share outside [0, 1];
// past the asset's limits (vertices, texels).
Status attachProps(BakedAsset& asset, std::span<const Attachment> attachments);

// The prop (or part) submesh `submesh` of `asset` belongs to (-1: the model's own), whether it
// belongs to one, and the DrawConstants::draw_bits bits its draws carry (THRONG_DRAW_UNTINTED and
// the prop's wear selector: src/shaders/shared.h; 0 for the model's own).
int32_t propOfSubmesh(const BakedAsset& asset, uint32_t submesh);
// Per vertex of `asset`: the prop (or part) it belongs to, -1 the model's own.
std::vector<int32_t> propOfVertices(const BakedAsset& asset);
bool isPropSubmesh(const BakedAsset& asset, uint32_t submesh);
uint32_t propDrawBits(const BakedAsset& asset, uint32_t submesh);

// Prop `prop`'s wear selector (throngWear: its slot's salt and its interval of 256ths; 0 past
// the props), and whether the member of key `key` wears it (as the shaders decide).
uint32_t propWear(const BakedAsset& asset, uint32_t prop);
// The props as parts (name, slot, share; submeshes as the mesh range), for validateParts.
std::vector<Part> propParts(const BakedAsset& asset);
bool wears(const BakedAsset& asset, uint32_t prop, uint32_t key);

// `--attach JOINT=MODEL[,X,Y,Z[,RX,RY,RZ[,SCALE]]][@SHARE%]`: the joint, the model to load, the
// offset (translation in model units, then rotations in degrees about x, y, z applied in that
// order, then a uniform scale) and the share of members (default 100%).
struct AttachmentSpec {
    std::string joint, model;
    glm::mat4 offset{1.0f};
    float share = 1.0f;
};
Result<AttachmentSpec> parseAttachment(std::string_view text);

// The offset of (X, Y, Z, RX, RY, RZ, SCALE): the translation, then rotations in degrees about
// x, y, z applied in that order, then a uniform scale (as --attach and kit files write it).
glm::mat4 attachmentOffset(const double (&values)[7]);

} // namespace throng
THRONG_API_END
