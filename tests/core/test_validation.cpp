// Bad arguments: a clear Error naming the parameter, and neither input nor output touched.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <functional>
#include <string>

#include "fastmedian/fastmedian.hpp"
#include "support/test_images.hpp"

namespace fm = fastmedian;
using fmtest::Stack;

namespace {

struct Case {
    const char* what;
    const char* parameter;  // must appear in the message
    std::function<void(fm::ConstImageView&, fm::ImageView&, fm::MedianOptions&)> spoil;
};

}  // namespace

TEST(Validation, BadArgumentsNameTheParameterAndTouchNothing) {
    const Case cases[] = {
        {"null src", "src.data", [](auto& s, auto&, auto&) { s.data = nullptr; }},
        {"null dst", "dst.data", [](auto&, auto& d, auto&) { d.data = nullptr; }},
        {"zero width", "src.width", [](auto& s, auto&, auto&) { s.width = 0; }},
        {"negative height", "src.height", [](auto& s, auto&, auto&) { s.height = -2; }},
        {"zero planes", "src.planes", [](auto& s, auto&, auto&) { s.planes = 0; }},
        {"short row stride", "src.row_stride", [](auto& s, auto&, auto&) { s.row_stride = 3; }},
        {"short plane stride", "dst.plane_stride",
         [](auto&, auto& d, auto&) { d.plane_stride = d.row_stride; }},
        {"odd stride for u16", "row_stride",
         [](auto& s, auto& d, auto&) {
             s.type = d.type = fm::PixelType::u16;
             s.width = d.width = 4;
             s.row_stride = 9;
         }},
        {"type mismatch", "dst.type", [](auto&, auto& d, auto&) { d.type = fm::PixelType::u16; }},
        {"size mismatch", "dst size", [](auto&, auto& d, auto&) { d.width -= 1; }},
        {"in place", "overlaps", [](auto& s, auto& d, auto&) { d.data = const_cast<std::uint8_t*>(s.data); }},
        {"even size", "window.size", [](auto&, auto&, auto& o) { o.window = fm::Window::square(4); }},
        {"zero size", "window.size", [](auto&, auto&, auto& o) { o.window = fm::Window::square(0); }},
        {"huge size", "window.size", [](auto&, auto&, auto& o) { o.window = fm::Window::square(2049); }},
        {"negative radius", "window.radius",
         [](auto&, auto&, auto& o) { o.window = fm::Window::circle(-0.5); }},
        {"NaN radius", "window.radius",
         [](auto&, auto&, auto& o) { o.window = fm::Window::circle(std::nan("")); }},
        {"bad border", "border", [](auto&, auto&, auto& o) { o.border = static_cast<fm::Border>(9); }},
        {"NaN cval on u8", "cval",
         [](auto&, auto&, auto& o) {
             o.border = fm::Border::constant;
             o.cval = std::nan("");
         }},
        {"bad backend", "backend",
         [](auto&, auto&, auto& o) { o.backend = static_cast<fm::Backend>(7); }},
        {"negative device", "device", [](auto&, auto&, auto& o) { o.device = -1; }},
        {"negative device in the list", "devices must be CUDA device indices",
         [](auto&, auto&, auto& o) { o.devices = {0, -1}; }},
        {"a device listed twice", "devices lists device 1 twice",
         [](auto&, auto&, auto& o) { o.devices = {1, 0, 1}; }},
        {"mixed memory", "dst.memory", [](auto&, auto& d, auto&) { d.memory = fm::Memory::cuda; }},
        {"cuda memory on the cpu backend", "src.memory",
         [](auto& s, auto& d, auto&) { s.memory = d.memory = fm::Memory::cuda; }},
        {"stream with host memory", "cuda_stream",
         [](auto&, auto&, auto& o) { o.cuda_stream = &o; }},
        {"reference on cuda memory", "reference",
         [](auto& s, auto& d, auto& o) {
             s.memory = d.memory = fm::Memory::cuda;
             o.backend = fm::Backend::automatic;
             o.reference = true;
         }},
    };
    for (const Case& c : cases) {
        Stack src(fm::PixelType::u8, 16, 8, 2), dst(fm::PixelType::u8, 16, 8, 2);
        fmtest::fill_random(src, 5);
        fm::ConstImageView s = src.cview();
        fm::ImageView d = dst.view();
        fm::MedianOptions o;
        o.backend = fm::Backend::cpu;
        c.spoil(s, d, o);
        const auto src_before = src.bytes, dst_before = dst.bytes;
        try {
            fm::median2d(s, d, o);
            ADD_FAILURE() << c.what << ": accepted";
        } catch (const fm::Error& e) {
            EXPECT_EQ(e.code(), fm::ErrorCode::invalid_argument) << c.what;
            EXPECT_NE(std::string(e.what()).find(c.parameter), std::string::npos)
                << c.what << ": message '" << e.what() << "' does not name " << c.parameter;
        }
        EXPECT_EQ(src.bytes, src_before) << c.what << ": src changed";
        EXPECT_EQ(dst.bytes, dst_before) << c.what << ": dst changed";
    }
}

TEST(Validation, NamesParseAndRoundTrip) {
    for (auto b : {fm::Border::replicate, fm::Border::reflect, fm::Border::mirror,
                   fm::Border::constant, fm::Border::wrap})
        EXPECT_EQ(fm::parse_border(fm::border_name(b)), b);
    EXPECT_EQ(fm::parse_border("nearest"), fm::Border::replicate);
    for (auto b : {fm::Backend::automatic, fm::Backend::cpu, fm::Backend::cuda})
        EXPECT_EQ(fm::parse_backend(fm::backend_name(b)), b);
    try {
        fm::parse_border("edge", "--border");
        FAIL() << "edge accepted";
    } catch (const fm::Error& e) {
        EXPECT_NE(std::string(e.what()).find("--border"), std::string::npos);
        EXPECT_NE(std::string(e.what()).find("edge"), std::string::npos);
    }
    EXPECT_THROW(fm::parse_backend("opencl"), fm::Error);
}

TEST(Validation, CpuThreadsVariableIsCheckedOnEveryCpuCall) {
    // A 4x4 image is too small for the thread pool, which used to be the only reader of
    // FASTMEDIAN_CPU_THREADS: a bad value went unnoticed until a large image came. An empty
    // value means unset, as `FASTMEDIAN_CPU_THREADS= cmd` does in a shell.
    Stack src(fm::PixelType::u8, 4, 4, 1);
    Stack dst(fm::PixelType::u8, 4, 4, 1);
    fm::MedianOptions o;
    o.backend = fm::Backend::cpu;
    setenv("FASTMEDIAN_CPU_THREADS", "abc", 1);
    try {
        fm::median2d(src.cview(), dst.view(), o);
        ADD_FAILURE() << "accepted FASTMEDIAN_CPU_THREADS=abc on a small image";
    } catch (const fm::Error& e) {
        EXPECT_EQ(e.code(), fm::ErrorCode::invalid_argument);
        EXPECT_NE(std::string(e.what()).find("FASTMEDIAN_CPU_THREADS"), std::string::npos);
    }
    setenv("FASTMEDIAN_CPU_THREADS", "", 1);
    Stack large(fm::PixelType::u8, 512, 512, 2);
    Stack large_out(fm::PixelType::u8, 512, 512, 2);
    EXPECT_NO_THROW(fm::median2d(src.cview(), dst.view(), o));
    EXPECT_NO_THROW(fm::median2d(large.cview(), large_out.view(), o));
    unsetenv("FASTMEDIAN_CPU_THREADS");
}
