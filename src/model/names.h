// names.h — names read from files, as messages quote them (shared by validate() and the .throng reader).
#pragma once

#include <string>

namespace throng::detail {

// " 'NAME'" (empty for an empty name), with control characters (a newline in a clip name...)
// turned into '?', so a message that quotes a name stays one line (found by fuzzing). Inline:
// every library that quotes names (the runtime's, the offline one's) has its own.
inline std::string quotedName(const std::string& name) {
    if (name.empty()) return "";
    std::string s = name;
    for (char& ch : s)
        if (static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f) ch = '?';
    return " '" + s + "'";
}

} // namespace throng::detail
