#include "cpu/temporal_reference.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "fastmedian/temporal.hpp"
#include "semantics/order_key.hpp"

namespace fastmedian::detail {

namespace {

using kernels::OrderKey;

template <class T>
void reference(const ConstImageView& src, const ImageView& dst, int window,
               const kernels::OutputMode& offset) {
    std::vector<std::uint32_t> keys(static_cast<std::size_t>(window));
    const auto mid = keys.begin() + (window - 1) / 2;
    for (std::int64_t t = 0; t < src.planes; ++t) {
        const std::int64_t s = temporal_window_start(t, src.planes, window);
        for (std::int64_t y = 0; y < src.height; ++y) {
            const T* frame = reinterpret_cast<const T*>(src.row(t, y));
            T* out = reinterpret_cast<T*>(dst.row(t, y));
            for (std::int64_t x = 0; x < src.width; ++x) {
                for (int i = 0; i < window; ++i)
                    keys[i] = OrderKey<T>::to_key(reinterpret_cast<const T*>(src.row(s + i, y))[x]);
                std::nth_element(keys.begin(), mid, keys.end());
                out[x] = kernels::median_output<T>(frame[x], *mid, offset);
            }
        }
    }
}

}  // namespace

void temporal_median_reference(const ConstImageView& src, const ImageView& dst, int window,
                               const kernels::OutputMode& offset) {
    switch (src.type) {
        case PixelType::u8: reference<std::uint8_t>(src, dst, window, offset); break;
        case PixelType::u16: reference<std::uint16_t>(src, dst, window, offset); break;
        case PixelType::f32: reference<float>(src, dst, window, offset); break;
    }
}

}  // namespace fastmedian::detail
