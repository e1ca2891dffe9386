// read_tiff: every page of a greyscale TIFF into one dense stack.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cerrno>
#include <cstring>
#include <map>
#include <memory>
#include <new>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "metadata.hpp"
#include "tiff_file.hpp"
#include "tiff_io.hpp"

namespace fastmedian::tiff {

namespace {

struct Layout {
    PixelType type;
    std::uint32_t width, height;
    std::uint16_t samples = 1;  // 3 for RGB
    bool planar = false;        // RGB stored as three planes (PlanarConfig 2), not interleaved
    bool operator!=(const Layout& o) const {
        return type != o.type || width != o.width || height != o.height ||
               samples != o.samples || planar != o.planar;
    }
};

std::string describe(const Layout& l) {
    return std::to_string(l.width) + "x" + std::to_string(l.height) + " " +
           (l.samples == 3 ? "RGB " : "") + pixel_type_name(l.type);
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

// The longest row read, in bytes, of the image or of a tile. Strips and tiles are decoded in
// whole rows (predictors need them), so this bounds what a header alone can make us allocate.
constexpr std::size_t max_row_bytes = std::size_t{1} << 28;

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
    // RGB is read as three channels and written back as RGB, as ImageJ filters it.
    const bool rgb = photometric == PHOTOMETRIC_RGB && samples == 3;
    if (samples != 1 && !rgb)
        f.fail(ErrorCode::unsupported, where + std::to_string(samples) +
               " samples per pixel; only 1 (greyscale) or 3 (RGB) is supported — split the "
               "channels first");
    // A palette here is ImageJ's lookup table: the stored values are the data.
    if (photometric != PHOTOMETRIC_MINISBLACK && photometric != PHOTOMETRIC_PALETTE && !rgb)
        f.fail(ErrorCode::unsupported, where + "photometric interpretation " +
               std::to_string(photometric) +
               "; only min-is-black greyscale (or a lookup table) and RGB are supported");
    std::uint16_t planar = PLANARCONFIG_CONTIG;
    TIFFGetFieldDefaulted(tif, TIFFTAG_PLANARCONFIG, &planar);
    std::uint16_t compression = COMPRESSION_NONE;
    TIFFGetField(tif, TIFFTAG_COMPRESSION, &compression);
    if (!TIFFIsCODECConfigured(compression))
        f.fail(ErrorCode::unsupported, where + "compression " + std::to_string(compression) +
               " is not one this libtiff decodes");
    Layout l{PixelType::u8, width, height, samples, rgb && planar == PLANARCONFIG_SEPARATE};
    if (bits == 8 && format == SAMPLEFORMAT_UINT) l.type = PixelType::u8;
    else if (bits == 16 && format == SAMPLEFORMAT_UINT) l.type = PixelType::u16;
    else if (bits == 32 && format == SAMPLEFORMAT_IEEEFP) l.type = PixelType::f32;
    else
        f.fail(ErrorCode::unsupported, where + std::to_string(bits) + "-bit " +
               sample_format_name(format) +
               " pixels; only 8/16-bit unsigned integer and 32-bit float are supported");
    if (width == 0 || height == 0 || height >= (1u << 31) ||
        std::size_t{width} * pixel_size(l.type) * samples > max_row_bytes)
        f.fail(ErrorCode::unsupported, where + "image size " + describe(l) +
               " is out of range (rows up to 256 MiB, fewer than 2^31 rows)");
    std::uint32_t depth = 1;  // SGI's volume extension: several slices in one page
    TIFFGetField(tif, TIFFTAG_IMAGEDEPTH, &depth);
    if (depth != 1)
        f.fail(ErrorCode::unsupported, where + std::to_string(depth) +
               " slices in one page (ImageDepth); only one is supported — one page per slice");
    if (TIFFIsTiled(tif)) {
        std::uint32_t tile_w = 0, tile_h = 0;
        TIFFGetField(tif, TIFFTAG_TILEWIDTH, &tile_w);
        TIFFGetField(tif, TIFFTAG_TILELENGTH, &tile_h);
        const std::size_t tile_row =
            std::size_t{tile_w} * pixel_size(l.type) * (l.planar ? 1 : samples);
        if (tile_w == 0 || tile_h == 0 || tile_row > max_row_bytes ||
            TIFFTileSize(tif) != static_cast<tmsize_t>(tile_row * tile_h))
            f.fail(ErrorCode::io_error, where + "bad tile size");
    }
    return l;
}

// The next page's directory offset as the file stores it (0 after the last page), or nothing
// when the current directory, that link included, does not lie wholly inside the file. Read
// here, not taken from libtiff: libtiff takes a link cut off by the end of the file for "no
// next page", which would turn a truncated stack into a shorter one.
std::optional<std::uint64_t> next_directory(TIFF* tif) {
    const int fd = TIFFFileno(tif);
    const std::uint64_t offset = TIFFCurrentDirOffset(tif);
    std::uint64_t link = 0, end = 0;
    if (TIFFIsBigTIFF(tif)) {
        std::uint64_t entries = 0;
        if (::pread(fd, &entries, 8, static_cast<off_t>(offset)) != 8) return std::nullopt;
        if (TIFFIsByteSwapped(tif)) TIFFSwabLong8(&entries);  // sane: libtiff has read them
        end = offset + 8 + entries * 20;
        if (::pread(fd, &link, 8, static_cast<off_t>(end)) != 8) return std::nullopt;
        if (TIFFIsByteSwapped(tif)) TIFFSwabLong8(&link);
    } else {
        std::uint16_t entries = 0;
        std::uint32_t link32 = 0;
        if (::pread(fd, &entries, 2, static_cast<off_t>(offset)) != 2) return std::nullopt;
        if (TIFFIsByteSwapped(tif)) TIFFSwabShort(&entries);
        end = offset + 2 + std::uint64_t{entries} * 12;
        if (::pread(fd, &link32, 4, static_cast<off_t>(end)) != 4) return std::nullopt;
        if (TIFFIsByteSwapped(tif)) TIFFSwabLong(&link32);
        link = link32;
    }
    return link;
}

// Every page's directory offset, in order, after checking each page's layout against the
// first's; no pixel is read. A chain of pages that loops back, truncated or unreadable is an
// error here, before any pixel memory is taken.
std::vector<std::uint64_t> page_directories(const TiffFile& f, const Layout& first) {
    TIFF* tif = f.get();
    std::vector<std::uint64_t> pages;
    std::map<std::uint64_t, std::size_t> seen;  // directory offset -> page index
    for (int page = 0;; ++page) {
        if (page > 0) {
            const Layout l = page_layout(f, page);
            if (l != first)
                f.fail(ErrorCode::unsupported,
                       on_page(page) + describe(l) + " differs from page 1 (" + describe(first) +
                           "); all pages must have the same size and type");
        }
        pages.push_back(TIFFCurrentDirOffset(tif));
        seen.emplace(pages.back(), page);
        const std::optional<std::uint64_t> next = next_directory(tif);
        if (!next)
            f.fail(ErrorCode::io_error, "page " + std::to_string(page + 1) +
                   " is cut off: the file is truncated");
        if (*next == 0) return pages;
        // libtiff refuses a loop too, but says nothing of it.
        if (const auto again = seen.find(*next); again != seen.end())
            f.fail(ErrorCode::io_error, "page " + std::to_string(page + 1) + " links back to page " +
                   std::to_string(again->second + 1) +
                   ": the chain of pages loops, so the file is damaged");
        // Not the last page, so failing to read the next one is an error, not the end.
        if (!TIFFReadDirectory(tif))
            f.fail(ErrorCode::io_error, "cannot read page " + std::to_string(page + 2));
    }
}

// What ImageJ's ImageDescription ("ImageJ=1.54f\nimages=24\nchannels=2\nslices=3\n...") says of
// the stack; a count it does not give is 1, and so are all for a description not ImageJ's.
struct ImageJDescription {
    std::int64_t images = 1;
    ImageJAxes axes;
};

ImageJDescription imagej_description(TIFF* tif) {
    ImageJDescription d;
    const char* text = nullptr;
    if (!TIFFGetField(tif, TIFFTAG_IMAGEDESCRIPTION, &text) || std::strncmp(text, "ImageJ=", 7) != 0)
        return d;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
        const std::size_t eq = line.find('=');
        if (eq == std::string::npos) continue;
        std::int64_t n = 0;
        const char* end = line.data() + line.size();
        const auto r = std::from_chars(line.data() + eq + 1, end, n);
        if (r.ec != std::errc() || r.ptr != end || n < 1) continue;
        const std::string key = line.substr(0, eq);
        if (key == "images") d.images = n;
        if (key == "channels") d.axes.channels = n;
        if (key == "slices") d.axes.slices = n;
        if (key == "frames") d.axes.frames = n;
    }
    return d;
}

// ImageJ writes a stack past 4 GB (where classic TIFF's offsets end) as one page whose
// description says images=N, the N planes stored one after another from the page's first strip;
// ImageJ reads such a file so, and so does read_tiff. Where the N planes start, once the page is
// known to be laid out so and the file to hold them all.
std::uint64_t imagej_planes_start(const TiffFile& f, const Layout& l, std::int64_t images) {
    TIFF* tif = f.get();
    const std::string stack = "ImageJ stack of " + std::to_string(images) + " images in one page";
    std::uint16_t compression = COMPRESSION_NONE;
    TIFFGetField(tif, TIFFTAG_COMPRESSION, &compression);
    if (compression != COMPRESSION_NONE || TIFFIsTiled(tif) || l.samples != 1)
        f.fail(ErrorCode::unsupported, stack + " is compressed, tiled or RGB; only uncompressed "
               "greyscale strips, as ImageJ writes them, can be read so");
    // The planes follow one another only if page 1's strips do.
    const std::uint64_t plane = std::uint64_t{l.width} * l.height * pixel_size(l.type);
    const std::uint64_t start = TIFFGetStrileOffset(tif, 0);
    std::uint64_t end = start;
    for (std::uint32_t i = 0; i < TIFFNumberOfStrips(tif) && TIFFGetStrileOffset(tif, i) == end; ++i)
        end += TIFFGetStrileByteCount(tif, i);
    if (end - start != plane)
        f.fail(ErrorCode::unsupported, stack + ": the first image's strips are not one run of " +
               std::to_string(plane) + " bytes, so the images cannot follow one another");
    struct stat st {};
    if (::fstat(TIFFFileno(tif), &st) != 0)
        f.fail(ErrorCode::io_error, std::string("cannot stat: ") + std::strerror(errno));
    const auto size = static_cast<std::uint64_t>(st.st_size);
    if (start > size || (size - start) / plane < static_cast<std::uint64_t>(images))
        f.fail(ErrorCode::io_error, stack + ": the file ends at byte " + std::to_string(size) +
               ", before the last image: it is truncated");
    return start;
}

// Reads `size` bytes of the file from `start` into `bytes` as the pixels of `type`, telling
// `progress` of the planes of `plane` bytes read.
void read_planes(const TiffFile& f, PixelType type, std::uint64_t start, std::uint8_t* bytes,
                 std::size_t size, std::size_t plane, const PlaneProgress& progress) {
    TIFF* tif = f.get();
    for (std::size_t done = 0; done < size;) {
        if (progress) progress(static_cast<std::int64_t>(done / plane));
        const std::size_t chunk = std::min<std::size_t>(size - done, std::size_t{1} << 30);
        const ssize_t n = ::pread(TIFFFileno(tif), bytes + done, chunk,
                                  static_cast<off_t>(start + done));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0)
            f.fail(ErrorCode::io_error, std::string("cannot read the images: ") +
                   (n < 0 ? std::strerror(errno) : "the file is truncated"));
        done += static_cast<std::size_t>(n);
    }
    // libtiff swaps the bytes of what it decodes; these bypass it.
    if (TIFFIsByteSwapped(tif) && type == PixelType::u16)
        TIFFSwabArrayOfShort(reinterpret_cast<std::uint16_t*>(bytes), size / 2);
    if (TIFFIsByteSwapped(tif) && type == PixelType::f32)
        TIFFSwabArrayOfLong(reinterpret_cast<std::uint32_t*>(bytes), size / 4);
}

