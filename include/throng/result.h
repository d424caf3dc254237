// throng/result.h — the error tier for bad data and I/O.
//
// Three tiers of errors run through throng:
//   1. assert()    — a programmer broke a documented contract (wrong span size...).
//   2. VK_CHECK    — a Vulkan call failed (runtime, later).
//   3. Result<T>   — bad input data or I/O: a message meant for the user, one line,
//                    no trailing newline, never containing the "throng: error:" prefix
//                    (the CLI adds that).
#pragma once

#include <cassert>
#include <string>
#include <utility>
#include <variant>

namespace throng {

struct Error {
    std::string message;
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
    bool ok() const { return message.empty(); }
    explicit operator bool() const { return ok(); }
    static Status success() { return {}; }
    static Status failure(std::string m) { return Status{m.empty() ? std::string("unknown error") : std::move(m)}; }
};

} // namespace throng
