// HeadlessDevice (include/throng/render.h): a gpu::Context throng creates and owns.
#include "headless_device.h"

namespace throng {

Result<std::unique_ptr<HeadlessDevice>> HeadlessDevice::create(const HeadlessDeviceOptions& options) {
    gpu::ContextOptions o;
    o.validation = options.validation;
    o.device_substring = options.device_name;
    Result<std::unique_ptr<gpu::Context>> context = gpu::createContext(o);
    if (!context) return context.error();
    std::unique_ptr<HeadlessDevice> d(new HeadlessDevice);
    d->state_ = std::make_unique<State>();
    State& s = *d->state_;
    s.context = std::move(context).value();
    const gpu::Context& ctx = *s.context;
    s.v13.dynamicRendering = VK_TRUE;
    s.v13.synchronization2 = VK_TRUE;
    s.v12.drawIndirectCount = ctx.indirect_count;
    s.v12.shaderBufferInt64Atomics = ctx.int64_atomics;
    s.enabled.features.multiDrawIndirect = ctx.indirect_count;
    s.enabled.features.drawIndirectFirstInstance = ctx.indirect_count;
    s.enabled.features.shaderInt64 = ctx.int64_atomics;
    s.enabled.features.vertexPipelineStoresAndAtomics = ctx.vertex_stores;
    d->device_.instance = ctx.instance;
    d->device_.physical_device = ctx.physical;
    d->device_.device = ctx.device;
    d->device_.queue_family = ctx.queue_family;
    d->device_.queue_index = 0;
    d->device_.enabled_features = &s.enabled;
    return d;
}

HeadlessDevice::~HeadlessDevice() {
    if (state_ && state_->context) gpu::destroyContext(*state_->context);
}

uint32_t HeadlessDevice::release(std::unique_ptr<HeadlessDevice> device) {
    if (!device || !device->state_ || !device->state_->context) return 0;
    gpu::Context& ctx = *device->state_->context;
    gpu::destroyContext(ctx); // the layers report what is still alive here
    return ctx.validation ? ctx.validation->errors.load() : 0;
}

VkQueue HeadlessDevice::queue() const { return state_->context->queue; }
std::string HeadlessDevice::name() const { return state_->context->device_name; }
std::string HeadlessDevice::driver() const { return state_->context->driver_name; }

HeadlessDevice::Capabilities HeadlessDevice::capabilities() const {
    const gpu::Context& ctx = *state_->context;
    return {ctx.timestamps, ctx.indirect_count, ctx.depth_pyramid, ctx.int64_atomics,
            ctx.properties.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU};
}

uint32_t HeadlessDevice::validationErrors() const {
    return state_->context->validation ? state_->context->validation->errors.load() : 0;
}

gpu::Context& headlessContext(HeadlessDevice& device) { return *device.state_->context; }

} // namespace throng
