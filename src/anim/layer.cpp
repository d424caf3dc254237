// Layered blending of local poses (LayerJob, subtreeMask); see throng/anim.h.
#include <throng/anim.h>

#include <cmath>
#include <cstdlib>

namespace throng {

bool LayerJob::validate() const {
    if (base.size() < joints || layer.size() < joints || output.size() < joints) return false;
    if (!(weight >= 0.0f && weight <= 1.0f)) return false;
    if (!mask.empty()) {
        if (mask.size() < joints) return false;
        for (uint32_t j = 0; j < joints; ++j)
            if (!(mask[j] >= 0.0f && mask[j] <= 1.0f)) return false;
    }
    return true;
}

bool LayerJob::run() const {
    if (!validate()) return false;
    for (uint32_t j = 0; j < joints; ++j) {
        const float w = weight * (mask.empty() ? 1.0f : mask[j]);
        if (w == 0.0f) {
            output[j] = base[j];
            continue;
        }
        if (w == 1.0f) {
            output[j] = layer[j];
            continue;
        }
        const Transform& a = base[j];
        const Transform& b = layer[j];
        const float side = glm::dot(a.rotation, b.rotation) < 0.0f ? -1.0f : 1.0f;
        Transform t;
        t.translation = a.translation + (b.translation - a.translation) * w;
        t.scale = a.scale + (b.scale - a.scale) * w;
        t.rotation = glm::normalize(a.rotation * (1.0f - w) + b.rotation * (side * w));
        output[j] = t;
    }
    return true;
}

std::vector<float> subtreeMask(const Skeleton& skeleton, uint32_t root) {
    std::vector<float> mask(skeleton.size(), 0.0f);
    if (root >= skeleton.size()) return mask;
    // Each joint followed up to its root: any parent order, and at most size() steps, so even a
    // skeleton that fails validate() (a cycle) cannot hang it.
    for (uint32_t j = 0; j < skeleton.size(); ++j) {
        int32_t k = int32_t(j);
        for (uint32_t steps = 0; k != kNoParent && steps <= skeleton.size(); ++steps) {
            if (uint32_t(k) == root) {
                mask[j] = 1.0f;
                break;
            }
            k = skeleton.parents[size_t(k)];
        }
    }
    return mask;
}

namespace {

// `text` as a number in [lo, hi], or false.
bool parseNumber(const std::string& text, double lo, double hi, double& out) {
    // Digits and one point only: no sign, space, exponent, hex or inf.
    if (text.find_first_not_of("0123456789.") != std::string::npos || text.find('.') != text.rfind('.') || text == ".")
        return false;
    char* end = nullptr;
    out = std::strtod(text.c_str(), &end);
    return !text.empty() && *end == '\0' && out >= lo && out <= hi;
}

} // namespace

Result<LayerSpec> parseLayer(std::string_view text) {
    const std::string whole(text);
    auto bad = [&](const std::string& why) {
        return Error{"--layer '" + whole + "': " + why + " (CLIP@JOINT[,WEIGHT][@SHARE%])"};
    };
    LayerSpec spec;
    std::string_view rest = text;
    if (!rest.empty() && rest.back() == '%') {
        const size_t at = rest.rfind('@');
        if (at == std::string_view::npos) return bad("no @JOINT");
        double percent = 0.0;
        if (!parseNumber(std::string(rest.substr(at + 1, rest.size() - at - 2)), 0.0, 100.0, percent))
            return bad("the share is not a percentage from 0 to 100");
        spec.share = float(percent / 100.0);
        rest = rest.substr(0, at);
    }
    const size_t at = rest.rfind('@');
    if (at == std::string_view::npos) return bad("no @JOINT");
    spec.clip = std::string(rest.substr(0, at));
    std::string_view joint = rest.substr(at + 1);
    if (const size_t comma = joint.find(','); comma != std::string_view::npos) {
        double weight = 0.0;
        if (!parseNumber(std::string(joint.substr(comma + 1)), 0.0, 1.0, weight))
            return bad("the weight is not a number from 0 to 1");
        spec.weight = float(weight);
        joint = joint.substr(0, comma);
    }
    spec.joint = std::string(joint);
    if (spec.clip.empty()) return bad("no CLIP");
    if (spec.joint.empty()) return bad("no JOINT");
    return spec;
}

} // namespace throng
