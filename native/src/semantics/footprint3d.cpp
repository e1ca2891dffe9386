#include "semantics/footprint3d.hpp"

#include <algorithm>
#include <cmath>

namespace fastmedian::detail {

namespace {

// ImageJ's Filters3D kernel (createKernelEllipsoid): radii are Java floats whose squares are
// taken in float, and a voxel belongs when dx^2/rx^2 + dy^2/ry^2 + dz^2/rz^2 <= 1 in double.
Footprint3D imagej_ellipsoid(double rx, double ry, double rz) {
    auto inverse_square = [](double r) {
        const float f = static_cast<float>(r);
        const double sq = static_cast<double>(f * f);
        return sq != 0.0 ? 1.0 / sq : 0.0;
    };
    const double ix = inverse_square(rx), iy = inverse_square(ry), iz = inverse_square(rz);
    auto inside = [&](int dx, int dy, int dz) {
        return double(dx * dx) * ix + double(dy * dy) * iy + double(dz * dz) * iz <= 1.0;
    };
    // ImageJ scans ceil(r) each way; the radii kept here are the extents actually reached.
    const int vx = static_cast<int>(std::ceil(static_cast<float>(rx)));
    const int vy = static_cast<int>(std::ceil(static_cast<float>(ry)));
    const int vz = static_cast<int>(std::ceil(static_cast<float>(rz)));
    Footprint3D f;
    while (f.radius_x < vx && inside(f.radius_x + 1, 0, 0)) ++f.radius_x;
    while (f.radius_y < vy && inside(0, f.radius_y + 1, 0)) ++f.radius_y;
    while (f.radius_z < vz && inside(0, 0, f.radius_z + 1)) ++f.radius_z;
    for (int dz = -f.radius_z; dz <= f.radius_z; ++dz)
        for (int dy = -f.radius_y; dy <= f.radius_y; ++dy) {
            int h = -1;
            while (h < f.radius_x && inside(h + 1, dy, dz)) ++h;
            f.half_width.push_back(h);
        }
    return f;
}

}  // namespace

Footprint3D make_footprint3d(const Window3D& window) {
    Footprint3D f;
    if (window.shape == Window3D::Shape::ellipsoid) {
        f = imagej_ellipsoid(window.radius_x, window.radius_y, window.radius_z);
    } else {
        f.radius_x = window.size_x / 2;
        f.radius_y = window.size_y / 2;
        f.radius_z = window.size_z / 2;
        f.half_width.assign(static_cast<std::size_t>(window.size_y) * window.size_z, f.radius_x);
    }
    f.count = 0;
    for (int h : f.half_width) f.count += h < 0 ? 0 : 2 * h + 1;
    return f;
}

std::optional<Footprint> planar_footprint(const Footprint3D& fp) {
    const bool empty_row = std::any_of(fp.half_width.begin(), fp.half_width.end(), [](int h) { return h < 0; });
    if (fp.radius_z != 0 || empty_row) return std::nullopt;
    Footprint f;
    f.radius_y = fp.radius_y;
    f.radius_x = fp.radius_x;
    f.half_width = fp.half_width;
    f.count = fp.count;
    return f;
}

}  // namespace fastmedian::detail
