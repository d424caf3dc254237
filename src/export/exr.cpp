// EXR encoding; see exr.h.
#include "exr.h"

#include <tinyexr.h>

#include <cstdlib>
#include <cstring>

namespace throng::exporter {

Result<std::vector<uint8_t>> encodeExr(uint32_t width, uint32_t height, const std::vector<float>& f32,
                                       const std::vector<uint16_t>& f16) {
    const bool half = f32.empty();
    const size_t texels = size_t(width) * height;
    if (width == 0 || height == 0 || (half ? f16.size() : f32.size()) != texels * 4)
        return Error{"EXR: " + std::to_string(width) + " x " + std::to_string(height) +
                     " texels do not match the data"};
    // Planar channels in the order the header lists them: A, B, G, R (components 3, 2, 1, 0).
    const size_t bytes = half ? sizeof(uint16_t) : sizeof(float);
    std::vector<std::vector<uint8_t>> planes(4, std::vector<uint8_t>(texels * bytes));
    for (int c = 0; c < 4; ++c) {
        const int component = 3 - c;
        uint8_t* out = planes[c].data();
        for (size_t i = 0; i < texels; ++i) {
            if (half)
                std::memcpy(out + i * bytes, &f16[i * 4 + component], bytes);
            else
                std::memcpy(out + i * bytes, &f32[i * 4 + component], bytes);
        }
    }
    unsigned char* images[4] = {planes[0].data(), planes[1].data(), planes[2].data(), planes[3].data()};
    EXRImage image;
    InitEXRImage(&image);
    image.num_channels = 4;
    image.images = images;
    image.width = int(width);
    image.height = int(height);

    EXRHeader header;
    InitEXRHeader(&header);
    EXRChannelInfo channels[4];
    std::memset(channels, 0, sizeof channels);
    const char* names[4] = {"A", "B", "G", "R"};
    int pixel_types[4], requested[4];
    for (int c = 0; c < 4; ++c) {
        std::strncpy(channels[c].name, names[c], sizeof channels[c].name - 1);
        pixel_types[c] = requested[c] = half ? TINYEXR_PIXELTYPE_HALF : TINYEXR_PIXELTYPE_FLOAT;
    }
    header.num_channels = 4;
    header.channels = channels;
    header.pixel_types = pixel_types;
    header.requested_pixel_types = requested;
    header.compression_type = TINYEXR_COMPRESSIONTYPE_ZIP;

    unsigned char* memory = nullptr;
    const char* err = nullptr;
    const size_t size = SaveEXRImageToMemory(&image, &header, &memory, &err);
    if (size == 0 || memory == nullptr) {
        const std::string message = std::string("EXR: ") + (err != nullptr ? err : "cannot encode");
        if (err != nullptr) FreeEXRErrorMessage(err);
        std::free(memory);
        return Error{message};
    }
    std::vector<uint8_t> out(memory, memory + size);
    std::free(memory);
    return out;
}

} // namespace throng::exporter
