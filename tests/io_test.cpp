// Files in and out (throng/files.h): what an output path may name, what an input path may name,
// and interruption mid-write — by the library and by `throng bake`/`throng render` themselves.
#include <throng/files.h>

#include "test_util.h"

#include <gtest/gtest.h>

#include <csignal>
#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <thread>

namespace fs = std::filesystem;
using namespace throng;

namespace {

std::string slurp(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void spit(const fs::path& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

Status write(const fs::path& path, const std::string& text) {
    return io::writeFileAtomic(path.string(), text.data(), text.size());
}

std::vector<std::string> names(const fs::path& dir) {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
}

void expectRefused(const Status& s, const std::string& words) {
    ASSERT_FALSE(s.ok()) << "expected a refusal mentioning '" << words << "'";
    EXPECT_NE(s.message.find(words), std::string::npos) << s.message;
    EXPECT_EQ(s.message.find('\n'), std::string::npos) << s.message;
}

} // namespace

TEST(Output, CreatesAndReplacesRegularFilesKeepingTheirPermissions) {
    const auto dir = test::scratchDir("out");
    ASSERT_TRUE(write(dir / "a.bin", "first").ok());
    EXPECT_EQ(slurp(dir / "a.bin"), "first");
    fs::permissions(dir / "a.bin", fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
    ASSERT_TRUE(write(dir / "a.bin", "second, longer").ok());
    EXPECT_EQ(slurp(dir / "a.bin"), "second, longer");
    EXPECT_EQ(fs::status(dir / "a.bin").permissions(),
              fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
    EXPECT_EQ(names(dir), std::vector<std::string>{"a.bin"}); // no temporary left
}

TEST(Output, RefusesDevicesFifosSocketsAndDirectoriesBeforeWriting) {
    const auto dir = test::scratchDir("out");
    expectRefused(write("/dev/null", "x"), "is a character device, not a regular file: refusing to replace it");
    struct stat st {};
    ASSERT_EQ(::stat("/dev/null", &st), 0);
    EXPECT_TRUE(S_ISCHR(st.st_mode)) << "/dev/null must still be a device";

    ASSERT_EQ(::mkfifo((dir / "fifo").c_str(), 0644), 0);
    expectRefused(write(dir / "fifo", "x"), "is a FIFO");
    EXPECT_TRUE(fs::is_fifo(dir / "fifo"));

    const int sock = ::socket(AF_UNIX, SOCK_STREAM, 0);
    ASSERT_GE(sock, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    // A socket's path must fit in 108 bytes; the scratch folder of a deep checkout may not, so
    // the socket is bound by its name from inside the folder.
    std::memcpy(addr.sun_path, "sock", 5);
    const fs::path previous = fs::current_path();
    fs::current_path(dir);
    const int bound = ::bind(sock, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
    fs::current_path(previous);
    ASSERT_EQ(bound, 0);
    expectRefused(write(dir / "sock", "x"), "is a socket");
    EXPECT_TRUE(fs::is_socket(dir / "sock"));
    ::close(sock);

    fs::create_directories(dir / "folder" / "inside");
    expectRefused(write(dir / "folder", "x"), "is a directory");
    EXPECT_TRUE(fs::is_directory(dir / "folder" / "inside"));

    expectRefused(write(dir / "missing" / "x.bin", "x"), "the folder does not exist");
    spit(dir / "plain", "p");
    expectRefused(write(dir / "plain" / "x.bin", "x"), "the folder");
    EXPECT_EQ(names(dir), (std::vector<std::string>{"fifo", "folder", "plain", "sock"}));
}

TEST(Output, LinksToRegularFilesAreFollowedAndStayLinks) {
    const auto dir = test::scratchDir("out");
    spit(dir / "real.bin", "old");
    fs::create_symlink("real.bin", dir / "link.bin");
    ASSERT_TRUE(write(dir / "link.bin", "new").ok());
    EXPECT_TRUE(fs::is_symlink(dir / "link.bin"));
    EXPECT_EQ(slurp(dir / "real.bin"), "new");
    // A chain of links, the last one dangling in an existing folder: the file it names is created.
    fs::create_symlink("link2.bin", dir / "chain.bin");
    fs::create_symlink("created.bin", dir / "link2.bin");
    ASSERT_TRUE(write(dir / "chain.bin", "made").ok());
    EXPECT_EQ(slurp(dir / "created.bin"), "made");
    EXPECT_TRUE(fs::is_symlink(dir / "chain.bin") && fs::is_symlink(dir / "link2.bin"));
    // Links to what may not be replaced, or into nowhere, or in a loop.
    ASSERT_EQ(::mkfifo((dir / "fifo").c_str(), 0644), 0);
    fs::create_symlink("fifo", dir / "to_fifo");
    expectRefused(write(dir / "to_fifo", "x"), "is a link to a FIFO");
    fs::create_symlink("/dev/null", dir / "to_null");
    expectRefused(write(dir / "to_null", "x"), "is a link to a character device");
    fs::create_symlink("nowhere/x.bin", dir / "to_nowhere");
    expectRefused(write(dir / "to_nowhere", "x"), "is a link to a missing file: the folder does not exist");
    fs::create_symlink("loop_b", dir / "loop_a");
    fs::create_symlink("loop_a", dir / "loop_b");
    expectRefused(write(dir / "loop_a", "x"), "too many levels of symbolic links");
}

TEST(Input, OnlyRegularFilesAreOpenedAndNothingBlocks) {
    const auto dir = test::scratchDir("in");
    ASSERT_EQ(::mkfifo((dir / "fifo").c_str(), 0644), 0);
    const auto start = std::chrono::steady_clock::now();
    Result<std::vector<uint8_t>> r = io::readRegularFile((dir / "fifo").string());
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().message, "is a FIFO, not a regular file");
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5)); // no writer needed to fail
    r = io::readRegularFile("/dev/zero");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().message, "is a character device, not a regular file");
    r = io::readRegularFile(dir.string());
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().message, "is a directory, not a file");
    r = io::readRegularFile((dir / "none").string());
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().message, "cannot open: no such file");
    spit(dir / "big", std::string(1000, 'x'));
    r = io::readRegularFile((dir / "big").string(), 999);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().message, "too large: 1000 bytes, the limit is 999");
    r = io::readRegularFile((dir / "big").string());
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r.value().size(), 1000u);
}

