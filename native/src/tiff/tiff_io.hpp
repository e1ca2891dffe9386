// Reading and writing greyscale TIFF stacks (one page per plane) with libtiff.
// Every failure is a fastmedian::Error (io_error or unsupported) whose message names the file;
// libtiff's own messages go into that error, never to stderr.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "fastmedian/image.hpp"
#include "pixel_bytes.hpp"

namespace fastmedian::tiff {

// What a file says besides its pixels, carried from an input to its output unchanged: page 1's
// description (ImageJ's hyperstack axes, unit, spacing and frame interval; OME-XML; any text),
// the pixel size in the resolution tags, and ImageJ's private tags (slice labels, channel
// lookup tables and display ranges, the Info property).
struct Metadata {
    std::string description;  // empty: none
    bool has_resolution = false;
    float x_resolution = 1.0f;  // pixels per unit: ImageJ's pixel width is 1 / x_resolution
    float y_resolution = 1.0f;
    int resolution_unit = 1;  // TIFF's ResolutionUnit: 1 none, 2 inch, 3 centimetre
    std::vector<std::uint32_t> imagej_counts;  // ImageJ's tag 50838 (IJMetaDataByteCounts)
    std::vector<std::uint8_t> imagej_data;     // ImageJ's tag 50839 (IJMetaData)
    // The pages are RGB: each is three planes of the stack (red, green, blue), written back
    // as one interleaved page.
    bool rgb = false;
    // The file's byte order, kept because ImageJ's private tags are read in it (ImageJ writes
    // big-endian files).
    bool big_endian = false;
};

// `m` for a projection of its stack along ImageJ's axis `axis` ("frames" or "slices") into
// `planes` planes: ImageJ's description says images=`planes` and loses the `axis` count, and
// its slice labels go (one per input plane, they name none of the output's); a description
// not ImageJ's (OME-XML, tifffile's shape) describes the input's planes and is dropped. The
// resolution, lookup tables, display ranges and Info stay.
Metadata projected_metadata(const Metadata& m, const std::string& axis, std::int64_t planes);

// A dense stack that owns its pixels: planes x height x width, rows and planes packed.
struct Stack {
    PixelType type = PixelType::u8;
    std::int64_t width = 0;
    std::int64_t height = 0;
    std::int64_t planes = 0;
    PixelBytes bytes;
    Metadata metadata;

    Stack() = default;
    Stack(PixelType type, std::int64_t width, std::int64_t height, std::int64_t planes);

    ConstImageView view() const;
    ImageView mutable_view();
};

// An ImageJ hyperstack's axes, from ImageJ's description of the file: its planes are stored
// channels fastest, then slices, then frames. All 1 for a file that is no hyperstack, or whose
// axes do not multiply to its planes (ImageJ then opens it as a plain stack).
struct ImageJAxes {
    std::int64_t channels = 1;
    std::int64_t slices = 1;
    std::int64_t frames = 1;
};

// What the pages' headers say of the stack, known before any pixel is read.
struct StackHeader {
    PixelType type = PixelType::u8;
    std::int64_t width = 0;
    std::int64_t height = 0;
    std::int64_t planes = 0;
    ImageJAxes axes;
};

// Called once every page's header is read and before any pixel memory is taken; throws to
// refuse the file (one larger than a memory ceiling, one the caller cannot use).
using HeaderCheck = std::function<void(const StackHeader&)>;

// Told how many planes are done, as reading or writing goes on (for a progress line).
using PlaneProgress = std::function<void(std::int64_t planes_done)>;

// A TIFF stack read a run of planes at a time, for stacks larger than memory. The header and
// metadata are known once it is open; no pixel is read before read().
class StackReader {
public:
    // Reads every page's header: the checks of read_tiff, and its errors.
    explicit StackReader(const std::string& path);
    ~StackReader();
    StackReader(const StackReader&) = delete;
    StackReader& operator=(const StackReader&) = delete;

    const StackHeader& header() const;
    const Metadata& metadata() const;
    // Appends the next `planes` planes to `bytes`, packed (whole pages: a multiple of 3 for
    // RGB); `progress` hears of the planes of this call read.
    void read(std::int64_t planes, PixelBytes& bytes, const PlaneProgress& progress = {});

    struct Impl;

private:
    std::unique_ptr<Impl> impl_;
};

// Reads every page. Accepts 8- or 16-bit unsigned integers or 32-bit IEEE floats, 1 sample per
// pixel (min-is-black, or an 8/16-bit lookup table as ImageJ writes) or RGB (3 samples,
// interleaved or in planes: each page three planes of the stack, the header's channels times
// 3), in strips or tiles, with any compression libtiff decodes; all pages must share size,
// type and samples. `check`, when given,
// sees the header first; `progress`, when given, hears of the planes as they are read.
Stack read_tiff(const std::string& path, const HeaderCheck& check = {},
                const PlaneProgress& progress = {});

// A TIFF stack written a run of planes at a time, as write_tiff writes it whole: every page's
// header first, then the planes in order; the file replaces its path only on commit().
class StackWriter {
public:
    // Checks `path` (check_output) and writes the headers of a stack of `shape` (type, size
    // and planes; a multiple of 3 for RGB) with `metadata`.
    StackWriter(const std::string& path, const StackHeader& shape, const Metadata& metadata);
    ~StackWriter();  // without commit(): the temporary file is removed
    StackWriter(const StackWriter&) = delete;
    StackWriter& operator=(const StackWriter&) = delete;

    // Appends the next planes (whole pages); `progress` hears of the planes of this call.
    void write(const ConstImageView& planes, const PlaneProgress& progress = {});
    // Once every plane is written: syncs the file and renames it over the path.
    void commit();

    struct Impl;

private:
    std::unique_ptr<Impl> impl_;
};

// Writes one uncompressed page per plane (BigTIFF only past 4 GB) with `metadata`; an OME-XML
// description gets the pixel type written. The pages' headers come first and the planes after
// them, one after another, as ImageJ writes its stacks and must find them (ImageJ reads only
// page 1's header of a file its description calls a stack of several images). The pixels go
// to a temporary file beside `path` that is renamed over `path` only once complete, so `path`
// never holds a partial file; on failure the temporary file is removed.
void write_tiff(const std::string& path, const ConstImageView& image,
                const Metadata& metadata = {}, const PlaneProgress& progress = {});

}  // namespace fastmedian::tiff
