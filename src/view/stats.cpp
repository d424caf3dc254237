// The stats line; see stats.h.
#include "stats.h"

#include <cstdio>
#include <unistd.h>

namespace throng::view {

uint64_t residentBytes() {
    std::FILE* f = std::fopen("/proc/self/statm", "r");
    if (f == nullptr) return 0;
    unsigned long long size = 0, resident = 0;
    const bool ok = std::fscanf(f, "%llu %llu", &size, &resident) == 2;
    std::fclose(f);
    return ok ? resident * uint64_t(sysconf(_SC_PAGESIZE)) : 0;
}

std::string statsLine(const FrameReport& f, const gpu::Allocator& allocator, const Swapchain& swapchain) {
    const FrameCosts& c = f.costs;
    std::string gpu;
    for (const GpuPassTime& p : c.gpu_passes) {
        char pass[96];
        std::snprintf(pass, sizeof pass, "%s%s %.3f", gpu.empty() ? "" : ", ", p.name.c_str(), p.length_ms);
        gpu += pass;
    }
    char text[1024];
    std::snprintf(text, sizeof text,
                  "stats: %s | %u x %s | %.1f FPS, frame %.2f ms | GPU %s ms | CPU wait %.2f, "
                  "sample %.2f, skin %.2f, upload %.2f, ui %.2f, record %.2f ms | %.2f M triangles | %.2f MB uploaded "
                  "per frame | "
                  "%.0f MiB GPU memory (%llu B in use) | %.1f MiB resident | %s %ux%u",
                  f.crowd.techniqueName().c_str(), f.crowd.state().instances, f.crowd.sources().c_str(), f.fps,
                  f.frame_ms, gpu.empty() ? "-" : gpu.c_str(), c.cpu_wait_ms, c.cpu_sample_ms, c.cpu_skin_ms,
                  c.cpu_upload_ms, c.cpu_ui_ms, c.cpu_record_ms, double(f.triangles) * 1e-6,
                  double(f.upload_bytes) * 1e-6, double(allocator.reserved) / (1 << 20),
                  static_cast<unsigned long long>(allocator.in_use), double(residentBytes()) / (1 << 20),
                  presentName(swapchain.present_mode), swapchain.extent.width, swapchain.extent.height);
    return text;
}

} // namespace throng::view
