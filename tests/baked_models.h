// A model baked for a test: the helper kit_test, looks_test and attach_test share.
#pragma once

#include <throng/bake.h>

#include <gtest/gtest.h>

namespace throng::test {

// `model` baked with the default options (and vertex animation where `vat`); where it does not
// bake, the test fails with bake()'s message and the asset is empty.
inline BakedAsset bakedOrFail(const Model& model, bool vat = false) {
    BakeOptions o;
    o.vat = vat;
    Result<BakedAsset> r = bake(model, o);
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
    return r.ok() ? std::move(r).value() : BakedAsset{};
}

} // namespace throng::test
