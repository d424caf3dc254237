// throng/files.h — reading inputs and writing outputs without hanging on, or damaging, what a path names.
//
// Inputs: a path is checked to name a regular file (after following links) *before* it is
// opened for reading, and opened non-blocking, so a FIFO, a device or a directory given as an
// input is refused instead of hanging or reading forever.
//
// Outputs: the file is written to a temporary file in the folder of the file it replaces, flushed
// to disk, and renamed over it. That is only right for regular files, so:
//   - absent target: created;
//   - a regular file: replaced whole or not at all (its permission bits are kept);
//   - a symbolic link to a regular file (or to nothing yet, in an existing folder): the file it
//     points to is written, atomically, and the link stays a link;
//   - a FIFO, device, socket or directory (or a link to one), a folder that does not exist or
//     cannot be written: refused with one line, before anything is written.
// A regular file with several hard links loses its link to the others (rename makes a new file).
//
// Interruption: SIGINT, SIGTERM and SIGHUP during a write (with installInterruptCleanup())
// remove the temporary file, then end the process by the same signal; the target is untouched.
#pragma once

#include <throng/api.h>
#include <throng/result.h>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

THRONG_API_BEGIN
namespace throng::io {

// The whole file, refused when it is not a regular file or is larger than `max_bytes`
// ("too large: N bytes, the limit is M"). Messages never contain the path.
Result<std::vector<uint8_t>> readRegularFile(const std::string& path, uint64_t max_bytes = uint64_t(1) << 34);

// Refuses (one line) anything that is not a readable regular file: "no such file",
// "is a directory, not a file", "is a FIFO, not a regular file", "cannot open: Permission denied".
// Does not open the file for reading, so it never blocks.
Status checkInputFile(const std::string& path);

// Where the bytes of an output to `path` will go: the regular file to create or replace
// (a link resolved to what it points to). Refuses every case listed at the top of this header.
Result<std::string> resolveOutput(const std::string& path);

// resolveOutput(), then the atomic write of the parts, in order.
Status writeFileAtomic(const std::string& path, std::span<const std::span<const uint8_t>> parts);
Status writeFileAtomic(const std::string& path, const void* bytes, size_t size);

// Installs handlers for SIGINT, SIGTERM and SIGHUP that remove the temporary files of writes in
// progress and then re-raise the signal with its default action. Call once, early, from a
// program's main(); idempotent.
void installInterruptCleanup();

} // namespace throng::io
THRONG_API_END
