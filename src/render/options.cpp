// The crowd's options (throng/options.h): the names of their choices, the default swim.
#include <throng/options.h>

#include <cstddef>
#include <string>

namespace throng {

namespace {

// The one table of names per enum: toString and parse read it.
template <class E> struct Names {
    E value;
    const char* name;
};
constexpr Names<Skinning> kSkinning[] = {{Skinning::Linear, "linear"}, {Skinning::DualQuaternion, "dual-quaternion"}};
constexpr Names<Raster> kRaster[] = {
    {Raster::Hardware, "hardware"}, {Raster::Compute, "compute"}, {Raster::Auto, "auto"}};
constexpr Names<JointEncoding> kEncoding[] = {{JointEncoding::Matrix, "mat"}, {JointEncoding::Quaternion, "quat"}};
constexpr Names<ViewKind> kView[] = {{ViewKind::Overview, "overview"}, {ViewKind::Street, "street"}};
constexpr Names<AnimationStorage> kStorage[] = {{AnimationStorage::Auto, "auto"},
                                                {AnimationStorage::Image, "image"},
                                                {AnimationStorage::TexelBuffer, "texel-buffer"},
                                                {AnimationStorage::StorageBuffer, "buffer"}};

template <class E, size_t M> const char* nameOf(const Names<E> (&table)[M], E value) {
    for (const Names<E>& n : table)
        if (n.value == value) return n.name;
    return table[0].name;
}

template <class E, size_t M> bool parseName(const Names<E> (&table)[M], std::string_view name, E& value) {
    for (const Names<E>& n : table)
        if (name == n.name) {
            value = n.value;
            return true;
        }
    return false;
}

} // namespace

const char* toString(Skinning skinning) { return nameOf(kSkinning, skinning); }
const char* toString(Raster raster) { return nameOf(kRaster, raster); }
const char* toString(JointEncoding encoding) { return nameOf(kEncoding, encoding); }
bool parseSkinning(std::string_view name, Skinning& skinning) { return parseName(kSkinning, name, skinning); }
bool parseRaster(std::string_view name, Raster& raster) { return parseName(kRaster, name, raster); }
bool parseJointEncoding(std::string_view name, JointEncoding& encoding) { return parseName(kEncoding, name, encoding); }
const char* toString(ViewKind view) { return nameOf(kView, view); }
const char* toString(AnimationStorage storage) { return nameOf(kStorage, storage); }
bool parseViewKind(std::string_view name, ViewKind& view) { return parseName(kView, name, view); }
bool parseAnimationStorage(std::string_view name, AnimationStorage& storage) {
    return parseName(kStorage, name, storage);
}

std::string optionsProblem(const CrowdOptions& o) {
    const auto number = [](auto value) { return std::to_string(static_cast<int>(value)); };
    if (o.skinning > Skinning::DualQuaternion)
        return "skinning " + number(o.skinning) + " is not linear or dual-quaternion";
    if (o.raster > Raster::Auto) return "raster " + number(o.raster) + " is not hardware, compute or auto";
    if (o.encoding > JointEncoding::Quaternion) return "joint encoding " + number(o.encoding) + " is not mat or quat";
    if (o.bone_precision != Precision::Float32 && o.bone_precision != Precision::Float16)
        return "bone precision " + number(o.bone_precision) + " is not float or half";
    if (!(o.cull.lod_error_px >= 0.0f && o.cull.lod_error_px <= 1e4f))
        return "lod_error_px must be 0 to 10000 pixels, not " + std::to_string(o.cull.lod_error_px);
    if (!(o.cull.impostor_px >= 0.0f && o.cull.impostor_px <= 1e4f))
        return "impostor_px must be 0 to 10000 pixels, not " + std::to_string(o.cull.impostor_px);
    if (!(o.cull.splat_px >= 0.0f && o.cull.splat_px <= CullSettings::kMaxSplatPx))
        return "splat_px must be 0 to " + number(CullSettings::kMaxSplatPx) + " pixels, not " +
               std::to_string(o.cull.splat_px);
    if (!(o.cull.hardware_triangle_px >= 0.0f && o.cull.hardware_triangle_px <= 1e6f))
        return "hardware_triangle_px must be 0 to 1000000 pixels, not " + std::to_string(o.cull.hardware_triangle_px);
    return {};
}

SwimParams defaultSwim() {
    // For a body of length 2: a gentle sway, a visible yaw, one wavelength along the body.
    return {0.04f, 0.12f, 0.12f, 0.25f, 3.1415927f, 1.5f, 0.6f, -0.6f};
}

} // namespace throng
