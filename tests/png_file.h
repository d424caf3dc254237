// A PNG read back in a test (stb_image, through throng_texture): a picture throng, its viewer or
// another engine wrote, as RGBA8, top row first.
#pragma once

#include <stb/stb_image.h>

#include <cstdint>
#include <string>
#include <vector>

namespace throng::test {

struct Image {
    int width = 0, height = 0;
    std::vector<uint8_t> rgba; // empty when the file could not be read
};

inline Image loadPng(const std::string& path) {
    Image img;
    int channels = 0;
    stbi_uc* data = stbi_load(path.c_str(), &img.width, &img.height, &channels, 4);
    if (data == nullptr) return img;
    img.rgba.assign(data, data + size_t(img.width) * size_t(img.height) * 4);
    stbi_image_free(data);
    return img;
}

} // namespace throng::test
