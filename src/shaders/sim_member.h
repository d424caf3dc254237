// One member's step of the crowd simulation, written once and compiled twice: by glslc into
// sim_step.comp (and sim_cells.comp, for the cell function) and by the C++ compiler into the CPU
// reference (src/sim/member.h wraps it). Both sides run the same integer arithmetic, so the
// GPU and the CPU give the same states bit for bit.
//
// Expects, before inclusion: shared.h and sim_shared.h; the macros SIM_FN (C++: inline),
// SIM_INOUT(T) (GLSL: inout T, C++: T&), SIM_IN(T) (GLSL: T, C++: const T&) and SIM_PRECISE
// (GLSL: precise, so that no multiply-add is fused in the records; C++: nothing); the root
// motion table's access SIM_ROOT(i) with the parameter SIM_ROOT_PARAM and argument SIM_ROOT_ARG
// that carry it (GLSL: the params buffer's array, nothing; C++: `, const ivec4* sim_root`,
// `, sim_root`); in C++ the GLSL names (ivec3, min, clamp, packHalf2x16, ...) mapped to glm.
//
// Rules that keep both compilers on the same results: integers only for the state (no float
// ever feeds back into it); no signed overflow (every product is bounded in the comment next
// to it, from the limits SimParams promises: |position| <= 2^29, speeds and pushes <= 8192
// units per step, see sim.cpp: simParams); division only by positive numbers; `%` only on
// unsigned values; shifts of signed values are arithmetic in both (C++20, GLSL); no swizzles.
// Floats appear only in simInstance(), whose results go to the renderer and never come back, and
// as simSqrt()'s first guess, which integers then correct to the exact root.
//
// Determinism: a member's neighbour sums (simAccumulate) are integer sums, so the order in
// which the neighbour search visits neighbours (on the GPU decided by atomics) cannot change
// them. Sums could only wrap past 2^31 with more than 2^19 neighbours inside one radius.

// ---- integers ---------------------------------------------------------------------------

// PCG hash step: the member's own random numbers.
SIM_FN uint simRandom(SIM_INOUT(uint) state) {
    state = state * 747796405u + 2891336453u;
    uint word = ((state >> ((state >> 28u) + 4u)) ^ state) * 277803737u;
    return (word >> 22u) ^ word;
}

// A random number in [0, n) (0 when n == 0); always advances the state once.
SIM_FN uint simBelow(SIM_INOUT(uint) state, uint n) {
    uint r = simRandom(state);
    return n == 0u ? 0u : r % n;
}

// floor(sqrt(n)), exactly: the float square root's estimate (within a few units of it), then
// corrected with integers until r * r <= n < (r + 1) * (r + 1). However the device rounds the
// float, the result is the same integer on every device and on the CPU (it replaced a
// digit-by-digit root of 16 rounds).
SIM_FN uint simSqrt(uint n) {
    uint r = min(uint(sqrt(float(n))), 65535u);
    while (r * r > n) r -= 1u; // r <= 65535: r * r < 2^32
    while (r < 65535u && (r + 1u) * (r + 1u) <= n) r += 1u;
    return r;
}

// Contract for the vector functions: no component is -2^31.
SIM_FN uint simMaxAbs(ivec3 v) { return max(max(uint(abs(v.x)), uint(abs(v.y))), uint(abs(v.z))); }

// |v|, to within 2^s of it where v >> s fits in 15 bits (exact below 2^15 per component).
// Contract: |v| < 2^31 (positions are within 2^29, so any difference of two is).
SIM_FN int simLength(ivec3 v) {
    uint m = simMaxAbs(v);
    int s = 0;
    while ((m >> uint(s)) >= 32768u) s += 1;
    ivec3 w = v >> s;                                              // |w| <= 32768
    uint l2 = uint(w.x * w.x) + uint(w.y * w.y) + uint(w.z * w.z); // <= 3 * 2^30
    return int(simSqrt(l2)) << s;
}

// v / |v| as a Q14 vector (length 16384 to within 1); zero for a zero vector.
SIM_FN ivec3 simNormalize(ivec3 v) {
    uint m = simMaxAbs(v);
    if (m == 0u) return ivec3(0);
    ivec3 w = v;
    while (m >= 32768u) {
        w = w >> 1;
        m >>= 1;
    }
    while (m < 16384u) {
        w = w * 2;
        m *= 2u;
    }
    // 16384 <= max |w| <= 32768
    uint l2 = uint(w.x * w.x) + uint(w.y * w.y) + uint(w.z * w.z);
    int l = int(simSqrt(l2));        // >= 16384
    return (w * THRONG_SIM_ONE) / l; // |w * 2^14| <= 2^29
}

