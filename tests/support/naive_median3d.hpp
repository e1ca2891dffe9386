// An independent 3D median for tests: the window from its definition (box sides, or ImageJ's
// ellipsoid inequality written out here), padding by folding indices, a float-aware sort.
// Shares no code with the library's backends.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "fastmedian/fastmedian.hpp"
#include "support/naive_median.hpp"
#include "support/test_images.hpp"

namespace fmtest {

struct Offset3D {
    int dx, dy, dz;
};

// The window's voxels: a box of odd sides, or ImageJ's createKernelEllipsoid (float radii
// squared in float, membership tested in double).
inline std::vector<Offset3D> window3d_offsets(const fastmedian::Window3D& w) {
    std::vector<Offset3D> out;
    if (w.shape == fastmedian::Window3D::Shape::box) {
        for (int dz = -w.size_z / 2; dz <= w.size_z / 2; ++dz)
            for (int dy = -w.size_y / 2; dy <= w.size_y / 2; ++dy)
                for (int dx = -w.size_x / 2; dx <= w.size_x / 2; ++dx) out.push_back({dx, dy, dz});
        return out;
    }
    const float rx = static_cast<float>(w.radius_x), ry = static_cast<float>(w.radius_y),
                rz = static_cast<float>(w.radius_z);
    const int vx = static_cast<int>(std::ceil(rx)), vy = static_cast<int>(std::ceil(ry)),
              vz = static_cast<int>(std::ceil(rz));
    double rx2 = rx * rx, ry2 = ry * ry, rz2 = rz * rz;
    rx2 = rx2 != 0 ? 1.0 / rx2 : 0;
    ry2 = ry2 != 0 ? 1.0 / ry2 : 0;
    rz2 = rz2 != 0 ? 1.0 / rz2 : 0;
    for (int k = -vz; k <= vz; ++k)
        for (int j = -vy; j <= vy; ++j)
            for (int i = -vx; i <= vx; ++i)
                if (double(i * i) * rx2 + double(j * j) * ry2 + double(k * k) * rz2 <= 1.0)
                    out.push_back({i, j, k});
    return out;
}

template <class T>
void naive_median3d_typed(Stack& src, Stack& dst, const fastmedian::Window3D& w,
                          fastmedian::Border border, double cval) {
    const std::vector<Offset3D> offsets = window3d_offsets(w);
    std::vector<T> values;
    for (std::int64_t z = 0; z < src.planes; ++z)
        for (std::int64_t y = 0; y < src.height; ++y)
            for (std::int64_t x = 0; x < src.width; ++x) {
                values.clear();
                for (const Offset3D& o : offsets) {
                    const auto sz = fold(z + o.dz, src.planes, border);
                    const auto sy = fold(y + o.dy, src.height, border);
                    const auto sx = fold(x + o.dx, src.width, border);
                    values.push_back(sz < 0 || sy < 0 || sx < 0 ? cval_as<T>(cval)
                                                                : src.at<T>(sz, sy, sx));
                }
                dst.at<T>(z, y, x) = naive_middle(values);
            }
}

inline void naive_median3d(Stack& src, Stack& dst, const fastmedian::Window3D& w,
                           fastmedian::Border border, double cval = 0.0) {
    switch (src.type) {
        case fastmedian::PixelType::u8:
            naive_median3d_typed<std::uint8_t>(src, dst, w, border, cval);
            break;
        case fastmedian::PixelType::u16:
            naive_median3d_typed<std::uint16_t>(src, dst, w, border, cval);
            break;
        case fastmedian::PixelType::f32:
            naive_median3d_typed<float>(src, dst, w, border, cval);
            break;
    }
}

inline std::string window3d_label(const fastmedian::Window3D& w) {
    if (w.shape == fastmedian::Window3D::Shape::box)
        return "box " + std::to_string(w.size_x) + "x" + std::to_string(w.size_y) + "x" +
               std::to_string(w.size_z);
    return "ellipsoid " + std::to_string(w.radius_x) + "," + std::to_string(w.radius_y) + "," +
           std::to_string(w.radius_z);
}

}  // namespace fmtest
