// A model's splat table (shared.h SplatModel; src/render/splats.h), read by the splat pass
// (raster_splat.comp) and the resolve (resolve_body.glsl). Expects shared.h, instance.glsl and
// the table as `splat_models` (SplatModel[]).

// The largest disc radius a splat draws, in pixels (CullSettings::kMaxSplatPx across, with room).
#define THRONG_SPLAT_MAX_RADIUS 8

// The model-space direction of world vector `world` for a member of orientation `q` (unit).
vec3 memberDirection(vec4 q, vec3 world) {
    vec3 d = rotateByQuaternion(vec4(-q.xyz, q.w), world);
    float len = length(d);
    return len > 0.0 ? d / len : vec3(0.0, 0.0, 1.0);
}

struct SplatView {
    float area;   // silhouette, model units^2
    vec3 mean;    // E[n] of the visible normals
    vec3 second;  // E[n n^T]: xx, yy, zz
    vec3 cross_;  // xy, xz, yz
    vec3 shown;   // the mean colour it shows over the body's mean
};

// The silhouette model `model` shows from model-space direction `d` (unit): its table's four
// views around d, weighted bilinearly in azimuth (wrapping) and elevation.
SplatView splatView(uint model, vec3 d) {
    float azimuth = atan(d.x, d.z) * (float(THRONG_SPLAT_AZIMUTHS) / 6.28318531);
    if (azimuth < 0.0) azimuth += float(THRONG_SPLAT_AZIMUTHS);
    float elevation = (asin(clamp(d.y, -1.0, 1.0)) / 3.14159265 + 0.5) * float(THRONG_SPLAT_ELEVATIONS - 1);
    uint a0 = min(uint(azimuth), uint(THRONG_SPLAT_AZIMUTHS - 1)), a1 = (a0 + 1u) % uint(THRONG_SPLAT_AZIMUTHS);
    uint e0 = min(uint(elevation), uint(THRONG_SPLAT_ELEVATIONS - 2)), e1 = e0 + 1u;
    float fa = clamp(azimuth - float(a0), 0.0, 1.0), fe = clamp(elevation - float(e0), 0.0, 1.0);
    uint views[4] = uint[4](e0 * THRONG_SPLAT_AZIMUTHS + a0, e0 * THRONG_SPLAT_AZIMUTHS + a1,
                            e1 * THRONG_SPLAT_AZIMUTHS + a0, e1 * THRONG_SPLAT_AZIMUTHS + a1);
    float weights[4] = float[4]((1.0 - fa) * (1.0 - fe), fa * (1.0 - fe), (1.0 - fa) * fe, fa * fe);
    vec4 r0 = vec4(0.0), r1 = vec4(0.0), r2 = vec4(0.0), r3 = vec4(0.0);
    for (int k = 0; k < 4; ++k) {
        r0 += weights[k] * splat_models[model].views[4u * views[k]];
        r1 += weights[k] * splat_models[model].views[4u * views[k] + 1u];
        r2 += weights[k] * splat_models[model].views[4u * views[k] + 2u];
        r3 += weights[k] * splat_models[model].views[4u * views[k] + 3u];
    }
    SplatView v;
    v.area = r0.x;
    v.mean = r0.yzw;
    v.second = r1.xyz;
    v.cross_ = vec3(r1.w, r2.x, r2.y);
    v.shown = r3.xyz;
    return v;
}

// The mean diffuse light over the view's visible surface for model-space direction `l` toward
// the light: the clamped cosine's second-order spherical-harmonic expansion over the normals'
// moments (splats.h splatDiffuse).
float splatDiffuse(SplatView v, vec3 l) {
    float lml = dot(l * l, v.second) + 2.0 * (l.x * l.y * v.cross_.x + l.x * l.z * v.cross_.y + l.y * l.z * v.cross_.z);
    return clamp(0.25 + 0.5 * dot(v.mean, l) + 0.15625 * (3.0 * lml - 1.0), 0.0, 1.0);
}