using DecodeFn = tmsize_t (*)(TIFF*, std::uint32_t, void*, tmsize_t);

// Decodes `rows` rows of `row_bytes` of strip or tile `index` (TIFFReadEncodedStrip or Tile)
// into `buf` from byte `at`. `buf` grows only as far as decoding proves there is data: the first
// attempt decodes about 1 MiB, each next one, again from the start, twice as many rows. So a
// header that claims more pixels than the file holds fails before that memory is taken, for the
// cost of decoding a strip larger than 1 MiB about twice. Whole rows: predictors need them.
bool decode(TIFF* tif, DecodeFn read, std::uint32_t index, PixelBytes& buf,
            std::size_t at, std::size_t rows, std::size_t row_bytes) {
    const std::size_t first = std::max<std::size_t>((std::size_t{1} << 20) / row_bytes, 1);
    for (std::size_t n = std::min(rows, std::max(first, (buf.size() - at) / row_bytes));;
         n = std::min(rows, 2 * n)) {
        if (buf.size() < at + n * row_bytes) buf.resize(at + n * row_bytes);
        const auto want = static_cast<tmsize_t>(n * row_bytes);
        if (read(tif, index, buf.data() + at, want) != want) return false;
        if (n == rows) return true;
    }
}

// The bytes of a row as the page stores it: an interleaved RGB row holds all three samples.
std::size_t stored_row_bytes(const Layout& l) {
    return std::size_t{l.width} * pixel_size(l.type) * (l.planar ? 1 : l.samples);
}

