// throng/image.h over the PNG writer of src/gpu.
#include <throng/image.h>

#include "../gpu/png.h"

namespace throng {

Status writePng(const std::string& path, const std::vector<uint8_t>& rgba, uint32_t width, uint32_t height) {
    if (width == 0 || height == 0 || rgba.size() != size_t(width) * height * 4)
        return Status::failure("the picture is not " + std::to_string(width) + " x " + std::to_string(height) +
                               " RGBA pixels");
    return gpu::writePng(path, rgba, width, height);
}

} // namespace throng
