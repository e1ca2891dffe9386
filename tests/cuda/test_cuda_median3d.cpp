// The CUDA 3D median gives the CPU reference's bits: the tiled networks (boxes k x k x kz,
// ellipsoids r, r, rz, for k, kz in 3, 5, 7, r in 1, 2, 3, rz in 0..3), the padded networks
// (other windows of up to 169 voxels), the generic selection and the 2D paths (other windows
// one plane deep), on random volumes, ties, float specials, odd sizes, padded strides, every
// border; host volumes go in bands of rows, many of them when the device memory allowed is
// small (device views: test_cuda_device_views.cpp).
// Skipped without a GPU.
#include <gtest/gtest.h>

#include <limits>
#include <vector>

#include "fastmedian/fastmedian.hpp"
#include "support/memory_limit.hpp"
#include "support/naive_median3d.hpp"
#include "support/test_images.hpp"

namespace fm = fastmedian;
using fmtest::kAllBorders;
using fmtest::kAllTypes;
using fmtest::Stack;

namespace {

class CudaMedian3D : public ::testing::Test {
protected:
    void SetUp() override {
        if (!fm::cuda_unavailable_reason().empty())
            GTEST_SKIP() << "no usable CUDA device: " << fm::cuda_unavailable_reason();
    }

    // Runs the CPU reference and the CUDA backend (output poisoned) and expects equal bytes.
    static void expect_cuda_equals_cpu(Stack& src, const fm::Window3D& w, fm::Border b,
                                       double cval, const std::string& what) {
        Stack cpu(src.type, src.width, src.height, src.planes, 1, 0);
        Stack gpu(src.type, src.width, src.height, src.planes, 5, 3);
        std::fill(gpu.bytes.begin(), gpu.bytes.end(), 0x5A);
        const auto before = src.bytes;
        fm::Median3DOptions o;
        o.window = w;
        o.border = b;
        o.cval = cval;
        o.reference = true;
        fm::median3d(src.cview(), cpu.view(), o);
        o.reference = false;
        o.backend = fm::Backend::cuda;
        const fm::RunInfo info = fm::median3d(src.cview(), gpu.view(), o);
        ASSERT_EQ(info.backend, fm::Backend::cuda);
        EXPECT_EQ(fmtest::first_difference(cpu, gpu), "") << what;
        EXPECT_EQ(src.bytes, before) << what << ": input changed";
    }
};

std::string label(fm::PixelType t, fm::Border b, const fm::Window3D& w) {
    return std::string(fm::pixel_type_name(t)) + " " + fm::border_name(b) + " " +
           fmtest::window3d_label(w);
}

// Boxes k x k x kz for k, kz in 3, 5, 7 and ellipsoids r, r, rz for r in 1, 2, 3, rz in 0..3.
std::vector<fm::Window3D> tiled_windows() {
    std::vector<fm::Window3D> windows;
    for (int k : {3, 5, 7})
        for (int kz : {3, 5, 7}) windows.push_back(fm::Window3D::box(k, k, kz));
    for (int r : {1, 2, 3})
        for (int rz : {0, 1, 2, 3}) windows.push_back(fm::Window3D::ellipsoid(r, r, rz));
    return windows;
}
const std::vector<fm::Window3D> kTiledWindows = tiled_windows();

}  // namespace

TEST_F(CudaMedian3D, RandomEveryTypeBorderAndWindow) {
    const fm::Window3D windows[] = {
        fm::Window3D::box(3),         fm::Window3D::box(5),          fm::Window3D::ellipsoid(1),
        fm::Window3D::ellipsoid(2),   fm::Window3D::box(1),          fm::Window3D::box(3, 5, 1),
        fm::Window3D::box(7),         fm::Window3D::ellipsoid(1.5),  fm::Window3D::ellipsoid(2, 2, 1),
        fm::Window3D::ellipsoid(3, 1.5, 0), fm::Window3D::box(5, 5, 1), fm::Window3D::ellipsoid(2, 2, 0),
        fm::Window3D::box(21, 21, 1)};
    std::uint32_t seed = 1;
    for (fm::PixelType t : kAllTypes)
        for (fm::Border b : kAllBorders)
            for (const fm::Window3D& w : windows) {
                Stack src(t, 70, 21, 7);
                fmtest::fill_random(src, seed++);
                expect_cuda_equals_cpu(src, w, b, 11.0, label(t, b, w));
            }
}

