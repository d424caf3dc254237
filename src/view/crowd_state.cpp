// Crowd-state transactions; see crowd_state.h.
#include "crowd_state.h"

#include "../gpu/passes.h"

#include <throng/events.h>

#include <algorithm>
#include <cassert>
#include <map>

namespace throng::view {

namespace {

std::unique_ptr<render::Crowd> crowdFor(const AssetOnGpu& asset, const CrowdState& want, const CrowdSetup& setup,
                                        std::span<const float> shares) {
    render::CrowdLayout co;
    co.count = want.instances;
    co.seed = setup.seed;
    co.model_size = setup.model_size;
    co.volume = render::techniqueSwims(want.technique); // a school of fish swims in a volume
    auto crowd = std::make_unique<render::Crowd>(asset.mixed() ? render::makeCrowd(asset.library, co, shares)
                                                               : render::makeCrowd(asset.baked(), co));
    if (want.clip < 0) return crowd;
    // Every member plays the clip; in a crowd of several models, each member its own model's clip
    // of that name (a model without one keeps its members' clips).
    const std::string& name = asset.baked().clips[size_t(want.clip)].name;
    for (auto& inst : crowd->instances) {
        const uint32_t model = gpu::shader::throngAssetOf(inst.clips);
        int clip = asset.mixed() ? -1 : want.clip;
        if (asset.mixed()) {
            const render::AssetRange& r = asset.library.ranges[model];
            for (uint32_t c = r.first_clip; c < r.first_clip + r.clip_count && clip < 0; ++c)
                if (asset.baked().clips[c].name == name) clip = int(c);
        }
        if (clip < 0) continue;
        inst.clips = gpu::shader::throngClips(uint32_t(clip), uint32_t(clip), model);
        inst.blend = 0.0f;
    }
    return crowd;
}

} // namespace

LiveCrowd::LiveCrowd(Scene scene, CrowdSetup setup) : setup_(std::move(setup)) { scenes_.push_back(std::move(scene)); }

LiveCrowd::LiveCrowd(std::vector<Scene> scenes, std::vector<float> shares, CrowdSetup setup)
    : scenes_(std::move(scenes)), shares_(std::move(shares)), setup_(std::move(setup)) {
    assert(!scenes_.empty());
}

bool LiveCrowd::fail(std::string why) {
    last_error_ = std::move(why);
    return false;
}

std::unique_ptr<AssetOnGpu> LiveCrowd::upload(std::vector<BakedAsset> models) {
    Result<std::unique_ptr<AssetOnGpu>> a = uploadToGpu(*setup_.allocator, std::move(models));
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
    // Each imported model baked again; a .throng file's asset stays as it is.
    std::vector<BakedAsset> models;
    for (size_t i = 0; i < scenes_.size(); ++i) {
        const Scene& scene = scenes_[i];
        if (!scene.model) {
            models.push_back(asset_->mixed() ? asset_->models[i] : asset_->baked());
            continue;
        }
        BakeOptions o = scene.bake;
        o.precision = precision;
        o.vat = vat;
        Result<BakedAsset> b = bake(*scene.model, o);
        if (!b) {
            fail("bake: " + b.error().message);
            return nullptr;
        }
        if (Status a = attachFromText(b.value(), scene.attach); !a) { // the same props as at load
            fail(a.message);
            return nullptr;
        }
        models.push_back(std::move(b).value());
    }
    return upload(std::move(models));
}

void LiveCrowd::log(const std::string& line) const {
    if (setup_.log) setup_.log(line);
}

bool LiveCrowd::start(const CrowdState& first) {
    std::vector<BakedAsset> models;
    for (Scene& scene : scenes_) models.push_back(std::move(scene.baked));
    asset_ = upload(std::move(models));
    return asset_ != nullptr && apply(first);
}

std::string LiveCrowd::rasterProblem(Raster mode) const {
    if (mode == Raster::Hardware) return {};
    return renderer_ ? renderer_->rasterProblem(mode) : std::string("no crowd is drawn");
}

std::string LiveCrowd::impostorProblem() const {
    return renderer_ ? renderer_->impostorProblem() : std::string("no crowd is drawn");
}

bool LiveCrowd::applyPasses(const CrowdState& want) {
    VK_CHECK(vkDeviceWaitIdle(setup_.allocator->context->device)); // frames in flight read the passes replaced
    // Against what the renderer draws, not what the state asked for: a pass left out at the last
    // build (a technique it could not draw, culling off for impostors, a failed resize) is built
    // when asked for again. Each change is a transaction of its own (setRaster, setImpostors) and
    // goes into the state as it succeeds, so a failure of the second leaves the first in both.
    if (want.raster != renderer_->rasterMode()) {
        const std::string problem = renderer_->rasterProblem(want.raster);
        if (Status st = renderer_->setRaster(problem.empty() ? want.raster : Raster::Hardware); !st)
            return fail(st.message);
        if (!problem.empty())
            log(std::string("raster ") + toString(want.raster) + ": " + problem + "; the hardware draws this crowd");
    }
    state_.raster = want.raster;
    if (want.impostor_px != renderer_->impostorPixels()) {
        const std::string problem = want.impostor_px > 0.0f ? renderer_->impostorProblem() : std::string();
        if (Status st = renderer_->setImpostors(problem.empty() ? want.impostor_px : 0.0f); !st)
            return fail(st.message);
        if (!problem.empty()) log("impostors: " + problem + "; members are drawn as meshes");
    }
    state_ = want;
    return true;
}

bool LiveCrowd::apply(const CrowdState& want) {
    try {
        CrowdState passes_aside = want; // the state but for the passes changed in place
        passes_aside.raster = state_.raster;
        passes_aside.impostor_px = state_.impostor_px;
        if (renderer_ && passes_aside == state_ && built_format_ == colorFormatFor(want)) return applyPasses(want);

        std::unique_ptr<AssetOnGpu> asset; // a new asset, or none to keep asset_
        const AssetOnGpu& current = *asset_;
        const TechniqueInfo* technique = findTechnique(want.technique);
        const bool needs_vat = technique != nullptr && technique->needs_vat;
        const bool vat = needs_vat || current.hasVat();
        bool imported = false, other_precision = false; // some model can be baked again; one at another precision
        for (size_t i = 0; i < scenes_.size(); ++i) {
            const BakedAsset& model = current.mixed() ? current.models[i] : current.baked();
            if (scenes_[i].model) {
                imported = true;
                other_precision = other_precision || model.precision != want.precision;
            } else if (needs_vat && !hasVat(model)) {
                return fail(scenes_[i].source + " has no vertex animation (bake it with throng bake --vat)");
            }
        }
        if (imported && (other_precision || vat != current.hasVat())) {
            asset = rebake(want.precision, vat);
            if (!asset) return false;
        }
        const AssetOnGpu& use = asset ? *asset : *asset_;
        if (want.clip >= int(use.baked().clips.size()))
            return fail("clip " + std::to_string(want.clip) + " does not exist");
        if (want.clip >= int(THRONG_MAX_CLIPS)) // InstanceRecord::clips holds 12 bits a clip
            return fail("clip " + std::to_string(want.clip) + " is past the " + std::to_string(THRONG_MAX_CLIPS) +
                        " a crowd plays");
        std::unique_ptr<render::Crowd> crowd = crowdFor(use, want, setup_, shares_);
        const gpu::Context& ctx = *setup_.allocator->context;

        render::CrowdRendererSetup rs;
        static_cast<CrowdOptions&>(rs) = setup_.options;
        rs.technique = want.technique;
        rs.skinning = want.skinning;
        if (!render::techniqueTakesLayers(want.technique)) rs.layers.clear();
        rs.bone_precision = want.precision;
        rs.baked = &use.baked();
        if (use.mixed()) rs.model_sources = use.library.sources;
        rs.members = crowd->instances;
        rs.clip_bounds = crowd->clip_bounds;
        rs.color_format = colorFormatFor(want);
        rs.velocity_format = want.taa ? render::kVelocityFormat : VK_FORMAT_UNDEFINED; // TAA reprojects by them
        rs.depth_format = setup_.depth_format;
        rs.extent = setup_.extent;
        rs.frames_in_flight = setup_.frames_in_flight;
        rs.raster = want.raster;
        rs.cull.impostor_px = want.impostor_px;
        rs.shadows = {};
        rs.fallback = true; // the viewer draws what it can, and says what it left out
        if (want.shadows > 0) {
            rs.shadows = {want.shadows, setup_.options.ground, crowd->bounds};
            if (Status st = render::checkShadowSettings(ctx, rs.shadows); !st)
                return fail(st.message.rfind("shadows", 0) == 0 ? st.message : "shadows: " + st.message);
        }
        std::shared_ptr<sim::EventMirror> events;
        if (want.simulate) {
            if (!sim_pipelines_) sim_pipelines_ = sim::createSimPipelines(ctx);
            // The members' animation events come from a CPU copy of the steps: only where there are
            // events, and for crowds whose CPU steps the frame can afford.
            const bool mirror = std::any_of(use.baked().clips.begin(), use.baked().clips.end(),
                                            [](const BakedClip& c) { return !c.events.empty(); }) &&
                                want.instances <= kMaxMirroredMembers;
            std::vector<const BakedAsset*> models;
            for (const BakedAsset& m : use.models) models.push_back(&m);
            Result<render::MotionFactory> factory =
                use.mixed() ? sim::gpuMotion(ctx, models, use.library, *crowd, sim::kindFor(want.technique),
                                             setup_.seed, sim_pipelines_, clock_, mirror ? &events : nullptr)
                            : sim::gpuMotion(ctx, use.baked(), *crowd, sim::kindFor(want.technique), setup_.seed,
                                             sim_pipelines_, clock_, mirror ? &events : nullptr);
            if (!factory) return fail(factory.error().message);
            rs.motion = std::move(factory).value();
        }
        Result<std::unique_ptr<render::CrowdRenderer>> created =
            render::CrowdRenderer::create(*setup_.allocator, use.gpu, rs);
        if (!created) return fail(created.error().message);
        created.value()->prepareTargets(targets_, depth_sampled_); // frames allocate nothing
        // Everything exists: retire the old state once the GPU is done with it, the renderer
        // first (it points into the old asset).
        VK_CHECK(vkDeviceWaitIdle(ctx.device));
        renderer_ = std::move(created).value();
        built_format_ = colorFormatFor(want);
        events_ = std::move(events);
        crowd_ = std::move(crowd);
        if (asset) asset_ = std::move(asset);
        state_ = want;
        technique_name_ = std::string(renderer_->techniqueName());
        for (const std::string& note : renderer_->notes()) log(note);
        return true;
    } catch (const gpu::DeviceLost&) { // nothing more can be drawn: the caller ends with it
        throw;
    } catch (const std::exception& e) { // out of GPU or host memory while building
        return fail(e.what());
    }
}

void LiveCrowd::setTargets(const gpu::FrameTargets& targets, bool depth_sampled) {
    targets_ = targets;
    depth_sampled_ = depth_sampled;
    setup_.extent = targets.extent;
    if (!renderer_) return;
    const Raster before = renderer_->rasterMode();
    if (Status st = renderer_->setTargets(targets.extent); !st)
        log(std::string("raster ") + toString(before) + ": " + st.message + "; the hardware draws this crowd");
    renderer_->prepareTargets(targets_, depth_sampled_);
}

void LiveCrowd::setCull(const CullSettings& cull) {
    setup_.options.cull = cull;
    if (renderer_) renderer_->setCull(cull);
}

render::TechniqueStats LiveCrowd::update(uint32_t slot, const glm::mat4& view_projection, float time,
                                         const glm::vec3& light) {
    clock_ = time;
    if (!renderer_) return {};
    return renderer_->update(slot, view_projection, time, light);
}

void LiveCrowd::record(VkCommandBuffer cmd, uint32_t slot, const gpu::FrameTargets& targets, bool depth_sampled,
                       std::span<const gpu::Pass> after) {
    if (renderer_) {
        renderer_->record(cmd, slot, targets, depth_sampled, after);
        return;
    }
    std::vector<gpu::Pass> passes{
        {"clear", gpu::PassKind::Graphics, gpu::PassTargets::ColorDepth, [](VkCommandBuffer) {}, 0, 0}};
    passes.insert(passes.end(), after.begin(), after.end());
    gpu::recordPasses(cmd, gpu::FrameSlot{}, passes, targets);
}

render::FrameSample LiveCrowd::collect(uint32_t slot) const {
    return renderer_ ? renderer_->collect(slot) : render::FrameSample{};
}

double LiveCrowd::clock() const { return events_ ? events_->time() : double(clock_); }

std::vector<std::pair<std::string, size_t>> LiveCrowd::eventCounts(double t0, double t1) const {
    std::map<std::string, size_t> counts;
    if (!crowd_ || !asset_) return {};
    const BakedAsset& asset = asset_->baked();
    if (state_.simulate) {
        if (events_)
            for (const sim::SimEvent& e : events_->between(t0, t1)) ++counts[asset.clips[e.clip].events[e.event].name];
    } else {
        std::vector<EventHit> hits;
        for (const gpu::shader::InstanceRecord& r : crowd_->instances) {
            const uint32_t clip =
                r.blend < 0.5f ? gpu::shader::throngClipA(r.clips) : gpu::shader::throngClipB(r.clips);
            if (clip >= asset.clips.size() || r.position_scale.w == 0.0f) continue;
            hits.clear();
            eventsBetween(asset.clips[clip], double(r.speed), double(r.time_offset), t0, t1, hits);
            for (const EventHit& h : hits) ++counts[asset.clips[clip].events[h.event].name];
        }
    }
    return {counts.begin(), counts.end()};
}

void LiveCrowd::release() {
    renderer_.reset();
    events_.reset();
    sim_pipelines_.reset();
    crowd_.reset();
    asset_.reset();
}

} // namespace throng::view
