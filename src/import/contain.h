// contain.h — run an importer in a child process with limits on memory and time (internal to
// throng_import; docs/HARDENING.md, issue #9).
//
// Why: assimp 5.2.5 (Debian's libassimp-dev) stops the process on some damaged Collada files (an
// ai_assert that aborts on a weight index out of range, a wild write for a joint index out of
// range) and value-initialises vectors sized by counts in the file (a <vertex_weights count> or a
// <vcount> entry of 10^9 touches 16 GB). In process, such a file kills throng or the machine; in a
// child, it costs one error line. importModel runs importAssimp through importContained; the glTF
// reader, which bounds its own input, stays in process.
//
// How: fork; the child sends its stdin, stdout and stderr to /dev/null (assimp's Ogre importer
// prints to stdout, which would break `throng info --json`), closes every other inherited
// descriptor, lowers its limits, runs the importer, writes the Result to a pipe (model_wire.h)
// and leaves with _exit (no atexit handlers, no flushing of the parent's stdio buffers). The parent
// reads the pipe until the time limit, kills the child with SIGKILL when it is reached, reaps it
// and turns how it ended into one line.
//
// Environment (read by containLimitsFromEnvironment, hence by importModel):
//   THRONG_IMPORT_MEMORY_MB  memory limit in MiB, a whole number; 0: no limit.
//                            Default: 8 GiB, or half of the physical memory when that is less.
//   THRONG_IMPORT_SECONDS    time limit in seconds, decimals allowed, at most 1e9; 0: no limit.
//                            Default: 120.
// The defaults leave room for the largest real files (assimp needs a few GiB and some tens of
// seconds for a model of a few hundred MB) while stopping a bomb well before it exhausts a
// workstation; half of the physical memory keeps a small machine out of the OOM killer.
//
// The memory limit is RLIMIT_AS set to the address space the child inherits plus the limit: a
// forked child starts with all of its parent's mappings (a GPU driver maps GiBs of address space,
// AddressSanitizer terabytes of shadow), so an absolute limit would refuse every allocation in
// such a parent. Measured this way it also works under AddressSanitizer, whose shadow is mapped
// before the fork; there a failed allocation ends the child through ASan's own out-of-memory
// report (exit status 1) rather than std::bad_alloc. Where /proc/self/statm cannot be read, the
// child runs without a memory limit.
//
// Caveat: in a parent with other threads, the child holds only the forking thread; a lock another
// thread held at the fork stays locked in the child. glibc's malloc is safe (it resets its locks);
// anything else that deadlocks ends at the time limit.
#pragma once

#include <throng/model.h>

#include <cstdint>
#include <functional>
#include <string>

namespace throng::detail {

struct ContainLimits {
    uint64_t memory_bytes = 0; // address space the child may add to what it inherits; 0: no limit
    double seconds = 0.0;      // wall clock for the child to finish and hand over its result; 0: no limit
};

// min(8 GiB, physical memory / 2) and 120 s.
ContainLimits defaultContainLimits();

// The defaults with THRONG_IMPORT_MEMORY_MB and THRONG_IMPORT_SECONDS applied. A malformed value
// is an Error naming the variable ("THRONG_IMPORT_SECONDS must be ...").
Result<ContainLimits> containLimitsFromEnvironment();

// importAssimp(path) in a child process (see the top of this file), then validate(). Besides
// importAssimp's own errors, the Result may be one of these lines:
//   "the importer stopped (signal 6: abort)"          (also segmentation fault, bus error, killed...)
//   "the importer stopped (time limit of 120 s)"
//   "the importer stopped (memory limit of 8192 MiB)" (died after an allocation failed)
//   "out of memory while importing (memory limit of 8192 MiB)"
//   "the importer stopped (exit status 1)"            (e.g. a sanitizer's report in a sanitized build)
//   "the importer stopped without a result"
//   "the importer's result is damaged: ..."
//   "cannot start the importer process: ..."
// Requires limits.seconds finite and >= 0.
Result<Model> importContained(const std::string& path, const ContainLimits& limits);

// The same with containLimitsFromEnvironment() (what importModel calls).
Result<Model> importContained(const std::string& path);

// Runs `body` in a child process as described above and returns its Result, or the lines listed
// for importContained. Does not validate() the Model. Exposed so that tests can run bodies that
// sleep, abort, crash or allocate without bound. Requires limits.seconds finite and >= 0.
Result<Model> runContained(const std::function<Result<Model>()>& body, const ContainLimits& limits);

} // namespace throng::detail
