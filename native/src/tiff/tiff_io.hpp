// Reading and writing greyscale TIFF stacks (one page per plane) with libtiff.
// Every failure is a fastmedian::Error (io_error or unsupported) whose message names the file;
// libtiff's own messages go into that error, never to stderr.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "fastmedian/image.hpp"

namespace fastmedian::tiff {

// A dense stack that owns its pixels: planes x height x width, rows and planes packed.
struct Stack {
    PixelType type = PixelType::u8;
    std::int64_t width = 0;
    std::int64_t height = 0;
    std::int64_t planes = 0;
    std::vector<std::uint8_t> bytes;

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

// Reads every page. Accepts 1 sample per pixel of 8- or 16-bit unsigned integers or 32-bit IEEE
// floats (min-is-black, or an 8/16-bit lookup table as ImageJ writes), in strips or tiles, with
// any compression libtiff decodes; all pages must share size and type. `check`, when given,
// sees the header first.
Stack read_tiff(const std::string& path, const HeaderCheck& check = {});

// Writes one uncompressed page per plane (BigTIFF only past 4 GB). The pixels go to a temporary
// file beside `path` that is renamed over `path` only once complete, so `path` never holds a
// partial file; on failure the temporary file is removed.
void write_tiff(const std::string& path, const ConstImageView& image);

}  // namespace fastmedian::tiff