TEST_F(CudaMedian3D, WindowsWithoutATiledNetworkOnPaddedNetworks) {
    // Windows with no tiled network and at most 169 voxels pad their keys to the next median
    // network (27, 45, 57, 69, 89, 97, 121, 145 or 169 keys; median3d_padded.cu): counts at and
    // between those sizes, ellipsoids of fractional and unequal radii, a window deep in z; box
    // 9x5x5 (225 voxels) and 1x1x61 (a staged box over 48 KB) take the radix selection. Volumes
    // over several blocks each way (64 or 32 columns, 8 rows a block), ties, float specials.
    const fm::Window3D windows[] = {
        fm::Window3D::box(1, 1, 3),   fm::Window3D::box(3, 1, 3),         fm::Window3D::ellipsoid(1.5),
        fm::Window3D::box(5, 3, 3),   fm::Window3D::box(1, 3, 15),      fm::Window3D::ellipsoid(1.5, 1.5, 1),
        fm::Window3D::box(7, 3, 3),   fm::Window3D::box(3, 7, 3),         fm::Window3D::box(5, 3, 5),
        fm::Window3D::box(9, 3, 3),   fm::Window3D::ellipsoid(2.5, 2.5, 1), fm::Window3D::box(7, 5, 3),
        fm::Window3D::box(3, 3, 13),  fm::Window3D::box(11, 1, 11),       fm::Window3D::ellipsoid(3, 2, 1.5),
        fm::Window3D::box(9, 5, 3),   fm::Window3D::box(11, 5, 3),        fm::Window3D::box(13, 1, 13),
        fm::Window3D::box(9, 5, 5),   fm::Window3D::box(1, 1, 61)};
    std::uint32_t seed = 1200;
    for (fm::PixelType t : kAllTypes)
        for (fm::Border b : kAllBorders)
            for (const fm::Window3D& w : windows) {
                Stack src(t, 131, 19, 9);
                fmtest::fill_random(src, seed, seed % 3 == 0 ? 3 : 0);
                if (t == fm::PixelType::f32 && seed % 2 == 0) fmtest::add_specials(src, seed, 0.2);
                ++seed;
                expect_cuda_equals_cpu(src, w, b, 7.0, label(t, b, w));
            }
}

TEST_F(CudaMedian3D, OddShapesAndWindowsLargerThanTheVolume) {
    const int shapes[][3] = {{1, 1, 1}, {1, 9, 2}, {9, 1, 3}, {2, 3, 1}, {33, 2, 5}, {131, 3, 2}};
    std::uint32_t seed = 500;
    for (fm::PixelType t : kAllTypes)
        for (fm::Border b : kAllBorders)
            for (const auto& s : shapes)
                for (const fm::Window3D& w : kTiledWindows) {
                    Stack src(t, s[0], s[1], s[2]);
                    fmtest::fill_random(src, seed++);
                    expect_cuda_equals_cpu(src, w, b, 3.0,
                                           label(t, b, w) + " on " + std::to_string(s[0]) + "x" +
                                               std::to_string(s[1]) + "x" + std::to_string(s[2]));
                }
}

TEST_F(CudaMedian3D, TiesConstantsAndFloatSpecials) {
    std::uint32_t seed = 900;
    for (const fm::Window3D& w : kTiledWindows) {
        for (fm::PixelType t : kAllTypes)
            for (int levels : {1, 2, 3}) {
                Stack ties(t, 140, 19, 6);
                fmtest::fill_random(ties, seed++, levels);
                expect_cuda_equals_cpu(ties, w, fm::Border::mirror, 1.0,
                                       label(t, fm::Border::mirror, w) + " levels " +
                                           std::to_string(levels));
            }
        for (double fraction : {0.05, 0.5, 0.95}) {
            Stack src(fm::PixelType::f32, 97, 23, 5);
            fmtest::fill_random(src, seed++);
            fmtest::add_specials(src, seed++, fraction);
            expect_cuda_equals_cpu(src, w, fm::Border::constant,
                                   std::numeric_limits<double>::quiet_NaN(),
                                   fmtest::window3d_label(w) + " float specials");
        }
    }
}

TEST_F(CudaMedian3D, LargerVolumeAcrossManyBlocks) {
    for (fm::PixelType t : kAllTypes)
        for (const fm::Window3D& w : kTiledWindows) {
            Stack src(t, 301, 77, 19);
            fmtest::fill_random(src, 77);
            expect_cuda_equals_cpu(src, w, fm::Border::reflect, 0.0, label(t, fm::Border::reflect, w));
        }
}

// Equal to the whole volume's result (itself equal to the CPU's above).
TEST_F(CudaMedian3D, VolumesLargerThanTheMemoryAllowsGoThroughInBands) {
    const fm::Window3D windows[] = {fm::Window3D::box(3), fm::Window3D::box(5, 5, 3),
                                    fm::Window3D::ellipsoid(2), fm::Window3D::box(3, 3, 9)};
    std::uint32_t seed = 300;
    for (fm::PixelType t : kAllTypes)
        for (const fm::Window3D& w : windows)
            for (fm::Border b : kAllBorders) {
                Stack src(t, 211, 113, 7), whole(t, 211, 113, 7);
                fmtest::fill_random(src, seed++, seed % 2 ? 4 : 0);
                fm::Median3DOptions o;
                o.window = w;
                o.border = b;
                o.cval = 5;
                o.backend = fm::Backend::cuda;
                fm::median3d(src.cview(), whole.view(), o);
                // Bands of 1 row of every plane (a limit of 1 byte), and of a few rows, each with
                // its halo rows (rows padded to 512 bytes, in and out).
                const std::int64_t row = (211 * static_cast<std::int64_t>(fm::pixel_size(t)) + 511) / 512 * 512;
                const int rz = w.shape == fm::Window3D::Shape::box ? w.size_z / 2 : static_cast<int>(w.radius_z);
                for (const std::int64_t limit : {std::int64_t{1}, 2 * row * 113 * (3 + 2 * rz)}) {
                    Stack banded(t, 211, 113, 7, 2, 1);
                    const fmtest::MemoryLimit m(limit);
                    fm::median3d(src.cview(), banded.view(), o);
                    EXPECT_EQ(fmtest::first_difference(whole, banded), "")
                        << label(t, b, w) << " limit " << std::to_string(limit);
                }
            }
}
