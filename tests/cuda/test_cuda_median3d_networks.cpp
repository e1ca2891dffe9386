// Which 3D windows the CUDA backend serves with a generated tiled network
// (kernels/generated/median3d_tiled/) rather than the generic selection, which is 8x to 45x
// slower: boxes k x k x kz and ellipsoids r, r, rz up to 7 and radius 3 (rz from 0), those of
// stacks whose z step is coarser or finer than their pixel. Their results are tested against the CPU in
// test_cuda_median3d.cpp; this says they stay on the fast path (a network's window and the
// library's footprint must agree run for run, or it would not serve). Needs no GPU.
#include <gtest/gtest.h>

#include "fastmedian/fastmedian.hpp"
#include "median3d_tiled.cuh"
#include "semantics/footprint3d.hpp"

namespace fm = fastmedian;

namespace {

bool has_gpu_network(const fm::Window3D& w) {
    const auto fp = fm::detail::make_footprint3d(w);
    return fm::kernels::tiled3d::launch_for(fp.radius_z, fp.radius_y, fp.half_width.data(),
                                            static_cast<int>(fp.half_width.size())) != nullptr;
}

}  // namespace

TEST(CudaMedian3DNetworks, BoxesAndEllipsoidsUpToRadius3HaveNetworks) {
    for (int k : {3, 5, 7})
        for (int kz : {3, 5, 7})
            EXPECT_TRUE(has_gpu_network(fm::Window3D::box(k, k, kz))) << "box " << k << "x" << k << "x" << kz;
    for (int r : {1, 2, 3})
        for (int rz : {0, 1, 2, 3})
            EXPECT_TRUE(has_gpu_network(fm::Window3D::ellipsoid(r, r, rz))) << "ellipsoid " << r << "," << rz;
}

TEST(CudaMedian3DNetworks, OtherWindowsTakeTheGenericSelection) {
    EXPECT_FALSE(has_gpu_network(fm::Window3D::box(3, 5, 3)));
    EXPECT_FALSE(has_gpu_network(fm::Window3D::ellipsoid(1.5)));
    EXPECT_FALSE(has_gpu_network(fm::Window3D::ellipsoid(2.5, 2.5, 1)));
    EXPECT_FALSE(has_gpu_network(fm::Window3D::box(5, 5, 1)));  // the 2D paths' square
}