// v shortened to `limit` when longer. Contract: 0 <= limit <= 2^16.
SIM_FN ivec3 simClampLength(ivec3 v, int limit) {
    if (simLength(v) <= limit) return v;
    return simNormalize(v) * limit / THRONG_SIM_ONE; // <= 2^14 * 2^16
}

// ---- the neighbour grid -----------------------------------------------------------------

// The cell of a position (clamped into the grid; positions are kept inside the field, which the
// grid covers, so the clamp never moves one).
SIM_FN uvec3 simCellOf(ivec3 p, SIM_IN(SimParams) P) {
    ivec3 c = (p - ivec3(P.grid_min)) >> int(P.cell_shift);
    c = clamp(c, ivec3(0), ivec3(P.grid_dims) - 1);
    return uvec3(c);
}

SIM_FN uint simCellIndex(uvec3 c, SIM_IN(SimParams) P) { return (c.z * P.grid_dims.y + c.y) * P.grid_dims.x + c.x; }

// ---- neighbours -------------------------------------------------------------------------

// What a member gathers from its neighbours (those strictly within one radius).
struct SimSums {
    ivec4 push;     // xyz: sum over neighbours closer than the separation radius of the direction away
                    // from them (Q12) times the overlap share (separation - distance) / separation
    ivec4 offset;   // xyz: sum of the neighbours' offsets from the member, local units; w: neighbours
    ivec4 velocity; // xyz: sum of the neighbours' velocities, units per step
};

SIM_FN SimSums simNoSums() {
    SimSums s;
    s.push = ivec4(0);
    s.offset = ivec4(0);
    s.velocity = ivec4(0);
    return s;
}

// Adds neighbour `other` (index other_index, velocity other_velocity) to the sums of the member at
// `self`. `planar`: walkers, who ignore heights. Two members at the same point push apart along x,
// the lower index toward -x. Local units: offsets >> 2, so the radius is 4096.
SIM_FN void simAccumulate(SIM_INOUT(SimSums) sums, ivec3 self, uint self_index, ivec3 other, ivec3 other_velocity,
                          uint other_index, bool planar, int separation) {
    ivec3 d = (self - other) >> THRONG_SIM_LOCAL_SHIFT;
    if (planar) d.y = 0;
    if (simMaxAbs(d) >= uint(THRONG_SIM_LOCAL_RADIUS)) return;
    // Squared distances against squared radii (floor(sqrt(x)) < r exactly when x < r * r): the
    // root only for neighbours inside the separation radius, which push.
    int l2 = d.x * d.x + d.y * d.y + d.z * d.z; // < 3 * 2^24
    if (l2 >= THRONG_SIM_LOCAL_RADIUS * THRONG_SIM_LOCAL_RADIUS) return;
    sums.offset += ivec4(-d, 1);
    sums.velocity += ivec4(other_velocity, 0);
    if (l2 < separation * separation) { // separation <= 4096
        int dist = int(simSqrt(uint(l2)));
        int overlap = (separation - dist) * 4096 / separation; // (0, 4096]
        ivec3 away = dist > 0 ? d * overlap / dist
                              : ivec3(self_index < other_index ? -overlap : overlap, 0, 0); // |d * overlap| <= 2^24
        sums.push += ivec4(away, 0);
    }
}

// ---- walkers ----------------------------------------------------------------------------

// MemberState::clips: slot A, slot B, the member's model (a crowd of several: SimModelParams).
SIM_FN uint simSlotA(uint clips) { return clips & 0xffu; }
SIM_FN uint simSlotB(uint clips) { return (clips >> 16) & 0xffu; }
SIM_FN uint simModelOf(uint clips) { return (clips >> 8) & 0xffu; }
SIM_FN uint simClips(uint a, uint b, uint model) { return a | (model << 8) | (b << 16); }

