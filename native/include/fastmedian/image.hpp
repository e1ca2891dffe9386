// Non-owning views of 2D images and stacks of planes, in host memory or in CUDA device memory.
// Strides are in bytes, so views can describe sub-rectangles, padded rows and interleaved
// planes. A 2D image is a stack of one plane.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace fastmedian {

enum class PixelType { u8, u16, f32 };

std::size_t pixel_size(PixelType type) noexcept;
const char* pixel_type_name(PixelType type) noexcept;

// Where a view's pixels live. `cuda`: memory of the CUDA device named by the call's options
// (cudaMalloc'd, or managed); such views are filtered on that device with no copies.
enum class Memory { host, cuda };

template <class T> struct PixelTypeOf;
template <> struct PixelTypeOf<std::uint8_t> { static constexpr PixelType value = PixelType::u8; };
template <> struct PixelTypeOf<std::uint16_t> { static constexpr PixelType value = PixelType::u16; };
template <> struct PixelTypeOf<float> { static constexpr PixelType value = PixelType::f32; };

template <class Byte>
struct BasicImageView {
    Byte* data = nullptr;
    PixelType type = PixelType::u8;
    std::int64_t width = 0;
    std::int64_t height = 0;
    std::int64_t planes = 1;
    std::int64_t row_stride = 0;    // bytes between the starts of two rows
    std::int64_t plane_stride = 0;  // bytes between the starts of two planes
    Memory memory = Memory::host;

    // A dense stack: rows and planes packed with no padding.
    template <class T, class P>
    static BasicImageView dense(P* pixels, std::int64_t width, std::int64_t height,
                                std::int64_t planes = 1) {
        static_assert(sizeof(T) == sizeof(P), "pixel pointer and type differ in size");
        BasicImageView v;
        v.data = reinterpret_cast<Byte*>(pixels);
        v.type = PixelTypeOf<T>::value;
        v.width = width;
        v.height = height;
        v.planes = planes;
        v.row_stride = width * static_cast<std::int64_t>(sizeof(T));
        v.plane_stride = v.row_stride * height;
        return v;
    }

    // A view of writable pixels serves where a read-only one is asked for (a filter's source),
    // as a T* converts to a const T*: median2d(view(in.data(), ...), ...) of a std::vector.
    template <class B = Byte, class = std::enable_if_t<!std::is_const_v<B>>>
    operator BasicImageView<const B>() const {
        BasicImageView<const B> c;
        c.data = data;
        c.type = type;
        c.width = width;
        c.height = height;
        c.planes = planes;
        c.row_stride = row_stride;
        c.plane_stride = plane_stride;
        c.memory = memory;
        return c;
    }

    Byte* plane(std::int64_t z) const { return data + z * plane_stride; }
    Byte* row(std::int64_t z, std::int64_t y) const { return plane(z) + y * row_stride; }
};

using ImageView = BasicImageView<std::uint8_t>;
using ConstImageView = BasicImageView<const std::uint8_t>;

// Dense views with the pixel type taken from the pointer: view(ptr, w, h[, planes]).
template <class T>
ImageView view(T* pixels, std::int64_t width, std::int64_t height, std::int64_t planes = 1) {
    return ImageView::dense<T>(pixels, width, height, planes);
}
template <class T>
ConstImageView view(const T* pixels, std::int64_t width, std::int64_t height,
                    std::int64_t planes = 1) {
    return ConstImageView::dense<T>(pixels, width, height, planes);
}

inline ConstImageView as_const(const ImageView& v) { return v; }

}  // namespace fastmedian
