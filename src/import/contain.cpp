// contain.cpp — importers in a child process with limits on memory and time; see contain.h.
//
// The pipe carries one message: a 16-byte header (magic "TCR1", kind, payload length), then the
// payload: encodeModel's bytes for a Model, the one-line message for an Error. The parent believes
// it only when the child also exited with status 0.
#include "contain.h"

#include "common.h"
#include "model_wire.h"

#include "../format/serial.h"

#include <throng/import.h>

#include <fcntl.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/prctl.h>
#endif

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <climits>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <optional>
#include <string_view>

namespace throng::detail {
namespace {

constexpr uint64_t kMiB = uint64_t(1) << 20;
constexpr uint64_t kDefaultMemoryCap = uint64_t(8) << 30;
constexpr double kDefaultSeconds = 120.0;
constexpr double kMaxSeconds = 1e9; // keeps deadline arithmetic finite

constexpr uint32_t kResultMagic = uint32_t('T') | uint32_t('C') << 8 | uint32_t('R') << 16 | uint32_t('1') << 24;
constexpr size_t kHeaderSize = 16;
constexpr uint32_t kKindModel = 0, kKindError = 1;
// A Model larger than this is not a model anyone can render; the cap bounds what the parent
// buffers whatever the child claims.
constexpr uint64_t kMaxModelBytes = uint64_t(4) << 30;
constexpr uint64_t kMaxErrorBytes = 64 * 1024;
constexpr size_t kReadChunk = 64 * 1024;

// --- the child ----------------------------------------------------------------------------------

// Shared with the parent (MAP_SHARED): set by the child's new-handler, so that the parent can
// still name the memory limit when the child dies some other way after an allocation failed.
struct Board {
    std::atomic<uint32_t> allocation_failed{0};
};
static_assert(std::atomic<uint32_t>::is_always_lock_free);

Board* g_child_board = nullptr; // set in the child only

void noteFailedAllocation() {
    if (g_child_board != nullptr) g_child_board->allocation_failed.store(1);
    throw std::bad_alloc();
}

std::string memoryLimitText(uint64_t bytes) { return "memory limit of " + std::to_string(bytes / kMiB) + " MiB"; }

// Writes all of `size` bytes; false when the parent is gone (EPIPE: SIGPIPE is ignored here).
bool writeAll(int fd, const uint8_t* data, size_t size) {
    while (size > 0) {
        const ssize_t n = ::write(fd, data, size);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        data += n;
        size -= size_t(n);
    }
    return true;
}

void sendMessage(int fd, uint32_t kind, const uint8_t* payload, size_t size) {
    ByteWriter header;
    header.u32(kResultMagic);
    header.u32(kind);
    header.u64(size);
    if (writeAll(fd, header.out.data(), header.out.size())) writeAll(fd, payload, size);
}

void sendError(int fd, const std::string& message) {
    sendMessage(fd, kKindError, reinterpret_cast<const uint8_t*>(message.data()), message.size());
}

// Address space mapped now, from /proc/self/statm (no allocation: the child may be short of memory
// and holds only one thread of a possibly multi-threaded parent). nullopt when unreadable.
std::optional<uint64_t> mappedBytes() {
    const int fd = ::open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return std::nullopt;
    char text[128] = {};
    ssize_t n;
    do n = ::read(fd, text, sizeof text - 1);
    while (n < 0 && errno == EINTR);
    ::close(fd);
    uint64_t pages = 0;
    if (n <= 0 || std::from_chars(text, text + n, pages).ec != std::errc()) return std::nullopt;
    const long page = ::sysconf(_SC_PAGESIZE);
    return page > 0 ? std::optional<uint64_t>(pages * uint64_t(page)) : std::nullopt;
}

void limitMemory(uint64_t bytes) {
    if (bytes == 0) return;
    const std::optional<uint64_t> mapped = mappedBytes();
    if (!mapped) return; // documented in contain.h: no limit rather than a wrong one
    rlimit current{};
    if (::getrlimit(RLIMIT_AS, &current) != 0) return;
    rlim_t want = *mapped > RLIM_INFINITY - bytes ? RLIM_INFINITY : rlim_t(*mapped + bytes);
    if (current.rlim_max != RLIM_INFINITY) want = std::min(want, current.rlim_max);
    const rlimit limit{want, want};
    ::setrlimit(RLIMIT_AS, &limit);
}

// Descriptors 0-2 to /dev/null, every other inherited one closed except `keep`: the importer must
// not print into our output (`throng info --json`), read our terminal, or hold other imports'
// pipes open (their parents would wait for this child's exit to see end-of-file).
// `keep` is the pipe's write end, moved above 2 first when the parent had closed its stdio.
bool isolateDescriptors(int& keep) {
    if (keep <= 2 && (keep = ::fcntl(keep, F_DUPFD, 3)) < 0) return false;
    const int null = ::open("/dev/null", O_RDWR);
    if (null < 0) return false;
    for (int fd = 0; fd <= 2; ++fd)
        if (fd != null && ::dup2(null, fd) < 0) return false;
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 34)
    if (keep > 3) ::close_range(3, unsigned(keep - 1), 0);
    ::close_range(unsigned(keep + 1), ~0u, 0);
#else
    const long open_max = ::sysconf(_SC_OPEN_MAX);
    for (int fd = 3; fd < (open_max > 0 && open_max < INT_MAX ? int(open_max) : 1024); ++fd)
        if (fd != keep) ::close(fd);
#endif
    return true;
}

// The parent's handlers must not run here: io's interrupt cleanup would remove the parent's
// temporary files from the child. Ignored signals stay ignored (nohup).
void resetSignals() {
    for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT}) {
        struct sigaction current {};
        if (::sigaction(sig, nullptr, &current) == 0 && current.sa_handler != SIG_IGN) ::signal(sig, SIG_DFL);
    }
    ::signal(SIGPIPE, SIG_IGN); // a vanished parent is EPIPE, handled by writeAll
}

