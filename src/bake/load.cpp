// loadAsset: a .throng file as it is, anything else imported and baked; see throng/bake.h.
#include <throng/attach.h>
#include <throng/bake.h>
#include <throng/events.h>
#include <throng/files.h>
#include <throng/format.h>
#include <throng/import.h>

#include <throng/file_kind.h>

#include <filesystem>

namespace throng {

Result<LoadedAsset> loadAsset(const std::string& source, const BakeOptions& options) {
    LoadedAsset loaded;
    // By content (a renamed .throng file is one), and by name (a damaged one gets the reader's
    // error, not an importer's).
    if (io::sniffFileKind(source) == io::FileKind::Throng || std::filesystem::path(source).extension() == ".throng") {
        Result<BakedAsset> r = readThrong(source);
        if (!r) return r.error();
        loaded.baked = std::move(r).value();
        return loaded;
    }
    Result<Model> m = importModel(source);
    if (!m) return m.error();
    loaded.model = std::move(m).value();
    Result<BakedAsset> b = bake(*loaded.model, options);
    if (!b) return b.error();
    loaded.baked = std::move(b).value();
    return loaded;
}

Status eventsFromText(std::span<const std::string> sources, BakeOptions& options) {
    for (const std::string& source : sources) {
        if (source == "auto") {
            options.footsteps = true;
            continue;
        }
        Result<std::vector<uint8_t>> text = io::readRegularFile(source, uint64_t(64) << 20);
        if (!text) return Status::failure(source + ": " + text.error().message);
        Result<std::map<std::string, std::vector<ClipEvent>>> parsed =
            parseEvents(std::string_view(reinterpret_cast<const char*>(text.value().data()), text.value().size()));
        if (!parsed) return Status::failure(source + ": " + parsed.error().message);
        for (auto& [clip, list] : parsed.value()) {
            std::vector<ClipEvent>& to = options.events[clip];
            to.insert(to.end(), list.begin(), list.end());
        }
    }
    return {};
}

Status attachFromText(BakedAsset& asset, std::span<const std::string> attachments) {
    std::vector<Attachment> props;
    for (const std::string& text : attachments) {
        Result<AttachmentSpec> spec = parseAttachment(text);
        if (!spec) return Status::failure(spec.error().message);
        Result<Model> prop = importModel(spec.value().model);
        if (!prop) return Status::failure("--attach " + spec.value().model + ": " + prop.error().message);
        props.push_back({spec.value().joint, std::move(prop).value(), spec.value().offset, spec.value().share});
    }
    return attachProps(asset, props);
}

} // namespace throng
