// The CUDA temporal median gives the naive median's and the CPU reference's bits: every window
// class (networks, shared-memory and frame-reading sliding medians), both modes, host views in
// one tile or many, device views on a caller's stream, and the streaming form. Skipped without
// a GPU.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>


#include "fastmedian/fastmedian.hpp"
#include "support/device_copy.hpp"
#include "support/memory_limit.hpp"
#include "support/temporal_cases.hpp"

namespace fm = fastmedian;
using fmtest::kAllTypes;
using fmtest::Stack;

namespace {

class CudaTemporal : public ::testing::Test {
protected:
    void SetUp() override {
        if (!fm::cuda_unavailable_reason().empty())
            GTEST_SKIP() << "no usable CUDA device: " << fm::cuda_unavailable_reason();
    }
};

// CUDA against the CPU reference on `src`, outputs poisoned differently.
void expect_cuda_equals_reference(Stack& src, const fm::TemporalOptions& options,
                                  const std::string& what) {
    Stack want(src.type, src.width, src.height, src.planes, 1, 0);
    Stack got(src.type, src.width, src.height, src.planes, 5, 3);
    std::fill(got.bytes.begin(), got.bytes.end(), 0x5A);
    fm::TemporalOptions o = options;
    o.reference = true;
    fm::temporal_median(src.cview(), want.view(), o);
    o.reference = false;
    o.backend = fm::Backend::cuda;
    EXPECT_EQ(fm::temporal_median(src.cview(), got.view(), o).backend, fm::Backend::cuda);
    EXPECT_EQ(fmtest::first_difference(want, got), "") << what;
}

}  // namespace

TEST_F(CudaTemporal, EqualsNaiveSortOnEveryCase) {
    fmtest::expect_backend_equals_naive(fm::Backend::cuda, false);
}

// Wider than a block, and windows that take each launch shape: 256/128/64 pixels per block in
// shared memory, 32 pixels with opted-in shared memory, and reading the frames themselves.
TEST_F(CudaTemporal, EveryLaunchShapeEqualsReference) {
    struct Shape { fm::PixelType type; int window; std::int64_t width, height; };
    const Shape shapes[] = {
        {fm::PixelType::u8, 11, 301, 7},   {fm::PixelType::u16, 60, 301, 5},
        {fm::PixelType::f32, 100, 131, 3}, {fm::PixelType::u16, 600, 70, 2},
        {fm::PixelType::u8, 2000, 40, 2},  {fm::PixelType::f32, 2000, 40, 2}};
    for (const Shape& s : shapes)
        for (int kind = 0; kind < 2; ++kind) {
            Stack src(s.type, s.width, s.height, s.window + 9);
            fmtest::fill_random(src, 31u * s.window + kind, kind == 1 ? 4 : 0);
            if (s.type == fm::PixelType::f32) fmtest::add_specials(src, 7u + kind, 0.1);
            fm::TemporalOptions o;
            o.window = s.window;
            o.mode = kind == 1 ? fm::TemporalMode::subtract : fm::TemporalMode::median;
            o.offset = 12.0;
            expect_cuda_equals_reference(src, o, std::string(fm::pixel_type_name(s.type)) +
                                                     " N=" + std::to_string(s.window));
        }
}

// A stack larger than the memory the GPU may use goes through in bands of rows of every frame
// (the plane pipeline), or, where one row of every frame does not fit, in tiles of rows and
// columns.
TEST_F(CudaTemporal, TilesWhenTheStackDoesNotFit) {
    Stack src(fm::PixelType::u16, 300, 7, 40);
    fmtest::fill_random(src, 99);
    fm::TemporalOptions o;
    o.window = 12;
    // Pipeline bands of one row; tiles of one row; 256-pixel row pieces.
    for (const std::int64_t limit : {200000, 65536, 40960}) {
        const fmtest::MemoryLimit m(limit);
        expect_cuda_equals_reference(src, o, "limit " + std::to_string(limit));
    }
    const fmtest::MemoryLimit m(1000);  // not even 256 pixels fit
    Stack out(fm::PixelType::u16, 300, 7, 40);
    o.backend = fm::Backend::cuda;
    try {
        fm::temporal_median(src.cview(), out.view(), o);
        ADD_FAILURE() << "no error";
    } catch (const fm::Error& e) {
        EXPECT_EQ(e.code(), fm::ErrorCode::unsupported) << e.what();
    }
}

TEST_F(CudaTemporal, DeviceViewsOnACallersStream) {
    cudaStream_t stream;
    ASSERT_EQ(cudaStreamCreate(&stream), cudaSuccess);
    for (fm::PixelType type : kAllTypes)
        for (int window : {5, 40}) {
            Stack src(type, 129, 9, 50, 7, 2);
            fmtest::fill_random(src, 5u + window);
            Stack want(type, 129, 9, 50, 7, 2), got(type, 129, 9, 50, 7, 2);
            std::fill(got.bytes.begin(), got.bytes.end(), 0x33);
            fm::TemporalOptions o;
            o.window = window;
            o.reference = true;
            fm::temporal_median(src.cview(), want.view(), o);
            fmtest::DeviceCopy d_src(src), d_dst(got);
            o.reference = false;
            o.cuda_stream = stream;
            fm::temporal_median(fm::as_const(d_src.view(src)), d_dst.view(got), o);
            ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
            d_dst.copy_to(got);
            EXPECT_EQ(fmtest::first_difference(want, got), "")
                << fm::pixel_type_name(type) << " N=" << window;
        }
    cudaStreamDestroy(stream);
}

TEST_F(CudaTemporal, StreamEqualsNaiveOverLastFrames) {
    fmtest::expect_stream_equals_naive(fm::Backend::cuda);
}
