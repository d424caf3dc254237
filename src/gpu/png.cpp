// PNG encoding; the write is io::writeFileAtomic.
#include "png.h"

#include <throng/files.h>

#include <stb/stb_image_write.h>

namespace throng::gpu {

namespace {
void appendBytes(void* context, void* data, int size) {
    auto* out = static_cast<std::vector<uint8_t>*>(context);
    out->insert(out->end(), static_cast<uint8_t*>(data), static_cast<uint8_t*>(data) + size);
}
} // namespace

Status writePng(const std::string& path, const std::vector<uint8_t>& rgba, uint32_t width, uint32_t height) {
    if (rgba.size() != size_t(width) * height * 4 || width == 0 || height == 0)
        return Status::failure("image size mismatch");
    std::vector<uint8_t> encoded;
    if (stbi_write_png_to_func(appendBytes, &encoded, int(width), int(height), 4, rgba.data(), int(width * 4)) == 0)
        return Status::failure("PNG encoding failed");
    return io::writeFileAtomic(path, encoded.data(), encoded.size());
}

} // namespace throng::gpu
