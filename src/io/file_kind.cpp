// What a file is by its first bytes; see file_kind.h.
#include <throng/file_kind.h>

#include <throng/files.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <string_view>

namespace throng::io {

FileKind sniffFileKind(const std::string& path) {
    if (!checkInputFile(path).ok()) return FileKind::Unreadable;
    std::ifstream in(path, std::ios::binary);
    if (!in) return FileKind::Unreadable;
    char head[4096];
    in.read(head, sizeof head);
    const std::string_view bytes(head, size_t(in.gcount()));
    if (bytes.size() >= 8 && std::memcmp(bytes.data(), "THRONG\0\0", 8) == 0) return FileKind::Throng;
    if (bytes.size() >= 4 && bytes.substr(0, 4) == "glTF") return FileKind::Glb;
    size_t first = 0;
    if (bytes.substr(0, 3) == "\xEF\xBB\xBF") first = 3; // a UTF-8 byte order mark
    first = bytes.find_first_not_of(" \t\r\n", first);
    // "asset" is required at the top level and usually comes first; a large file that names it
    // later is still taken for glTF when its name says so.
    const bool object = first != std::string_view::npos && bytes[first] == '{';
    if (object &&
        (bytes.find("\"asset\"") != std::string_view::npos || std::filesystem::path(path).extension() == ".gltf"))
        return FileKind::GltfJson;
    return FileKind::Other;
}

} // namespace throng::io
