// importModel(): checks the file, then dispatches by source kind.
#include <throng/builtin.h>
#include <throng/import.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace throng {

Result<Model> importModel(const std::string& source) {
    constexpr std::string_view kBuiltin = "builtin:";
    if (source.rfind(kBuiltin, 0) == 0) return makeBuiltin(std::string_view(source).substr(kBuiltin.size()));

    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::file_status st = fs::status(source, ec);
    if (ec || !fs::exists(st)) return Error{"cannot open: no such file"};
    if (fs::is_directory(st)) return Error{"is a directory, not a model file"};
    {
        std::ifstream probe(source, std::ios::binary);
        if (!probe) return Error{std::string("cannot open: ") + std::strerror(errno)};
    }
    const uintmax_t size = fs::file_size(source, ec);
    if (ec) return Error{"cannot read its size: " + ec.message()};
    if (size == 0) return Error{"file is empty"};

    std::string ext = fs::path(source).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    if (ext == ".gltf" || ext == ".glb") return importGltf(source);
    return importAssimp(source);
}

} // namespace throng
