#include "cpu/median3d_cpu.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/constant_value.hpp"
#include "cpu/border_table.hpp"
#include "cpu/parallel.hpp"
#include "order_key.cuh"

namespace fastmedian::detail {

namespace {

using kernels::OrderKey;

template <class T>
void median3d_typed(const ConstImageView& src, const ImageView& dst, const Footprint3D& fp,
                    Border border, double cval, int threads) {
    const std::vector<std::int64_t> xs = border_table(src.width, fp.radius_x, border);
    const std::vector<std::int64_t> ys = border_table(src.height, fp.radius_y, border);
    const std::vector<std::int64_t> zs = border_table(src.planes, fp.radius_z, border);
    const std::uint32_t outside = OrderKey<T>::to_key(constant_value<T>(cval));
    const std::int64_t padded = src.width + 2 * fp.radius_x;
    const int rows = fp.rows();
    const int planes = 2 * fp.radius_z + 1;

    parallel_for(src.planes * src.height, threads, [&](std::int64_t i) {
        const std::int64_t z = i / src.height, y = i % src.height;
        // Padded key row (dz, dy) of this output row, for the rows the window reaches.
        std::vector<std::uint32_t> keys(static_cast<std::size_t>(planes * rows * padded));
        for (int dz = -fp.radius_z; dz <= fp.radius_z; ++dz)
            for (int dy = -fp.radius_y; dy <= fp.radius_y; ++dy) {
                if (fp.half(dz, dy) < 0) continue;
                const std::int64_t sz = zs[z + dz + fp.radius_z], sy = ys[y + dy + fp.radius_y];
                const T* row = sz < 0 || sy < 0 ? nullptr
                                                : reinterpret_cast<const T*>(src.row(sz, sy));
                std::uint32_t* k = keys.data() + ((dz + fp.radius_z) * rows + dy + fp.radius_y) * padded;
                for (std::int64_t c = 0; c < padded; ++c)
                    k[c] = row == nullptr || xs[c] < 0 ? outside : OrderKey<T>::to_key(row[xs[c]]);
            }
        std::vector<std::uint32_t> window(static_cast<std::size_t>(fp.count));
        T* out = reinterpret_cast<T*>(dst.row(z, y));
        for (std::int64_t x = 0; x < src.width; ++x) {
            auto n = window.begin();
            for (int r = 0; r < planes * rows; ++r) {
                const int h = fp.half_width[r];
                if (h < 0) continue;
                const std::uint32_t* k = keys.data() + r * padded + x + fp.radius_x;
                n = std::copy(k - h, k + h + 1, n);
            }
            const auto mid = window.begin() + fp.rank();
            std::nth_element(window.begin(), mid, window.end());
            out[x] = OrderKey<T>::from_key(*mid);
        }
    });
}

}  // namespace

void median3d_cpu(const ConstImageView& src, const ImageView& dst, const Footprint3D& fp,
                  Border border, double cval, int threads) {
    if (threads == 0) threads = cpu_threads();
    switch (src.type) {
        case PixelType::u8: median3d_typed<std::uint8_t>(src, dst, fp, border, cval, threads); break;
        case PixelType::u16: median3d_typed<std::uint16_t>(src, dst, fp, border, cval, threads); break;
        case PixelType::f32: median3d_typed<float>(src, dst, fp, border, cval, threads); break;
    }
}

}  // namespace fastmedian::detail