// --- The CLI, interrupted ------------------------------------------------------------------

namespace {

struct Child {
    pid_t pid = -1;
};

// Starts `throng ARGS...` with stdout and stderr to files in `dir`.
Child start(const fs::path& dir, std::vector<std::string> args) {
    args.insert(args.begin(), THRONG_EXE);
    Child c;
    c.pid = ::fork();
    if (c.pid == 0) {
        const int out = ::open((dir / "stdout.txt").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        const int err = ::open((dir / "stderr.txt").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        ::dup2(out, 1);
        ::dup2(err, 2);
        std::vector<char*> argv;
        for (std::string& a : args) argv.push_back(a.data());
        argv.push_back(nullptr);
        ::execv(argv[0], argv.data());
        ::_exit(127);
    }
    return c;
}

bool hasTemporary(const fs::path& dir) {
    for (const auto& e : fs::directory_iterator(dir))
        if (e.path().filename().string().find(".tmp-") != std::string::npos) return true;
    return false;
}

// Waits for the child; returns the signal that ended it (0 if it exited).
int waitSignal(const Child& c, int* exit_code = nullptr) {
    int status = 0;
    while (::waitpid(c.pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (exit_code) *exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return WIFSIGNALED(status) ? WTERMSIG(status) : 0;
}

} // namespace

// A bake interrupted at any moment — while baking, or while its temporary file is being written —
// leaves the previous output byte for byte and no temporary behind, and dies by that signal.
TEST(Interrupt, BakeLeavesThePreviousOutputAndNoTemporary) {
    const auto dir = test::scratchDir("bake");
    const fs::path out = dir / "crowd.throng";
    const std::string previous = "the previous output, which must survive";
    int interrupted_while_writing = 0;
    for (int signal : {SIGINT, SIGTERM, SIGINT, SIGTERM}) {
        for (bool during_write : {false, true}) {
            spit(out, previous);
            const Child c = start(dir, {"bake", "builtin:walker", "--fps", "120", "--vat", "-o", out.string()});
            ASSERT_GT(c.pid, 0);
            const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
            bool sent = false;
            while (!sent && std::chrono::steady_clock::now() < deadline) {
                // Mid-bake: as soon as progress shows. Mid-write: as soon as the temporary exists.
                const bool ready = during_write ? hasTemporary(dir)
                                                : slurp(dir / "stderr.txt").find("bake: clip") != std::string::npos;
                if (ready) {
                    ::kill(c.pid, signal);
                    sent = true;
                    interrupted_while_writing += during_write;
                    break;
                }
                int status = 0;
                if (::waitpid(c.pid, &status, WNOHANG) == c.pid) break; // finished before we caught it
                std::this_thread::sleep_for(std::chrono::microseconds(200));
            }
            int code = 0;
            const int died_by = sent ? waitSignal(c, &code) : 0;
            if (!sent) continue; // the run was faster than our polling; nothing to check
            EXPECT_EQ(died_by, signal) << "exit code " << code << ", stderr: " << slurp(dir / "stderr.txt");
            EXPECT_EQ(slurp(out), previous) << (during_write ? "interrupted mid-write" : "interrupted mid-bake");
            EXPECT_FALSE(hasTemporary(dir)) << "a temporary file was left behind";
        }
    }
    // The write window is long for this file (tens of MB); most rounds must have hit it.
    EXPECT_GE(interrupted_while_writing, 2);
}

TEST(Interrupt, RefusedOutputsAreRefusedBeforeAnyWork) {
    const auto dir = test::scratchDir("refuse");
    ASSERT_EQ(::mkfifo((dir / "fifo.png").c_str(), 0644), 0);
    for (const std::string& args :
         {std::string("render --instances 1 --size 32x32 --out ") + (dir / "fifo.png").string(),
          std::string("bake builtin:fish -o ") + (dir / "fifo.png").string(),
          std::string("bench --instances 1 --techniques static --json ") + (dir / "fifo.png").string(),
          std::string("render --instances 1 --size 32x32 --out /dev/null")}) {
        const test::CliRun r = test::runThrong(args);
        EXPECT_EQ(r.exit_code, 1) << args;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << args << ": " << r.err;
        EXPECT_NE(r.err.find("not a regular file: refusing to replace it"), std::string::npos) << r.err;
        EXPECT_TRUE(r.out.empty()) << r.out;
    }
    EXPECT_TRUE(fs::is_fifo(dir / "fifo.png"));
    struct stat st {};
    ASSERT_EQ(::stat("/dev/null", &st), 0);
    EXPECT_TRUE(S_ISCHR(st.st_mode));
}
