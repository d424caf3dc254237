// The technique registry (throng/technique.h, src/render/technique.cpp): every name found, and
// every list, check and refusal derived from the descriptors agreeing with them, through the
// functions that really accept or refuse (createTechnique's early checks, the compute
// rasterizer's, the simulation's kind, the CLI's parser and bench lists). No GPU: every call
// here returns before a device would be touched.
#include "../src/gpu/context.h"
#include "../src/render/compute_raster.h"
#include "../src/render/technique.h"
#include "../src/sim/motion.h"
#include "../tools/throng/cli.h"
#include <throng/headless.h>
#include <throng/technique.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <set>
#include <string>
#include <vector>

namespace throng {
namespace {

using Names = std::set<std::string>;

Names namesWith(bool TechniqueInfo::*ability) {
    Names names;
    for (const TechniqueInfo& t : techniques())
        if (t.*ability) names.emplace(t.name);
    return names;
}

// The names in a list as techniquesWith writes it ("a, b and c", "a, b or c", "a, b, c").
Names parseList(std::string text) {
    for (const char* joiner : {" and ", " or "})
        if (const size_t at = text.rfind(joiner); at != std::string::npos) text.replace(at, std::strlen(joiner), ", ");
    Names names;
    size_t start = 0;
    while (start <= text.size()) {
        const size_t end = std::min(text.find(", ", start), text.size());
        names.emplace(text.substr(start, end - start));
        start = end + 2;
    }
    return names;
}

// The text between `before` and the next `after` in `text` ("" when either is missing).
std::string between(const std::string& text, const std::string& before, const std::string& after) {
    const size_t from = text.find(before);
    if (from == std::string::npos) return "";
    const size_t start = from + before.size();
    const size_t end = text.find(after, start);
    return end == std::string::npos ? "" : text.substr(start, end - start);
}

cli::ParseResult parse(std::vector<std::string> args) {
    args.insert(args.begin(), "throng");
    std::vector<const char*> argv;
    for (const std::string& a : args) argv.push_back(a.c_str());
    return cli::parseCommandLine(int(argv.size()), argv.data());
}

bool warns(const cli::ParseResult& r, const std::string& start) {
    return std::any_of(r.command.warnings.begin(), r.command.warnings.end(),
                       [&](const std::string& w) { return w.rfind(start, 0) == 0; });
}

TEST(TechniqueRegistry, EveryNameIsFoundAndListedOnce) {
    ASSERT_FALSE(techniques().empty());
    Names seen;
    std::vector<std::string> names;
    for (const TechniqueInfo& t : techniques()) {
        EXPECT_EQ(findTechnique(t.name), &t) << t.name;
        EXPECT_TRUE(seen.emplace(t.name).second) << "listed twice: " << t.name;
        EXPECT_FALSE(t.summary.empty()) << t.name;
        names.emplace_back(t.name);
    }
    EXPECT_EQ(findTechnique("teleport"), nullptr);
    EXPECT_EQ(findTechnique(""), nullptr);
    EXPECT_EQ(techniqueNames(), names); // the public list (throng/headless.h)
    const std::vector<std::string_view> render_names = render::techniqueNames();
    EXPECT_EQ(std::vector<std::string>(render_names.begin(), render_names.end()), names);
    EXPECT_EQ(parseList(techniqueList()), seen);
}

TEST(TechniqueRegistry, ListsAreSentences) {
    const std::string all = techniqueList();
    const std::string with_and = techniqueList(nullptr, " and ");
    ASSERT_GE(techniques().size(), 3u);
    EXPECT_EQ(all.find(" and "), std::string::npos) << all;
    EXPECT_EQ(with_and.substr(with_and.rfind(" and ") + 5), std::string(techniques().back().name)) << with_and;
    EXPECT_EQ(std::count(with_and.begin(), with_and.end(), ','), std::ptrdiff_t(techniques().size() - 2)) << with_and;
    EXPECT_EQ(techniqueList([](const TechniqueInfo&) { return false; }), "");
    // One name alone; two joined without a comma.
    const std::string first(techniques()[0].name), second(techniques()[1].name);
    EXPECT_EQ(techniqueList([](const TechniqueInfo& t) { return t.name == techniques()[0].name; }, " or "), first);
    EXPECT_EQ(
        techniqueList(
            [](const TechniqueInfo& t) { return t.name == techniques()[0].name || t.name == techniques()[1].name; },
            " or "),
        first + " or " + second);
}

// The free functions the renderer and the viewer call answer as the descriptors say.
TEST(TechniqueRegistry, WrappersFollowTheDescriptors) {
    for (const TechniqueInfo& t : techniques()) {
        SCOPED_TRACE(std::string(t.name));
        EXPECT_EQ(render::techniqueTakesLayers(t.name), t.takes_layers);
        EXPECT_EQ(render::techniqueReadsMembersOnGpu(t.name), t.members_on_gpu);
        EXPECT_EQ(techniqueTakesLayers(std::string(t.name)), t.takes_layers); // throng/headless.h
        EXPECT_EQ(techniqueReadsMembersOnGpu(std::string(t.name)), t.members_on_gpu);
        EXPECT_EQ(render::techniqueRastersInCompute(t.name), t.compute_raster);
        EXPECT_EQ(sim::kindFor(t.name) == sim::Kind::School, t.swims);
        // Skinned in compute is a kind of compute path.
        EXPECT_TRUE(!t.skinned_in_compute || t.compute_raster);
        // Skinned from its own palettes is a kind of skinning in compute.
        EXPECT_TRUE(!t.palettes_in_compute || t.skinned_in_compute);
        // Sampled from the vertex animation is another kind, for a technique that needs it.
        EXPECT_TRUE(!t.vat_in_compute || (t.skinned_in_compute && t.needs_vat));
        // Swum in compute is another, for a technique that swims.
        EXPECT_TRUE(!t.swim_in_compute || (t.skinned_in_compute && t.swims));
        EXPECT_LE(int(t.palettes_in_compute) + int(t.vat_in_compute) + int(t.swim_in_compute), 1);
        // The coarse-skinned levels are the baked animation's.
        EXPECT_FALSE((t.palettes_in_compute || t.vat_in_compute || t.swim_in_compute) && t.coarse_skinning);
        // The layers refusal calls them "the techniques that pose members from the source animation".
        EXPECT_TRUE(!t.takes_layers || t.needs_source);

        EXPECT_EQ(render::skinningProblem(t.name, Skinning::Linear), "");
        const std::string dq = render::skinningProblem(t.name, Skinning::DualQuaternion);
        EXPECT_EQ(dq.empty(), t.dual_quaternion) << dq;
        if (!dq.empty()) {
            EXPECT_EQ(parseList(between(dq, "is drawn by techniques ", ", not " + std::string(t.name))),
                      namesWith(&TechniqueInfo::dual_quaternion))
                << dq;
        }

        // Culling boxes: grown for a swim or a local-space cross-fade, else the clips' own.
        const std::vector<Bounds> clips = {Bounds{glm::vec3(-1.0f, 0.0f, -0.5f), glm::vec3(1.0f, 2.0f, 0.5f)},
                                           Bounds{glm::vec3(-0.5f, 0.0f, -1.0f), glm::vec3(0.5f, 1.5f, 1.0f)}};
        const std::vector<Bounds> culled = render::techniqueCullBounds(t.name, clips, throng::defaultSwim(), false);
        ASSERT_EQ(culled.size(), clips.size());
        const bool same = culled[0].min == clips[0].min && culled[0].max == clips[0].max &&
                          culled[1].min == clips[1].min && culled[1].max == clips[1].max;
        EXPECT_EQ(same, !t.swims && !t.pads_cull_bounds);
    }
    EXPECT_FALSE(render::techniqueTakesLayers("teleport"));
    EXPECT_FALSE(render::techniqueReadsMembersOnGpu("teleport"));
    EXPECT_FALSE(render::techniqueRastersInCompute("teleport"));
    EXPECT_NE(render::skinningProblem("teleport", Skinning::DualQuaternion), "");
}

// createTechnique's refusals come before anything is made on a device: skinning, then layers
// (naming the techniques that blend them), then the source animation layers need.
TEST(TechniqueRegistry, CreateTechniqueRefusesAsTheDescriptorsSay) {
    const std::vector<gpu::shader::InstanceRecord> none;
    for (const TechniqueInfo& t : techniques()) {
        SCOPED_TRACE(std::string(t.name));
        render::TechniqueSetup setup;
        setup.instances = &none;
        setup.layers = {"wave@shoulder"};
        setup.skinning = Skinning::DualQuaternion;
        Result<std::unique_ptr<render::Technique>> r = render::createTechnique(t.name, setup);
        ASSERT_FALSE(r);
        const std::string& message = r.error().message;
        if (!t.dual_quaternion) {
            EXPECT_EQ(message, render::skinningProblem(t.name, Skinning::DualQuaternion));
        } else if (!t.takes_layers) {
            EXPECT_EQ(message.rfind("layers (--layer) are blended by the techniques that pose members from the "
                                    "source animation (",
                                    0),
                      0u)
                << message;
            EXPECT_EQ(parseList(between(message, "source animation (", "), not " + std::string(t.name))),
                      namesWith(&TechniqueInfo::takes_layers))
                << message;
        } else {
            EXPECT_EQ(message, "layers (--layer) need the model's source animation, which this asset lacks");
        }
        setup.skinning = Skinning::Linear;
        r = render::createTechnique(t.name, setup);
        ASSERT_FALSE(r);
        if (t.takes_layers) {
            EXPECT_EQ(r.error().message, "layers (--layer) need the model's source animation, which this asset lacks");
        } else {
            EXPECT_NE(r.error().message.find("(" + techniquesWith(&TechniqueInfo::takes_layers) + "), not " +
                                             std::string(t.name)),
                      std::string::npos)
                << r.error().message;
        }
    }
    Result<std::unique_ptr<render::Technique>> unknown = render::createTechnique("teleport", {});
    ASSERT_FALSE(unknown);
    EXPECT_EQ(unknown.error().message, "unknown technique 'teleport' (available: " + techniqueList() + ")");
}

TEST(TechniqueRegistry, ComputeRasterRefusalNamesTheTechniquesWithIt) {
    gpu::Context context; // no device: the technique is checked first
    const BakedAsset asset;
    const Names with = namesWith(&TechniqueInfo::compute_raster);
    for (const TechniqueInfo& t : techniques()) {
        if (t.compute_raster) continue;
        const std::string why = render::computeRasterProblem(context, t.name, asset, 1);
        const std::string lead = "technique " + std::string(t.name) + " has no compute rasterizer (";
        ASSERT_EQ(why.rfind(lead, 0), 0u) << why;
        std::string list = why.substr(lead.size());
        list = list.substr(0, list.rfind(with.size() == 1 ? " has)" : " have)"));
        EXPECT_EQ(parseList(list), with) << why;
    }
}

// The compute rasterizer draws dual quaternions only where it blends joints (the baked animation's
// or the technique's palettes): a technique that draws them and is drawn in compute must be one.
TEST(TechniqueRegistry, DualQuaternionsInComputeAreSkinnedFromJoints) {
    for (const TechniqueInfo& t : techniques()) {
        if (!t.dual_quaternion || !t.compute_raster) continue;
        EXPECT_TRUE(t.skinned_in_compute) << t.name;
        EXPECT_FALSE(t.vat_in_compute) << t.name;
        EXPECT_FALSE(t.swim_in_compute) << t.name;
    }
}

// --simulate: refused exactly for the techniques that read members on the CPU, naming those that
// do not.
TEST(TechniqueRegistry, SimulateRefusalNamesTheTechniquesThatReadMembersOnTheGpu) {
    cli::CrowdFlags flags;
    flags.simulate = true;
    for (const TechniqueInfo& t : techniques()) {
        SCOPED_TRACE(std::string(t.name));
        const Status s = cli::checkSimulate(flags, std::string(t.name));
        EXPECT_EQ(bool(s), t.members_on_gpu) << s.message;
        if (!s) {
            const std::string lead = "a crowd simulated on the GPU is drawn by ";
            const size_t at = s.message.find(lead);
            ASSERT_NE(at, std::string::npos) << s.message;
            EXPECT_EQ(parseList(s.message.substr(at + lead.size())), namesWith(&TechniqueInfo::members_on_gpu))
                << s.message;
            const cli::ParseResult r = parse({"render", "--technique", std::string(t.name), "--simulate"});
            EXPECT_EQ(r.exit_code, 2);
            EXPECT_EQ(r.error, s.message);
        }
    }
}

// bench: `all` parses (and holds the techniques marked for it), and every NAME@VARIANT it lists
// parses; a variant for an option the technique does not read is refused.
TEST(TechniqueRegistry, BenchListsParse) {
    for (const char* model : {"builtin:walker", "builtin:fish"}) {
        cli::BenchOptions o;
        o.model = model;
        o.techniques = "all";
        const Status s = cli::checkBenchOptions(o);
        EXPECT_TRUE(s) << model << ": " << s.message;
        // With --simulate `all` is refused where it holds a technique that reads members on the CPU.
        o.crowd.simulate = true;
        bool all_on_gpu = findTechnique(cli::naturalTechnique(model))->members_on_gpu;
        for (const TechniqueInfo& t : techniques())
            if (t.in_bench_all) all_on_gpu = all_on_gpu && t.members_on_gpu;
        EXPECT_EQ(bool(cli::checkBenchOptions(o)), all_on_gpu) << model;
    }
    Names variant_techniques;
    for (const std::string& series : parseList(cli::benchVariants())) {
        const size_t at = series.find('@');
        ASSERT_NE(at, std::string::npos) << series;
        const std::string name = series.substr(0, at);
        ASSERT_NE(findTechnique(name), nullptr) << series;
        variant_techniques.insert(name);
        std::string values = series.substr(at + 1) + "|";
        for (size_t start = 0, end; (end = values.find('|', start)) != std::string::npos; start = end + 1) {
            cli::BenchOptions o;
            o.techniques = name + "@" + values.substr(start, end - start);
            const Status s = cli::checkBenchOptions(o);
            EXPECT_TRUE(s) << o.techniques << ": " << s.message;
        }
    }
    for (const TechniqueInfo& t : techniques()) {
        SCOPED_TRACE(std::string(t.name));
        const bool reads_any =
            t.encodes_joints || t.texel_precision || t.animation_storage || t.dual_quaternion || t.compute_raster;
        EXPECT_EQ(variant_techniques.count(std::string(t.name)) == 1, reads_any);
        cli::BenchOptions o;
        o.techniques = std::string(t.name) + "@hardware";
        EXPECT_EQ(bool(cli::checkBenchOptions(o)), t.compute_raster);
        o.techniques = std::string(t.name) + "@dq";
        const Status dq = cli::checkBenchOptions(o);
        EXPECT_EQ(bool(dq), t.dual_quaternion) << dq.message;
        if (!dq) {
            EXPECT_NE(dq.message.find(cli::benchVariants()), std::string::npos) << dq.message;
        }
        o.techniques = std::string(t.name) + "@quat";
        EXPECT_EQ(bool(cli::checkBenchOptions(o)), t.encodes_joints);
        o.techniques = std::string(t.name) + "@half";
        EXPECT_EQ(bool(cli::checkBenchOptions(o)), t.texel_precision);
        o.techniques = std::string(t.name) + "@buffer";
        EXPECT_EQ(bool(cli::checkBenchOptions(o)), t.animation_storage);
    }
}

// The warnings for options a technique does not read, and the names they give.
TEST(TechniqueRegistry, IgnoredOptionsWarnAsTheDescriptorsSay) {
    for (const TechniqueInfo& t : techniques()) {
        SCOPED_TRACE(std::string(t.name));
        const cli::ParseResult r =
            parse({"render", "builtin:walker", "--technique", std::string(t.name), "--swim", "side=0.1", "--encoding",
                   "quat", "--animation", "buffer", "--precision", "half"});
        ASSERT_EQ(r.exit_code, -1) << r.error;
        EXPECT_EQ(warns(r, "--swim is ignored"), !t.swims);
        EXPECT_EQ(warns(r, "--encoding is ignored"), !t.encodes_joints);
        EXPECT_EQ(warns(r, "--animation is ignored"), !t.animation_storage);
        EXPECT_EQ(warns(r, "--precision is ignored"), !t.texel_precision && !t.bake_precision);
        for (const std::string& w : r.command.warnings) {
            if (w.rfind("--encoding", 0) == 0) {
                EXPECT_EQ(parseList(between(w, "only techniques ", " encode joints")),
                          namesWith(&TechniqueInfo::encodes_joints))
                    << w;
            }
        }
    }
}

// Help texts name the techniques from the descriptors.
TEST(TechniqueRegistry, HelpNamesTheTechniques) {
    const cli::ParseResult render = parse({"render", "--help"});
    ASSERT_EQ(render.exit_code, 0);
    for (const TechniqueInfo& t : techniques())
        EXPECT_NE(render.out.find(std::string(t.name) + ": " + std::string(t.summary)), std::string::npos)
            << t.name << "\n"
            << render.out;
    EXPECT_NE(render.out.find("(" + techniquesWith(&TechniqueInfo::members_on_gpu, ", ") + ")"), std::string::npos)
        << render.out;
    const cli::ParseResult bench = parse({"bench", "--help"});
    ASSERT_EQ(bench.exit_code, 0);
    EXPECT_NE(bench.out.find(cli::benchVariants()), std::string::npos) << bench.out;
}

} // namespace
} // namespace throng
