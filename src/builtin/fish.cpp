// fish.cpp — builtin:fish, the mesh that the procedural technique swims in a vertex shader.
//
// Layout the swim shader relies on: the body lies along z, HEAD AT +z, tail at -z; the z
// extent is exactly [-1, 1] (nose pole at +1, tail-fin lobe tips at -1), the bounding box is
// centred on the origin (y extent exactly [-0.32, 0.32], symmetric in x), and the spine is the
// z axis, so a shader can bend the fish by displacing x as a function of z.
//
// Construction: the body is a loft of elliptical cross-sections along z whose profile tapers
// to the tail (rounded poles at both ends); the tail fin and the dorsal fin are thin closed
// slabs (a polygon outline in the y-z plane extruded a few millimetres in x). Everything is
// rigid on one joint "body", so the model is valid for every technique, not only the swim.
// UVs: on the body u runs around (0 at +x, through +y) and v along the body ((z + 1) / 2);
// the fins are projected on the y-z plane (u = 0.5 + y, v = (z + 1) / 2).
#include <throng/builtin.h>

#include <glm/gtc/constants.hpp>

#include <algorithm>
#include <cmath>
#include <span>
#include <vector>

namespace throng {
namespace {

constexpr int kSegments = 28;         // quads around the body (plus a seam copy for UVs)
constexpr double kRingSpacing = 0.05; // between body rings, in model units
constexpr int kCapRings = 6;          // rings over each rounded pole
constexpr double kEps = 1e-4;         // finite-difference step for the normals

// One station of the body profile: z, half-width (x), half-height (y). Tail first, head
// last; the end stations have zero radius and become rounded poles.
struct Station {
    double z, rx, ry;
};

constexpr Station kBody[] = {
    {-0.80, 0.0, 0.0},   {-0.72, 0.018, 0.035}, {-0.55, 0.035, 0.055}, {-0.25, 0.08, 0.12}, {0.10, 0.12, 0.19},
    {0.40, 0.135, 0.21}, {0.70, 0.12, 0.17},    {0.90, 0.07, 0.09},    {1.00, 0.0, 0.0},
};
constexpr int kStations = int(std::size(kBody));

// Fin outlines in the (z, y) plane, any winding; `centre` must see the whole outline (star
// shaped). The tail lobes reach z = -1 and y = +-0.32 exactly: they set the bounding box.
constexpr glm::dvec2 kTailFin[] = {
    {-0.70, 0.035}, {-0.80, 0.12},  {-0.92, 0.25},  {-1.00, 0.32},  {-0.97, 0.17},  {-0.92, 0.06},   {-0.90, 0.0},
    {-0.92, -0.06}, {-0.97, -0.17}, {-1.00, -0.32}, {-0.92, -0.25}, {-0.80, -0.12}, {-0.70, -0.035},
};
constexpr glm::dvec2 kTailCentre{-0.80, 0.0};
constexpr double kTailHalfThickness = 0.007;

constexpr glm::dvec2 kDorsalFin[] = {
    {0.45, 0.15},  {0.36, 0.22},  {0.24, 0.28}, {0.12, 0.30}, {0.04, 0.27},
    {-0.02, 0.21}, {-0.06, 0.16}, {0.10, 0.13}, {0.30, 0.13},
};
constexpr glm::dvec2 kDorsalCentre{0.18, 0.19};
constexpr double kDorsalHalfThickness = 0.005;

constexpr glm::vec4 kBackColor{0.04f, 0.09f, 0.16f, 1.0f}; // linear RGBA
constexpr glm::vec4 kBellyColor{0.80f, 0.82f, 0.78f, 1.0f};
constexpr glm::vec4 kStripeColor{0.85f, 0.38f, 0.06f, 1.0f};
constexpr glm::vec4 kEyeColor{0.01f, 0.01f, 0.01f, 1.0f};
constexpr glm::vec4 kFinColor{0.70f, 0.42f, 0.10f, 1.0f};
constexpr double kEyeZ = 0.80;
constexpr double kEyeAngle = 0.25; // radians above the side (+x) of the head
constexpr double kEyeRadius = 0.032;

// The body cross-section at fractional station index x in [0, kStations - 1]. The first and
// last intervals are quarter ellipses, so the poles are round rather than pointed; the
// others are cubic Hermite with finite-difference slopes (zero next to the poles), so the
// profile is C1 everywhere.
Station sectionAt(double x) {
    if (x <= 0.0) return kBody[0];
    if (x >= kStations - 1) return kBody[kStations - 1];
    const int k = int(x);
    const double u = x - k;
    const Station& a = kBody[k];
    const Station& b = kBody[k + 1];
    const double phi = u * glm::half_pi<double>();
    if (k == 0) {
        const double c = 1.0 - std::cos(phi), s = std::sin(phi);
        return {a.z + (b.z - a.z) * c, b.rx * s, b.ry * s};
    }
    if (k == kStations - 2) {
        const double c = std::cos(phi), s = std::sin(phi);
        return {a.z + (b.z - a.z) * s, a.rx * c, a.ry * c};
    }
    auto slope = [](int i, double Station::*r) {
        if (i <= 1 || i >= kStations - 2) return 0.0;
        return (kBody[i + 1].*r - kBody[i - 1].*r) / (kBody[i + 1].z - kBody[i - 1].z);
    };
    const double h = b.z - a.z;
    const double h00 = (1 + 2 * u) * (1 - u) * (1 - u), h10 = u * (1 - u) * (1 - u);
    const double h01 = u * u * (3 - 2 * u), h11 = u * u * (u - 1);
    auto hermite = [&](double Station::*r) {
        return h00 * a.*r + h10 * h * slope(k, r) + h01 * b.*r + h11 * h * slope(k + 1, r);
    };
    return {a.z + h * u, hermite(&Station::rx), hermite(&Station::ry)};
}

glm::dvec3 bodyPoint(double x, double theta) {
    const Station s = sectionAt(x);
    return {s.rx * std::cos(theta), s.ry * std::sin(theta), s.z};
}

// The station index whose section lies at z (bisection: z grows with the index).
double stationAtZ(double z) {
    double lo = 0.0, hi = kStations - 1;
    for (int i = 0; i < 48; ++i) {
        const double mid = 0.5 * (lo + hi);
        (sectionAt(mid).z < z ? lo : hi) = mid;
    }
    return lo;
}

// Dark back, light belly, an orange lateral stripe, and a dark eye on each side of the head.
glm::vec4 bodyColor(const glm::dvec3& p, double theta, double eyeStation) {
    const double up = std::sin(theta); // -1 belly .. +1 back
    const double back = glm::smoothstep(-0.35, 0.35, up);
    glm::vec4 c = glm::mix(kBellyColor, kBackColor, float(back));
    const double stripe = 1.0 - glm::smoothstep(0.06, 0.14, std::abs(up - 0.08));
    c = glm::mix(c, kStripeColor, float(stripe * glm::smoothstep(-0.6, -0.3, p.z)));
    double eye = 0.0;
    for (double angle : {kEyeAngle, glm::pi<double>() - kEyeAngle}) {
        const double d = glm::distance(p, bodyPoint(eyeStation, angle)) / kEyeRadius;
        eye = std::max(eye, 1.0 - glm::smoothstep(0.6, 1.0, d));
    }
    return glm::mix(c, kEyeColor, float(eye));
}

void addVertex(Mesh& mesh, const glm::dvec3& p, const glm::dvec3& n, glm::dvec2 uv, glm::vec4 c) {
    mesh.positions.push_back(glm::vec3(p));
    mesh.normals.push_back(glm::vec3(glm::normalize(n)));
    mesh.uvs.push_back(glm::vec2(uv));
    mesh.colors.push_back(c);
}

// The loft: rings of kSegments + 1 vertices (the seam is duplicated for the UVs; the poles
// are rings of coincident vertices, so each fan triangle gets its own u). Normals come from
// the surface itself, cross(dP/dtheta, dP/dx), which points outward because x runs toward
// +z and theta from +x to +y.
void addBody(Mesh& mesh) {
    std::vector<double> rings{0.0};
    for (int k = 0; k + 1 < kStations; ++k) {
        const bool cap = k == 0 || k == kStations - 2;
        const double length = kBody[k + 1].z - kBody[k].z;
        const int n = cap ? kCapRings : std::max(2, int(std::ceil(length / kRingSpacing)));
        for (int i = 1; i <= n; ++i) rings.push_back(k + double(i) / n);
    }
    const uint32_t base = uint32_t(mesh.positions.size());
    const double twoPi = glm::two_pi<double>();
    const double eyeStation = stationAtZ(kEyeZ);
    for (size_t r = 0; r < rings.size(); ++r) {
        const double x = rings[r];
        const double xa = std::max(0.0, x - kEps), xb = std::min(kStations - 1.0, x + kEps);
        for (int j = 0; j <= kSegments; ++j) {
            const double theta = twoPi * (j % kSegments) / kSegments;
            const glm::dvec3 p = bodyPoint(x, theta);
            glm::dvec3 n;
            if (r == 0) {
                n = {0, 0, -1};
            } else if (r + 1 == rings.size()) {
                n = {0, 0, 1};
            } else {
                const glm::dvec3 dx = bodyPoint(xb, theta) - bodyPoint(xa, theta);
                const glm::dvec3 dt = bodyPoint(x, theta + kEps) - bodyPoint(x, theta - kEps);
                n = glm::cross(dt, dx);
            }
            const glm::dvec2 uv{double(j) / kSegments, 0.5 * (p.z + 1.0)};
            addVertex(mesh, p, n, uv, bodyColor(p, theta, eyeStation));
        }
    }
    const uint32_t stride = kSegments + 1;
    for (uint32_t r = 0; r + 1 < rings.size(); ++r) {
        for (uint32_t j = 0; j < uint32_t(kSegments); ++j) {
            const uint32_t v00 = base + r * stride + j, v01 = v00 + 1;
            const uint32_t v10 = v00 + stride, v11 = v10 + 1;
            if (r + 2 < rings.size()) mesh.indices.insert(mesh.indices.end(), {v00, v01, v11});
            if (r > 0) mesh.indices.insert(mesh.indices.end(), {v00, v11, v10});
        }
    }
}

// A thin closed slab: the outline (z, y) extruded to x = +-halfThickness. Two fan-triangulated
// faces with normals +-x, and a rim whose normals lie in the y-z plane, pointing out.
void addFin(Mesh& mesh, std::span<const glm::dvec2> outline, glm::dvec2 centre, double halfThickness) {
    const size_t n = outline.size();
    // Orient the outline counter-clockwise seen from +x (cross(p_i - c, p_i+1 - c).x > 0).
    double area = 0.0;
    for (size_t i = 0; i < n; ++i) {
        const glm::dvec2 a = outline[i] - centre, b = outline[(i + 1) % n] - centre;
        area += a.y * b.x - a.x * b.y; // (y, z) components: y_a z_b - z_a y_b
    }
    std::vector<glm::dvec3> pts; // (0, y, z)
    for (size_t i = 0; i < n; ++i) {
        const glm::dvec2 q = outline[area > 0 ? i : n - 1 - i];
        pts.push_back({0.0, q.y, q.x});
    }
    auto uvOf = [](const glm::dvec3& p) { return glm::dvec2(0.5 + p.y, 0.5 * (p.z + 1.0)); };
    const glm::dvec3 c{0.0, centre.y, centre.x};
    for (double side : {1.0, -1.0}) {
        const uint32_t base = uint32_t(mesh.positions.size());
        const glm::dvec3 off{side * halfThickness, 0.0, 0.0};
        addVertex(mesh, c + off, {side, 0, 0}, uvOf(c), kFinColor);
        for (const glm::dvec3& p : pts) addVertex(mesh, p + off, {side, 0, 0}, uvOf(p), kFinColor);
        for (uint32_t i = 0; i < n; ++i) {
            const uint32_t a = base + 1 + i, b = base + 1 + (i + 1) % uint32_t(n);
            if (side > 0)
                mesh.indices.insert(mesh.indices.end(), {base, a, b});
            else
                mesh.indices.insert(mesh.indices.end(), {base, b, a});
        }
    }
    // Rim: per outline point a (+x, -x) pair; the normal is the in-plane outward normal of
    // the outline tangent, cross(tangent, +x) for a counter-clockwise outline.
    const uint32_t base = uint32_t(mesh.positions.size());
    for (size_t i = 0; i < n; ++i) {
        const glm::dvec3 tangent = pts[(i + 1) % n] - pts[(i + n - 1) % n];
        const glm::dvec3 normal = glm::cross(tangent, glm::dvec3(1, 0, 0));
        for (double side : {1.0, -1.0})
            addVertex(mesh, pts[i] + glm::dvec3(side * halfThickness, 0, 0), normal, uvOf(pts[i]), kFinColor);
    }
    for (uint32_t i = 0; i < n; ++i) {
        const uint32_t t0 = base + 2 * i, b0 = t0 + 1;
        const uint32_t t1 = base + 2 * ((i + 1) % uint32_t(n)), b1 = t1 + 1;
        mesh.indices.insert(mesh.indices.end(), {t0, b0, b1, t0, b1, t1});
    }
}

} // namespace

Model makeFish() {
    Model model;
    model.source = "builtin:fish";
    model.format = "built-in (generated)";
    model.skeleton.names = {"body"};
    model.skeleton.parents = {kNoParent};
    model.skeleton.rest = {Transform{}};
    model.palette = {PaletteEntry{0, glm::mat4(1.0f)}};
    model.materials = {Material{"fish", glm::vec4(1.0f), -1}}; // colour is in the vertices

    Mesh mesh;
    mesh.name = "fish";
    addBody(mesh);
    addFin(mesh, kTailFin, kTailCentre, kTailHalfThickness);
    addFin(mesh, kDorsalFin, kDorsalCentre, kDorsalHalfThickness);
    // Rigid on the body joint: one influence of weight 1 on palette entry 0.
    mesh.joints.assign(mesh.positions.size(), glm::u16vec4(0));
    mesh.weights.assign(mesh.positions.size(), glm::vec4(1.0f, 0.0f, 0.0f, 0.0f));
    mesh.submeshes = {Submesh{0, uint32_t(mesh.indices.size()), 0}};
    model.meshes.push_back(std::move(mesh));
    return model;
}

} // namespace throng
