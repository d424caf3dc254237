// throng/result.h — the error tier for bad data and I/O.
//
// Three tiers of errors run through throng:
//   1. assert()    — a programmer broke a documented contract (wrong span size...).
//   2. VK_CHECK    — a Vulkan call failed, inside the renderer (src/gpu/vk_check.h); the public
//                    API returns it as an Error of its kind (out of memory, device lost, ...).
//   3. Result<T>   — bad input data or I/O, or such a GPU failure: a message meant for the user,
//                    one line, no trailing newline, never containing the "throng: error:"
//                    prefix (the CLI adds that), and its ErrorKind for a program to act on.
#pragma once

#include <throng/api.h>

#include <cassert>
#include <cstdint>
#include <string>
#include <utility>
#include <variant>

THRONG_API_BEGIN
namespace throng {

// What kind of failure an Error (or a failed Status) is, for a host that reacts differently to
// each: fix the input, free memory or ask for less, make the device again, or fall back.
enum class ErrorKind : uint8_t {
    BadInput,          // the caller's: a file, a value, a call out of order (the default; also I/O)
    OutOfDeviceMemory, // GPU memory ran out (VK_ERROR_OUT_OF_DEVICE_MEMORY, or the sub-allocator's
                       // heaps full): fewer members, a smaller target or another technique may fit
    OutOfHostMemory,   // the driver ran out of host memory (VK_ERROR_OUT_OF_HOST_MEMORY)
    DeviceLost,        // VK_ERROR_DEVICE_LOST: everything made on the device must be destroyed
    Unsupported,       // no usable device, or the device lacks a feature or limit this needs
    Gpu,               // another Vulkan failure
};
inline const char* toString(ErrorKind kind) {
    switch (kind) {
    case ErrorKind::BadInput: return "bad input";
    case ErrorKind::OutOfDeviceMemory: return "out of device memory";
    case ErrorKind::OutOfHostMemory: return "out of host memory";
    case ErrorKind::DeviceLost: return "device lost";
    case ErrorKind::Unsupported: return "unsupported";
    case ErrorKind::Gpu: return "GPU failure";
    }
    return "unknown";
}

struct Error {
    std::string message;
    ErrorKind kind = ErrorKind::BadInput;
};

// A value or an Error. Deliberately tiny: check ok(), then take value() or error().
template <class T> class [[nodiscard]] Result {
  public:
    Result(T value) : v_(std::move(value)) {}
    Result(Error error) : v_(std::move(error)) {}

    bool ok() const { return v_.index() == 0; }
    explicit operator bool() const { return ok(); }

    T& value() & {
        assert(ok());
        return std::get<0>(v_);
    }
    const T& value() const& {
        assert(ok());
        return std::get<0>(v_);
    }
    T&& value() && {
        assert(ok());
        return std::get<0>(std::move(v_));
    }
    const Error& error() const {
        assert(!ok());
        return std::get<1>(v_);
    }

  private:
    std::variant<T, Error> v_;
};

// For operations that produce nothing but may fail: an empty message means success.
struct [[nodiscard]] Status {
    std::string message;
    ErrorKind kind = ErrorKind::BadInput; // of a failure
    bool ok() const { return message.empty(); }
    explicit operator bool() const { return ok(); }
    static Status success() { return {}; }
    static Status failure(std::string m, ErrorKind kind = ErrorKind::BadInput) {
        return Status{m.empty() ? std::string("unknown error") : std::move(m), kind};
    }
    static Status failure(const Error& e) { return failure(e.message, e.kind); }
    Error error() const { return Error{message, kind}; }
};

} // namespace throng
THRONG_API_END
