// A test suite sharing one headless Vulkan context with the validation layers on: any
// validation error fails the test during which it was reported. A suite that also wants the
// layer's synchronization validation sets `synchronization_` in its own SetUpTestSuite first.
// THRONG_TEST_VALIDATION=off runs without the layers, for a machine that has none (the lent GPU,
// where a test's timing is wanted: tools/device_in_motion.sh); it says so, and nothing else
// turns them off.
#pragma once

#include "../src/gpu/memory.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

namespace throng::test {

class GpuSuite : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        gpu::ContextOptions options;
        const char* switch_ = std::getenv("THRONG_TEST_VALIDATION");
        options.validation = switch_ == nullptr || std::string(switch_) != "off";
        if (!options.validation) std::printf("validation off (THRONG_TEST_VALIDATION=off)\n");
        options.synchronization_validation = synchronization_;
        Result<std::unique_ptr<gpu::Context>> r = gpu::createContext(options);
        if (!r) {
            setup_error_ = r.error().message;
            return;
        }
        context_ = std::move(r).value().release();
        allocator_ = new gpu::Allocator;
        gpu::createAllocator(*allocator_, *context_);
        std::printf("device: %s (%s)\n", context_->device_name.c_str(), context_->driver_name.c_str());
    }
    static void TearDownTestSuite() {
        if (allocator_ != nullptr) gpu::destroyAllocator(*allocator_);
        delete allocator_;
        if (context_ != nullptr) gpu::destroyContext(*context_);
        delete context_;
        allocator_ = nullptr;
        context_ = nullptr;
    }
    void SetUp() override {
        ASSERT_NE(context_, nullptr) << "no Vulkan device with validation: " << setup_error_;
        if (context_->validation) errors_before_ = context_->validation->errors;
    }
    void TearDown() override {
        if (context_ == nullptr || !context_->validation) return;
        EXPECT_EQ(context_->validation->errors, errors_before_)
            << "Vulkan validation error: " << context_->validation->first_error;
    }
    static inline gpu::Context* context_ = nullptr;
    static inline gpu::Allocator* allocator_ = nullptr;
    static inline std::string setup_error_;
    static inline bool synchronization_ = false;
    uint32_t errors_before_ = 0;
};

} // namespace throng::test
