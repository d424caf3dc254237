// PNG encoding and the atomic write.
#include "png.h"

#include <stb/stb_image_write.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <unistd.h>

namespace throng::gpu {

namespace {
void appendBytes(void* context, void* data, int size) {
    auto* out = static_cast<std::vector<uint8_t>*>(context);
    out->insert(out->end(), static_cast<uint8_t*>(data), static_cast<uint8_t*>(data) + size);
}
} // namespace

Status writeFileAtomically(const std::string& path, const void* bytes, size_t size) {
    const std::string tmp = path + ".tmp-" + std::to_string(::getpid());
    std::FILE* f = std::fopen(tmp.c_str(), "wb");
    if (f == nullptr) return Status::failure(std::string("cannot write: ") + std::strerror(errno));
    const bool written = std::fwrite(bytes, 1, size, f) == size;
    const bool closed = std::fclose(f) == 0;
    if (!written || !closed) {
        std::remove(tmp.c_str());
        return Status::failure(std::string("cannot write: ") + std::strerror(errno));
    }
    std::error_code ec;
    std::filesystem::rename(tmp, path, ec);
    if (ec) {
        std::remove(tmp.c_str());
        return Status::failure("cannot write: " + ec.message());
    }
    return {};
}

Status writePng(const std::string& path, const std::vector<uint8_t>& rgba, uint32_t width, uint32_t height) {
    if (rgba.size() != size_t(width) * height * 4 || width == 0 || height == 0) return Status::failure("image size mismatch");
    std::vector<uint8_t> encoded;
    if (stbi_write_png_to_func(appendBytes, &encoded, int(width), int(height), 4, rgba.data(), int(width * 4)) == 0)
        return Status::failure("PNG encoding failed");
    return writeFileAtomically(path, encoded.data(), encoded.size());
}

} // namespace throng::gpu
