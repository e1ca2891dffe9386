// Which 3D windows the CPU backend serves with a generated network (cpu/isa_kernels.hpp,
// network3d_tile) rather than by sorting every window: the symmetric ones, and the anisotropic
// ones of stacks whose z step is coarser or finer than their pixel. Their results are tested
// against the naive median in tests/core/test_median3d.cpp; this says they stay on the fast
// path (a network's window and the library's footprint must agree run for run, or it would not
// serve).
#include <gtest/gtest.h>

#include <vector>

#include "cpu/isa_kernels.hpp"
#include "fastmedian/fastmedian.hpp"
#include "semantics/footprint3d.hpp"

namespace fm = fastmedian;

namespace {

bool has_network(const fm::Window3D& w) {
    return fm::detail::network3d_tile(fm::detail::make_footprint3d(w)).rows > 0;
}

}  // namespace

TEST(Median3DNetworks, SymmetricAndAnisotropicWindowsHaveNetworks) {
    for (const fm::Window3D& w :
         {fm::Window3D::box(3), fm::Window3D::box(5), fm::Window3D::ellipsoid(1), fm::Window3D::ellipsoid(2),
          fm::Window3D::box(5, 5, 3), fm::Window3D::box(7, 7, 3), fm::Window3D::ellipsoid(2, 2, 1),
          fm::Window3D::ellipsoid(3, 3, 1), fm::Window3D::ellipsoid(3, 3, 2), fm::Window3D::box(3, 3, 5),
          fm::Window3D::box(3, 3, 7), fm::Window3D::ellipsoid(1, 1, 2), fm::Window3D::ellipsoid(1, 1, 3),
          fm::Window3D::ellipsoid(2, 2, 3)})
        EXPECT_TRUE(has_network(w)) << fm::window3d_runs(w).count << " voxels";
}

TEST(Median3DNetworks, WindowsOnePlaneDeepAreTheir2DWindows) {
    // Both backends give them to the 2D median (the CUDA backend where no 3D network serves).
    const auto box = fm::detail::planar_footprint(fm::detail::make_footprint3d(fm::Window3D::box(5, 3, 1)));
    ASSERT_TRUE(box.has_value());
    EXPECT_EQ(box->half_width, (std::vector<int>{2, 2, 2}));
    EXPECT_EQ(box->radius_x, 2);
    EXPECT_EQ(box->radius_y, 1);
    EXPECT_EQ(box->count, 15);
    const auto ellipse = fm::detail::planar_footprint(fm::detail::make_footprint3d(fm::Window3D::ellipsoid(2, 2, 0)));
    ASSERT_TRUE(ellipse.has_value());
    EXPECT_EQ(ellipse->half_width, (std::vector<int>{0, 1, 2, 1, 0}));
    EXPECT_EQ(ellipse->count, 13);
    EXPECT_FALSE(fm::detail::planar_footprint(fm::detail::make_footprint3d(fm::Window3D::box(5, 5, 3))));
    EXPECT_FALSE(fm::detail::planar_footprint(fm::detail::make_footprint3d(fm::Window3D::ellipsoid(2, 2, 1))));
}
