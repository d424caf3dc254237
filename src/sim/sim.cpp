// Settings checks, the integer constants of a step, the initial state, the CPU reference step
// and the records (sim.h). The step itself is src/shaders/sim_member.h, shared with the GPU.
#include "sim.h"

#include <throng/root_motion.h>

#include "member.h"

#include <glm/gtc/quaternion.hpp>

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdio>
#include <string>

namespace throng::sim {

namespace {

constexpr double kRadiusUnits = double(1 << THRONG_SIM_RADIUS_BITS); // position units per radius
constexpr int64_t kLimit = THRONG_SIM_POSITION_LIMIT;
constexpr int kMaxPerStep = 8192; // speeds and pushes: at most half a radius per step

std::string number(double v) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", v);
    return text;
}

bool finite(const glm::vec3& v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

uint32_t stepQ20(const SimSettings& s) {
    return uint32_t(
        std::clamp<int64_t>(std::llround(double(s.step) * double(THRONG_SIM_TIME_ONE)), 1, THRONG_SIM_TIME_ONE / 8));
}

// SplitMix64 of the seed and the member: the member's random state.
uint32_t memberSeed(uint64_t seed, uint32_t member) {
    uint64_t z = seed * 0x9e3779b97f4a7c15ull + (uint64_t(member) + 1) * 0xd1b54a32d192ed03ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return uint32_t(z ^ (z >> 32));
}

// [0, 1) from the member's random state (the same generator the step uses).
double uniform(uint32_t& rng) { return double(shader::simRandom(rng) >> 8) * (1.0 / 16777216.0); }

// The members' neighbour sums, as sim_step.comp gathers them: the 3 x 3 (x 3) cells around the
// member's, cells of one row read as one range of the sorted members.
shader::SimSums gather(uint32_t i, const shader::MemberState& m, const shader::SimParams& P,
                       const std::vector<uint32_t>& starts, const std::vector<shader::SortedMember>& sorted) {
    shader::SimSums sums = shader::simNoSums();
    const glm::ivec3 p(m.position);
    const glm::uvec3 c = shader::simCellOf(p, P);
    const glm::uvec3 lo(c.x > 0 ? c.x - 1 : 0, c.y > 0 ? c.y - 1 : 0, c.z > 0 ? c.z - 1 : 0);
    const glm::uvec3 hi(std::min(c.x + 1, P.grid_dims.x - 1), std::min(c.y + 1, P.grid_dims.y - 1),
                        std::min(c.z + 1, P.grid_dims.z - 1));
    const bool planar = P.kind == THRONG_SIM_KIND_WALKERS;
    for (uint32_t z = lo.z; z <= hi.z; ++z)
        for (uint32_t y = lo.y; y <= hi.y; ++y) {
            const uint32_t row = (z * P.grid_dims.y + y) * P.grid_dims.x;
            for (uint32_t k = starts[row + lo.x]; k < starts[row + hi.x + 1]; ++k) {
                const shader::SortedMember& o = sorted[k];
                const uint32_t j = uint32_t(o.position.w);
                if (j == i) continue;
                shader::simAccumulate(sums, p, i, glm::ivec3(o.position), glm::ivec3(o.velocity), j, planar,
                                      P.separation);
            }
        }
    return sums;
}

} // namespace

double stepSeconds(const SimSettings& s) { return double(stepQ20(s)) / double(THRONG_SIM_TIME_ONE); }

uint32_t modelCount(const SimSettings& s) { return std::max<uint32_t>(uint32_t(s.models.size()), 1u); }

SimSettings modelSettings(const SimSettings& s, uint32_t model) {
    if (s.models.empty()) return s;
    SimSettings out = s;
    out.models.clear();
    const ModelGait& g = s.models[std::min<size_t>(model, s.models.size() - 1)];
    out.slots = g.slots;
    out.walk_speed = g.walk_speed;
    out.run_speed = g.run_speed;
    out.scale = g.scale;
    return out;
}

Status validate(const SimSettings& s) {
    auto fail = [](const std::string& m) { return Status::failure("simulation: " + m); };
    if (!s.models.empty()) { // each model's settings
        if (s.models.size() > THRONG_MAX_ASSETS)
            return fail(std::to_string(s.models.size()) + " models, past " + std::to_string(THRONG_MAX_ASSETS));
        for (uint32_t m = 0; m < s.models.size(); ++m)
            if (Status st = validate(modelSettings(s, m)); !st)
                return Status::failure(st.message + " (model " + std::to_string(m) + ")");
        return {};
    }
    const bool walkers = s.kind == Kind::Walkers;
    if (s.kind != Kind::Walkers && s.kind != Kind::School) return fail("unknown kind");
    if (!(s.step > 0.0f && s.step <= 0.125f)) return fail("step " + number(s.step) + " s is outside (0, 1/8]");
    if (!(std::isfinite(s.scale) && s.scale > 0.0f && s.scale <= 1e6f))
        return fail("model scale " + number(s.scale) + " is outside (0, 1e6]");
    if (!(std::isfinite(s.radius) && s.radius > 0.0f))
        return fail("radius " + number(s.radius) + " is not a positive number");
    if (!(s.separation > 0.0f && s.separation <= s.radius))
        return fail("separation " + number(s.separation) + " is outside (0, radius]");
    if (!finite(s.field.min) || !finite(s.field.max)) return fail("the field is not finite");
    const glm::vec3 extent = s.field.max - s.field.min;
    if (extent.x < 0.0f || extent.z < 0.0f || (!walkers && extent.y < 0.0f))
        return fail("the field is empty (max < min)");
    const double widest = walkers ? std::max(extent.x, extent.z) : std::max({extent.x, extent.y, extent.z});
    if (widest / s.radius > 65000.0)
        return fail("the field (" + number(widest) + " across) is more than 65,000 radii (" + number(s.radius) +
                    ") wide");
    const double dt = stepSeconds(s);
    const double half_radius = 0.5 * s.radius;
    auto perStep = [&](const char* name, float speed) -> Status {
        if (!(std::isfinite(speed) && speed >= 0.0f))
            return fail(std::string(name) + " " + number(speed) + " is not a non-negative number");
        if (speed * dt > half_radius)
            return fail(std::string(name) + " " + number(speed) + " moves more than half a radius per step");
        return {};
    };
    auto perStep2 = [&](const char* name, float accel) -> Status {
        if (!(std::isfinite(accel) && accel >= 0.0f))
            return fail(std::string(name) + " " + number(accel) + " is not a non-negative number");
        if (accel * dt * dt > half_radius)
            return fail(std::string(name) + " " + number(accel) +
                        " changes the speed by more than half a radius per step");
        return {};
    };
    if (Status st = perStep("max_speed", s.max_speed); !st) return st;
    if (Status st = perStep("min_speed", s.min_speed); !st) return st;
    if (s.min_speed > s.max_speed) return fail("min_speed is above max_speed");
    if (Status st = perStep2("max_accel", s.max_accel); !st) return st;
    if (!(s.max_rate >= 1.0f && s.max_rate <= 4.0f))
        return fail("max_rate " + number(s.max_rate) + " is outside [1, 4]");
    if (walkers) {
        if (Status st = perStep("push", s.push); !st) return st;
        if (Status st = perStep("walk_speed", s.walk_speed); !st) return st;
        if (Status st = perStep("run_speed", s.run_speed); !st) return st;
        if (s.slots[kWalk].clip < 0) return fail("slot walk has no clip");
        for (const ClipSlot& slot : s.slots) {
            if (slot.clip >= int32_t(THRONG_MAX_CLIPS)) // InstanceRecord::clips holds 12 bits a clip
                return fail("clip " + std::to_string(slot.clip) + " is past " + std::to_string(THRONG_MAX_CLIPS - 1));
            if (!(slot.duration >= 0.0f && slot.duration < 2000.0f))
                return fail("clip duration " + number(slot.duration) + " s is outside [0, 2000)");
            if (Status st = perStep("a natural speed", slot.natural_speed); !st) return st;
        }
        if (!(s.runner_share >= 0.0f && s.runner_share <= 1.0f)) return fail("runner_share is outside [0, 1]");
        if (!(s.sidestep >= 0.0f && s.sidestep <= 1.0f)) return fail("sidestep is outside [0, 1]");
        if (!(s.arrive_radius >= 0.0f && s.arrive_radius <= s.slow_radius && s.slow_radius < 8.0f * s.radius))
            return fail("arrive_radius and slow_radius must satisfy 0 <= arrive <= slow < 8 radii");
        if (!(s.max_wait >= 0.0f && s.max_wait <= 3600.0f)) return fail("max_wait is outside [0, 3600] s");
        if (!(s.turn_rate >= 0.0f && std::isfinite(s.turn_rate))) return fail("turn_rate is not a non-negative number");
        if (!(s.fade_time > 0.0f && std::isfinite(s.fade_time))) return fail("fade_time is not a positive number");
    } else {
        if (Status st = perStep2("push", s.push); !st) return st;
        if (Status st = perStep2("cohesion", s.cohesion); !st) return st;
        if (Status st = perStep2("wall_accel", s.wall_accel); !st) return st;
        if (Status st = perStep("cruise_speed", s.cruise_speed); !st) return st;
        if (!(s.cruise_speed > 0.0f)) return fail("cruise_speed is not positive");
        if (!(s.alignment >= 0.0f && s.alignment * dt <= 1.0)) return fail("alignment is outside [0, 1 / step]");
        if (!(s.cruise_pull >= 0.0f && s.cruise_pull * dt <= 1.0)) return fail("cruise_pull is outside [0, 1 / step]");
        if (!(s.wall_margin > 0.0f && s.wall_margin <= 4.0f * s.radius))
            return fail("wall_margin is outside (0, 4 radii]");
        if (!(s.beats_per_second >= 0.0f && s.beats_per_second * dt <= 0.125))
            return fail("beats_per_second is outside [0, 1/8 per step]");
    }
    return {};
}

Result<shader::SimParams> simParams(const SimSettings& s, uint32_t members) {
    if (Status st = validate(s); !st) return Error{st.message};
    if (members == 0 || members > (1u << 28))
        return Error{"simulation: " + std::to_string(members) + " members is outside 1 .. 2^28"};
    const bool walkers = s.kind == Kind::Walkers;
    shader::SimParams P{};
    const glm::dvec3 centre = (glm::dvec3(s.field.min) + glm::dvec3(s.field.max)) * 0.5;
    P.origin = glm::vec4(glm::vec3(centre), float(double(s.radius) / kRadiusUnits));
    const glm::dvec3 origin(P.origin);
    const double unit = P.origin.w;
    const double dt = stepSeconds(s);
    auto units = [&](double world, int axis) {
        return int32_t(std::clamp<int64_t>(std::llround((world - origin[axis]) / unit), -kLimit, kLimit));
    };
    auto length = [&](double world) { return int32_t(std::clamp<int64_t>(std::llround(world / unit), 0, kLimit)); };
    auto perStep = [&](double speed) {
        return int32_t(std::clamp<int64_t>(std::llround(speed * dt / unit), 0, kMaxPerStep));
    };
    auto perStep2 = [&](double accel) {
        return int32_t(std::clamp<int64_t>(std::llround(accel * dt * dt / unit), 0, kMaxPerStep));
    };

    for (int a = 0; a < 3; ++a) {
        P.field_min[a] = units(s.field.min[a], a);
        P.field_max[a] = units(s.field.max[a], a);
    }
    if (walkers) {
        P.field_min.y = int32_t(-kLimit);
        P.field_max.y = int32_t(kLimit);
    }
    P.grid_min = glm::ivec4(P.field_min.x, walkers ? 0 : P.field_min.y, P.field_min.z, 0);
    const uint64_t cap = s.max_cells > 0 ? s.max_cells : 4ull * members + 4096;
    for (uint32_t shift = THRONG_SIM_RADIUS_BITS;; ++shift) {
        glm::u64vec3 dims;
        for (int a = 0; a < 3; ++a) dims[a] = (uint64_t(int64_t(P.field_max[a]) - P.grid_min[a]) >> shift) + 1;
        if (walkers) dims.y = 1;
        const uint64_t total = dims.x * dims.y * dims.z;
        if (total <= cap || shift >= 30) {
            P.cell_shift = shift;
            P.grid_dims = glm::uvec4(uint32_t(dims.x), uint32_t(dims.y), uint32_t(dims.z), uint32_t(total));
            break;
        }
    }
    P.members = members;
    P.models = modelCount(s);
    P.kind = uint32_t(s.kind);
    P.step_q20 = stepQ20(s);
    P.separation = std::clamp(int32_t(std::llround(double(s.separation) / s.radius * THRONG_SIM_LOCAL_RADIUS)), 1,
                              THRONG_SIM_LOCAL_RADIUS);
    P.push_speed = walkers ? perStep(s.push) : perStep2(s.push);
    P.max_accel = perStep2(s.max_accel);
    P.max_speed = perStep(s.max_speed);
    P.min_speed = perStep(s.min_speed);
    P.rate_max = uint32_t(std::llround(double(s.max_rate) * THRONG_SIM_RATE_ONE));
    if (walkers) {
        uint32_t present = 0;
        for (uint32_t k = 0; k < 3; ++k) {
            const ClipSlot& slot = s.slots[k];
            if (slot.clip >= 0) present |= 1u << k;
            P.clip_index[k] = uint32_t(slot.clip >= 0 ? slot.clip : s.slots[kWalk].clip);
            P.clip_duration[k] = uint32_t(std::llround(double(slot.duration) * THRONG_SIM_TIME_ONE));
            P.natural_speed[k] = perStep(slot.natural_speed);
            if (slot.clip >= 0 && slot.root_motion.size() >= 2 && slot.duration > 0.0f) P.root_slots |= 1u << k;
        }
        P.clip_index.w = present;
        const double walk = P.natural_speed[kWalk] > 0 ? double(P.natural_speed[kWalk]) : double(perStep(s.walk_speed));
        P.thresholds.x = int32_t(std::llround(0.3 * walk));
        P.thresholds.y = int32_t(std::llround(0.15 * walk));
        if (s.slots[kRun].clip >= 0) {
            const double run = P.natural_speed[kRun] > 0
                                   ? double(P.natural_speed[kRun])
                                   : double(perStep(s.run_speed > 0.0f ? s.run_speed : 2.0f * s.walk_speed));
            const double middle = 0.5 * (walk + run);
            P.thresholds.z = int32_t(std::llround(1.1 * middle));
            P.thresholds.w = int32_t(std::llround(0.9 * middle));
        } else {
            P.thresholds.z = 1 << 16; // above any speed: never run
            P.thresholds.w = 0;
        }
        P.sidestep = int32_t(std::llround(double(s.sidestep) * 4096.0));
        P.arrive = length(s.arrive_radius);
        P.slow_radius = std::max(length(s.slow_radius), 1);
        P.wait_steps = uint32_t(std::llround(double(s.max_wait) / dt));
        const double turn = std::min(double(s.turn_rate) * dt, 3.14159265358979);
        P.turn_cos = int32_t(std::llround(std::cos(turn) * THRONG_SIM_ONE));
        P.turn_sin = int32_t(std::llround(std::sin(turn) * THRONG_SIM_ONE));
        P.turn_min_speed = int32_t(std::llround(0.1 * walk));
        P.fade_step = uint32_t(
            std::clamp<int64_t>(std::llround(double(THRONG_SIM_FADE_ONE) * dt / s.fade_time), 1, THRONG_SIM_FADE_ONE));
    } else {
        P.cohesion = perStep2(s.cohesion);
        P.alignment = int32_t(std::llround(double(s.alignment) * dt * 4096.0));
        P.cruise_pull = int32_t(std::llround(double(s.cruise_pull) * dt * 4096.0));
        P.wall_margin = std::max(length(s.wall_margin), 1);
        P.wall_accel = perStep2(s.wall_accel);
        P.beat_q20 = uint32_t(std::llround(double(s.beats_per_second) * dt * THRONG_SIM_TIME_ONE));
        P.beats_per_second = s.beats_per_second;
    }
    return P;
}

const shader::SimModelParams& paramsOf(std::span<const shader::SimModelParams> models, const shader::MemberState& m) {
    return models[std::min<size_t>(shader::simModelOf(m.clips), models.size() - 1)];
}

Result<std::vector<shader::SimModelParams>> modelParams(const SimSettings& s, uint32_t members) {
    if (Status st = validate(s); !st) return Error{st.message};
    std::vector<shader::SimModelParams> out(modelCount(s));
    for (uint32_t m = 0; m < out.size(); ++m) {
        const SimSettings own = modelSettings(s, m);
        Result<shader::SimParams> P = simParams(own, members);
        if (!P) return P.error();
        out[m].params = P.value();
        out[m].params.models = uint32_t(out.size());
        if (s.kind == Kind::School && !s.models.empty()) // the clip a fish's record names
            out[m].params.clip_index = glm::uvec4(glm::uvec3(s.models[m].first_clip), 0u);
        const RootTable root = rootTable(own, out[m].params);
        std::copy(root.begin(), root.end(), out[m].root);
    }
    return out;
}

RootTable rootTable(const SimSettings& s, const shader::SimParams& P) {
    RootTable table{};
    if (s.kind != Kind::Walkers) return table;
    const double unit = P.origin.w;
    constexpr int32_t kTravel = 1 << 19; // |travel| per cycle, so that simRootIn's products fit
    for (uint32_t k = 0; k < 3; ++k) {
        if (((P.root_slots >> k) & 1u) == 0) continue;
        const ClipSlot& slot = s.slots[k];
        BakedClip clip;
        clip.duration = slot.duration;
        clip.loop = false;
        clip.frame_count = uint32_t(slot.root_motion.size());
        clip.root_motion = slot.root_motion;
        const uint32_t d = P.clip_duration[k];
        const uint32_t q = std::max(d / uint32_t(THRONG_SIM_ROOT_SAMPLES), 1u);
        const glm::vec3 end = slot.root_motion.back();
        for (uint32_t i = 0; i <= uint32_t(THRONG_SIM_ROOT_SAMPLES); ++i) {
            const uint32_t q20 = i == uint32_t(THRONG_SIM_ROOT_SAMPLES) ? d : i * q;
            const double t = double(q20) / THRONG_SIM_TIME_ONE;
            const glm::vec3 m = rootMotionAt(clip, t);
            const double steady = slot.duration > 0.0f ? double(end.z) * t / double(slot.duration) : 0.0;
            auto units = [&](float v) {
                return int32_t(std::clamp<int64_t>(std::llround(double(v) / unit), -kTravel, kTravel));
            };
            const float sway = float(double(m.z) - steady);
            table[k * (THRONG_SIM_ROOT_SAMPLES + 1) + i] =
                glm::ivec4(units(m.x), 0, units(m.y), int32_t(glm::floatBitsToUint(sway)));
        }
    }
    return table;
}

double stateTime(const SimState& state, const SimSettings& settings) {
    return state.start_time + double(state.steps) * stepSeconds(settings);
}

float recordTime(const SimState& state, const SimSettings& settings) { return float(stateTime(state, settings)); }

SimState initialState(std::span<const gpu::shader::InstanceRecord> records, const SimSettings& s, double start_time) {
    assert(!records.empty());
    Result<std::vector<shader::SimModelParams>> params = modelParams(s, uint32_t(records.size()));
    assert(params.ok());
    std::vector<SimSettings> own; // per model
    for (uint32_t model = 0; model < modelCount(s); ++model) own.push_back(modelSettings(s, model));
    const shader::SimParams& crowd = params.value()[0].params; // the crowd's fields
    const bool walkers = s.kind == Kind::Walkers;
    const glm::dvec3 origin(crowd.origin);
    const double unit = crowd.origin.w;
    const double dt = stepSeconds(s);
    auto perStep = [&](double speed) { return std::llround(speed * dt / unit); };

    SimState state;
    state.start_time = start_time;
    state.members.resize(records.size());
    for (uint32_t i = 0; i < records.size(); ++i) {
        const gpu::shader::InstanceRecord& r = records[i];
        const uint32_t model = std::min(gpu::shader::throngAssetOf(r.clips), modelCount(s) - 1);
        const shader::SimParams& P = params.value()[model].params;
        const SimSettings& ms = own[model];
        shader::MemberState m{};
        glm::ivec3 p;
        for (int a = 0; a < 3; ++a) {
            const double world = std::isfinite(r.position_scale[a]) ? double(r.position_scale[a]) : origin[a];
            const int64_t u = std::clamp<int64_t>(std::llround((world - origin[a]) / unit), -kLimit, kLimit);
            p[a] = int32_t(std::clamp<int64_t>(u, P.field_min[a], P.field_max[a]));
        }
        const float record_scale =
            std::isfinite(r.position_scale.w) && r.position_scale.w > 0.0f ? r.position_scale.w : 1.0f;
        m.scale = glm::floatBitsToUint(record_scale);
        const double scale = double(record_scale) / double(ms.scale); // the member's own, for its speeds
        m.size = uint32_t(std::clamp<int64_t>(std::llround(scale * THRONG_SIM_RATE_ONE), 1, 4 * THRONG_SIM_RATE_ONE));
        m.color = r.color;
        m.rng = memberSeed(s.seed, i);
        const glm::vec4 xyzw = render::unpackQuaternion(r.orientation);
        const glm::dquat q = glm::normalize(glm::dquat(xyzw.w, xyzw.x, xyzw.y, xyzw.z));
        const glm::dvec3 forward = q * glm::dvec3(0.0, 0.0, 1.0);
        glm::ivec3 v(0);
        int32_t wait = 0;
        if (walkers) {
            const glm::ivec3 h = shader::simNormalize(glm::ivec3(int32_t(std::llround(forward.x * THRONG_SIM_ONE)), 0,
                                                                 int32_t(std::llround(forward.z * THRONG_SIM_ONE))));
            m.heading = h == glm::ivec3(0) ? glm::ivec2(0, THRONG_SIM_ONE) : glm::ivec2(h.x, h.z);
            // The member's clip, where a slot plays it (walk first), else walk.
            const int32_t clip = int32_t(gpu::shader::throngClipA(r.clips));
            uint32_t slot = kWalk;
            for (uint32_t k : {uint32_t(kWalk), uint32_t(kIdle), uint32_t(kRun)})
                if (ms.slots[k].clip == clip) {
                    slot = k;
                    break;
                }
            const bool runner = ms.slots[kRun].clip >= 0 && ms.run_speed > 0.0f && uniform(m.rng) < s.runner_share;
            const double speed =
                runner ? ms.run_speed * (0.9 + 0.2 * uniform(m.rng)) : ms.walk_speed * (0.85 + 0.3 * uniform(m.rng));
            const int32_t preferred = int32_t(std::clamp<int64_t>(perStep(speed * scale), 1, P.max_speed));
            m.goal.x = P.field_min.x + int32_t(shader::simBelow(m.rng, uint32_t(P.field_max.x - P.field_min.x) + 1u));
            m.goal.z = P.field_min.z + int32_t(shader::simBelow(m.rng, uint32_t(P.field_max.z - P.field_min.z) + 1u));
            m.goal.w = preferred;
            if (slot == kIdle)
                wait = 1 + int32_t(shader::simBelow(m.rng, P.wait_steps));
            else
                v = glm::ivec3(m.heading.x, 0, m.heading.y) * preferred / THRONG_SIM_ONE;
            m.clips = shader::simClips(slot, slot, model);
            const double duration = ms.slots[slot].duration;
            const double t = start_time * r.speed + r.time_offset;
            const double clip_time = duration > 0.0 && std::isfinite(t) ? t - std::floor(t / duration) * duration : 0.0;
            m.anim = uint32_t(std::clamp<int64_t>(std::llround(clip_time * THRONG_SIM_TIME_ONE), 0,
                                                  std::max<int64_t>(int64_t(P.clip_duration[slot]) - 1, 0)));
            m.position = glm::ivec4(p, 0);
            m.velocity = glm::ivec4(v, wait);
            m.rate = shader::simSlotRate(slot, shader::simLength(v), m, P);
        } else {
            const double speed = s.cruise_speed * (0.9 + 0.2 * uniform(m.rng));
            const int32_t cruise = int32_t(
                std::clamp<int64_t>(perStep(speed * scale), std::max(P.min_speed, 1), std::max(P.max_speed, 1)));
            glm::ivec3 dir = shader::simNormalize(glm::ivec3(glm::round(forward * double(THRONG_SIM_ONE))));
            if (dir == glm::ivec3(0)) dir = glm::ivec3(0, 0, THRONG_SIM_ONE);
            v = dir * cruise / THRONG_SIM_ONE;
            m.goal.w = cruise;
            m.clips = shader::simClips(0u, 0u, model);
            const double cycles = start_time * r.speed * s.beats_per_second + r.time_offset;
            const double phase = std::isfinite(cycles) ? cycles - std::floor(cycles) : 0.0;
            m.anim = uint32_t(std::llround(phase * THRONG_SIM_TIME_ONE)) & (THRONG_SIM_TIME_ONE - 1u);
            m.position = glm::ivec4(p, 0);
            m.velocity = glm::ivec4(v, 0);
            m.rate = uint32_t(std::clamp(shader::simLength(v) * THRONG_SIM_RATE_ONE / cruise, THRONG_SIM_RATE_ONE / 4,
                                         int32_t(P.rate_max)));
        }
        state.members[i] = m;
    }
    return state;
}

void stepCpu(SimState& state, const SimSettings& s) {
    const uint32_t n = uint32_t(state.members.size());
    Result<std::vector<shader::SimModelParams>> params = modelParams(s, n);
    assert(params.ok());
    const std::vector<shader::SimModelParams>& models = params.value();
    const shader::SimParams& P = models[0].params; // the crowd's grid
    // The grid: members sorted by cell, in member order within a cell (a counting sort).
    std::vector<uint32_t> cell(n), starts(size_t(P.grid_dims.w) + 1, 0);
    for (uint32_t i = 0; i < n; ++i) {
        cell[i] = shader::simCellIndex(shader::simCellOf(glm::ivec3(state.members[i].position), P), P);
        ++starts[cell[i] + 1];
    }
    for (size_t c = 1; c < starts.size(); ++c) starts[c] += starts[c - 1];
    std::vector<uint32_t> next(starts.begin(), starts.end() - 1);
    std::vector<shader::SortedMember> sorted(n);
    for (uint32_t i = 0; i < n; ++i) {
        const shader::MemberState& m = state.members[i];
        sorted[next[cell[i]]++] = {glm::ivec4(glm::ivec3(m.position), int32_t(i)),
                                   glm::ivec4(glm::ivec3(m.velocity), 0)};
    }
    for (uint32_t i = 0; i < n; ++i) {
        shader::MemberState& m = state.members[i];
        const shader::SimSums sums = gather(i, m, P, starts, sorted);
        const shader::SimModelParams& own = paramsOf(models, m);
        shader::simStep(m, sums, own.params, own.root);
    }
    ++state.steps;
}

void writeInstances(const SimState& state, const SimSettings& s, std::span<gpu::shader::InstanceRecord> out) {
    assert(out.size() == state.members.size());
    Result<std::vector<shader::SimModelParams>> params = modelParams(s, uint32_t(state.members.size()));
    assert(params.ok());
    const std::vector<shader::SimModelParams>& models = params.value();
    const float time = recordTime(state, s);
    for (size_t i = 0; i < out.size(); ++i) {
        const shader::SimModelParams& own = paramsOf(models, state.members[i]);
        out[i] = shader::simInstance(state.members[i], own.params, time, own.root);
    }
}

} // namespace throng::sim
