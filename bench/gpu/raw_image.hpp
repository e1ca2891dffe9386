// Benchmark input: a raw plane from bench/gpu/images (see prepare_images.py), tiled by mirroring
// to the benchmark's size; or synthetic data, for kernels whose time depends on the data.
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

// size x size of `kind`: "walk", a random walk along the rows (steps of -100..100 in u16 units,
// a 256th of that for u8, the same numbers for f32), or "noise", uniform random values (u8,
// u16; f32 uniform in [0, 1)). Fixed seed.
HostImage synthetic(fastmedian::PixelType type, std::int64_t size, const std::string& kind);

// A benchmark's input of `type` by its --data option: "images" (tiled from the shared image in
// `dir`), "walk" or "noise" (synthetic); and how its header line names that.
HostImage input_image(const std::string& dir, const std::string& data, fastmedian::PixelType type,
                      std::int64_t size);
std::string describe_input(const std::string& data);

}  // namespace bench
