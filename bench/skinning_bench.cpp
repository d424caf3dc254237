// Benchmarks of the CPU skinning kernel (SkinningJob): each SIMD level on one thread, run() as a
// caller sees it (validate() + the level picked at run time), runParallel() on oneTBB's threads,
// the double reference, and a speed-of-light baseline in the manner of ACL: a memcpy that moves
// exactly the bytes the kernel must read and write, so "how far from the memory bound" is a ratio.
//
// Mesh: 100k and 2M vertices, positions + normals, 4 influences with realistic weights (a heavy
// first joint, neighbouring joints of a chain), 64 skinning matrices with rotation, translation
// and mild non-uniform scale. items_per_second is vertices per second.
//
//   skinning_bench --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include "../src/anim/skin_simd.h"

#include <benchmark/benchmark.h>
#include <glm/gtc/matrix_transform.hpp>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <thread>

using namespace throng;

namespace {

constexpr int kJoints = 64;
// Streams the kernel must touch per vertex: position, normal, joints, weights in; two vec3 out.
constexpr size_t kBytesIn = 2 * sizeof(glm::vec3) + sizeof(glm::u16vec4) + sizeof(glm::vec4);
constexpr size_t kBytesOut = 2 * sizeof(glm::vec3);

struct Scene {
    std::vector<glm::mat4> matrices;
    std::vector<glm::dmat4> matrices_d;
    Mesh mesh;
    std::vector<glm::vec3> out_positions, out_normals;

    SkinningJob job() {
        return SkinningJob{matrices,     mesh.positions, mesh.normals, mesh.joints,
                           mesh.weights, out_positions,  out_normals};
    }
};

std::unique_ptr<Scene> makeScene(size_t n) {
    auto s = std::make_unique<Scene>();
    std::mt19937 rng(42);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    for (int j = 0; j < kJoints; ++j) {
        glm::mat4 m = glm::translate(glm::mat4(1.0f), glm::vec3(u(rng), u(rng), u(rng)));
        m = glm::rotate(m, 1.2f * u(rng), glm::normalize(glm::vec3(u(rng), u(rng), u(rng)) + glm::vec3(0, 0, 2)));
        m = glm::scale(m, glm::vec3(1.0f + 0.1f * u(rng), 1.0f + 0.1f * u(rng), 1.0f + 0.1f * u(rng)));
        s->matrices.push_back(m);
        s->matrices_d.emplace_back(m);
    }
    Mesh& mesh = s->mesh;
    mesh.positions.resize(n);
    mesh.normals.resize(n);
    mesh.joints.resize(n);
    mesh.weights.resize(n);
    for (size_t v = 0; v < n; ++v) {
        mesh.positions[v] = {u(rng), u(rng), u(rng)};
        mesh.normals[v] = glm::normalize(glm::vec3(u(rng), u(rng), u(rng)) + glm::vec3(0, 0, 0.5f));
        // Vertices in the order of the body, as exporters write them: a bone and its neighbours.
        const int bone = int(v * kJoints / n);
        auto clampJoint = [](int j) { return uint16_t(std::clamp(j, 0, kJoints - 1)); };
        mesh.joints[v] = {clampJoint(bone), clampJoint(bone + 1), clampJoint(bone - 1), clampJoint(bone + 2)};
        const float w0 = 0.5f + 0.4f * std::fabs(u(rng));
        const float w1 = (1.0f - w0) * (0.5f + 0.3f * std::fabs(u(rng)));
        const float w2 = (1.0f - w0 - w1) * (0.6f + 0.3f * std::fabs(u(rng)));
        mesh.weights[v] = {w0, w1, w2, 1.0f - w0 - w1 - w2};
    }
    s->out_positions.resize(n);
    s->out_normals.resize(n);
    return s;
}

// Built on first use, so a filtered run never pays for the 2M scene.
Scene& scene(size_t n) {
    static std::map<size_t, std::unique_ptr<Scene>> scenes;
    std::unique_ptr<Scene>& s = scenes[n];
    if (!s) s = makeScene(n);
    return *s;
}

void setCounters(benchmark::State& state, size_t n) {
    state.SetItemsProcessed(int64_t(state.iterations()) * int64_t(n));
    state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(n * (kBytesIn + kBytesOut)));
}

