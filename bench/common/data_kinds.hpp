// The kinds of data every median benchmark measures side by side (docs/performance.md, "The
// four kinds of data"). A median's speed can depend on its data: the sliding histograms on how
// far the median moves between neighbouring windows, the ranked paths on how many distinct
// values a plane holds, the f32 networks on whether the values are whole numbers. The shared
// images are friendly on all three counts, so each case also runs on data that is not:
//   images  the shared image of the type (u8, u16; f32 holds whole numbers);
//   flat    f32 with fractions: the shared f32 image divided by a smooth flat field, plus
//           Gaussian noise, as flat-field corrected or deconvolved images are;
//   noise   uniform over the full range (u8, u16); for f32 every value distinct;
//   walk    a random walk along the rows (a smooth synthetic image; not in "all").
#pragma once

#include <string>
#include <vector>

#include "raw_image.hpp"

namespace bench {

// The kinds a --data option names for `type`, in table order: "all" is every kind that applies
// to the type (images and noise; and flat for f32); a comma list keeps the listed kinds that
// apply (flat is f32 only). Throws on an unknown name.
std::vector<std::string> data_kinds(const std::string& data, fastmedian::PixelType type);

// The input of `kind` of the same type and shape as `shared` (the shared image or volume of
// its type, tiled to the benchmark's shape): "images" gives `shared` itself. Fixed seeds, so
// every run and every benchmark sees the same data.
HostImage make_input(const std::string& kind, const HostImage& shared);

// The size x size plane of `kind` and `type`: make_input over the shared image tiled.
HostImage input_plane(const std::string& dir, const std::string& kind, fastmedian::PixelType type,
                      std::int64_t size);

// Writes the input to <dir>/<kind>_<type>_<W>x<H>[x<D>].raw (little-endian, dense) for the
// peers in Python to read the same data; returns the path.
std::string dump_input(const std::string& dir, const std::string& kind, const HostImage& input);

}  // namespace bench