[[noreturn]] void runChild(const std::function<Result<Model>()>& body, const ContainLimits& limits, int out,
                           pid_t parent, Board* board) {
#if defined(__linux__)
    // A parent killed outright must not leave an importer running until its time limit.
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(1);
#else
    (void)parent;
#endif
    resetSignals();
    if (!isolateDescriptors(out)) {
        sendError(out, "cannot start the importer process: /dev/null cannot be opened");
        ::_exit(0);
    }
    const rlimit no_core{0, 0}; // an abort is reported as one line, not a core file
    ::setrlimit(RLIMIT_CORE, &no_core);
    g_child_board = board;
    std::set_new_handler(noteFailedAllocation);
    limitMemory(limits.memory_bytes);

    const std::string out_of_memory =
        "out of memory while importing" +
        (limits.memory_bytes > 0 ? " (" + memoryLimitText(limits.memory_bytes) + ")" : std::string());
    try {
        Result<Model> result = body();
        if (result.ok()) {
            const std::vector<uint8_t> bytes = encodeModel(result.value());
            sendMessage(out, kKindModel, bytes.data(), bytes.size());
        } else {
            // importAssimp's own words for bad_alloc, or assimp's (it catches and reports
            // "std::bad_alloc"): both mean the limit was reached when the new-handler ran.
            const std::string& why = result.error().message;
            const bool memory = board->allocation_failed.load() != 0 &&
                                (why.find("bad_alloc") != std::string::npos || why.find("out of memory") == 0);
            sendError(out, memory ? out_of_memory : why);
        }
    } catch (const std::bad_alloc&) {
        sendError(out, out_of_memory);
    } catch (const std::exception& e) {
        sendError(out, "the importer failed: " + oneLine(e.what()));
    } catch (...) {
        sendError(out, "the importer failed with an unknown exception");
    }
    ::_exit(0);
}

// --- the parent ---------------------------------------------------------------------------------

const char* signalName(int sig) {
    switch (sig) {
    case SIGABRT: return "abort";
    case SIGSEGV: return "segmentation fault";
    case SIGBUS: return "bus error";
    case SIGFPE: return "floating-point exception";
    case SIGILL: return "illegal instruction";
    case SIGKILL: return "killed";
    case SIGTERM: return "terminated";
    case SIGINT: return "interrupted";
    case SIGHUP: return "hangup";
    case SIGQUIT: return "quit";
    case SIGPIPE: return "broken pipe";
    case SIGTRAP: return "trace trap";
    case SIGSYS: return "bad system call";
    case SIGXCPU: return "CPU time limit";
    case SIGXFSZ: return "file size limit";
    default: return "signal";
    }
}

std::string secondsText(double seconds) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", seconds);
    return text;
}

using Clock = std::chrono::steady_clock;

// Milliseconds until `deadline` for poll(): -1 without one, rounded up so that poll does not
// return just before it.
int pollTimeout(const std::optional<Clock::time_point>& deadline) {
    if (!deadline) return -1;
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(*deadline - Clock::now()).count();
    return int(std::clamp<long long>(left, 0, INT_MAX));
}

enum class Received { Complete, TimedOut, Damaged, TooLarge, OutOfMemory };

