// The owning stack that read_tiff returns, and its views.
#include "tiff_io.hpp"

namespace fastmedian::tiff {

Stack::Stack(PixelType t, std::int64_t w, std::int64_t h, std::int64_t p)
    : type(t), width(w), height(h), planes(p),
      bytes(static_cast<std::size_t>(w * h * p) * pixel_size(t)) {}

namespace {

template <class View, class Byte>
View dense_view(Byte* data, const Stack& s) {
    View v;
    v.data = data;
    v.type = s.type;
    v.width = s.width;
    v.height = s.height;
    v.planes = s.planes;
    v.row_stride = s.width * static_cast<std::int64_t>(pixel_size(s.type));
    v.plane_stride = v.row_stride * s.height;
    return v;
}

}  // namespace

ConstImageView Stack::view() const { return dense_view<ConstImageView>(bytes.data(), *this); }
ImageView Stack::mutable_view() { return dense_view<ImageView>(bytes.data(), *this); }

}  // namespace fastmedian::tiff
