// A convolution mask from a text file in ImageJ's Convolve form: one row of the mask per line,
// the numbers separated by spaces or tabs, the top row first; blank lines are skipped.
#pragma once

#include <string>
#include <vector>

namespace fastmedian::cli {

struct MaskFile {
    std::vector<float> values;  // row after row
    int width = 0;
    int height = 0;
};

// Throws fastmedian::Error(io_error) when the file cannot be read, and UsageError (naming
// `option` and the file) when its text is not a mask of finite float values with the same
// count on every row and odd sides of at most `max_size`.
MaskFile read_mask_file(const std::string& path, const std::string& option, int max_size);

}  // namespace fastmedian::cli