// Reads the child's message until end-of-file or the deadline. Complete means end-of-file after
// a well-formed header and exactly the payload it announced.
Received receive(int fd, const std::optional<Clock::time_point>& deadline, std::vector<uint8_t>& message) {
    uint64_t expected = 0; // header + payload, once the header is in
    try {
        for (;;) {
            pollfd p{fd, POLLIN, 0};
            const int ready = ::poll(&p, 1, pollTimeout(deadline));
            if (ready < 0 && errno == EINTR) continue;
            if (ready < 0) return Received::Damaged;
            if (ready == 0) {
                if (deadline && Clock::now() >= *deadline) return Received::TimedOut;
                continue;
            }
            const size_t at = message.size();
            message.resize(at + kReadChunk);
            const ssize_t n = ::read(fd, message.data() + at, kReadChunk);
            message.resize(at + size_t(std::max<ssize_t>(n, 0)));
            if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
            if (n < 0) return Received::Damaged;
            if (n == 0) return expected != 0 && message.size() == expected ? Received::Complete : Received::Damaged;
            if (expected == 0 && message.size() >= kHeaderSize) {
                ByteReader header(message.data(), kHeaderSize, "header");
                const uint32_t magic = header.u32(), kind = header.u32();
                const uint64_t length = header.u64();
                if (magic != kResultMagic || (kind != kKindModel && kind != kKindError)) return Received::Damaged;
                if (length > (kind == kKindModel ? kMaxModelBytes : kMaxErrorBytes)) return Received::TooLarge;
                expected = kHeaderSize + length;
            }
            if (expected != 0 && message.size() > expected) return Received::Damaged;
        }
    } catch (const std::bad_alloc&) {
        return Received::OutOfMemory;
    }
}

// How the child ended; nullopt when it was reaped elsewhere (SIGCHLD ignored, or someone's
// waitpid(-1)). Waits until `deadline` at most, then kills it: a child that closed its pipe but
// did not exit must not hang us.
std::optional<int> reap(pid_t pid, const std::optional<Clock::time_point>& deadline, bool& killed) {
    auto pause = std::chrono::microseconds(100);
    for (;;) {
        int status = 0;
        const pid_t r = ::waitpid(pid, &status, deadline ? WNOHANG : 0);
        if (r == pid) return status;
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) return std::nullopt;
        if (Clock::now() >= *deadline) break;
        ::usleep(useconds_t(pause.count()));
        pause = std::min(pause * 2, std::chrono::microseconds(10000));
    }
    ::kill(pid, SIGKILL);
    killed = true;
    for (;;) {
        int status = 0;
        const pid_t r = ::waitpid(pid, &status, 0);
        if (r == pid) return status;
        if (r < 0 && errno != EINTR) return std::nullopt;
    }
}

Result<Model> decodeMessage(const std::vector<uint8_t>& message) {
    ByteReader header(message.data(), kHeaderSize, "header");
    header.u32();
    const uint32_t kind = header.u32();
    const std::span<const uint8_t> payload(message.data() + kHeaderSize, message.size() - kHeaderSize);
    if (kind == kKindError) {
        const std::string text = oneLine(std::string(payload.begin(), payload.end()));
        return Error{text.empty() ? std::string("the importer failed without saying why") : text};
    }
    return decodeModel(payload);
}

struct Ending {
    Received received = Received::Damaged;
    std::optional<int> status; // from waitpid
    bool killed_for_time = false;
    bool allocation_failed = false;
};

Result<Model> interpret(const Ending& e, const std::vector<uint8_t>& message, const ContainLimits& limits) {
    const std::string memory = "the importer stopped (" + memoryLimitText(limits.memory_bytes) + ")";
    if (e.received == Received::TimedOut || e.killed_for_time)
        return Error{"the importer stopped (time limit of " + secondsText(limits.seconds) + " s)"};
    if (e.received == Received::TooLarge) return Error{"the importer's result is larger than 4096 MiB"};
    if (e.received == Received::OutOfMemory) return Error{"out of memory while receiving the importer's result"};
    const bool exited_cleanly = e.status && WIFEXITED(*e.status) && WEXITSTATUS(*e.status) == 0;
    // Reaped elsewhere: a complete message is still the child's own word.
    if (e.received == Received::Complete && (exited_cleanly || !e.status)) return decodeMessage(message);
    if (e.allocation_failed && limits.memory_bytes > 0) return Error{memory};
    if (!e.status) return Error{"the importer stopped (its exit status was lost)"};
    if (WIFSIGNALED(*e.status)) {
        const int sig = WTERMSIG(*e.status);
        return Error{"the importer stopped (signal " + std::to_string(sig) + ": " + signalName(sig) + ")"};
    }
    if (WIFEXITED(*e.status) && WEXITSTATUS(*e.status) != 0)
        return Error{"the importer stopped (exit status " + std::to_string(WEXITSTATUS(*e.status)) + ")"};
    return Error{"the importer stopped without a result"};
}

