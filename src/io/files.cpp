// files.cpp — regular-file checks, the atomic write and the interrupt cleanup (see files.h).
#include <throng/files.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>

namespace throng::io {
namespace {

std::string reason() { return std::strerror(errno); }

const char* kindName(mode_t mode) {
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISFIFO(mode)) return "a FIFO";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISSOCK(mode)) return "a socket";
    if (S_ISLNK(mode)) return "a symbolic link";
    return "not a regular file";
}

std::string folderOf(const std::string& path) {
    const size_t slash = path.find_last_of('/');
    if (slash == std::string::npos) return ".";
    if (slash == 0) return "/";
    return path.substr(0, slash);
}

std::string nameOf(const std::string& path) {
    const size_t slash = path.find_last_of('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

// The folder a new file will be created in must exist and be writable.
Status checkFolder(const std::string& path) {
    const std::string folder = folderOf(path);
    struct stat st {};
    if (::stat(folder.c_str(), &st) != 0)
        return Status::failure(errno == ENOENT ? "the folder does not exist" : "cannot reach the folder: " + reason());
    if (!S_ISDIR(st.st_mode)) return Status::failure("the folder is not a directory");
    if (::access(folder.c_str(), W_OK | X_OK) != 0) return Status::failure("cannot write in the folder: " + reason());
    return {};
}

// Follows a chain of links from `path` to the first name that is not a link (which may not
// exist). Relative link targets are relative to the link's own folder.
Result<std::string> followLinks(std::string path) {
    for (int hops = 0; hops < 40; ++hops) {
        struct stat st {};
        if (::lstat(path.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return path;
        std::string target(size_t(st.st_size > 0 ? st.st_size : 4095) + 1, '\0');
        const ssize_t n = ::readlink(path.c_str(), target.data(), target.size());
        if (n < 0 || size_t(n) >= target.size()) return Error{"cannot read the link: " + reason()};
        target.resize(size_t(n));
        path = target.front() == '/' ? target : folderOf(path) + "/" + target;
    }
    return Error{"too many levels of symbolic links"};
}

// --- interrupt cleanup: a fixed table of temporary paths, readable from a signal handler ----

constexpr int kSlots = 16;
constexpr size_t kPathBytes = 4096;
struct TempSlot {
    std::atomic<int> state{0}; // 0 free, 1 being filled, 2 holds a temporary to remove
    char path[kPathBytes];
};
TempSlot g_slots[kSlots];
static_assert(std::atomic<int>::is_always_lock_free, "the signal handler reads these");

int registerTemp(const std::string& path) {
    if (path.size() >= kPathBytes) return -1;
    for (int i = 0; i < kSlots; ++i) {
        int expected = 0;
        if (!g_slots[i].state.compare_exchange_strong(expected, 1)) continue;
        std::memcpy(g_slots[i].path, path.c_str(), path.size() + 1);
        g_slots[i].state.store(2);
        return i;
    }
    return -1; // more writes in flight than slots: that write goes unguarded, still atomic
}

void unregisterTemp(int slot) {
    if (slot >= 0) g_slots[slot].state.store(0);
}

extern "C" void removeTempsAndDie(int sig) {
    for (TempSlot& s : g_slots)
        if (s.state.load() == 2) ::unlink(s.path);
    ::raise(sig); // SA_RESETHAND restored the default action; delivered when the handler returns
}

std::atomic<uint32_t> g_counter{0};

Status writeAll(int fd, const uint8_t* data, size_t size) {
    while (size > 0) {
        const ssize_t n = ::write(fd, data, std::min<size_t>(size, size_t(1) << 30));
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return Status::failure("cannot write: " + reason());
        data += n;
        size -= size_t(n);
    }
    return {};
}

} // namespace

Status checkInputFile(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0)
        return Status::failure(errno == ENOENT ? std::string("cannot open: no such file") : "cannot open: " + reason());
    if (S_ISDIR(st.st_mode)) return Status::failure("is a directory, not a file");
    if (!S_ISREG(st.st_mode))
        return Status::failure(std::string("is ") + kindName(st.st_mode) + ", not a regular file");
    if (::access(path.c_str(), R_OK) != 0) return Status::failure("cannot open: " + reason());
    return {};
}

Result<std::vector<uint8_t>> readRegularFile(const std::string& path, uint64_t max_bytes) {
    if (Status s = checkInputFile(path); !s) return Error{s.message};
    // Non-blocking: if a FIFO was swapped in since the check, open() does not wait for a writer.
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return Error{"cannot open: " + reason()};
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        return Error{"cannot open: not a regular file"};
    }
    if (uint64_t(st.st_size) > max_bytes) {
        ::close(fd);
        return Error{"too large: " + std::to_string(st.st_size) + " bytes, the limit is " + std::to_string(max_bytes)};
    }
    std::vector<uint8_t> data(size_t(st.st_size));
    size_t done = 0;
    while (done < data.size()) {
        const ssize_t n = ::read(fd, data.data() + done, data.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            const std::string why = reason();
            ::close(fd);
            return Error{"cannot read: " + why};
        }
        if (n == 0) break; // shrank while reading: the caller's format checks see what is missing
        done += size_t(n);
    }
    ::close(fd);
    data.resize(done);
    return data;
}

Result<std::string> resolveOutput(const std::string& path) {
    if (path.empty()) return Error{"empty output path"};
    Result<std::string> followed = followLinks(path);
    if (!followed) return followed.error();
    const std::string& target = followed.value();
    const bool linked = target != path;
    struct stat st {};
    if (::lstat(target.c_str(), &st) != 0) {
        if (errno == ENOTDIR) return Error{"the folder is not a directory"};
        if (errno != ENOENT) return Error{"cannot check it: " + reason()};
        if (Status s = checkFolder(target); !s)
            return Error{linked ? "is a link to a missing file: " + s.message : s.message};
        return target;
    }
    if (!S_ISREG(st.st_mode))
        return Error{std::string(linked ? "is a link to " : "is ") + kindName(st.st_mode) +
                     ", not a regular file: refusing to replace it"};
    if (Status s = checkFolder(target); !s) return Error{s.message};
    if (::access(target.c_str(), W_OK) != 0) return Error{"cannot write it: " + reason()};
    return target;
}

Status writeFileAtomic(const std::string& path, std::span<const std::span<const uint8_t>> parts) {
    Result<std::string> resolved = resolveOutput(path);
    if (!resolved) return Status::failure(resolved.error().message);
    const std::string& target = resolved.value();
    const std::string tmp = folderOf(target) + "/." + nameOf(target) + ".tmp-" + std::to_string(::getpid()) + "-" +
                            std::to_string(g_counter++);
    struct stat old {};
    const bool replacing = ::lstat(target.c_str(), &old) == 0;

    const int slot = registerTemp(tmp);
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0666);
    if (fd < 0) {
        const Status s = Status::failure("cannot create a file beside it: " + reason());
        unregisterTemp(slot);
        return s;
    }
    Status status;
    if (replacing && ::fchmod(fd, old.st_mode & 07777) != 0)
        status = Status::failure("cannot set permissions: " + reason());
    for (std::span<const uint8_t> part : parts) {
        if (!status) break;
        status = writeAll(fd, part.data(), part.size());
    }
    if (status && ::fsync(fd) != 0) status = Status::failure("cannot write: " + reason());
    if (::close(fd) != 0 && status) status = Status::failure("cannot write: " + reason());
    // The target may have changed while we wrote: rename only over nothing or a regular file.
    struct stat now {};
    if (status && ::lstat(target.c_str(), &now) == 0 && !S_ISREG(now.st_mode))
        status = Status::failure(std::string("became ") + kindName(now.st_mode) + " while writing: left as it is");
    if (status && ::rename(tmp.c_str(), target.c_str()) != 0)
        status = Status::failure("cannot replace it: " + reason());
    if (!status) ::unlink(tmp.c_str());
    unregisterTemp(slot); // after the rename: a signal in between unlinks a name that is gone
    if (status) {
        const int dir = ::open(folderOf(target).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (dir >= 0) {
            ::fsync(dir); // the rename itself durable; best effort
            ::close(dir);
        }
    }
    return status;
}

Status writeFileAtomic(const std::string& path, const void* bytes, size_t size) {
    const std::span<const uint8_t> one(static_cast<const uint8_t*>(bytes), size);
    return writeFileAtomic(path, std::span<const std::span<const uint8_t>>(&one, 1));
}

void installInterruptCleanup() {
    static std::atomic<bool> installed{false};
    if (installed.exchange(true)) return;
    for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
        struct sigaction current {};
        if (::sigaction(sig, nullptr, &current) != 0 || current.sa_handler == SIG_IGN) continue; // nohup stays nohup
        struct sigaction action {};
        action.sa_handler = removeTempsAndDie;
        action.sa_flags = SA_RESETHAND;
        sigemptyset(&action.sa_mask);
        ::sigaction(sig, &action, nullptr);
    }
}

} // namespace throng::io