// A slot's natural ground speed for this member (scaled by its size), units per step.
SIM_FN int simNaturalSpeed(uint slot, SIM_IN(MemberState) m, SIM_IN(SimParams) P) {
    return P.natural_speed[slot] * int(m.size) / THRONG_SIM_RATE_ONE; // <= 2^13 * 2^14
}

// Playback rate of a slot's clip at ground speed `speed`: speed / natural speed (feet that do
// not slide), or the clip's own pace for clips that do not travel (idle).
SIM_FN uint simSlotRate(uint slot, int speed, SIM_IN(MemberState) m, SIM_IN(SimParams) P) {
    int natural = simNaturalSpeed(slot, m, P);
    if (natural <= 0) return uint(THRONG_SIM_RATE_ONE);
    return uint(min(speed * THRONG_SIM_RATE_ONE / natural, int(P.rate_max))); // speed <= 2^16
}

// The slot the member's speed asks for, from the slot it is in or fading into (hysteresis:
// SimParams::thresholds). Slots without a clip are never chosen (walk always has one).
SIM_FN uint simChooseSlot(uint current, int speed, SIM_IN(MemberState) m, SIM_IN(SimParams) P) {
    ivec4 t = P.thresholds * int(m.size) / THRONG_SIM_RATE_ONE;
    uint want = current;
    if (current == THRONG_SIM_SLOT_IDLE) {
        if (speed > t.x) want = speed > t.z ? THRONG_SIM_SLOT_RUN : THRONG_SIM_SLOT_WALK;
    } else if (current == THRONG_SIM_SLOT_WALK) {
        if (speed < t.y)
            want = THRONG_SIM_SLOT_IDLE;
        else if (speed > t.z)
            want = THRONG_SIM_SLOT_RUN;
    } else if (speed < t.w) {
        want = speed < t.y ? THRONG_SIM_SLOT_IDLE : THRONG_SIM_SLOT_WALK;
    }
    if (want == THRONG_SIM_SLOT_IDLE && (P.clip_index.w & 1u) == 0u) want = THRONG_SIM_SLOT_WALK;
    if (want == THRONG_SIM_SLOT_RUN && (P.clip_index.w & 4u) == 0u) want = THRONG_SIM_SLOT_WALK;
    return want;
}

// Cross-fades: a new slot becomes clip B and its weight ramps up by fade_step per step; at full
// weight B becomes A. Asked back for A mid-fade, the two swap and the weight is mirrored, so the
// blend never jumps.
SIM_FN void simUpdateClips(SIM_INOUT(MemberState) m, uint want, SIM_IN(SimParams) P) {
    uint a = simSlotA(m.clips);
    uint b = simSlotB(m.clips);
    uint fade = m.fade;
    if (a == b) {
        if (want != a) {
            b = want;
            fade = 0u;
        }
    } else if (want == a) {
        a = b;
        b = want;
        fade = THRONG_SIM_FADE_ONE - fade;
    }
    if (a != b) {
        fade += P.fade_step;
        if (fade >= THRONG_SIM_FADE_ONE) {
            a = b;
            fade = 0u;
        }
    }
    m.clips = simClips(a, b, simModelOf(m.clips));
    m.fade = fade;
}

// The Q14 heading h turned toward the Q14 direction t by at most the turn of one step.
SIM_FN ivec2 simTurn(ivec2 h, ivec2 t, SIM_IN(SimParams) P) {
    int dot_ht = (h.x * t.x + h.y * t.y) / THRONG_SIM_ONE; // products <= 2^28
    if (dot_ht >= P.turn_cos) return t;
    int cross_ht = h.x * t.y - h.y * t.x; // > 0: t lies counterclockwise of h in (x, z)
    int s = cross_ht >= 0 ? P.turn_sin : -P.turn_sin;
    ivec3 r = ivec3(h.x * P.turn_cos - h.y * s, 0, h.x * s + h.y * P.turn_cos) / THRONG_SIM_ONE;
    ivec3 n = simNormalize(r);
    return ivec2(n.x, n.z);
}

// ---- root motion ------------------------------------------------------------------------

