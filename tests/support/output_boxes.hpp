// Boxes of a filter's output (fastmedian::Origin) for tests: each box filtered on its own must
// equal that box of the whole output, bit for bit, with the whole source as src or only the part
// of it that the box's windows reach (a block of a larger volume with its halo).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "fastmedian/fastmedian.hpp"
#include "support/test_images.hpp"

namespace fmtest {

struct Box {
    std::int64_t x, y, z, width, height, planes;
    std::string label() const {
        return "box " + std::to_string(width) + "x" + std::to_string(height) + "x" +
               std::to_string(planes) + " at (" + std::to_string(x) + ", " + std::to_string(y) +
               ", " + std::to_string(z) + ")";
    }
};

// Random pixels, with ties (9 levels) for even seeds, and float specials among them.
inline Stack random_box_source(fastmedian::PixelType t, std::int64_t w, std::int64_t h,
                               std::int64_t p, std::uint32_t seed) {
    Stack s(t, w, h, p);
    fill_random(s, seed, seed % 2 ? 0 : 9);
    if (t == fastmedian::PixelType::f32) add_specials(s, seed, 0.05);
    return s;
}

// How far a 2D window reaches along x and y.
inline std::pair<int, int> window_radii(const fastmedian::Window& w) {
    const std::vector<int> half = fastmedian::window_half_widths(w);
    return {*std::max_element(half.begin(), half.end()), static_cast<int>(half.size() / 2)};
}

// Boxes of a w x h x p output: all of it, each corner, strips along each edge, the middle,
// single pixels at a corner and inside, whole rows and columns.
inline std::vector<Box> output_boxes(std::int64_t w, std::int64_t h, std::int64_t p) {
    const std::int64_t hw = std::max<std::int64_t>(w / 2, 1), hh = std::max<std::int64_t>(h / 2, 1),
                       hp = std::max<std::int64_t>(p / 2, 1);
    return {{0, 0, 0, w, h, p},
            {0, 0, 0, hw, hh, hp},
            {w - hw, h - hh, p - hp, hw, hh, hp},
            {w - hw, 0, 0, hw, h, p},
            {0, h - hh, 0, w, hh, p},
            {0, 0, p - hp, w, h, hp},
            {w / 4, h / 4, p / 4, std::max<std::int64_t>(w / 2, 1), std::max<std::int64_t>(h / 2, 1),
             std::max<std::int64_t>(p / 2, 1)},
            {0, 0, 0, 1, 1, 1},
            {w / 2, h / 2, p / 2, 1, 1, 1},
            {0, h / 3, p / 3, w, 1, 1},
            {w / 3, 0, 0, 1, h, p}};
}

// The box b of stack s as a view.
inline fastmedian::ConstImageView box_view(Stack& s, const Box& b) {
    fastmedian::ConstImageView v = s.cview();
    v.data = s.bytes.data() + b.z * s.plane_stride + b.y * s.row_stride +
             b.x * static_cast<std::int64_t>(fastmedian::pixel_size(s.type));
    v.width = b.width;
    v.height = b.height;
    v.planes = b.planes;
    return v;
}

// Whether every byte of s outside its pixels (the padding of rows and planes) is still the
// poison Stack starts with.
inline bool padding_untouched(const Stack& s) {
    const std::int64_t row_bytes = s.width * static_cast<std::int64_t>(fastmedian::pixel_size(s.type));
    for (std::int64_t i = 0; i < static_cast<std::int64_t>(s.bytes.size()); ++i) {
        const std::int64_t in_plane = i % s.plane_stride;
        const bool pixel = in_plane < s.height * s.row_stride && in_plane % s.row_stride < row_bytes;
        if (!pixel && s.bytes[static_cast<std::size_t>(i)] != 0xA5) return false;
    }
    return true;
}

// The box b grown by the radii on each side, cut to the stack.
inline Box grown(const Box& b, const Stack& s, int rx, int ry, int rz) {
    auto span = [](std::int64_t first, std::int64_t count, int r, std::int64_t n) {
        const std::int64_t a = std::max<std::int64_t>(first - r, 0), e = std::min(first + count + r, n);
        return std::pair<std::int64_t, std::int64_t>{a, e - a};
    };
    const auto [x, w] = span(b.x, b.width, rx, s.width);
    const auto [y, h] = span(b.y, b.height, ry, s.height);
    const auto [z, p] = span(b.z, b.planes, rz, s.planes);
    return {x, y, z, w, h, p};
}

// For every box of `whole` (the filter's output of all of src): run(in, dst, origin) with in =
// src and origin = the box's corner, then (unless the border wraps, which reads the far side)
// with in = the part of src the box reads (its radii rx, ry, rz) and the origin in that part;
// dst is poisoned with padded rows and planes. Expects the box of `whole` each time and src
// unchanged.
template <class Run>
void expect_boxes_equal_whole(Stack& src, const Stack& whole, int rx, int ry, int rz,
                              fastmedian::Border border, Run run, const std::string& what) {
    const std::vector<std::uint8_t> before = src.bytes;
    for (const Box& b : output_boxes(src.width, src.height, src.planes)) {
        std::vector<std::pair<Box, std::string>> sources = {{{0, 0, 0, src.width, src.height, src.planes}, "src"}};
        if (border != fastmedian::Border::wrap) sources.push_back({grown(b, src, rx, ry, rz), "its part of src"});
        for (const auto& [in, name] : sources) {
            Stack got(src.type, b.width, b.height, b.planes, 3, 1);
            run(box_view(src, in), got.view(), fastmedian::Origin{b.x - in.x, b.y - in.y, b.z - in.z});
            std::string diff;
            for (std::int64_t z = 0; z < b.planes && diff.empty(); ++z)
                for (std::int64_t y = 0; y < b.height && diff.empty(); ++y)
                    for (std::int64_t x = 0; x < b.width && diff.empty(); ++x)
                        if (got.pixel_bytes(z, y, x) != whole.pixel_bytes(b.z + z, b.y + y, b.x + x))
                            diff = "(" + std::to_string(z) + ", " + std::to_string(y) + ", " +
                                   std::to_string(x) + ")";
            EXPECT_EQ(diff, "") << what << ", " << b.label() << " from " << name;
            EXPECT_TRUE(padding_untouched(got)) << what << ", " << b.label() << " from " << name
                                                << ": written outside dst";
        }
    }
    EXPECT_EQ(src.bytes, before) << what << ": input changed";
}

}  // namespace fmtest
