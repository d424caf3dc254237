// Image files a model names beside itself; see external_textures.h.
#include "external_textures.h"

#include <throng/files.h>

#include <algorithm>
#include <filesystem>

namespace throng::detail {

namespace fs = std::filesystem;

namespace {

constexpr uint64_t kMaxTextureFileBytes = uint64_t(256) << 20;

// Where to look for `uri`: as given when relative, then its file name, both in `folder`.
std::vector<fs::path> candidates(const fs::path& folder, std::string uri) {
    std::replace(uri.begin(), uri.end(), '\\', '/');
    const fs::path named(uri);
    std::vector<fs::path> out;
    const bool drive = uri.size() > 1 && uri[1] == ':'; // C:/... from another machine
    if (!named.is_absolute() && !drive) out.push_back(folder / named);
    if (named.has_filename() && (out.empty() || named.filename() != named)) out.push_back(folder / named.filename());
    return out;
}

} // namespace

void loadExternalTextures(Model& model, const std::string& model_path) {
    const fs::path folder = fs::path(model_path).parent_path();
    for (Texture& t : model.textures) {
        if (t.uri.empty() || !t.encoded.empty()) continue;
        for (const fs::path& p : candidates(folder.empty() ? fs::path(".") : folder, t.uri)) {
            Result<std::vector<uint8_t>> bytes = io::readRegularFile(p.string(), kMaxTextureFileBytes);
            if (bytes && !bytes.value().empty()) {
                t.encoded = std::move(bytes).value();
                break;
            }
        }
    }
    for (std::string& w : missingTextures(model)) model.warnings.push_back(std::move(w));
}

} // namespace throng::detail