// A slot's curve at time f (Q20, within its cycle), interpolated between the table's samples:
// travel since the cycle's start, position units at scale 1 (sim_shared.h).
SIM_FN ivec2 simRootIn(uint slot, uint f, SIM_IN(SimParams) P SIM_ROOT_PARAM) {
    uint d = P.clip_duration[slot];
    uint q = max(d / uint(THRONG_SIM_ROOT_SAMPLES), 1u);
    uint k = min(f / q, uint(THRONG_SIM_ROOT_SAMPLES) - 1u);
    uint span = k == uint(THRONG_SIM_ROOT_SAMPLES) - 1u ? d - k * q : q; // the last interval ends at d
    uint frac = min(f - k * q, span);
    uint shift = 0u;
    while ((span >> shift) > 1023u) shift += 1u;
    int num = int(frac >> shift);
    int den = max(int(span >> shift), 1);
    ivec4 a = SIM_ROOT(slot * uint(THRONG_SIM_ROOT_SAMPLES + 1) + k);
    ivec4 b = SIM_ROOT(slot * uint(THRONG_SIM_ROOT_SAMPLES + 1) + k + 1u);
    return ivec2(a.x + (b.x - a.x) * num / den, a.z + (b.z - a.z) * num / den); // |b - a| <= 2^20, num < 2^10
}

// The member's own move over a step that played its clips from time `from` to `to` (Q20, not
// wrapped): per clip, a slot with a curve moves it by the curve's travel (turned by its heading,
// scaled by its size), any other by its walking velocity `v`; blended by the fade.
SIM_FN ivec3 simRootStep(SIM_IN(MemberState) m, uint from, uint to, ivec3 v, SIM_IN(SimParams) P SIM_ROOT_PARAM) {
    ivec3 own[2];
    for (uint i = 0u; i < 2u; ++i) {
        uint slot = i == 0u ? simSlotA(m.clips) : simSlotB(m.clips);
        uint d = P.clip_duration[slot];
        if (((P.root_slots >> slot) & 1u) == 0u || d == 0u) {
            own[i] = v;
            continue;
        }
        ivec4 end = SIM_ROOT(slot * uint(THRONG_SIM_ROOT_SAMPLES + 1) + uint(THRONG_SIM_ROOT_SAMPLES));
        int cycles = int(to / d - from / d); // 0 or 1 in practice: a step is shorter than a cycle
        ivec2 local = simRootIn(slot, to % d, P SIM_ROOT_ARG) - simRootIn(slot, from % d, P SIM_ROOT_ARG) +
                      ivec2(end.x, end.z) * min(cycles, 4); // |end| <= 2^19
        local = clamp(local, ivec2(-16384), ivec2(16384));
        local = clamp(local * int(m.size) / THRONG_SIM_RATE_ONE, ivec2(-32768), ivec2(32768)); // 2^14 * size <= 2^16
        // Model +z is the heading (h.x, h.y); model +x is (h.y, -h.x).
        own[i] = ivec3((m.heading.y * local.x + m.heading.x * local.y) / THRONG_SIM_ONE, 0,
                       (m.heading.y * local.y - m.heading.x * local.x) / THRONG_SIM_ONE); // 2 * 2^15 * 2^14
    }
    int f = int(m.fade >> 4);                         // Q12
    return (own[0] * (4096 - f) + own[1] * f) / 4096; // |own| <= 2^17 (v: <= 2^13)
}

SIM_FN bool simRooted(SIM_IN(MemberState) m, SIM_IN(SimParams) P) {
    return (((P.root_slots >> simSlotA(m.clips)) | (P.root_slots >> simSlotB(m.clips))) & 1u) != 0u;
}

