// The technique registry: the one place that lists them.
#include "technique.h"

namespace throng::render {

std::unique_ptr<Technique> createBakedTechnique(const TechniqueSetup& setup);
std::unique_ptr<Technique> createStaticTechnique(const TechniqueSetup& setup);
std::unique_ptr<Technique> createProceduralTechnique(const TechniqueSetup& setup);

namespace {

struct Entry {
    std::string_view name;
    std::unique_ptr<Technique> (*create)(const TechniqueSetup&);
};

constexpr Entry kTechniques[] = {
    {"baked", createBakedTechnique},
    {"procedural", createProceduralTechnique},
    {"static", createStaticTechnique},
};

} // namespace

std::vector<std::string_view> techniqueNames() {
    std::vector<std::string_view> names;
    for (const Entry& e : kTechniques) names.push_back(e.name);
    return names;
}

Result<std::unique_ptr<Technique>> createTechnique(std::string_view name, const TechniqueSetup& setup) {
    for (const Entry& e : kTechniques)
        if (e.name == name) return e.create(setup);
    std::string known;
    for (const Entry& e : kTechniques) known += std::string(known.empty() ? "" : ", ") + std::string(e.name);
    return Error{"unknown technique '" + std::string(name) + "' (available: " + known + ")"};
}

} // namespace throng::render
