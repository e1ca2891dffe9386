// Boxes of the output (MedianOptions::origin, Median3DOptions::origin) on the CPU backend and
// the reference: each box equals that box of the whole output bit for bit, read from the whole
// source or from only the part its windows reach; bad origins are refused by name.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "fastmedian/fastmedian.hpp"
#include "support/output_boxes.hpp"
#include "support/test_images.hpp"

namespace fm = fastmedian;
using fmtest::kAllBorders;
using fmtest::kAllTypes;
using fmtest::Stack;

namespace {

std::string label(fm::PixelType t, fm::Border b, const std::string& window) {
    return std::string(fm::pixel_type_name(t)) + " " + fm::border_name(b) + " " + window;
}

void expect_median2d_boxes(Stack& src, fm::MedianOptions o, const std::string& what) {
    Stack whole(src.type, src.width, src.height, src.planes);
    fm::median2d(src.cview(), whole.view(), o);
    const auto [rx, ry] = fmtest::window_radii(o.window);
    fmtest::expect_boxes_equal_whole(src, whole, rx, ry, 0, o.border,
        [&](const fm::ConstImageView& in, const fm::ImageView& dst, const fm::Origin& origin) {
            o.origin = origin;
            fm::median2d(in, dst, o);
        }, what);
}

void expect_median3d_boxes(Stack& src, fm::Median3DOptions o, const std::string& what) {
    Stack whole(src.type, src.width, src.height, src.planes);
    fm::median3d(src.cview(), whole.view(), o);
    const fm::WindowRuns3D runs = fm::window3d_runs(o.window);
    fmtest::expect_boxes_equal_whole(src, whole, runs.radius_x, runs.radius_y, runs.radius_z, o.border,
        [&](const fm::ConstImageView& in, const fm::ImageView& dst, const fm::Origin& origin) {
            o.origin = origin;
            fm::median3d(in, dst, o);
        }, what);
}

}  // namespace

TEST(OutputBox, Median2DEveryTypeBorderAndWindowFamily) {
    // Networks (3, 5, circle 2), tiled networks (9), sliding histograms (circle 7, square 21).
    const std::pair<fm::Window, std::string> windows[] = {
        {fm::Window::square(3), "square 3"}, {fm::Window::square(5), "square 5"},
        {fm::Window::circle(2), "circle 2"}, {fm::Window::square(9), "square 9"},
        {fm::Window::circle(7), "circle 7"}, {fm::Window::square(21), "square 21"}};
    std::uint32_t seed = 1;
    for (fm::PixelType t : kAllTypes)
        for (fm::Border b : kAllBorders)
            for (const auto& [w, name] : windows) {
                Stack src = fmtest::random_box_source(t, 45, 23, 2, seed++);
                fm::MedianOptions o;
                o.window = w;
                o.border = b;
                o.cval = 3;
                o.backend = fm::Backend::cpu;
                expect_median2d_boxes(src, o, label(t, b, name));
                o.reference = true;
                expect_median2d_boxes(src, o, label(t, b, name) + " reference");
            }
}

TEST(OutputBox, Median2DConstantTimeSquaresAcrossBlocks) {
    // u16 and f32 squares from 13 up take the constant-time median over blocks of 4 x k rows.
    for (fm::PixelType t : {fm::PixelType::u16, fm::PixelType::f32})
        for (fm::Border b : {fm::Border::reflect, fm::Border::constant}) {
            Stack src = fmtest::random_box_source(t, 150, 140, 1, 7);
            fm::MedianOptions o;
            o.window = fm::Window::square(31);
            o.border = b;
            o.backend = fm::Backend::cpu;
            expect_median2d_boxes(src, o, label(t, b, "square 31"));
        }
}

TEST(OutputBox, Median3DEveryTypeBorderAndWindowFamily) {
    // Networks (box 3, ellipsoid 1, box 5), the sort (box 7x3x3, ellipsoid 2x1x1) and the 2D
    // paths of windows one plane deep (box 5x5x1, ellipsoid 2,2,0).
    const std::pair<fm::Window3D, std::string> windows[] = {
        {fm::Window3D::box(3), "box 3"}, {fm::Window3D::ellipsoid(1), "ellipsoid 1"},
        {fm::Window3D::box(5), "box 5"}, {fm::Window3D::box(7, 3, 3), "box 7x3x3"},
        {fm::Window3D::ellipsoid(2, 1, 1), "ellipsoid 2x1x1"}, {fm::Window3D::box(5, 5, 1), "box 5x5x1"},
        {fm::Window3D::ellipsoid(2, 2, 0), "ellipsoid 2,2,0"}};
    std::uint32_t seed = 100;
    for (fm::PixelType t : kAllTypes)
        for (fm::Border b : kAllBorders)
            for (const auto& [w, name] : windows) {
                Stack src = fmtest::random_box_source(t, 23, 17, 9, seed++);
                fm::Median3DOptions o;
                o.window = w;
                o.border = b;
                o.cval = 3;
                o.backend = fm::Backend::cpu;
                expect_median3d_boxes(src, o, label(t, b, name));
                o.reference = true;
                expect_median3d_boxes(src, o, label(t, b, name) + " reference");
            }
}

TEST(OutputBox, BadOriginsNameTheParameterAndTouchNothing) {
    Stack src(fm::PixelType::u16, 8, 6, 4);
    fmtest::fill_random(src, 5);
    const std::vector<std::uint8_t> before = src.bytes;
    auto expect_error = [&](std::int64_t w, std::int64_t h, std::int64_t p, fm::Origin origin,
                            const std::string& words) {
        for (bool three_d : {false, true}) {
            Stack dst(fm::PixelType::u16, w, h, p);
            const std::vector<std::uint8_t> dst_before = dst.bytes;
            try {
                if (three_d) {
                    fm::Median3DOptions o;
                    o.backend = fm::Backend::cpu;
                    o.origin = origin;
                    fm::median3d(src.cview(), dst.view(), o);
                } else {
                    fm::MedianOptions o;
                    o.backend = fm::Backend::cpu;
                    o.origin = origin;
                    fm::median2d(src.cview(), dst.view(), o);
                }
                ADD_FAILURE() << "no error for " << words;
            } catch (const fm::Error& e) {
                EXPECT_EQ(e.code(), fm::ErrorCode::invalid_argument);
                EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
            }
            EXPECT_EQ(dst.bytes, dst_before) << words << ": dst written";
        }
    };
    expect_error(4, 4, 2, {-1, 0, 0}, "origin.x must be at least 0, got -1");
    expect_error(4, 4, 2, {0, -2, 0}, "origin.y must be at least 0, got -2");
    expect_error(4, 4, 2, {0, 0, -3}, "origin.plane must be at least 0, got -3");
    expect_error(4, 4, 2, {5, 0, 0}, "dst size 4x4x2 at origin (5, 0, 0) reaches past src size 8x6x4");
    expect_error(8, 6, 4, {0, 1, 0}, "dst size 8x6x4 at origin (0, 1, 0) reaches past src size 8x6x4");
    expect_error(4, 4, 2, {0, 0, 3}, "reaches past src size");
    expect_error(9, 6, 4, {}, "reaches past src size");
    expect_error(4, 4, 2, {INT64_MAX, 0, 0}, "reaches past src size");
    EXPECT_EQ(src.bytes, before);
}
