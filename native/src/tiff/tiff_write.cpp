// write_tiff: a complete file or nothing. Pixels go to a temporary file in the target's
// directory (so the final rename stays on one file system and is atomic), which replaces the
// target only after libtiff and fsync have both succeeded.
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

#include "output_file.hpp"
#include "tiff_file.hpp"
#include "tiff_io.hpp"

namespace fastmedian::tiff {

namespace {

[[noreturn]] void fail_errno(const std::string& what) {
    throw Error(ErrorCode::io_error, what + ": " + std::strerror(errno));
}

void write_plane(const TiffFile& f, const ConstImageView& image, std::int64_t z) {
    TIFF* tif = f.get();
    const std::size_t px = pixel_size(image.type);
    const std::size_t row_bytes = static_cast<std::size_t>(image.width) * px;
    const auto height = static_cast<std::uint32_t>(image.height);
    // Strips of about 256 KiB: small enough to buffer, large enough to write fast.
    const auto rows_per_strip =
        static_cast<std::uint32_t>(std::clamp<std::size_t>((256u << 10) / row_bytes, 1, height));
    const bool ok =
        TIFFSetField(tif, TIFFTAG_IMAGEWIDTH, static_cast<std::uint32_t>(image.width)) &&
        TIFFSetField(tif, TIFFTAG_IMAGELENGTH, height) &&
        TIFFSetField(tif, TIFFTAG_BITSPERSAMPLE, static_cast<std::uint16_t>(8 * px)) &&
        TIFFSetField(tif, TIFFTAG_SAMPLESPERPIXEL, 1) &&
        TIFFSetField(tif, TIFFTAG_SAMPLEFORMAT,
                     image.type == PixelType::f32 ? SAMPLEFORMAT_IEEEFP : SAMPLEFORMAT_UINT) &&
        TIFFSetField(tif, TIFFTAG_PHOTOMETRIC, PHOTOMETRIC_MINISBLACK) &&
        TIFFSetField(tif, TIFFTAG_PLANARCONFIG, PLANARCONFIG_CONTIG) &&
        TIFFSetField(tif, TIFFTAG_COMPRESSION, COMPRESSION_NONE) &&
        TIFFSetField(tif, TIFFTAG_ROWSPERSTRIP, rows_per_strip);
    if (!ok) f.fail(ErrorCode::io_error, "cannot set the tags of page " + std::to_string(z + 1));
    std::vector<std::uint8_t> strip(rows_per_strip * row_bytes);
    for (std::uint32_t y = 0, s = 0; y < height; y += rows_per_strip, ++s) {
        const std::uint32_t rows = std::min(rows_per_strip, height - y);
        for (std::uint32_t r = 0; r < rows; ++r)
            std::memcpy(strip.data() + r * row_bytes, image.row(z, y + r), row_bytes);
        const auto bytes = static_cast<tmsize_t>(rows * row_bytes);
        if (TIFFWriteEncodedStrip(tif, s, strip.data(), bytes) != bytes)
            f.fail(ErrorCode::io_error, "cannot write page " + std::to_string(z + 1));
    }
    if (!TIFFWriteDirectory(tif))
        f.fail(ErrorCode::io_error, "cannot write page " + std::to_string(z + 1));
}

}  // namespace

void write_tiff(const std::string& path, const ConstImageView& image) {
    if (image.data == nullptr || image.width < 1 || image.height < 1 || image.planes < 1 ||
        image.width >= (std::int64_t{1} << 31) || image.height >= (std::int64_t{1} << 31) ||
        image.row_stride < image.width * static_cast<std::int64_t>(pixel_size(image.type)))
        throw Error(ErrorCode::invalid_argument, "cannot write " + path + ": invalid image view");
    const std::uint64_t bytes = static_cast<std::uint64_t>(image.width) * image.height *
                                image.planes * pixel_size(image.type);
    // Classic TIFF addresses 4 GiB; leave room for the directories.
    const char* mode = bytes < (std::uint64_t{4000} << 20) ? "w" : "w8";
    TempFile tmp(check_output(path));
    TiffFile f(tmp.release_fd(), path, mode);
    for (std::int64_t z = 0; z < image.planes; ++z) write_plane(f, image, z);
    if (!TIFFFlush(f.get())) f.fail(ErrorCode::io_error, "cannot write");
    // Late write errors (a full disk, NFS) may show up only here.
    if (::fsync(TIFFFileno(f.get())) != 0) fail_errno("cannot write " + path);
    f.close();
    tmp.commit();
}

}  // namespace fastmedian::tiff
