#include "cpu/median_reference.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "core/constant_value.hpp"
#include "cpu/border_table.hpp"
#include "order_key.cuh"

namespace fastmedian::detail {

namespace {

using kernels::OrderKey;

template <class T>
void median_plane(const std::uint8_t* src, std::int64_t src_stride, std::uint8_t* dst,
                  std::int64_t dst_stride, std::int64_t width, std::int64_t height,
                  const Footprint& fp, Border border, double cval) {
    const std::vector<std::int64_t> xs = border_table(width, fp.radius_x, border);
    const std::vector<std::int64_t> ys = border_table(height, fp.radius_y, border);
    const std::uint32_t outside = OrderKey<T>::to_key(constant_value<T>(cval));
    std::vector<std::uint32_t> keys(static_cast<std::size_t>(fp.count));
    for (std::int64_t y = 0; y < height; ++y) {
        T* out = reinterpret_cast<T*>(dst + y * dst_stride);
        for (std::int64_t x = 0; x < width; ++x) {
            std::size_t n = 0;
            for (int dy = -fp.radius_y; dy <= fp.radius_y; ++dy) {
                const std::int64_t sy = ys[y + dy + fp.radius_y];
                const T* row = sy < 0 ? nullptr : reinterpret_cast<const T*>(src + sy * src_stride);
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
                        Border border, double cval) {
    for (std::int64_t z = 0; z < src.planes; ++z) {
        const auto* s = src.plane(z);
        auto* d = dst.plane(z);
        switch (src.type) {
            case PixelType::u8:
                median_plane<std::uint8_t>(s, src.row_stride, d, dst.row_stride, src.width,
                                           src.height, fp, border, cval);
                break;
            case PixelType::u16:
                median_plane<std::uint16_t>(s, src.row_stride, d, dst.row_stride, src.width,
                                            src.height, fp, border, cval);
                break;
            case PixelType::f32:
                median_plane<float>(s, src.row_stride, d, dst.row_stride, src.width, src.height,
                                    fp, border, cval);
                break;
        }
    }
}

}  // namespace fastmedian::detail
