// Loading the crowd's source and putting it on the GPU; see scene.h.
#include "scene.h"

namespace throng::view {

Result<Scene> loadScene(const std::string& source, const BakeOptions& bake, const std::vector<std::string>& attach) {
    Result<LoadedAsset> loaded = loadAsset(source, bake);
    if (!loaded) return loaded.error();
    Scene s;
    s.source = source;
    s.bake = bake;
    s.bake.progress = nullptr;
    s.model = std::move(loaded.value().model);
    s.baked = std::move(loaded.value().baked);
    s.attach = attach;
    if (Status a = attachFromText(s.baked, attach); !a) return Error{a.message};
    return s;
}

bool hasVat(const BakedAsset& a) { return !a.vat_f32.empty() || !a.vat_f16.empty(); }

Result<std::unique_ptr<AssetOnGpu>> uploadToGpu(gpu::Allocator& allocator, BakedAsset baked) {
    auto a = std::make_unique<AssetOnGpu>();
    a->baked = std::move(baked);
    Result<render::GpuAsset> g = render::uploadAsset(allocator, a->baked);
    if (!g) return g.error();
    a->gpu = std::move(g).value();
    return a;
}

} // namespace throng::view
