// names.h — names read from files, as messages quote them (shared by validate() and the .throng reader).
#pragma once

#include <string>

namespace throng::detail {

// " 'NAME'" (empty for an empty name), with control characters (a newline in a clip name...)
// turned into '?', so a message that quotes a name stays one line (found by fuzzing).
std::string quotedName(const std::string& name);

} // namespace throng::detail