// Appends the page's pixels to `bytes` as it stores them: its rows, or for RGB in planes
// (PlanarConfig 2) the red plane's rows, then the green's, then the blue's.
void read_strips(const TiffFile& f, const Layout& l, PixelBytes& bytes) {
    const std::size_t row_bytes = stored_row_bytes(l);
    std::uint32_t rows_per_strip = l.height;
    TIFFGetFieldDefaulted(f.get(), TIFFTAG_ROWSPERSTRIP, &rows_per_strip);
    rows_per_strip = std::clamp<std::uint32_t>(rows_per_strip, 1, l.height);
    const std::uint32_t strips_per_plane = (l.height - 1) / rows_per_strip + 1;
    for (std::uint32_t c = 0; c < (l.planar ? l.samples : 1u); ++c)
        for (std::uint32_t y = 0, k = 0; y < l.height; y += rows_per_strip, ++k) {
            const std::uint32_t rows = std::min(rows_per_strip, l.height - y);
            const std::uint32_t strip = c * strips_per_plane + k;
            if (!decode(f.get(), TIFFReadEncodedStrip, strip, bytes, bytes.size(), rows, row_bytes))
                f.fail(ErrorCode::io_error, "cannot read strip " + std::to_string(strip));
        }
}

void read_tiles(const TiffFile& f, const Layout& l, PixelBytes& bytes) {
    TIFF* tif = f.get();
    const std::size_t px = pixel_size(l.type) * (l.planar ? 1 : l.samples);
    std::uint32_t tile_w = 0, tile_h = 0;  // checked by page_layout
    TIFFGetField(tif, TIFFTAG_TILEWIDTH, &tile_w);
    TIFFGetField(tif, TIFFTAG_TILELENGTH, &tile_h);
    const std::size_t tile_row = std::size_t{tile_w} * px, row_bytes = l.width * px;
    PixelBytes tile;  // grows to a whole tile while decoding the first
    for (std::uint16_t c = 0; c < (l.planar ? l.samples : 1u); ++c)
        for (std::uint32_t y0 = 0; y0 < l.height; y0 += tile_h) {
            const std::uint32_t rows = std::min(tile_h, l.height - y0);
            const std::size_t band = bytes.size();
            for (std::uint32_t x0 = 0; x0 < l.width; x0 += tile_w) {
                const ttile_t t = TIFFComputeTile(tif, x0, y0, 0, c);
                if (!decode(tif, TIFFReadEncodedTile, t, tile, 0, tile_h, tile_row))
                    f.fail(ErrorCode::io_error, "cannot read tile " + std::to_string(t));
                // The band is appended once its first tile has proved the data is there.
                if (x0 == 0) bytes.resize(band + rows * row_bytes);
                const std::size_t copy = std::min(tile_w, l.width - x0) * px;
                for (std::uint32_t r = 0; r < rows; ++r)
                    std::memcpy(bytes.data() + band + r * row_bytes + x0 * px,
                                tile.data() + r * tile_row, copy);
            }
        }
}

