// importModel(): checks the file, then dispatches by source kind.
#include <throng/builtin.h>
#include <throng/import.h>
#include <throng/kit.h>

#include "contain.h"
#include "external_textures.h"
#include <throng/file_kind.h>
#include <throng/files.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <filesystem>

namespace throng {

Result<Model> importModel(const std::string& source) {
    constexpr std::string_view kBuiltin = "builtin:";
    if (source.rfind(kBuiltin, 0) == 0) return makeBuiltin(std::string_view(source).substr(kBuiltin.size()));

    namespace fs = std::filesystem;
    // The type first, without opening it: a FIFO or a device given as a model must not hang us.
    if (Status s = io::checkInputFile(source); !s) return Error{s.message};
    std::error_code ec;
    const uintmax_t size = fs::file_size(source, ec);
    if (ec) return Error{"cannot read its size: " + ec.message()};
    if (size == 0) return Error{"file is empty"};
    // By its content: a baked file is not a model (say so rather than let assimp guess at it),
    // a glTF is one whatever its name.
    const io::FileKind kind = io::sniffFileKind(source);
    if (kind == io::FileKind::Throng)
        return Error{"is a baked .throng file, not a model (throng render, bench and view read it)"};

    std::string ext = fs::path(source).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    if (kind == io::FileKind::Glb || kind == io::FileKind::GltfJson) return importGltf(source);
    if (ext == ".json") return importKit(source); // JSON, not glTF: a kit file (throng/kit.h)
    if (ext == ".gltf" || ext == ".glb") return importGltf(source);
    Result<Model> model = detail::importContained(source);
    if (model) detail::loadExternalTextures(model.value(), source);
    return model;
}

} // namespace throng
