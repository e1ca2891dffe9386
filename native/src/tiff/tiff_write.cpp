// write_tiff: a complete file or nothing. Pixels go to a temporary file in the target's
// directory (so the final rename stays on one file system and is atomic), which replaces the
// target only after libtiff and fsync have both succeeded.
//
// The layout is ImageJ's: every page's header first, then the planes one after another, each
// page one strip. libtiff appends whatever it writes to the end of the file, so the headers are
// written first with their strip offsets deferred (TIFFDeferStrileArrayWriting), and each
// plane's offset is filled in once the plane is appended.
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "metadata.hpp"
#include "output_file.hpp"
#include "tiff_file.hpp"
#include "tiff_io.hpp"

namespace fastmedian::tiff {

namespace {

[[noreturn]] void fail_errno(const std::string& what) {
    throw Error(ErrorCode::io_error, what + ": " + std::strerror(errno));
}

std::string page_name(std::int64_t z) { return "page " + std::to_string(z + 1); }

// Planes of the image in each page: 3 for RGB.
int samples(const Metadata& m) { return m.rgb ? 3 : 1; }

void write_header(const TiffFile& f, const StackHeader& image, std::int64_t z,
                  const Metadata& m, const std::string& description) {
    TIFF* tif = f.get();
    const std::size_t px = pixel_size(image.type);
    const auto height = static_cast<std::uint32_t>(image.height);
    bool ok =
        TIFFSetField(tif, TIFFTAG_IMAGEWIDTH, static_cast<std::uint32_t>(image.width)) &&
        TIFFSetField(tif, TIFFTAG_IMAGELENGTH, height) &&
        TIFFSetField(tif, TIFFTAG_BITSPERSAMPLE, static_cast<std::uint16_t>(8 * px)) &&
        TIFFSetField(tif, TIFFTAG_SAMPLESPERPIXEL, static_cast<std::uint16_t>(samples(m))) &&
        TIFFSetField(tif, TIFFTAG_SAMPLEFORMAT,
                     image.type == PixelType::f32 ? SAMPLEFORMAT_IEEEFP : SAMPLEFORMAT_UINT) &&
        TIFFSetField(tif, TIFFTAG_PHOTOMETRIC, m.rgb ? PHOTOMETRIC_RGB : PHOTOMETRIC_MINISBLACK) &&
        TIFFSetField(tif, TIFFTAG_PLANARCONFIG, PLANARCONFIG_CONTIG) &&
        TIFFSetField(tif, TIFFTAG_COMPRESSION, COMPRESSION_NONE) &&
        TIFFSetField(tif, TIFFTAG_ROWSPERSTRIP, height);
    if (m.has_resolution)
        ok = ok && TIFFSetField(tif, TIFFTAG_XRESOLUTION, m.x_resolution) &&
             TIFFSetField(tif, TIFFTAG_YRESOLUTION, m.y_resolution) &&
             TIFFSetField(tif, TIFFTAG_RESOLUTIONUNIT, static_cast<std::uint16_t>(m.resolution_unit));
    // Page 1 only, where ImageJ and OME-TIFF writers put them and readers look.
    if (z == 0 && !description.empty())
        ok = ok && TIFFSetField(tif, TIFFTAG_IMAGEDESCRIPTION, description.c_str());
    if (z == 0) ok = ok && set_imagej_tags(tif, m);
    ok = ok && TIFFDeferStrileArrayWriting(tif) && TIFFWriteCheck(tif, 0, "write_tiff") &&
         TIFFWriteDirectory(tif);
    if (!ok) f.fail(ErrorCode::io_error, "cannot write the header of " + page_name(z));
}

// Every page's header offset, in order.
std::vector<std::uint64_t> header_offsets(const TiffFile& f, std::int64_t planes) {
    TIFF* tif = f.get();
    std::vector<std::uint64_t> offsets;
    for (std::int64_t z = 0; z < planes; ++z) {
        if (!(z == 0 ? TIFFSetDirectory(tif, 0) : TIFFReadDirectory(tif)))
            f.fail(ErrorCode::io_error, "cannot read back the header of " + page_name(z));
        offsets.push_back(TIFFCurrentDirOffset(tif));
    }
    return offsets;
}

// Page z's `n` samples of pixel i from planes n z, n z + 1, ...: one interleaved row.
template <class T>
void interleave_row(const ConstImageView& image, std::int64_t z, int n, std::int64_t y,
                    std::uint8_t* out) {
    auto* o = reinterpret_cast<T*>(out);
    for (int c = 0; c < n; ++c) {
        const auto* in = reinterpret_cast<const T*>(image.row(z * n + c, y));
        for (std::int64_t x = 0; x < image.width; ++x) o[x * n + c] = in[x];
    }
}

// Writes page z of `image` (planes n z ... n z + n - 1) as page `page` of the file, whose
// header is at `header`.
void write_page(const TiffFile& f, const ConstImageView& image, std::int64_t z, int n,
                std::int64_t page, std::uint64_t header, std::vector<std::uint8_t>& packed) {
    TIFF* tif = f.get();
    const std::size_t row_bytes =
        static_cast<std::size_t>(image.width) * pixel_size(image.type) * n;
    const std::size_t bytes = row_bytes * static_cast<std::size_t>(image.height);
    // libtiff leaves an uncompressed strip in the machine's byte order untouched, so packed
    // greyscale rows go as they are; other views are packed first, RGB interleaved, and a
    // copy is what libtiff swaps for a file of the other byte order.
    void* strip = const_cast<std::uint8_t*>(image.plane(z));
    if (n > 1 || image.row_stride != static_cast<std::int64_t>(row_bytes) ||
        TIFFIsByteSwapped(tif)) {
        packed.resize(bytes);
        for (std::int64_t y = 0; y < image.height; ++y) {
            std::uint8_t* out = packed.data() + y * row_bytes;
            if (n == 1) std::memcpy(out, image.row(z, y), row_bytes);
            else if (image.type == PixelType::u8) interleave_row<std::uint8_t>(image, z, n, y, out);
            else if (image.type == PixelType::u16) interleave_row<std::uint16_t>(image, z, n, y, out);
            else interleave_row<float>(image, z, n, y, out);
        }
        strip = packed.data();
    }
    if (!TIFFSetSubDirectory(tif, header) || !TIFFForceStrileArrayWriting(tif) ||
        TIFFWriteEncodedStrip(tif, 0, strip, static_cast<tmsize_t>(bytes)) !=
            static_cast<tmsize_t>(bytes) ||
        !TIFFFlush(tif))
        f.fail(ErrorCode::io_error, "cannot write " + page_name(page));
}

}  // namespace

struct StackWriter::Impl {
    Impl(const OutputTarget& target, const std::string& path, const std::string& mode)
        : tmp(target), f(tmp.release_fd(), path, mode.c_str()) {}