// Appends `pixels` interleaved pixels of `samples` samples of `T` to `planes` as one plane
// per sample.
template <class T>
void split_samples(const std::uint8_t* interleaved, std::size_t pixels, int samples,
                   std::uint8_t* planes) {
    const auto* in = reinterpret_cast<const T*>(interleaved);
    auto* out = reinterpret_cast<T*>(planes);
    for (int c = 0; c < samples; ++c)
        for (std::size_t i = 0; i < pixels; ++i) out[c * pixels + i] = in[i * samples + c];
}

// Appends the page to `bytes` as planes: its one plane, or an RGB page's three (red, green,
// blue), split from interleaved pixels by way of `scratch`.
void read_page(const TiffFile& f, const Layout& l, PixelBytes& bytes, PixelBytes& scratch) {
    const bool interleaved = l.samples > 1 && !l.planar;
    PixelBytes& into = interleaved ? scratch : bytes;
    if (interleaved) scratch.clear();
    if (TIFFIsTiled(f.get())) read_tiles(f, l, into);
    else read_strips(f, l, into);
    if (!interleaved) return;
    const std::size_t at = bytes.size(), pixels = std::size_t{l.width} * l.height;
    bytes.resize(at + scratch.size());
    switch (l.type) {
        case PixelType::u8: split_samples<std::uint8_t>(scratch.data(), pixels, l.samples, bytes.data() + at); break;
        case PixelType::u16: split_samples<std::uint16_t>(scratch.data(), pixels, l.samples, bytes.data() + at); break;
        case PixelType::f32: split_samples<float>(scratch.data(), pixels, l.samples, bytes.data() + at); break;
    }
}

}  // namespace

