// Benchmark input: a raw plane from bench/gpu/images (see prepare_images.py), tiled by mirroring
// to the benchmark's size, or the bead volume tiled to a volume's; or synthetic data
// (data_kinds.hpp makes the kinds every median benchmark measures).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "fastmedian/image.hpp"

namespace bench {

// A plane (depth 1) or a volume of dense rows and planes.
struct HostImage {
    fastmedian::PixelType type = fastmedian::PixelType::u8;
    std::int64_t width = 0, height = 0, depth = 1;
    std::vector<std::uint8_t> bytes;

    std::int64_t pixels() const { return width * height * depth; }
    fastmedian::ConstImageView view() const;
};

// Reads <dir>/<type>_<W>x<H>.raw for `type` (the one file of that type in `dir`).
HostImage read_raw(const std::string& dir, fastmedian::PixelType type);

// Mirror-tiles (d c b a | a b c d, as numpy's "symmetric" pad) to size x size.
HostImage tile(const HostImage& image, std::int64_t size);

// The shared bead stack (<dir>/volume_u8_150x150x41.raw) mirror-tiled to w x h x d in `type`:
// u16 holds the values times 257, f32 the values / 255.
HostImage bead_volume(const std::string& dir, fastmedian::PixelType type, std::int64_t w,
                      std::int64_t h, std::int64_t d);

}  // namespace bench