// The bytes in and out, no arithmetic: the bound the kernel approaches when memory limits it.
void speedOfLight(benchmark::State& state, size_t n) {
    Scene& s = scene(n);
    for (auto _ : state) {
        std::memcpy(s.out_positions.data(), s.mesh.positions.data(), n * sizeof(glm::vec3));
        std::memcpy(s.out_normals.data(), s.mesh.normals.data(), n * sizeof(glm::vec3));
        // The joints and weights are read, not copied: the kernel never writes them.
        uint64_t bits = 0;
        const auto* j = reinterpret_cast<const uint64_t*>(s.mesh.joints.data());
        const auto* w = reinterpret_cast<const uint64_t*>(s.mesh.weights.data());
        for (size_t i = 0; i < n; ++i) bits |= j[i] | w[2 * i] | w[2 * i + 1];
        benchmark::DoNotOptimize(bits);
        benchmark::ClobberMemory();
    }
    setCounters(state, n);
}

// The same bytes moved by oneTBB's threads in the chunks runParallel() uses: the bound for it.
void speedOfLightParallel(benchmark::State& state, size_t n) {
    Scene& s = scene(n);
    const size_t chunks = (n + kSkinningChunk - 1) / kSkinningChunk;
    for (auto _ : state) {
        tbb::parallel_for(size_t(0), chunks, [&](size_t c) {
            const size_t begin = c * kSkinningChunk, count = std::min(n, begin + kSkinningChunk) - begin;
            std::memcpy(s.out_positions.data() + begin, s.mesh.positions.data() + begin, count * sizeof(glm::vec3));
            std::memcpy(s.out_normals.data() + begin, s.mesh.normals.data() + begin, count * sizeof(glm::vec3));
            uint64_t bits = 0;
            const auto* j = reinterpret_cast<const uint64_t*>(s.mesh.joints.data() + begin);
            const auto* w = reinterpret_cast<const uint64_t*>(s.mesh.weights.data() + begin);
            for (size_t i = 0; i < count; ++i) bits |= j[i] | w[2 * i] | w[2 * i + 1];
            benchmark::DoNotOptimize(bits);
        });
        benchmark::ClobberMemory();
    }
    setCounters(state, n);
}

void reference(benchmark::State& state, size_t n) {
    Scene& s = scene(n);
    for (auto _ : state) {
        SkinnedVertices out = referenceSkin(s.mesh, s.matrices_d);
        benchmark::DoNotOptimize(out.positions.data());
    }
    setCounters(state, n);
}

// One level's kernel over the whole mesh, without validate(): the kernel alone.
void level(benchmark::State& state, size_t n, detail::SimdLevel simd) {
    Scene& s = scene(n);
    const SkinningJob job = s.job();
    for (auto _ : state) {
        detail::skinRange(simd, job, 0, n);
        benchmark::ClobberMemory();
    }
    setCounters(state, n);
}

void run(benchmark::State& state, size_t n, bool parallel) {
    Scene& s = scene(n);
    const SkinningJob job = s.job();
    for (auto _ : state) {
        const bool ok = parallel ? job.runParallel() : job.run();
        if (!ok) state.SkipWithError("SkinningJob::validate() failed");
        benchmark::ClobberMemory();
    }
    setCounters(state, n);
}

std::string cpuModel() {
    std::ifstream in("/proc/cpuinfo");
    for (std::string line; std::getline(in, line);)
        if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
    return "unknown";
}

} // namespace

int main(int argc, char** argv) {
    benchmark::AddCustomContext("cpu_model", cpuModel());
    benchmark::AddCustomContext("simd_level_picked", detail::toString(detail::bestSimdLevel()));
    benchmark::AddCustomContext("hardware_threads", std::to_string(std::thread::hardware_concurrency()));
    for (const auto& [label, n] : {std::pair<const char*, size_t>{"100k", 100'000}, {"2M", 2'000'000}}) {
        const std::string size = std::string("/") + label;
        benchmark::RegisterBenchmark(("speed_of_light/memcpy" + size).c_str(), speedOfLight, n)->UseRealTime();
        benchmark::RegisterBenchmark(("speed_of_light/memcpy_parallel" + size).c_str(), speedOfLightParallel, n)
            ->UseRealTime();
        benchmark::RegisterBenchmark(("reference/double" + size).c_str(), reference, n)->UseRealTime();
        for (detail::SimdLevel simd : detail::kSimdLevels)
            if (detail::simdLevelSupported(simd))
                benchmark::RegisterBenchmark((std::string("kernel/") + detail::toString(simd) + size).c_str(), level, n,
                                             simd)
                    ->UseRealTime();
        benchmark::RegisterBenchmark(("run/1_thread" + size).c_str(), run, n, false)->UseRealTime();
        benchmark::RegisterBenchmark(("run_parallel/all_threads" + size).c_str(), run, n, true)->UseRealTime();
    }
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
