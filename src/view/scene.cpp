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
    a->library.asset = std::move(baked);
    Result<render::GpuAsset> g = render::uploadAsset(allocator, a->library.asset);
    if (!g) return g.error();
    a->gpu = std::move(g).value();
    a->library.ranges = a->gpu.ranges;
    return a;
}

Result<std::unique_ptr<AssetOnGpu>> uploadToGpu(gpu::Allocator& allocator, std::vector<BakedAsset> models) {
    if (models.size() == 1) return uploadToGpu(allocator, std::move(models[0]));
    auto a = std::make_unique<AssetOnGpu>();
    a->models = std::move(models);
    std::vector<const BakedAsset*> each;
    for (const BakedAsset& m : a->models) each.push_back(&m);
    Result<render::AssetLibrary> library = render::buildAssetLibrary(each);
    if (!library) return library.error();
    a->library = std::move(library).value();
    Result<render::GpuAsset> g = render::uploadLibrary(allocator, a->library);
    if (!g) return g.error();
    a->gpu = std::move(g).value();
    return a;
}

} // namespace throng::view
