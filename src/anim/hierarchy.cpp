// LocalToModelJob and SkinningMatricesJob: local transforms -> model space -> skinning matrices.
#include <throng/anim.h>

namespace throng {

bool LocalToModelJob::validate() const {
    return skeleton != nullptr && local.size() >= skeleton->size() && output.size() >= skeleton->size();
}

bool LocalToModelJob::run() const {
    if (!validate()) return false;
    const uint32_t n = skeleton->size();
    for (uint32_t j = 0; j < n; ++j) {
        const int32_t p = skeleton->parents[j];
        // Parent-before-child order (a Skeleton invariant) makes one forward pass enough.
        output[j] = p == kNoParent ? toMatrix(local[j]) : output[size_t(p)] * toMatrix(local[j]);
    }
    return true;
}

bool SkinningMatricesJob::validate() const {
    if (output.size() < palette.size()) return false;
    for (const PaletteEntry& e : palette)
        if (e.joint >= model.size()) return false;
    return true;
}

bool SkinningMatricesJob::run() const {
    if (!validate()) return false;
    for (size_t k = 0; k < palette.size(); ++k) output[k] = model[palette[k].joint] * palette[k].inverse_bind;
    return true;
}

} // namespace throng