std::string startFailure() { return "cannot start the importer process: " + std::string(std::strerror(errno)); }

std::optional<uint64_t> parseWhole(std::string_view text) {
    uint64_t v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
    return v;
}

std::optional<double> parseSeconds(const std::string& text) {
    if (text.empty()) return std::nullopt;
    char* end = nullptr;
    errno = 0;
    const double v = std::strtod(text.c_str(), &end);
    if (errno != 0 || end != text.c_str() + text.size() || !std::isfinite(v) || v < 0.0 || v > kMaxSeconds)
        return std::nullopt;
    return v;
}

} // namespace

ContainLimits defaultContainLimits() {
    ContainLimits limits;
    limits.seconds = kDefaultSeconds;
    limits.memory_bytes = kDefaultMemoryCap;
    const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
    if (pages > 0 && page > 0)
        limits.memory_bytes = std::min(limits.memory_bytes, uint64_t(pages) * uint64_t(page) / 2);
    return limits;
}

Result<ContainLimits> containLimitsFromEnvironment() {
    ContainLimits limits = defaultContainLimits();
    if (const char* text = std::getenv("THRONG_IMPORT_MEMORY_MB")) {
        const std::optional<uint64_t> mib = parseWhole(text);
        if (!mib || *mib > (uint64_t(1) << 44)) // 16 EiB of bytes would overflow
            return Error{"THRONG_IMPORT_MEMORY_MB must be a whole number of MiB (0: no limit), not '" + oneLine(text) +
                         "'"};
        limits.memory_bytes = *mib * kMiB;
    }
    if (const char* text = std::getenv("THRONG_IMPORT_SECONDS")) {
        const std::optional<double> seconds = parseSeconds(text);
        if (!seconds)
            return Error{"THRONG_IMPORT_SECONDS must be a number of seconds from 0 (no limit) to 1e9, not '" +
                         oneLine(text) + "'"};
        limits.seconds = *seconds;
    }
    return limits;
}

Result<Model> runContained(const std::function<Result<Model>()>& body, const ContainLimits& limits) {
    assert(std::isfinite(limits.seconds) && limits.seconds >= 0.0);
    void* shared = ::mmap(nullptr, sizeof(Board), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (shared == MAP_FAILED) return Error{startFailure()};
    Board* board = new (shared) Board;
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) {
        const Error error{startFailure()};
        ::munmap(shared, sizeof(Board));
        return error;
    }
    // Whatever is buffered is the parent's to print, once: the child never flushes (it leaves
    // through _exit), and flushing here keeps the order of our output around the import.
    std::fflush(nullptr);
    const pid_t parent = ::getpid();
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::close(fds[0]);
        runChild(body, limits, fds[1], parent, board);
    }
    const int fork_errno = errno;
    ::close(fds[1]);
    if (pid < 0) {
        ::close(fds[0]);
        ::munmap(shared, sizeof(Board));
        errno = fork_errno;
        return Error{startFailure()};
    }

    std::optional<Clock::time_point> deadline;
    if (limits.seconds > 0.0)
        deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                      std::chrono::duration<double>(std::min(limits.seconds, kMaxSeconds)));
    std::vector<uint8_t> message;
    Ending ending;
    ending.received = receive(fds[0], deadline, message);
    ::close(fds[0]);
    bool killed = false;
    if (ending.received != Received::Complete) {
        // Timed out, or a result we will not use: nothing more to wait for.
        ::kill(pid, SIGKILL);
        killed = true;
        ending.status = reap(pid, std::nullopt, killed);
    } else {
        ending.status = reap(pid, deadline, killed);
    }
    ending.killed_for_time = ending.received == Received::TimedOut || (killed && ending.received == Received::Complete);
    ending.allocation_failed = board->allocation_failed.load() != 0;
    board->~Board();
    ::munmap(shared, sizeof(Board));
    return interpret(ending, message, limits);
}

Result<Model> importContained(const std::string& path, const ContainLimits& limits) {
    Result<Model> result = runContained([&path] { return importAssimp(path); }, limits);
    if (!result.ok()) return result;
    // The bytes crossed a process boundary: later stages rely on validate()'s invariants.
    if (Status s = validate(result.value()); !s) return Error{"the importer's result is damaged: " + s.message};
    return result;
}

Result<Model> importContained(const std::string& path) {
    Result<ContainLimits> limits = containLimitsFromEnvironment();
    if (!limits.ok()) return limits.error();
    return importContained(path, limits.value());
}

} // namespace throng::detail
