// Argument checks shared by every entry point: each failure throws Error(invalid_argument)
// with a message that names the parameter.
#pragma once

#include "fastmedian/image.hpp"
#include "fastmedian/options.hpp"

namespace fastmedian::detail {

// `name` prefixes messages ("src.width must be at least 1, got 0").
void validate_view(const ConstImageView& view, const char* name);
void validate_window(const Window& window);
void validate_median(const ConstImageView& src, const ImageView& dst, const MedianOptions& options);

}  // namespace fastmedian::detail