    TempFile tmp;
    TiffFile f;
    StackHeader shape;
    int samples = 1;
    std::vector<std::uint64_t> headers;  // each page's header offset
    std::int64_t next = 0;               // the next page to write
    std::vector<std::uint8_t> packed;
};

StackWriter::StackWriter(const std::string& path, const StackHeader& shape,
                         const Metadata& metadata) {
    const int n = samples(metadata);
    if (shape.width < 1 || shape.height < 1 || shape.planes < 1 ||
        shape.width >= (std::int64_t{1} << 31) || shape.height >= (std::int64_t{1} << 31) ||
        shape.planes % n != 0)
        throw Error(ErrorCode::invalid_argument, "cannot write " + path + ": invalid stack shape");
    const std::uint64_t bytes = static_cast<std::uint64_t>(shape.width) * shape.height *
                                shape.planes * pixel_size(shape.type);
    // Classic TIFF addresses 4 GiB; leave room for the headers.
    const std::string mode = std::string(bytes < (std::uint64_t{4000} << 20) ? "w" : "w8") +
                             (metadata.big_endian ? "b" : "l");
    impl_ = std::make_unique<Impl>(check_output(path), path, mode);
    Impl& w = *impl_;
    w.shape = shape;
    w.samples = n;
    const std::string description = description_for(metadata.description, shape.type);
    const std::int64_t pages = shape.planes / n;
    for (std::int64_t z = 0; z < pages; ++z) write_header(w.f, shape, z, metadata, description);
    w.headers = header_offsets(w.f, pages);
}

StackWriter::~StackWriter() = default;

void StackWriter::write(const ConstImageView& planes, const PlaneProgress& progress) {
    Impl& w = *impl_;
    const std::int64_t pages = planes.planes / w.samples;
    if (planes.data == nullptr || planes.type != w.shape.type || planes.width != w.shape.width ||
        planes.height != w.shape.height || planes.planes % w.samples != 0 ||
        planes.row_stride < planes.width * static_cast<std::int64_t>(pixel_size(planes.type)) ||
        pages > static_cast<std::int64_t>(w.headers.size()) - w.next)
        throw Error(ErrorCode::invalid_argument,
                    "StackWriter::write: the planes do not fit the stack being written");
    for (std::int64_t z = 0; z < pages; ++z) {
        write_page(w.f, planes, z, w.samples, w.next + z, w.headers[w.next + z], w.packed);
        if (progress) progress((z + 1) * w.samples);
    }
    w.next += pages;
}

void StackWriter::commit() {
    Impl& w = *impl_;
    if (w.next != static_cast<std::int64_t>(w.headers.size()))
        throw Error(ErrorCode::invalid_argument, "StackWriter::commit: planes are missing");
    // Late write errors (a full disk, NFS) may show up only here.
    if (::fsync(TIFFFileno(w.f.get())) != 0) fail_errno("cannot write the output");
    w.f.close();
    w.tmp.commit();
}

void write_tiff(const std::string& path, const ConstImageView& image, const Metadata& metadata,
                const PlaneProgress& progress) {
    if (image.data == nullptr ||
        image.row_stride < image.width * static_cast<std::int64_t>(pixel_size(image.type)))
        throw Error(ErrorCode::invalid_argument, "cannot write " + path + ": invalid image view");
    StackWriter writer(path, {image.type, image.width, image.height, image.planes, {}}, metadata);
    writer.write(image, progress);
    writer.commit();
}

}  // namespace fastmedian::tiff
