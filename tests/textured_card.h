// A textured test model: a 2 x 2 card in the x-y plane facing +z (4 x 4 quads), UV (x + 1, 1 - y)
// (the texture twice across: REPEAT), white, on one joint, with the texture the test gives as
// RGBA8 texels (encoded as a PNG, as a model file carries it). Shared by the shading and
// impostor tests.
#pragma once

#include <throng/model.h>

#include <stb/stb_image_write.h>

#include <cstdint>
#include <vector>

namespace throng::test {

// `rgba` (width * height * 4, top row first) as a PNG file's bytes.
inline std::vector<uint8_t> encodePng(uint32_t width, uint32_t height, const std::vector<uint8_t>& rgba) {
    std::vector<uint8_t> png;
    stbi_write_png_to_func(
        [](void* context, void* data, int size) {
            auto* out = static_cast<std::vector<uint8_t>*>(context);
            out->insert(out->end(), static_cast<uint8_t*>(data), static_cast<uint8_t*>(data) + size);
        },
        &png, int(width), int(height), 4, rgba.data(), int(width * 4));
    return png;
}

inline Model makeTexturedCard(uint32_t width, uint32_t height, const std::vector<uint8_t>& rgba) {
    Model model;
    model.source = "test:textured-card";
    model.format = "generated";
    model.skeleton.names = {"root"};
    model.skeleton.parents = {-1};
    model.skeleton.rest = {Transform{}};
    model.skins.push_back(Skin{"card", {0}});
    model.palette = {PaletteEntry{0, glm::mat4(1.0f)}};
    model.materials = {Material{"card", glm::vec4(1.0f), 0}};
    model.textures = {Texture{"card", "image/png", "", encodePng(width, height, rgba)}};
    Mesh mesh;
    mesh.name = "card";
    mesh.skin = 0;
    constexpr int kQuads = 4;
    for (int j = 0; j <= kQuads; ++j)
        for (int i = 0; i <= kQuads; ++i) {
            const float x = -1.0f + 2.0f * float(i) / kQuads, y = -1.0f + 2.0f * float(j) / kQuads;
            mesh.positions.emplace_back(x, y, 0.0f);
            mesh.normals.emplace_back(0.0f, 0.0f, 1.0f);
            mesh.uvs.emplace_back(x + 1.0f, 1.0f - y);
            mesh.colors.emplace_back(1.0f);
            mesh.joints.emplace_back(0, 0, 0, 0);
            mesh.weights.emplace_back(1.0f, 0.0f, 0.0f, 0.0f);
        }
    for (int j = 0; j < kQuads; ++j)
        for (int i = 0; i < kQuads; ++i) {
            const uint32_t a = uint32_t(j * (kQuads + 1) + i), b = a + 1, c = a + kQuads + 1, d = c + 1;
            mesh.indices.insert(mesh.indices.end(), {a, b, d, a, d, c}); // counter-clockwise from +z
        }
    mesh.submeshes = {Submesh{0, uint32_t(mesh.indices.size()), 0}};
    model.meshes.push_back(std::move(mesh));
    return model;
}

} // namespace throng::test
