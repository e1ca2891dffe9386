#include "cpu/median_reference.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "cpu/border_table.hpp"
#include "semantics/constant_value.hpp"
#include "semantics/order_key.hpp"

namespace fastmedian::detail {

namespace {

using kernels::OrderKey;

template <class T>
void median_plane(const ConstImageView& src, std::int64_t z, const ImageView& dst,
                  std::int64_t dst_z, const Footprint& fp, Border border, double cval,
                  const Origin& origin) {
    const std::vector<std::int64_t> xs =
        border_table(src.width, fp.radius_x, border, origin.x, dst.width);
    const std::vector<std::int64_t> ys =
        border_table(src.height, fp.radius_y, border, origin.y, dst.height);
    const std::uint32_t outside = OrderKey<T>::to_key(constant_value<T>(cval));
    std::vector<std::uint32_t> keys(static_cast<std::size_t>(fp.count));
    for (std::int64_t y = 0; y < dst.height; ++y) {
        T* out = reinterpret_cast<T*>(dst.row(dst_z, y));
        for (std::int64_t x = 0; x < dst.width; ++x) {
            std::size_t n = 0;
            for (int dy = -fp.radius_y; dy <= fp.radius_y; ++dy) {
                const std::int64_t sy = ys[y + dy + fp.radius_y];
                const T* row = sy < 0 ? nullptr : reinterpret_cast<const T*>(src.row(z, sy));
                const int hw = fp.half_width[dy + fp.radius_y];
                for (int dx = -hw; dx <= hw; ++dx) {
                    const std::int64_t sx = xs[x + dx + fp.radius_x];
                    keys[n++] = (row == nullptr || sx < 0) ? outside : OrderKey<T>::to_key(row[sx]);
                }
            }
            const auto mid = keys.begin() + fp.rank();
            std::nth_element(keys.begin(), mid, keys.end());
            out[x] = OrderKey<T>::from_key(*mid);
        }
    }
}

}  // namespace

void median2d_reference(const ConstImageView& src, const ImageView& dst, const Footprint& fp,
                        Border border, double cval, const Origin& origin) {
    for (std::int64_t z = 0; z < dst.planes; ++z) {
        const std::int64_t sz = z + origin.plane;
        switch (src.type) {
            case PixelType::u8:
                median_plane<std::uint8_t>(src, sz, dst, z, fp, border, cval, origin);
                break;
            case PixelType::u16:
                median_plane<std::uint16_t>(src, sz, dst, z, fp, border, cval, origin);
                break;
            case PixelType::f32:
                median_plane<float>(src, sz, dst, z, fp, border, cval, origin);
                break;
        }
    }
}

}  // namespace fastmedian::detail
