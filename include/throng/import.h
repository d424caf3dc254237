// throng/import.h — offline: read model files (and built-in creatures) into a Model.
//
// Offline code: links tinygltf and assimp. The runtime (throng/anim.h, later the renderer)
// never includes this header.
//
// Every function returns a validated Model or an Error whose message is one line naming
// what is wrong, without the path (the caller prefixes it): "truncated GLB: header says 15104
// bytes, file has 9000".
#pragma once

#include <throng/api.h>
#include <throng/model.h>

#include <cstdint>
#include <span>
#include <string>

THRONG_API_BEGIN
namespace throng {

// By source: "builtin:NAME" -> makeBuiltin; .gltf/.glb -> importGltf; anything else -> importAssimp.
// A file without any skin imports as rigid meshes bound to their nodes, with a warning
// (documented choice: such a file still renders and animates its node tracks).
Result<Model> importModel(const std::string& source);

// glTF 2.0 (.gltf with external or embedded buffers, .glb) through tinygltf: all skins,
// the default scene's node hierarchy, STEP/LINEAR/CUBICSPLINE, sparse accessors, normalized
// integer weights and joints of any component type. Morph targets are skipped with a warning.
// Refuses JSON nested deeper than 128 levels before parsing, and files whose accessors add up
// to more than 2^25 decoded numbers; external buffers and images must be regular files.
Result<Model> importGltf(const std::string& path);

// The same from bytes in memory (fuzzed): `binary` selects GLB; external buffers and images are
// read from `base_dir`, or refused when it is empty; `source` becomes Model::source.
Result<Model> importGltfBytes(std::span<const uint8_t> bytes, bool binary, const std::string& base_dir,
                              const std::string& source = "memory");

// FBX, Collada, DirectX .x, Ogre and the other formats assimp reads.
// In process; importModel runs it in a child process with limits on memory and time instead
// (src/import/contain.h), so that a crash or a memory bomb in assimp costs one error line.
Result<Model> importAssimp(const std::string& path);

} // namespace throng
THRONG_API_END
