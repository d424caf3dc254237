// Crowd-state transactions; see crowd_state.h.
#include "crowd_state.h"

#include <throng/events.h>

#include <algorithm>
#include <map>

namespace throng::view {

namespace {

std::unique_ptr<render::Crowd> crowdFor(const BakedAsset& asset, const CrowdState& want, uint64_t seed) {
    render::CrowdOptions co;
    co.count = want.instances;
    co.seed = seed;
    co.volume = want.technique == "procedural"; // a school of fish swims in a volume
    auto crowd = std::make_unique<render::Crowd>(render::makeCrowd(asset, co));
    if (want.clip >= 0)
        for (auto& inst : crowd->instances) {
            inst.clips = uint32_t(want.clip) | uint32_t(want.clip) << 16;
            inst.blend = 0.0f;
        }
    return crowd;
}

} // namespace

LiveCrowd::LiveCrowd(Scene scene, CrowdSetup setup) : scene_(std::move(scene)), setup_(std::move(setup)) {}

bool LiveCrowd::fail(std::string why) {
    last_error_ = std::move(why);
    return false;
}

std::unique_ptr<AssetOnGpu> LiveCrowd::upload(BakedAsset baked) {
    Result<std::unique_ptr<AssetOnGpu>> a = uploadToGpu(*setup_.allocator, std::move(baked));
    if (!a) {
        fail(a.error().message);
        return nullptr;
    }
    if (setup_.log)
        for (const std::string& w : a.value()->gpu.warnings) setup_.log("warning: " + w);
    return std::move(a).value();
}

std::unique_ptr<AssetOnGpu> LiveCrowd::rebake(Precision precision, bool vat) {
    if (setup_.log)
        setup_.log(std::string("baking ") + toString(precision) + (vat ? " with vertex animation" : "") + "...");
    BakeOptions o = scene_.bake;
    o.precision = precision;
    o.vat = vat;
    Result<BakedAsset> b = bake(*scene_.model, o);
    if (!b) {
        fail("bake: " + b.error().message);
        return nullptr;
    }
    if (Status a = attachFromText(b.value(), scene_.attach); !a) { // the same props as at load
        fail(a.message);
        return nullptr;
    }
    return upload(std::move(b).value());
}

bool LiveCrowd::start(const CrowdState& first) {
    asset_ = upload(std::move(scene_.baked));
    return asset_ != nullptr && apply(first);
}

bool LiveCrowd::apply(const CrowdState& want) {
    try {
        std::unique_ptr<AssetOnGpu> asset; // a new asset, or none to keep asset_
        const BakedAsset& current = asset_->baked;
        const bool vat = want.technique == "vat" || hasVat(current);
        if (want.technique == "vat" && !hasVat(current) && !scene_.model)
            return fail(scene_.source + " has no vertex animation (bake it with throng bake --vat)");
        if (scene_.model && (current.precision != want.precision || vat != hasVat(current))) {
            asset = rebake(want.precision, vat);
            if (!asset) return false;
        }
        const AssetOnGpu& use = asset ? *asset : *asset_;
        if (want.clip >= int(use.baked.clips.size()))
            return fail("clip " + std::to_string(want.clip) + " does not exist");
        std::unique_ptr<render::Crowd> crowd = crowdFor(use.baked, want, setup_.seed);
        const std::vector<Bounds> cull_bounds = render::techniqueCullBounds(
            want.technique, crowd->clip_bounds, render::defaultSwim(), !setup_.layers.empty());
        // The shadow map before the crowd on the GPU and the technique made for it (both read it;
        // on failure they go first, it last).
        std::unique_ptr<render::ShadowMap> shadows;
        if (want.shadows > 0) {
            render::ShadowSettings ss;
            ss.size = want.shadows;
            ss.ground = true;
            ss.area = crowd->bounds;
            if (Status st = render::checkShadowSettings(*setup_.allocator->context, ss); !st)
                return fail(st.message.rfind("shadows", 0) == 0 ? st.message : "shadows: " + st.message);
            shadows = std::make_unique<render::ShadowMap>(*setup_.allocator, ss, setup_.color_format,
                                                          setup_.depth_format, setup_.frames_in_flight);
        }
        if (!cull_pipelines_ && setup_.allocator->context->indirect_count)
            cull_pipelines_ = render::createCullPipelines(*setup_.allocator->context);
        auto crowd_gpu =
            std::make_unique<render::CrowdGpu>(*setup_.allocator, use.gpu, crowd->instances, cull_bounds,
                                               setup_.frames_in_flight, cull_pipelines_, shadows != nullptr);
        std::unique_ptr<render::CrowdMotion> motion;
        std::shared_ptr<sim::EventMirror> events;
        if (want.simulate) {
            if (!render::techniqueReadsMembersOnGpu(want.technique))
                return fail("technique " + want.technique +
                            " samples poses from the members on the CPU and cannot draw a simulated crowd (simulate "
                            "off first)");
            const gpu::Context& ctx = *setup_.allocator->context;
            if (!sim_pipelines_) sim_pipelines_ = sim::createSimPipelines(ctx);
            // The members' animation events come from a CPU copy of the steps: only where there are
            // events, and for crowds whose CPU steps the frame can afford.
            const bool mirror = std::any_of(use.baked.clips.begin(), use.baked.clips.end(),
                                            [](const BakedClip& c) { return !c.events.empty(); }) &&
                                want.instances <= kMaxMirroredMembers;
            Result<render::MotionFactory> factory =
                sim::gpuMotion(ctx, use.baked, *crowd, sim::kindFor(want.technique), setup_.seed, sim_pipelines_,
                               clock_, mirror ? &events : nullptr);
            if (!factory) return fail(factory.error().message);
            motion = factory.value()(*setup_.allocator, crowd_gpu->instances());
        }
        render::TechniqueSetup setup;
        setup.crowd = crowd_gpu.get();
        setup.allocator = setup_.allocator;
        setup.asset = &use.gpu;
        setup.instances = &crowd->instances;
        setup.color_format = setup_.color_format;
        setup.depth_format = setup_.depth_format;
        setup.frames_in_flight = setup_.frames_in_flight;
        setup.source = &use.baked.source;
        setup.mesh = &use.mesh;
        setup.encoding = setup_.encoding;
        setup.skinning = want.skinning;
        if (render::techniqueTakesLayers(want.technique)) setup.layers = setup_.layers;
        setup.bone_precision = want.precision;
        setup.shadows = shadows.get();
        Result<std::unique_ptr<render::Technique>> created = render::createTechnique(want.technique, setup);
        if (!created) return fail(created.error().message);
        // Everything exists: retire the old state once the GPU is done with it. The technique goes
        // first: it points into the old crowd, shadow map and asset; the shadow map after the
        // crowd on the GPU made for it.
        VK_CHECK(vkDeviceWaitIdle(setup_.allocator->context->device));
        technique_ = std::move(created).value();
        motion_ = std::move(motion);
        events_ = std::move(events);
        crowd_gpu_ = std::move(crowd_gpu);
        shadows_ = std::move(shadows);
        crowd_ = std::move(crowd);
        if (asset) asset_ = std::move(asset);
        state_ = want;
        technique_name_ = std::string(technique_->name());
        return true;
    } catch (const gpu::DeviceLost&) { // nothing more can be drawn: the caller ends with it
        throw;
    } catch (const std::exception& e) { // out of GPU or host memory while building
        return fail(e.what());
    }
}

render::TechniqueStats LiveCrowd::update(uint32_t slot, float time) {
    clock_ = time;
    if (!technique_) return {};
    technique_->update(slot, time);
    return technique_->stats();
}

double LiveCrowd::clock() const { return events_ ? events_->time() : double(clock_); }

std::vector<std::pair<std::string, size_t>> LiveCrowd::eventCounts(double t0, double t1) const {
    std::map<std::string, size_t> counts;
    if (!crowd_ || !asset_) return {};
    const BakedAsset& asset = asset_->baked;
    if (state_.simulate) {
        if (events_)
            for (const sim::SimEvent& e : events_->between(t0, t1)) ++counts[asset.clips[e.clip].events[e.event].name];
    } else {
        std::vector<EventHit> hits;
        for (const gpu::shader::InstanceRecord& r : crowd_->instances) {
            const uint32_t clip = r.blend < 0.5f ? (r.clips & 0xffffu) : (r.clips >> 16);
            if (clip >= asset.clips.size() || r.position_scale.w == 0.0f) continue;
            hits.clear();
            eventsBetween(asset.clips[clip], double(r.speed), double(r.time_offset), t0, t1, hits);
            for (const EventHit& h : hits) ++counts[asset.clips[clip].events[h.event].name];
        }
    }
    return {counts.begin(), counts.end()};
}

void LiveCrowd::release() {
    technique_.reset();
    events_.reset();
    motion_.reset();
    crowd_gpu_.reset();
    shadows_.reset();
    cull_pipelines_.reset();
    sim_pipelines_.reset();
    crowd_.reset();
    asset_.reset();
}

} // namespace throng::view
