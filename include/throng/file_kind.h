// throng/file_kind.h — what a file is, by its first bytes rather than its name: a baked `.throng` file
// (its magic), a binary glTF (`glTF`), a JSON glTF (a JSON object naming "asset" near its
// start), or something else (left to assimp, which sniffs formats itself). A renamed file is
// recognised; a `.throng` extension on a model is not trusted.
#pragma once

#include <throng/api.h>

#include <string>

THRONG_API_BEGIN
namespace throng::io {

enum class FileKind { Throng, Glb, GltfJson, Other, Unreadable };

// Reads at most the first 4 KiB, only of a regular file (io::checkInputFile: never blocks);
// Unreadable when the path is not a readable regular file (the caller's own checks say why).
FileKind sniffFileKind(const std::string& path);

} // namespace throng::io
THRONG_API_END
