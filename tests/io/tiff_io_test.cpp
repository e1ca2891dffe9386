// TIFF I/O: bit-exact round trips, the real images in ../shared/data, refused layouts with
// clear messages, damaged files, and writes that leave either a whole file or nothing.
#include <gtest/gtest.h>
#include <tiffio.h>

#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <limits>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "fastmedian/fastmedian.hpp"
#include "tiff_io.hpp"

namespace fs = std::filesystem;
using namespace fastmedian;

namespace {

// Values that exercise every byte of the type; floats include NaN, infinities, -0 and
// subnormals, which must survive bit for bit.
template <class T>
std::vector<T> pattern(int width, int height, int planes) {
    std::vector<T> v(static_cast<std::size_t>(width) * height * planes);
    for (std::size_t i = 0; i < v.size(); ++i) {
        const auto k = static_cast<std::uint32_t>(i * 2654435761u);
        if constexpr (std::is_same_v<T, float>) {
            const float special[] = {std::numeric_limits<float>::quiet_NaN(),
                                     std::numeric_limits<float>::infinity(),
                                     -std::numeric_limits<float>::infinity(), -0.0f,
                                     std::numeric_limits<float>::denorm_min()};
            v[i] = i % 97 < 5 ? special[i % 97] : static_cast<float>(k) / 1e6f - 2000.0f;
        } else {
            v[i] = static_cast<T>(k >> 7);
        }
    }
    return v;
}

std::vector<std::uint8_t> file_bytes(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void put_bytes(const fs::path& p, const std::vector<std::uint8_t>& bytes, std::size_t n) {
    std::ofstream out(p, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(n));
}

class TiffIo : public ::testing::Test {
protected:
    void SetUp() override {
        std::string tmpl = (fs::path(::testing::TempDir()) / "fastmedian_io_XXXXXX").string();
        ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
        dir_ = tmpl;
    }
    void TearDown() override { fs::remove_all(dir_); }

    std::string path(const std::string& name) const { return (dir_ / name).string(); }

    std::set<std::string> entries() const {
        std::set<std::string> names;
        for (const auto& e : fs::directory_iterator(dir_)) names.insert(e.path().filename());
        return names;
    }

    // A file made by libtiff directly, for layouts our writer never produces. `page` sets the
    // tags and writes the pixels of page i.
    void craft(const std::string& name, int pages, const std::function<void(TIFF*, int)>& page) {
        TIFF* tif = TIFFOpen(path(name).c_str(), "w");
        ASSERT_NE(tif, nullptr);
        for (int i = 0; i < pages; ++i) {
            page(tif, i);
            ASSERT_TRUE(TIFFWriteDirectory(tif));
        }
        TIFFClose(tif);
    }

    fs::path dir_;
};

void set_grey(TIFF* tif, std::uint32_t w, std::uint32_t h, int bits, int format) {
    TIFFSetField(tif, TIFFTAG_IMAGEWIDTH, w);
    TIFFSetField(tif, TIFFTAG_IMAGELENGTH, h);
    TIFFSetField(tif, TIFFTAG_BITSPERSAMPLE, bits);
    TIFFSetField(tif, TIFFTAG_SAMPLEFORMAT, format);
    TIFFSetField(tif, TIFFTAG_SAMPLESPERPIXEL, 1);
    TIFFSetField(tif, TIFFTAG_PHOTOMETRIC, PHOTOMETRIC_MINISBLACK);
    TIFFSetField(tif, TIFFTAG_ROWSPERSTRIP, h);
}

// The error read_tiff throws for `p`; fails the test when it throws none.
Error read_error(const std::string& p) {
    try {
        tiff::read_tiff(p);
    } catch (const Error& e) {
        return e;
    }
    ADD_FAILURE() << "read_tiff(" << p << ") did not throw";
    return Error(ErrorCode::invalid_argument, "");
}

template <class T>
class TiffRoundTrip : public TiffIo {};
using PixelTypes = ::testing::Types<std::uint8_t, std::uint16_t, float>;
TYPED_TEST_SUITE(TiffRoundTrip, PixelTypes);

TYPED_TEST(TiffRoundTrip, MultiPageStackKeepsTypeSizeAndBits) {
    const int w = 301, h = 1000, planes = 3;
    const std::vector<TypeParam> pixels = pattern<TypeParam>(w, h, planes);
    const std::string p = this->path("stack.tif");
    tiff::write_tiff(p, view(pixels.data(), w, h, planes));
    const tiff::Stack s = tiff::read_tiff(p);
    EXPECT_EQ(s.type, PixelTypeOf<TypeParam>::value);
    EXPECT_EQ(s.width, w);
    EXPECT_EQ(s.height, h);
    EXPECT_EQ(s.planes, planes);
    ASSERT_EQ(s.bytes.size(), pixels.size() * sizeof(TypeParam));
    EXPECT_EQ(std::memcmp(s.bytes.data(), pixels.data(), s.bytes.size()), 0);
    EXPECT_EQ(this->entries(), std::set<std::string>{"stack.tif"});
}

TEST_F(TiffIo, WritesTheRectangleAStridedViewDescribes) {
    const int W = 40, H = 30, P = 2;
    const std::vector<std::uint16_t> big = pattern<std::uint16_t>(W, H, P);
    ConstImageView sub = view(big.data(), W, H, P);
    sub.data += (3 * W + 5) * 2;  // from x 5, y 3
    sub.width = 20;
    sub.height = 10;
    tiff::write_tiff(path("sub.tif"), sub);
    const tiff::Stack s = tiff::read_tiff(path("sub.tif"));
    ASSERT_EQ(s.planes, P);
    const auto* got = reinterpret_cast<const std::uint16_t*>(s.bytes.data());
    for (int z = 0; z < P; ++z)
        for (int y = 0; y < 10; ++y)
            for (int x = 0; x < 20; ++x)
                ASSERT_EQ(got[(z * 10 + y) * 20 + x], big[(z * H + y + 3) * W + x + 5]);
}

TEST_F(TiffIo, MetadataSurvivesARoundTrip) {
    const std::vector<std::uint16_t> pixels = pattern<std::uint16_t>(9, 7, 4);
    tiff::Metadata m;
    m.description = "ImageJ=1.54f\nimages=4\nchannels=2\nslices=2\nunit=micron\n";
    m.has_resolution = true;
    m.x_resolution = 8.0f;
    m.y_resolution = 4.0f;
    m.resolution_unit = 3;
    m.imagej_counts = {8, 3, 5};
    m.imagej_data = {'I', 'J', 'I', 'J', 'i', 'n', 'f', 'o', 1, 2, 3, 4, 5, 6, 7, 8};
    tiff::write_tiff(path("meta.tif"), view(pixels.data(), 9, 7, 4), m);
    const tiff::Stack s = tiff::read_tiff(path("meta.tif"));
    EXPECT_EQ(s.metadata.description, m.description);
    EXPECT_TRUE(s.metadata.has_resolution);
    EXPECT_EQ(s.metadata.x_resolution, 8.0f);
    EXPECT_EQ(s.metadata.y_resolution, 4.0f);
    EXPECT_EQ(s.metadata.resolution_unit, 3);
    EXPECT_EQ(s.metadata.imagej_counts, m.imagej_counts);
    EXPECT_EQ(s.metadata.imagej_data, m.imagej_data);
    ASSERT_EQ(s.bytes.size(), pixels.size() * 2);
    EXPECT_EQ(std::memcmp(s.bytes.data(), pixels.data(), s.bytes.size()), 0);
}

TEST_F(TiffIo, OmeXmlSaysTheTypeWritten) {
    const std::vector<float> pixels(6 * 5, 0.5f);
    tiff::Metadata m;
    m.description =
        "<?xml version=\"1.0\"?><OME><Image><Pixels DimensionOrder=\"XYZCT\" Type=\"uint16\" "
        "SignificantBits=\"16\" SizeX=\"6\"><TiffData/></Pixels></Image></OME>";
    tiff::write_tiff(path("ome.tif"), view(pixels.data(), 6, 5), m);
    EXPECT_EQ(tiff::read_tiff(path("ome.tif")).metadata.description,
              "<?xml version=\"1.0\"?><OME><Image><Pixels DimensionOrder=\"XYZCT\" Type=\"float\" "
              "SignificantBits=\"32\" SizeX=\"6\"><TiffData/></Pixels></Image></OME>");
}

TEST_F(TiffIo, ReplacesAnExistingFile) {
    const std::vector<std::uint8_t> a(12 * 10, 1), b(12 * 10, 2);
    tiff::write_tiff(path("out.tif"), view(a.data(), 12, 10));
    tiff::write_tiff(path("out.tif"), view(b.data(), 12, 10));
    const tiff::Stack back = tiff::read_tiff(path("out.tif"));
    EXPECT_TRUE(std::equal(back.bytes.begin(), back.bytes.end(), b.begin(), b.end()));
    EXPECT_EQ(entries(), std::set<std::string>{"out.tif"});
}

TEST_F(TiffIo, DecodesCompressedStripsAndTiles) {
    const std::uint32_t w = 45, h = 37;
    const std::vector<std::uint16_t> pixels = pattern<std::uint16_t>(w, h, 2);
    craft("mixed.tif", 2, [&](TIFF* tif, int page) {
        set_grey(tif, w, h, 16, SAMPLEFORMAT_UINT);
        const std::uint16_t* plane = pixels.data() + page * w * h;
        if (page == 0) {  // LZW strips of 5 rows
            TIFFSetField(tif, TIFFTAG_COMPRESSION, COMPRESSION_LZW);
            TIFFSetField(tif, TIFFTAG_PREDICTOR, PREDICTOR_HORIZONTAL);
            TIFFSetField(tif, TIFFTAG_ROWSPERSTRIP, 5);
            std::vector<std::uint16_t> row(w);  // libtiff's predictor rewrites its input
            for (std::uint32_t y = 0; y < h; ++y) {
                std::copy(plane + y * w, plane + (y + 1) * w, row.begin());
                TIFFWriteScanline(tif, row.data(), y, 0);
            }
        } else {  // deflate 16x16 tiles, partial at the right and bottom edges
            TIFFSetField(tif, TIFFTAG_COMPRESSION, COMPRESSION_ADOBE_DEFLATE);
            TIFFSetField(tif, TIFFTAG_PREDICTOR, PREDICTOR_HORIZONTAL);
            TIFFSetField(tif, TIFFTAG_TILEWIDTH, 16);
            TIFFSetField(tif, TIFFTAG_TILELENGTH, 16);
            std::vector<std::uint16_t> tile(16 * 16);
            for (std::uint32_t y0 = 0; y0 < h; y0 += 16)
                for (std::uint32_t x0 = 0; x0 < w; x0 += 16) {
                    for (std::uint32_t y = 0; y < 16; ++y)
                        for (std::uint32_t x = 0; x < 16; ++x)
                            tile[y * 16 + x] = (y0 + y < h && x0 + x < w)
                                                   ? plane[(y0 + y) * w + x0 + x] : 0;
                    TIFFWriteTile(tif, tile.data(), x0, y0, 0, 0);
                }
        }
    });
    const tiff::Stack s = tiff::read_tiff(path("mixed.tif"));
    EXPECT_EQ(s.type, PixelType::u16);
    ASSERT_EQ(s.planes, 2);
    EXPECT_EQ(std::memcmp(s.bytes.data(), pixels.data(), s.bytes.size()), 0);
}

// The real images: type, size, page count, and the sum of every pixel as computed by tifffile.
struct SharedImage {
    const char* file;
    PixelType type;
    std::int64_t width, height, planes;
    double sum;
};

void PrintTo(const SharedImage& img, std::ostream* os) { *os << img.file; }

class TiffSharedData : public ::testing::TestWithParam<SharedImage> {};

template <class T>
double pixel_sum(const tiff::Stack& s) {
    const auto* p = reinterpret_cast<const T*>(s.bytes.data());
    double sum = 0.0;
    for (std::size_t i = 0; i < s.bytes.size() / sizeof(T); ++i) sum += p[i];
    return sum;
}

TEST_P(TiffSharedData, ReadsTypePagesAndPixels) {
    const SharedImage& img = GetParam();
    const fs::path p = fs::path(FASTMEDIAN_SHARED_DATA) / img.file;
    if (!fs::exists(p)) GTEST_SKIP() << p << " is absent (the shared test images are not here)";
    const tiff::Stack s = tiff::read_tiff(p.string());
    EXPECT_EQ(s.type, img.type);
    EXPECT_EQ(s.width, img.width);
    EXPECT_EQ(s.height, img.height);
    EXPECT_EQ(s.planes, img.planes);
    const double sum = s.type == PixelType::u8    ? pixel_sum<std::uint8_t>(s)
                       : s.type == PixelType::u16 ? pixel_sum<std::uint16_t>(s)
                                                  : pixel_sum<float>(s);
    EXPECT_EQ(sum, img.sum);
}

INSTANTIATE_TEST_SUITE_P(
    Images, TiffSharedData,
    ::testing::Values(
        SharedImage{"BPAE_actin.tif", PixelType::f32, 1100, 680, 1, 1442175236.0},
        SharedImage{"Bead_Image1_crop.tif", PixelType::u8, 150, 150, 41, 1443760.0},
        SharedImage{"cancer_cell_migration_crop.tif", PixelType::u16, 130, 130, 48,
                    6998463282.0},
        SharedImage{"embryos_grey.tif", PixelType::u8, 462, 366, 1, 23365769.0}),
    [](const auto& info) {
        const std::string file = info.param.file;
        return file.substr(0, file.find('.'));
    });

// ImageJ's sample image stores its 3 channels as the interleaved samples of an RGB page.
TEST(TiffSharedData, HelaCellsIsReadAsThreeChannels) {
    const fs::path p = fs::path(FASTMEDIAN_SHARED_DATA) / "hela-cells.tif";
    if (!fs::exists(p)) GTEST_SKIP() << p << " is absent (the shared test images are not here)";
    const tiff::Stack s = tiff::read_tiff(p.string(), [](const tiff::StackHeader& h) {
        EXPECT_EQ(h.axes.channels, 3);
        EXPECT_EQ(h.planes, 3);
    });
    EXPECT_EQ(s.type, PixelType::u16);
    EXPECT_EQ(s.width, 672);
    EXPECT_EQ(s.height, 512);
    EXPECT_EQ(s.planes, 3);
    EXPECT_TRUE(s.metadata.rgb);
}

// RGB pages, interleaved and in planes, read as three planes each and written back as RGB.
TEST_F(TiffIo, RgbRoundTrip) {
    const int w = 7, h = 5, pages = 2;
    const std::vector<std::uint16_t> planes = pattern<std::uint16_t>(w, h, 3 * pages);
    for (const int planar : {PLANARCONFIG_CONTIG, PLANARCONFIG_SEPARATE}) {
        craft("rgb.tif", pages, [&](TIFF* tif, int page) {
            set_grey(tif, w, h, 16, SAMPLEFORMAT_UINT);
            TIFFSetField(tif, TIFFTAG_SAMPLESPERPIXEL, 3);
            TIFFSetField(tif, TIFFTAG_PHOTOMETRIC, PHOTOMETRIC_RGB);
            TIFFSetField(tif, TIFFTAG_PLANARCONFIG, planar);
            TIFFSetField(tif, TIFFTAG_ROWSPERSTRIP, 2);
            const std::uint16_t* p = planes.data() + 3 * page * w * h;
            std::vector<std::uint16_t> row(3 * w);
            for (int c = 0; c < (planar == PLANARCONFIG_SEPARATE ? 3 : 1); ++c)
                for (int y = 0; y < h; ++y) {
                    for (int x = 0; x < w; ++x)
                        for (int k = 0; k < 3; ++k) row[3 * x + k] = p[(k * h + y) * w + x];
                    void* line = planar == PLANARCONFIG_SEPARATE
                                     ? static_cast<void*>(const_cast<std::uint16_t*>(p + (c * h + y) * w))
                                     : row.data();
                    ASSERT_EQ(TIFFWriteScanline(tif, line, y, static_cast<std::uint16_t>(c)), 1);
                }
        });
        const tiff::Stack s = tiff::read_tiff(path("rgb.tif"));
        ASSERT_EQ(s.planes, 3 * pages);
        EXPECT_TRUE(s.metadata.rgb);
        ASSERT_EQ(s.bytes.size(), planes.size() * 2);
        EXPECT_EQ(std::memcmp(s.bytes.data(), planes.data(), s.bytes.size()), 0) << planar;
        tiff::write_tiff(path("out.tif"), s.view(), s.metadata);
        const tiff::Stack back = tiff::read_tiff(path("out.tif"));
        EXPECT_EQ(back.bytes, s.bytes);
        TIFF* t = TIFFOpen(path("out.tif").c_str(), "r");
        std::uint16_t samples = 0, photometric = 0;
        TIFFGetField(t, TIFFTAG_SAMPLESPERPIXEL, &samples);
        TIFFGetField(t, TIFFTAG_PHOTOMETRIC, &photometric);
        TIFFClose(t);
        EXPECT_EQ(samples, 3);
        EXPECT_EQ(photometric, PHOTOMETRIC_RGB);
    }
}

TEST_F(TiffIo, RefusesSignedIntegers) {
    const std::vector<std::int16_t> pixels(8 * 4, -3);
    craft("signed.tif", 1, [&](TIFF* tif, int) {
        set_grey(tif, 8, 4, 16, SAMPLEFORMAT_INT);
        TIFFWriteEncodedStrip(tif, 0, const_cast<std::int16_t*>(pixels.data()), 64);
    });
    const Error e = read_error(path("signed.tif"));
    EXPECT_EQ(e.code(), ErrorCode::unsupported);
    EXPECT_NE(std::string(e.what()).find("signed.tif: 16-bit signed integer pixels"),
              std::string::npos) << e.what();
}

TEST_F(TiffIo, RefusesMinIsWhite) {
    const std::vector<std::uint8_t> pixels(8 * 4, 9);
    craft("white.tif", 1, [&](TIFF* tif, int) {
        set_grey(tif, 8, 4, 8, SAMPLEFORMAT_UINT);
        TIFFSetField(tif, TIFFTAG_PHOTOMETRIC, PHOTOMETRIC_MINISWHITE);
        TIFFWriteEncodedStrip(tif, 0, const_cast<std::uint8_t*>(pixels.data()), 32);
    });
    const Error e = read_error(path("white.tif"));
    EXPECT_EQ(e.code(), ErrorCode::unsupported);
    EXPECT_NE(std::string(e.what()).find("photometric"), std::string::npos) << e.what();
}

TEST_F(TiffIo, RefusesPagesOfDifferentSizes) {
    const std::vector<std::uint8_t> pixels(8 * 8, 1);
    craft("ragged.tif", 3, [&](TIFF* tif, int page) {
        const std::uint32_t h = page == 2 ? 8 : 4;
        set_grey(tif, 8, h, 8, SAMPLEFORMAT_UINT);
        TIFFWriteEncodedStrip(tif, 0, const_cast<std::uint8_t*>(pixels.data()), 8 * h);
    });
    const Error e = read_error(path("ragged.tif"));
    EXPECT_EQ(e.code(), ErrorCode::unsupported);
    EXPECT_EQ(std::string(e.what()),
              path("ragged.tif") + ": page 3: 8x8 u8 differs from page 1 (8x4 u8); all pages "
              "must have the same size and type");
}

TEST_F(TiffIo, MissingAndNonTiffFilesAreIoErrors) {
    Error e = read_error(path("absent.tif"));
    EXPECT_EQ(e.code(), ErrorCode::io_error);
    EXPECT_EQ(std::string(e.what()),
              "cannot open " + path("absent.tif") + ": No such file or directory");
    put_bytes(path("text.tif"), {'h', 'e', 'l', 'l', 'o', '\n', 0, 0, 0, 0}, 10);
    e = read_error(path("text.tif"));
    EXPECT_EQ(e.code(), ErrorCode::io_error);
    EXPECT_NE(std::string(e.what()).find("text.tif: not a readable TIFF file (libtiff: "),
              std::string::npos) << e.what();
}

// Every prefix of a valid 3-page file is damaged somewhere a reader needs.
TEST_F(TiffIo, EveryTruncationIsAnError) {
    const std::vector<std::uint16_t> pixels = pattern<std::uint16_t>(9, 7, 3);
    tiff::write_tiff(path("whole.tif"), view(pixels.data(), 9, 7, 3));
    const std::vector<std::uint8_t> bytes = file_bytes(path("whole.tif"));
    for (std::size_t n = 0; n < bytes.size(); ++n) {
        put_bytes(path("cut.tif"), bytes, n);
        EXPECT_EQ(read_error(path("cut.tif")).code(), ErrorCode::io_error) << "cut at " << n;
    }
}

// Damage anywhere may still leave a readable file, but never a crash or a foreign exception.
TEST_F(TiffIo, CorruptBytesGiveAStackOrAnError) {
    const std::vector<std::uint8_t> pixels = pattern<std::uint8_t>(6, 5, 2);
    tiff::write_tiff(path("whole.tif"), view(pixels.data(), 6, 5, 2));
    const std::vector<std::uint8_t> bytes = file_bytes(path("whole.tif"));
    for (std::size_t i = 0; i < bytes.size(); ++i) {
        for (std::uint8_t flip : {0x01, 0x80, 0xFF}) {
            std::vector<std::uint8_t> bad = bytes;
            bad[i] ^= flip;
            put_bytes(path("bad.tif"), bad, bad.size());
            try {
                tiff::read_tiff(path("bad.tif"));
            } catch (const Error&) {
            } catch (const std::exception& e) {
                ADD_FAILURE() << "byte " << i << " ^ " << int(flip) << ": " << e.what();
            }
        }
    }
}

TEST_F(TiffIo, WriteIntoAMissingDirectoryLeavesNothing) {
    const std::vector<std::uint8_t> pixels(4 * 4, 7);
    try {
        tiff::write_tiff(path("no/such/dir/out.tif"), view(pixels.data(), 4, 4));
        ADD_FAILURE() << "write_tiff did not throw";
    } catch (const Error& e) {
        EXPECT_EQ(e.code(), ErrorCode::io_error);
        EXPECT_NE(std::string(e.what()).find("cannot write " + path("no/such/dir/out.tif")),
                  std::string::npos) << e.what();
    }
    EXPECT_TRUE(entries().empty());
}

// A folder as the target is refused before anything is written: no temporary file is left,
// and the folder stays as it was.
TEST_F(TiffIo, FailureAfterWritingRemovesTheTemporaryFile) {
    fs::create_directory(path("taken.tif"));
    const std::vector<std::uint8_t> pixels(64 * 64, 7);
    EXPECT_THROW(tiff::write_tiff(path("taken.tif"), view(pixels.data(), 64, 64)), Error);
    EXPECT_EQ(entries(), std::set<std::string>{"taken.tif"});
    EXPECT_TRUE(fs::is_directory(path("taken.tif")));
}

// A full disk, simulated by a file size limit in a child process: the write fails midway,
// the old output survives unchanged, and no temporary file is left.
TEST_F(TiffIo, FullDiskLeavesTheOldFileAndNoTemporary) {
    const std::vector<std::uint8_t> old(10 * 10, 1);
    tiff::write_tiff(path("out.tif"), view(old.data(), 10, 10));
    const std::vector<std::uint8_t> before = file_bytes(path("out.tif"));
    const std::vector<std::uint8_t> big(1000 * 1000, 2);
    const auto child = [&]() {
        signal(SIGXFSZ, SIG_IGN);  // writes past the limit fail with EFBIG instead
        const rlimit limit{64 << 10, 64 << 10};
        setrlimit(RLIMIT_FSIZE, &limit);
        bool threw = false;
        try {
            tiff::write_tiff(path("out.tif"), view(big.data(), 1000, 1000));
        } catch (const Error& e) {
            threw = e.code() == ErrorCode::io_error;
        }
        const bool clean = entries() == std::set<std::string>{"out.tif"} &&
                           file_bytes(path("out.tif")) == before;
        std::_Exit(threw && clean ? 0 : 1);
    };
    EXPECT_EXIT(child(), ::testing::ExitedWithCode(0), "");
}

TEST_F(TiffIo, RefusesAnInvalidView) {
    ConstImageView v;  // null data
    v.width = v.height = 4;
    EXPECT_THROW(tiff::write_tiff(path("x.tif"), v), Error);
    EXPECT_TRUE(entries().empty());
}

}  // namespace