struct StackReader::Impl {
    // Not memory-mapped ("m"): a mapped file counts as the process's memory as it is read,
    // the whole stack at last, where a stack larger than memory is read a run at a time.
    Impl(int fd, const std::string& path) : f(fd, path, "rm") {}

    TiffFile f;
    Layout first{};
    std::vector<std::uint64_t> pages;  // each page's directory offset
    bool one_page_stack = false;       // ImageJ's one page of every plane (imagej_planes_start)
    std::uint64_t planes_start = 0;
    StackHeader header;
    Metadata metadata;
    std::int64_t next = 0;  // the next plane to read
    PixelBytes scratch;
};

StackReader::StackReader(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        throw Error(ErrorCode::io_error, "cannot open " + path + ": " + std::strerror(errno));
    impl_ = std::make_unique<Impl>(fd, path);
    Impl& r = *impl_;
    TIFF* tif = r.f.get();
    r.first = page_layout(r.f, 0);
    const ImageJDescription imagej = imagej_description(tif);
    r.metadata = read_metadata(tif);
    r.metadata.rgb = r.first.samples == 3;
    r.pages = page_directories(r.f, r.first);
    // ImageJ's one page holding every plane (see imagej_planes_start); with more pages, ImageJ
    // and tifffile write one per plane and images=N only counts them.
    r.one_page_stack = r.pages.size() == 1 && imagej.images > 1;
    if (r.one_page_stack) r.planes_start = imagej_planes_start(r.f, r.first, imagej.images);
    const std::int64_t images =
        r.one_page_stack ? imagej.images : static_cast<std::int64_t>(r.pages.size());
    // An RGB page is three planes, channels of their own (ImageJ's order: channels fastest).
    const std::int64_t planes = images * r.first.samples;
    r.header = {r.first.type, r.first.width, r.first.height, planes, {}};
    const ImageJAxes& a = imagej.axes;
    // In double: a description may give any counts. ImageJ's 48-bit files count the samples
    // among the channels; other descriptions count pages.
    const double described = static_cast<double>(a.channels) * a.slices * a.frames;
    if (described == static_cast<double>(planes)) {
        r.header.axes = a;
    } else if (described == static_cast<double>(images)) {
        r.header.axes = a;
        r.header.axes.channels *= r.first.samples;
    } else if (r.first.samples > 1) {
        r.header.axes = {r.first.samples, images, 1};  // RGB pages: slices, as ImageJ has them
    }
}

