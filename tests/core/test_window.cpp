// Window masks: squares, and circles equal to ImageJ's RankFilters "line radii".
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

#include "fastmedian/fastmedian.hpp"

namespace fm = fastmedian;

namespace {

int pixel_count(const std::vector<int>& hw) {
    return std::accumulate(hw.begin(), hw.end(), 0, [](int n, int h) { return n + 2 * h + 1; });
}

}  // namespace

TEST(Window, SquareIsFullRows) {
    EXPECT_EQ(fm::window_half_widths(fm::Window::square(1)), std::vector<int>({0}));
    EXPECT_EQ(fm::window_half_widths(fm::Window::square(5)), std::vector<int>(5, 2));
}

// Expected masks computed by hand from ImageJ 1.52's RankFilters.makeLineRadii (its javadoc
// gives r=0.5 and r=3); the 1.5 -> 1.75 and 2.5 -> 2.85 adjustments included.
TEST(Window, CircleMatchesImageJ) {
    EXPECT_EQ(fm::window_half_widths(fm::Window::circle(0.5)), std::vector<int>({0, 1, 0}));
    EXPECT_EQ(fm::window_half_widths(fm::Window::circle(1)), std::vector<int>({1, 1, 1}));
    EXPECT_EQ(fm::window_half_widths(fm::Window::circle(1.5)), std::vector<int>({0, 1, 2, 1, 0}));
    EXPECT_EQ(fm::window_half_widths(fm::Window::circle(2)), std::vector<int>({1, 2, 2, 2, 1}));
    EXPECT_EQ(fm::window_half_widths(fm::Window::circle(2.5)),
              std::vector<int>({0, 2, 2, 3, 2, 2, 0}));
    EXPECT_EQ(fm::window_half_widths(fm::Window::circle(3)),
              std::vector<int>({1, 2, 3, 3, 3, 2, 1}));
    EXPECT_EQ(pixel_count(fm::window_half_widths(fm::Window::circle(0.5))), 5);
    EXPECT_EQ(pixel_count(fm::window_half_widths(fm::Window::circle(2))), 21);
}

TEST(Window, CircleCountsAreOddAndGrow) {
    int previous = 0;
    for (double r = 0; r <= 40; r += 0.25) {
        const int n = pixel_count(fm::window_half_widths(fm::Window::circle(r)));
        EXPECT_EQ(n % 2, 1) << "radius " << r;
        EXPECT_GE(n, previous) << "radius " << r;
        previous = n;
    }
}

TEST(Window, InvalidWindowsNameTheParameter) {
    for (int k : {0, -3, 4, 1025}) {
        try {
            fm::window_half_widths(fm::Window::square(k));
            FAIL() << "size " << k << " accepted";
        } catch (const fm::Error& e) {
            EXPECT_EQ(e.code(), fm::ErrorCode::invalid_argument);
            EXPECT_NE(std::string(e.what()).find("window.size"), std::string::npos) << e.what();
        }
    }
    for (double r : {-1.0, std::nan(""), double(INFINITY), 512.0}) {
        try {
            fm::window_half_widths(fm::Window::circle(r));
            FAIL() << "radius " << r << " accepted";
        } catch (const fm::Error& e) {
            EXPECT_EQ(e.code(), fm::ErrorCode::invalid_argument);
            EXPECT_NE(std::string(e.what()).find("window.radius"), std::string::npos) << e.what();
        }
    }
}
