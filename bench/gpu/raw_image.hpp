// Benchmark input: a raw plane from bench/gpu/images (see prepare_images.py), tiled by mirroring
// to the benchmark's size.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "fastmedian/image.hpp"

namespace bench {

struct HostImage {
    fastmedian::PixelType type = fastmedian::PixelType::u8;
    std::int64_t width = 0, height = 0;
    std::vector<std::uint8_t> bytes;  // dense rows
};

// Reads <dir>/<type>_<W>x<H>.raw for `type` (the one file of that type in `dir`).
HostImage read_raw(const std::string& dir, fastmedian::PixelType type);

// Mirror-tiles (d c b a | a b c d, as numpy's "symmetric" pad) to size x size.
HostImage tile(const HostImage& image, std::int64_t size);

}  // namespace bench
