// Image files a model names beside itself (Ogre, FBX, Collada, .X, OBJ through assimp: assimp
// gives their names, not their bytes), read the way glTF's external images are.
#pragma once

#include <throng/model.h>

#include <string>

namespace throng::detail {

// For every texture with a `uri` and no bytes: reads the first of, relative to the model's
// folder, the name as given (a relative path, backslashes read as slashes) and its file name
// alone (authoring tools often store absolute paths of another machine), each a regular file of
// at most 256 MiB (io::readRegularFile: never blocks). A texture none of them gives keeps no bytes
// and adds textureNotFound(...) to the model's warnings. Never reads outside those two places.
void loadExternalTextures(Model& model, const std::string& model_path);

} // namespace throng::detail
