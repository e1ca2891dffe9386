// The TIFF fuzzer's hand-made seeds (tests/fuzz/corpus, written by make_corpus.py): each valid
// layout reads as its stack, each hostile file is refused with its code and a message that says
// why, before allocating what its header claims. The fuzzer itself only checks for crashes.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "fastmedian/fastmedian.hpp"
#include "tiff_io.hpp"

using namespace fastmedian;

namespace {

std::string seed(const std::string& name) { return FASTMEDIAN_FUZZ_CORPUS "/" + name; }

// The test's name: the file's, less ".tif".
template <class P>
std::string stem(const ::testing::TestParamInfo<P>& info) {
    const std::string name = info.param.name;
    return name.substr(0, name.size() - 4);
}

struct Readable {
    const char* name;
    PixelType type;
    std::int64_t width, height, planes;
};

class FuzzSeedReads : public ::testing::TestWithParam<Readable> {};

TEST_P(FuzzSeedReads, AsItsStack) {
    const Readable& r = GetParam();
    const tiff::Stack s = tiff::read_tiff(seed(r.name));
    EXPECT_EQ(s.type, r.type);
    EXPECT_EQ(s.width, r.width);
    EXPECT_EQ(s.height, r.height);
    EXPECT_EQ(s.planes, r.planes);
    EXPECT_EQ(s.bytes.size(), static_cast<std::size_t>(r.width * r.height * r.planes) *
                                  pixel_size(r.type));
}

INSTANTIATE_TEST_SUITE_P(
    Seeds, FuzzSeedReads,
    ::testing::Values(Readable{"u8_strips.tif", PixelType::u8, 7, 5, 1},
                      Readable{"u16_pages.tif", PixelType::u16, 6, 4, 3},
                      Readable{"f32.tif", PixelType::f32, 5, 3, 1},
                      Readable{"u8_palette.tif", PixelType::u8, 4, 4, 1},
                      Readable{"u8_packbits.tif", PixelType::u8, 9, 4, 1},
                      Readable{"u8_deflate_predictor.tif", PixelType::u8, 8, 6, 1},
                      Readable{"u16_tiles_deflate.tif", PixelType::u16, 20, 18, 2},
                      Readable{"f32_tiles.tif", PixelType::f32, 17, 16, 1},
                      Readable{"u16_big_endian.tif", PixelType::u16, 4, 3, 1},
                      Readable{"f32_bigtiff_pages.tif", PixelType::f32, 4, 3, 2}),
    stem<Readable>);

struct Refused {
    const char* name;
    ErrorCode code;
    const char* says;  // part of the message
};

class FuzzSeedRefused : public ::testing::TestWithParam<Refused> {};

TEST_P(FuzzSeedRefused, WithItsReason) {
    const Refused& r = GetParam();
    try {
        tiff::read_tiff(seed(r.name));
        FAIL() << r.name << " was read";
    } catch (const Error& e) {
        EXPECT_EQ(e.code(), r.code) << e.what();
        EXPECT_NE(std::string(e.what()).find(r.says), std::string::npos) << e.what();
    }
}

INSTANTIATE_TEST_SUITE_P(
    Seeds, FuzzSeedRefused,
    ::testing::Values(
        Refused{"truncated.tif", ErrorCode::io_error, "cannot read page 2"},
        Refused{"ifd_loop.tif", ErrorCode::io_error,
                "page 2 links back to page 1: the chain of pages loops, so the file is damaged"},
        Refused{"pages_differ.tif", ErrorCode::unsupported, "all pages must have the same size"},
        Refused{"huge_volume.tif", ErrorCode::unsupported, "100000 slices in one page"},
        Refused{"huge_strip.tif", ErrorCode::io_error, "cannot read strip 0"},
        Refused{"huge_strip_deflate.tif", ErrorCode::io_error, "cannot read strip 0"},
        Refused{"huge_tile.tif", ErrorCode::io_error, "cannot read tile 0"},
        Refused{"found_oom_wide_tile.tif", ErrorCode::io_error, "bad tile size"},
        // A strip starting past the end of the file: libtiff reads nothing there.
        Refused{"strip_offset_past_end.tif", ErrorCode::io_error,
                "cannot read strip 0 (libtiff: Read error at scanline 4294967295; got 0 bytes, "
                "expected 16)"},
        Refused{"int16.tif", ErrorCode::unsupported, "16-bit signed integer pixels"},
        Refused{"u32.tif", ErrorCode::unsupported, "32-bit unsigned integer pixels"},
        Refused{"f64.tif", ErrorCode::unsupported, "64-bit float pixels"},
        Refused{"complex64.tif", ErrorCode::unsupported, "64-bit complex pixels"},
        Refused{"bilevel.tif", ErrorCode::unsupported, "1-bit unsigned integer pixels"},
        Refused{"rgb.tif", ErrorCode::unsupported, "3 samples per pixel"},
        Refused{"min_is_white.tif", ErrorCode::unsupported, "photometric interpretation 0"},
        Refused{"unknown_compression.tif", ErrorCode::unsupported, "compression 12345"},
        Refused{"lzw_garbage.tif", ErrorCode::io_error, "cannot read strip 0"},
        Refused{"jpeg_garbage.tif", ErrorCode::io_error, "cannot read strip 0"},
        Refused{"zstd_garbage.tif", ErrorCode::io_error, "cannot read strip 0"}),
    stem<Refused>);

}  // namespace
