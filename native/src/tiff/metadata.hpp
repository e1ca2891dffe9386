// The Metadata of tiff_io.hpp from and to libtiff's tags.
#pragma once

#include <string>

#include <tiffio.h>

#include "tiff_io.hpp"

namespace fastmedian::tiff {

// What the current page (page 1) says besides its pixels. ImageJ's private tags are kept only
// when they are as ImageJ writes them (counts that add up to the data's length).
Metadata read_metadata(TIFF* tif);

// Sets ImageJ's private tags of `m` on the page being written, if it has them; false when
// libtiff refuses them.
bool set_imagej_tags(TIFF* tif, const Metadata& m);

// `description` for pixels of `written`: OME-XML's Pixels element says their type (and its
// SignificantBits), so those two attributes are rewritten; any other text is kept unchanged.
std::string description_for(const std::string& description, PixelType written);

}  // namespace fastmedian::tiff