// One step of a walker: toward its goal (or waiting at it; acceleration-limited), pushed apart
// from its neighbours, speed-limited, heading turned toward where it moves, clip chosen by its
// ground speed, clip time advanced at the rate chosen the step before (so it matches what the
// renderer played between the two steps).
SIM_FN void simStepWalker(SIM_INOUT(MemberState) m, SIM_IN(SimSums) sums, SIM_IN(SimParams) P SIM_ROOT_PARAM) {
    // The clip time over the step just played, at the rate the records promised.
    uint played = m.anim;
    m.anim += m.rate * P.step_q20 / uint(THRONG_SIM_RATE_ONE); // rate <= 2^14 (max_rate <= 4), step <= 2^17

    ivec3 p = ivec3(m.position);
    ivec3 v = ivec3(m.velocity);
    int wait = m.velocity.w;
    ivec3 goal = ivec3(m.goal.x, p.y, m.goal.z);
    ivec3 desired = ivec3(0);
    ivec3 way = ivec3(0); // Q14 direction to the goal while walking to one
    if (wait > 0) {
        wait -= 1;
        if (wait == 0) {
            m.goal.x = P.field_min.x + int(simBelow(m.rng, uint(P.field_max.x - P.field_min.x) + 1u));
            m.goal.z = P.field_min.z + int(simBelow(m.rng, uint(P.field_max.z - P.field_min.z) + 1u));
        }
    } else {
        ivec3 to_goal = goal - p;
        int dist = simLength(to_goal);
        if (dist <= P.arrive) {
            m.position.w += 1;
            wait = 1 + int(simBelow(m.rng, P.wait_steps));
        } else {
            int speed = m.goal.w;
            if (dist < P.slow_radius) speed = speed * dist / P.slow_radius; // <= 2^13 * 2^17
            // Only as fast as the member faces its way: a goal behind it is turned to first (a
            // walker does not walk backward or sideways).
            way = simNormalize(to_goal);
            int facing = max((m.heading.x * way.x + m.heading.y * way.z) / THRONG_SIM_ONE, 0); // products <= 2^28
            desired = way * (speed * facing / THRONG_SIM_ONE) / THRONG_SIM_ONE;                // <= 2^13 * 2^14
        }
    }

    // The member's own walking velocity changes by at most max_accel per step (smooth gaits).
    // Separation moves it at once on top of that, this step only (it is not integrated into the
    // velocity, so a member held back by others does not drift off). Part of the push turns to
    // the right of it: members meeting head on both turn the same way relative to their push, so
    // they pass each other.
    v += simClampLength(simClampLength(desired, P.max_speed) - v, P.max_accel);
    v.y = 0;
    ivec3 push = clamp(ivec3(sums.push), ivec3(-65536), ivec3(65536));
    push.y = 0;
    push += ivec3(push.z, 0, -push.x) * P.sidestep / 4096;                        // <= 2^16 * 2^12
    ivec3 intended = simClampLength(v + push * P.push_speed / 4096, P.max_speed); // <= 2^17 * 2^13
    ivec3 move = intended;
    // Root motion: the clips' curves carry the member over the step (its feet stay planted); its
    // speed, heading and clip choice still follow the intended move (no feedback from the curve).
    bool rooted = simRooted(m, P);
    if (rooted)
        move =
            simClampLength(simRootStep(m, played, m.anim, v, P SIM_ROOT_ARG) + push * P.push_speed / 4096, P.max_speed);
    ivec3 before = p;
    p += move;
    p.x = clamp(p.x, P.field_min.x, P.field_max.x);
    p.z = clamp(p.z, P.field_min.z, P.field_max.z);
    if (p.x != before.x + move.x) v.x = 0; // walking into the field's edge
    if (p.z != before.z + move.z) v.z = 0;
    move = p - before;
    m.motion = ivec2(move.x, move.z);
    ivec3 steer = rooted ? intended : move;
    int speed = simLength(steer); // the ground speed the feet cover

    // The heading turns toward where the member moves, or, standing, toward its goal.
    ivec3 target = speed > P.turn_min_speed ? simNormalize(steer) : way;
    if (target != ivec3(0)) m.heading = simTurn(m.heading, ivec2(target.x, target.z), P);

    simUpdateClips(m, simChooseSlot(simSlotB(m.clips), speed, m, P), P);
    uint a = simSlotA(m.clips);
    uint b = simSlotB(m.clips);
    // Wrap the clip time by clip A's duration, never mid-fade (both clips play the same time).
    uint duration = P.clip_duration[a];
    if (a == b && duration > 0u)
        m.anim %= duration;
    else if (m.anim >= 0x80000000u && duration > 0u)
        m.anim %= duration; // a fade that never ends: keep the time bounded
    // The rate for the next step: a blend of the two clips' rates by the fade.
    uint rate_a = simSlotRate(a, speed, m, P);
    uint rate_b = simSlotRate(b, speed, m, P);
    m.rate = (rate_a * (THRONG_SIM_FADE_ONE - m.fade) + rate_b * m.fade) >> 16; // rates <= 2^14

    m.position = ivec4(p, m.position.w);
    m.velocity = ivec4(v, wait);
}

// ---- fish -------------------------------------------------------------------------------

