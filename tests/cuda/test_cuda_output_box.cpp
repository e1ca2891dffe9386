// Boxes of the output (MedianOptions::origin, Median3DOptions::origin) on the CUDA backend, for
// host views (the plane pipeline) and device views (on the caller's stream or the library's):
// each box equals that box of the CPU reference's whole output bit for bit, read from the whole
// source or from only the part its windows reach. Skipped without a GPU.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>
#include <vector>

#include "fastmedian/fastmedian.hpp"
#include "support/output_boxes.hpp"
#include "support/test_images.hpp"

namespace fm = fastmedian;
using fmtest::kAllBorders;
using fmtest::kAllTypes;
using fmtest::Stack;

namespace {

class CudaOutputBox : public ::testing::Test {
protected:
    void SetUp() override {
        if (!fm::cuda_unavailable_reason().empty())
            GTEST_SKIP() << "no usable CUDA device: " << fm::cuda_unavailable_reason();
    }
};

enum class Where { host, device, device_on_stream };
const Where kWheres[] = {Where::host, Where::device, Where::device_on_stream};
const char* where_name(Where w) {
    return w == Where::host ? "host views" : w == Where::device ? "device views" : "device views on a stream";
}

// Runs `filter(in, dst, stream)` on the views as given (host) or on device copies of them
// (device: the bytes src's stack spans, and dst's), copying dst back.
template <class Filter>
void run_where(Where where, Stack& src, const fm::ConstImageView& in, const fm::ImageView& dst,
               Filter filter) {
    if (where == Where::host) {
        filter(in, dst, nullptr);
        return;
    }
    const std::size_t dst_bytes = static_cast<std::size_t>(dst.plane_stride * dst.planes);
    void *d_src = nullptr, *d_dst = nullptr;
    ASSERT_EQ(cudaMalloc(&d_src, src.bytes.size()), cudaSuccess);
    ASSERT_EQ(cudaMalloc(&d_dst, dst_bytes), cudaSuccess);
    ASSERT_EQ(cudaMemcpy(d_src, src.bytes.data(), src.bytes.size(), cudaMemcpyHostToDevice), cudaSuccess);
    ASSERT_EQ(cudaMemcpy(d_dst, dst.data, dst_bytes, cudaMemcpyHostToDevice), cudaSuccess);
    fm::ConstImageView din = in;
    din.data = static_cast<const std::uint8_t*>(d_src) + (in.data - src.bytes.data());
    din.memory = fm::Memory::cuda;
    fm::ImageView ddst = dst;
    ddst.data = static_cast<std::uint8_t*>(d_dst);
    ddst.memory = fm::Memory::cuda;
    cudaStream_t stream = nullptr;
    if (where == Where::device_on_stream) ASSERT_EQ(cudaStreamCreate(&stream), cudaSuccess);
    filter(din, ddst, stream);
    if (stream != nullptr) {
        EXPECT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
        cudaStreamDestroy(stream);
    }
    EXPECT_EQ(cudaMemcpy(dst.data, d_dst, dst_bytes, cudaMemcpyDeviceToHost), cudaSuccess);
    cudaFree(d_src);
    cudaFree(d_dst);
}

std::string label(fm::PixelType t, fm::Border b, const std::string& window, Where where) {
    return std::string(fm::pixel_type_name(t)) + " " + fm::border_name(b) + " " + window + ", " +
           where_name(where);
}

}  // namespace

TEST_F(CudaOutputBox, Median2DEveryTypeBorderWindowFamilyAndMemory) {
    // Networks (3, circle 2), tiled networks (5, 7), sliding histograms (square 31).
    const std::pair<fm::Window, std::string> windows[] = {
        {fm::Window::square(3), "square 3"}, {fm::Window::square(5), "square 5"},
        {fm::Window::square(7), "square 7"}, {fm::Window::circle(2), "circle 2"},
        {fm::Window::square(31), "square 31"}};
    std::uint32_t seed = 1;
    for (fm::PixelType t : kAllTypes)
        for (fm::Border b : kAllBorders)
            for (const auto& [w, name] : windows) {
                Stack src = fmtest::random_box_source(t, 45, 23, 2, seed++);
                fm::MedianOptions o;
                o.window = w;
                o.border = b;
                o.cval = 3;
                o.reference = true;
                Stack whole(t, src.width, src.height, src.planes);
                fm::median2d(src.cview(), whole.view(), o);
                o.reference = false;
                o.backend = fm::Backend::cuda;
                const auto [rx, ry] = fmtest::window_radii(w);
                for (Where where : kWheres)
                    fmtest::expect_boxes_equal_whole(src, whole, rx, ry, 0, b,
                        [&](const fm::ConstImageView& in, const fm::ImageView& dst, const fm::Origin& origin) {
                            run_where(where, src, in, dst, [&](const fm::ConstImageView& i, const fm::ImageView& d,
                                                               cudaStream_t stream) {
                                o.origin = origin;
                                o.cuda_stream = stream;
                                EXPECT_EQ(fm::median2d(i, d, o).backend, fm::Backend::cuda);
                            });
                        }, label(t, b, name, where));
            }
}

TEST_F(CudaOutputBox, Median3DEveryTypeBorderWindowFamilyAndMemory) {
    // Tiled networks (box 3, ellipsoid 1) and the generic selection (box 7x3x3).
    const std::pair<fm::Window3D, std::string> windows[] = {
        {fm::Window3D::box(3), "box 3"}, {fm::Window3D::ellipsoid(1), "ellipsoid 1"},
        {fm::Window3D::box(7, 3, 3), "box 7x3x3"}};
    std::uint32_t seed = 100;
    for (fm::PixelType t : kAllTypes)
        for (fm::Border b : kAllBorders)
            for (const auto& [w, name] : windows) {
                Stack src = fmtest::random_box_source(t, 23, 17, 9, seed++);
                fm::Median3DOptions o;
                o.window = w;
                o.border = b;
                o.cval = 3;
                o.reference = true;
                Stack whole(t, src.width, src.height, src.planes);
                fm::median3d(src.cview(), whole.view(), o);
                o.reference = false;
                o.backend = fm::Backend::cuda;
                const fm::WindowRuns3D runs = fm::window3d_runs(w);
                for (Where where : kWheres)
                    fmtest::expect_boxes_equal_whole(src, whole, runs.radius_x, runs.radius_y, runs.radius_z, b,
                        [&](const fm::ConstImageView& in, const fm::ImageView& dst, const fm::Origin& origin) {
                            run_where(where, src, in, dst, [&](const fm::ConstImageView& i, const fm::ImageView& d,
                                                               cudaStream_t stream) {
                                o.origin = origin;
                                o.cuda_stream = stream;
                                EXPECT_EQ(fm::median3d(i, d, o).backend, fm::Backend::cuda);
                            });
                        }, label(t, b, name, where));
            }
}