StackReader::~StackReader() = default;

const StackHeader& StackReader::header() const { return impl_->header; }
const Metadata& StackReader::metadata() const { return impl_->metadata; }

void StackReader::read(std::int64_t planes, PixelBytes& bytes, const PlaneProgress& progress) {
    Impl& r = *impl_;
    const std::int64_t samples = r.first.samples;
    if (planes < 0 || planes % samples != 0 || planes > r.header.planes - r.next)
        throw Error(ErrorCode::invalid_argument,
                    "StackReader::read: " + std::to_string(planes) + " planes from plane " +
                        std::to_string(r.next) + " of " + std::to_string(r.header.planes));
    const std::size_t plane = std::size_t{r.first.width} * r.first.height * pixel_size(r.first.type);
    const std::int64_t from = r.next;
    const std::size_t at = bytes.size();
    try {
        if (r.one_page_stack) {
            bytes.resize(at + plane * static_cast<std::size_t>(planes));
            read_planes(r.f, r.first.type, r.planes_start + plane * static_cast<std::uint64_t>(from),
                        bytes.data() + at, plane * static_cast<std::size_t>(planes), plane,
                        progress);
        } else {
            TIFF* tif = r.f.get();
            for (std::int64_t page = from / samples; page < (from + planes) / samples; ++page) {
                if (!TIFFSetSubDirectory(tif, r.pages[static_cast<std::size_t>(page)]))
                    r.f.fail(ErrorCode::io_error, "cannot read page " + std::to_string(page + 1));
                read_page(r.f, r.first, bytes, r.scratch);
                if (progress) progress((page + 1) * samples - from);
                // Reserved once a page has proved its size (a header alone may claim any), so
                // a long run of pages is not copied while it grows.
                const std::size_t page_bytes = bytes.size() - at;
                if (page == from / samples && page_bytes > 0 &&
                    planes / samples <=
                        static_cast<std::int64_t>((bytes.max_size() - at) / page_bytes))
                    bytes.reserve(at + page_bytes * static_cast<std::size_t>(planes / samples));
            }
        }
    } catch (const std::bad_alloc&) {
        r.f.fail(ErrorCode::io_error, "not enough memory for the pages of " + describe(r.first));
    } catch (const std::length_error&) {
        r.f.fail(ErrorCode::io_error, "not enough memory for the pages of " + describe(r.first));
    }
    if (progress) progress(planes);
    r.next += planes;
}

Stack read_tiff(const std::string& path, const HeaderCheck& check,
                const PlaneProgress& progress) {
    StackReader reader(path);
    const StackHeader& h = reader.header();
    if (check) check(h);
    Stack s;
    s.type = h.type;
    s.width = h.width;
    s.height = h.height;
    s.planes = h.planes;
    s.metadata = reader.metadata();
    reader.read(h.planes, s.bytes, progress);
    return s;
}

}  // namespace fastmedian::tiff