// One step of a fish: separation, alignment and cohesion with its neighbours, a pull back to its
// cruise speed, turning away from the walls of the volume, speed kept between min and max; the
// swim phase advances at the rate chosen the step before (tail beats follow the speed).
SIM_FN void simStepFish(SIM_INOUT(MemberState) m, SIM_IN(SimSums) sums, SIM_IN(SimParams) P) {
    m.anim = (m.anim + m.rate * P.beat_q20 / uint(THRONG_SIM_RATE_ONE)) &
             (THRONG_SIM_TIME_ONE - 1u); // rate <= 2^14, beat <= 2^17

    ivec3 p = ivec3(m.position);
    ivec3 v = ivec3(m.velocity);
    ivec3 accel = ivec3(0);
    int n = sums.offset.w;
    if (n > 0) {
        ivec3 centre = ivec3(sums.offset) / n;                  // local units, within the radius
        accel += centre * P.cohesion / THRONG_SIM_LOCAL_RADIUS; // <= 2^12 * 2^13
        ivec3 mean_velocity = ivec3(sums.velocity) / n;
        accel += (mean_velocity - v) * P.alignment / 4096; // <= 2^15 * 2^12
    }
    // Back toward the fish's own cruise speed (alignment alone would slow a school whose members
    // disagree down to the minimum).
    int cruise = max(m.goal.w, 1);
    accel += simNormalize(v) * ((cruise - simLength(v)) * P.cruise_pull / 4096) / THRONG_SIM_ONE; // <= 2^14 * 2^13
    accel = simClampLength(accel, P.max_accel);
    // Separation and walls act on top of the limited steering.
    ivec3 push = clamp(ivec3(sums.push), ivec3(-65536), ivec3(65536));
    accel += push * P.push_speed / 4096; // <= 2^16 * 2^13
    // Walls: a push inward growing linearly from the margin to the wall.
    for (int c = 0; c < 3; ++c) {
        int low = p[c] - P.field_min[c];
        int high = P.field_max[c] - p[c];
        if (low < P.wall_margin) accel[c] += (P.wall_margin - low) * P.wall_accel / P.wall_margin; // <= 2^16 * 2^13
        if (high < P.wall_margin) accel[c] -= (P.wall_margin - high) * P.wall_accel / P.wall_margin;
    }
    v += accel;
    int speed = simLength(v);
    if (speed > P.max_speed)
        v = simNormalize(v) * P.max_speed / THRONG_SIM_ONE;
    else if (speed < P.min_speed)
        v = speed == 0 ? ivec3(0, 0, P.min_speed) : simNormalize(v) * P.min_speed / THRONG_SIM_ONE;
    p += v;
    // The volume is a hard limit too: a fish that would leave it stops at the wall and turns back.
    for (int c = 0; c < 3; ++c) {
        if (p[c] < P.field_min[c]) {
            p[c] = P.field_min[c];
            v[c] = abs(v[c]);
        } else if (p[c] > P.field_max[c]) {
            p[c] = P.field_max[c];
            v[c] = -abs(v[c]);
        }
    }
    speed = simLength(v);
    m.rate =
        uint(clamp(speed * THRONG_SIM_RATE_ONE / cruise, THRONG_SIM_RATE_ONE / 4, int(P.rate_max))); // speed <= 2^14

    m.position = ivec4(p, m.position.w);
    m.velocity = ivec4(v, 0);
}

SIM_FN void simStep(SIM_INOUT(MemberState) m, SIM_IN(SimSums) sums, SIM_IN(SimParams) P SIM_ROOT_PARAM) {
    if (P.kind == uint(THRONG_SIM_KIND_WALKERS))
        simStepWalker(m, sums, P SIM_ROOT_ARG);
    else
        simStepFish(m, sums, P);
}

// ---- what the renderer reads ------------------------------------------------------------

// (cos, sin) of half the angle whose (cos, sin) is (c, s), up to a common sign (q and -q are the
// same rotation): (1 + c, s) and (s, 1 - c) point the same way; each is used where it does not
// vanish.
SIM_FN vec2 simHalfAngle(float c, float s) {
    return c >= 0.0f ? normalize(vec2(1.0f + c, s)) : normalize(vec2(s, 1.0f - c));
}

