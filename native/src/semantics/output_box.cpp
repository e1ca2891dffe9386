#include "semantics/output_box.hpp"

#include <algorithm>
#include <cstdint>

namespace fastmedian::detail {

bool whole_output(const ConstImageView& src, const ImageView& dst, const Origin& origin) {
    return origin.x == 0 && origin.y == 0 && origin.plane == 0 && dst.width == src.width &&
           dst.height == src.height && dst.planes == src.planes;
}

namespace {

// Along one axis of n: the first coordinate and the length of the part that the box's `count`
// outputs from `first` read.
struct Span {
    std::int64_t first, count;
};

Span read_span(std::int64_t n, std::int64_t first, std::int64_t count, int radius, Border border) {
    const std::int64_t lo = first - radius, hi = first + count + radius;
    if (border == Border::wrap && (lo < 0 || hi > n)) return {0, n};
    const std::int64_t a = std::max<std::int64_t>(lo, 0), b = std::min(hi, n);
    return {a, b - a};
}

}  // namespace

SourcePart source_part(const ConstImageView& src, const ImageView& dst, const Origin& origin,
                       int radius_x, int radius_y, int radius_z, Border border) {
    const Span x = read_span(src.width, origin.x, dst.width, radius_x, border);
    const Span y = read_span(src.height, origin.y, dst.height, radius_y, border);
    const Span z = read_span(src.planes, origin.plane, dst.planes, radius_z, border);
    SourcePart part{src, {origin.x - x.first, origin.y - y.first, origin.plane - z.first}};
    part.view.data = src.row(z.first, y.first) + x.first * static_cast<std::int64_t>(pixel_size(src.type));
    part.view.width = x.count;
    part.view.height = y.count;
    part.view.planes = z.count;
    return part;
}

}  // namespace fastmedian::detail
