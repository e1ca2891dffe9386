// read_tiff: every page of a greyscale TIFF into one dense stack.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>

#include "tiff_file.hpp"
#include "tiff_io.hpp"

namespace fastmedian::tiff {

namespace {

struct Layout {
    PixelType type;
    std::uint32_t width, height;
    bool operator!=(const Layout& o) const {
        return type != o.type || width != o.width || height != o.height;
    }
};

std::string describe(const Layout& l) {
    return std::to_string(l.width) + "x" + std::to_string(l.height) + " " +
           pixel_type_name(l.type);
}

const char* sample_format_name(std::uint16_t format) {
    switch (format) {
        case SAMPLEFORMAT_UINT: return "unsigned integer";
        case SAMPLEFORMAT_INT: return "signed integer";
        case SAMPLEFORMAT_IEEEFP: return "float";
        case SAMPLEFORMAT_VOID: return "untyped";
        default: return "complex";
    }
}

// Pages are numbered from 1 in messages, as ImageJ numbers slices; page 1 goes unmentioned.
std::string on_page(int page) {
    return page == 0 ? "" : "page " + std::to_string(page + 1) + ": ";
}

Layout page_layout(const TiffFile& f, int page) {
    TIFF* tif = f.get();
    std::uint16_t samples = 1, bits = 1, format = SAMPLEFORMAT_UINT;
    std::uint16_t photometric = PHOTOMETRIC_MINISBLACK;
    std::uint32_t width = 0, height = 0;
    TIFFGetFieldDefaulted(tif, TIFFTAG_SAMPLESPERPIXEL, &samples);
    TIFFGetFieldDefaulted(tif, TIFFTAG_BITSPERSAMPLE, &bits);
    TIFFGetFieldDefaulted(tif, TIFFTAG_SAMPLEFORMAT, &format);
    TIFFGetField(tif, TIFFTAG_PHOTOMETRIC, &photometric);
    TIFFGetField(tif, TIFFTAG_IMAGEWIDTH, &width);
    TIFFGetField(tif, TIFFTAG_IMAGELENGTH, &height);
    const std::string where = on_page(page);
    if (samples != 1)
        f.fail(ErrorCode::unsupported, where + std::to_string(samples) +
               " samples per pixel; only 1 is supported — split the channels first");
    // A palette here is ImageJ's lookup table: the stored values are the data.
    if (photometric != PHOTOMETRIC_MINISBLACK && photometric != PHOTOMETRIC_PALETTE)
        f.fail(ErrorCode::unsupported, where + "photometric interpretation " +
               std::to_string(photometric) +
               "; only min-is-black greyscale (or a lookup table) is supported");
    Layout l{PixelType::u8, width, height};
    if (bits == 8 && format == SAMPLEFORMAT_UINT) l.type = PixelType::u8;
    else if (bits == 16 && format == SAMPLEFORMAT_UINT) l.type = PixelType::u16;
    else if (bits == 32 && format == SAMPLEFORMAT_IEEEFP) l.type = PixelType::f32;
    else
        f.fail(ErrorCode::unsupported, where + std::to_string(bits) + "-bit " +
               sample_format_name(format) +
               " pixels; only 8/16-bit unsigned integer and 32-bit float are supported");
    if (width == 0 || height == 0 || width >= (1u << 31) || height >= (1u << 31))
        f.fail(ErrorCode::unsupported, where + "image size " + describe(l) + " is out of range");
    return l;
}

// libtiff takes a next-page offset cut off by the end of the file for "no next page", which
// would turn a truncated stack into a shorter one. The current page is really the last only if
// its directory, next-page offset included, lies wholly inside the file.
bool directory_is_whole(TIFF* tif) {
    const int fd = TIFFFileno(tif);
    const std::uint64_t offset = TIFFCurrentDirOffset(tif);
    std::uint64_t entries = 0, end = 0;
    if (TIFFIsBigTIFF(tif)) {
        if (::pread(fd, &entries, 8, static_cast<off_t>(offset)) != 8) return false;
        if (TIFFIsByteSwapped(tif)) TIFFSwabLong8(&entries);
        end = offset + 8 + entries * 20 + 8;
    } else {
        std::uint16_t n = 0;
        if (::pread(fd, &n, 2, static_cast<off_t>(offset)) != 2) return false;
        if (TIFFIsByteSwapped(tif)) TIFFSwabShort(&n);
        end = offset + 2 + std::uint64_t{n} * 12 + 4;
    }
    struct stat st {};
    return ::fstat(fd, &st) == 0 && end <= static_cast<std::uint64_t>(st.st_size);
}

// Appends n bytes to `bytes` and returns where they start. Planes grow strip by strip, so a
// corrupt header claiming a huge image fails at its first strip instead of first zeroing
// gigabytes.
std::uint8_t* grow(std::vector<std::uint8_t>& bytes, std::size_t n) {
    bytes.resize(bytes.size() + n);
    return bytes.data() + bytes.size() - n;
}

void read_strips(const TiffFile& f, const Layout& l, std::vector<std::uint8_t>& bytes) {
    const std::size_t row_bytes = std::size_t{l.width} * pixel_size(l.type);
    std::uint32_t rows_per_strip = l.height;
    TIFFGetFieldDefaulted(f.get(), TIFFTAG_ROWSPERSTRIP, &rows_per_strip);
    rows_per_strip = std::clamp<std::uint32_t>(rows_per_strip, 1, l.height);
    for (std::uint32_t y = 0, strip = 0; y < l.height; y += rows_per_strip, ++strip) {
        const std::size_t n = std::min(rows_per_strip, l.height - y) * row_bytes;
        const auto expected = static_cast<tmsize_t>(n);
        if (TIFFReadEncodedStrip(f.get(), strip, grow(bytes, n), expected) != expected)
            f.fail(ErrorCode::io_error, "cannot read strip " + std::to_string(strip));
    }
}

void read_tiles(const TiffFile& f, const Layout& l, std::vector<std::uint8_t>& bytes) {
    TIFF* tif = f.get();
    const std::size_t px = pixel_size(l.type);
    std::uint32_t tile_w = 0, tile_h = 0;
    TIFFGetField(tif, TIFFTAG_TILEWIDTH, &tile_w);
    TIFFGetField(tif, TIFFTAG_TILELENGTH, &tile_h);
    const tmsize_t tile_bytes = TIFFTileSize(tif);
    if (tile_w == 0 || tile_h == 0 ||
        tile_bytes != static_cast<tmsize_t>(std::size_t{tile_w} * tile_h * px))
        f.fail(ErrorCode::io_error, "bad tile size");
    std::vector<std::uint8_t> tile(static_cast<std::size_t>(tile_bytes));
    const std::size_t tile_row = tile_w * px, row_bytes = l.width * px;
    for (std::uint32_t y0 = 0; y0 < l.height; y0 += tile_h) {
        const std::uint32_t rows = std::min(tile_h, l.height - y0);
        std::uint8_t* band = grow(bytes, rows * row_bytes);
        for (std::uint32_t x0 = 0; x0 < l.width; x0 += tile_w) {
            const ttile_t t = TIFFComputeTile(tif, x0, y0, 0, 0);
            if (TIFFReadEncodedTile(tif, t, tile.data(), tile_bytes) != tile_bytes)
                f.fail(ErrorCode::io_error, "cannot read tile " + std::to_string(t));
            const std::size_t copy = std::min(tile_w, l.width - x0) * px;
            for (std::uint32_t r = 0; r < rows; ++r)
                std::memcpy(band + r * row_bytes + x0 * px, tile.data() + r * tile_row, copy);
        }
    }
}

}  // namespace

Stack read_tiff(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        throw Error(ErrorCode::io_error, "cannot open " + path + ": " + std::strerror(errno));
    TiffFile f(fd, path, "r");
    TIFF* tif = f.get();
    const Layout first = page_layout(f, 0);
    const std::size_t px = pixel_size(first.type);
    const std::size_t plane_bytes = std::size_t{first.width} * first.height * px;
    Stack s;
    s.type = first.type;
    s.width = first.width;
    s.height = first.height;
    try {
        // Reserved up front so a long stack is not copied while it grows.
        s.bytes.reserve(plane_bytes * TIFFNumberOfDirectories(tif));
        for (int page = 0;; ++page) {
            const Layout l = page == 0 ? first : page_layout(f, page);
            if (l != first)
                f.fail(ErrorCode::unsupported,
                       on_page(page) + describe(l) + " differs from page 1 (" + describe(first) +
                           "); all pages must have the same size and type");
            if (TIFFIsTiled(tif)) read_tiles(f, l, s.bytes);
            else read_strips(f, l, s.bytes);
            s.planes = page + 1;
            if (TIFFLastDirectory(tif)) {
                if (!directory_is_whole(tif))
                    f.fail(ErrorCode::io_error, "page " + std::to_string(page + 1) +
                           " is cut off: the file is truncated");
                break;
            }
            // Not the last page, so failing to read the next one is an error, not the end.
            if (!TIFFReadDirectory(tif))
                f.fail(ErrorCode::io_error, "cannot read page " + std::to_string(page + 2));
        }
    } catch (const std::bad_alloc&) {
        f.fail(ErrorCode::io_error, "not enough memory for the pages of " + describe(first));
    } catch (const std::length_error&) {
        f.fail(ErrorCode::io_error, "not enough memory for the pages of " + describe(first));
    }
    return s;
}

}  // namespace fastmedian::tiff