// The member's InstanceRecord at simulation time `time` (the time after its last step): place,
// orientation (walkers: their heading; fish: their velocity, yaw then pitch, no roll), clips,
// blend, and time_offset / speed chosen so that the renderer's clip time, time * speed +
// time_offset (fish: phase in cycles, time * speed * beats_per_second + time_offset), equals the
// member's animation time at `time` and runs on at the member's rate.
// The yaw a slot's curve adds at time `anim` (Q20) beyond its steady turn, radians (0 for a
// slot without a curve): drawn on top of the heading, so the hips keep their sway.
SIM_FN float simRootYaw(uint slot, uint anim, SIM_IN(SimParams) P SIM_ROOT_PARAM) {
    uint d = P.clip_duration[slot];
    if (((P.root_slots >> slot) & 1u) == 0u || d == 0u) return 0.0f;
    uint f = anim % d;
    uint q = max(d / uint(THRONG_SIM_ROOT_SAMPLES), 1u);
    uint k = min(f / q, uint(THRONG_SIM_ROOT_SAMPLES) - 1u);
    uint span = k == uint(THRONG_SIM_ROOT_SAMPLES) - 1u ? d - k * q : q;
    float s = min(float(f - k * q) / float(max(span, 1u)), 1.0f);
    float a = uintBitsToFloat(uint(SIM_ROOT(slot * uint(THRONG_SIM_ROOT_SAMPLES + 1) + k).w));
    float b = uintBitsToFloat(uint(SIM_ROOT(slot * uint(THRONG_SIM_ROOT_SAMPLES + 1) + k + 1u).w));
    return a + (b - a) * s;
}

SIM_FN InstanceRecord simInstance(SIM_IN(MemberState) m, SIM_IN(SimParams) P, float time SIM_ROOT_PARAM) {
    InstanceRecord r;
    SIM_PRECISE vec3 world = vec3(P.origin) + vec3(ivec3(m.position)) * P.origin.w;
    r.position_scale = vec4(world, uintBitsToFloat(m.scale));
    vec4 q;
    if (P.kind == uint(THRONG_SIM_KIND_WALKERS)) {
        // The rotation about y that takes +z (where the model faces) to the heading.
        vec2 h = simHalfAngle(float(m.heading.y) / 16384.0f, float(m.heading.x) / 16384.0f);
        uint a = simSlotA(m.clips);
        uint b = simSlotB(m.clips);
        if (simRooted(m, P)) { // turned further by the curves' sway
            float fade = float(m.fade) / 65536.0f;
            float yaw =
                simRootYaw(a, m.anim, P SIM_ROOT_ARG) * (1.0f - fade) + simRootYaw(b, m.anim, P SIM_ROOT_ARG) * fade;
            float c = cos(0.5f * yaw), s = sin(0.5f * yaw);
            h = vec2(h.x * c - h.y * s, h.y * c + h.x * s);
        }
        q = vec4(0.0f, h.y, 0.0f, h.x);
        r.clips = throngClips(P.clip_index[a], P.clip_index[b], simModelOf(m.clips));
    } else {
        vec3 f = vec3(ivec3(m.velocity));
        float l = length(f);
        f = l > 0.0f ? f / l : vec3(0.0f, 0.0f, 1.0f);
        float horizontal = length(vec2(f.x, f.z));
        vec2 yaw = horizontal > 1e-6f ? simHalfAngle(f.z / horizontal, f.x / horizontal) : vec2(1.0f, 0.0f);
        vec2 pitch = simHalfAngle(horizontal, -f.y);
        // yaw about y after pitch about x: (0, sy, 0, cy) * (sp, 0, 0, cp)
        q = vec4(yaw.x * pitch.y, yaw.y * pitch.x, -yaw.y * pitch.y, yaw.x * pitch.x);
        r.clips = throngClips(P.clip_index.x, P.clip_index.x, simModelOf(m.clips)); // the model's first clip
    }
    r.orientation = uvec2(packHalf2x16(vec2(q.x, q.y)), packHalf2x16(vec2(q.z, q.w)));
    r.color = m.color;
    r.speed = float(m.rate) / 4096.0f;
    r.blend = float(m.fade) / 65536.0f;
    float anim = float(m.anim) / 1048576.0f;
    SIM_PRECISE float offset =
        P.kind == uint(THRONG_SIM_KIND_WALKERS) ? anim - time * r.speed : anim - time * r.speed * P.beats_per_second;
    r.time_offset = offset;
    r.key = 0u; // the member's index
    return r;
}
