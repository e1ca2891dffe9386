// One median run from file to file, shared by `median` and `demo`.
#pragma once

#include <cstdint>
#include <string>

#include "fastmedian/fastmedian.hpp"

namespace fastmedian::cli {

struct FilterResult {
    PixelType type = PixelType::u8;
    std::int64_t width = 0, height = 0, planes = 0;
    RunInfo run;
    double filter_ms = 0.0;   // median2d alone, without reading and writing
    double startup_ms = 0.0;  // creating the CUDA context, for runs on a GPU
};

// Reads `in`, filters every plane and writes `out`. Refuses (UsageError) when `out` is the
// same file as `in`; never leaves a partial `out`.
FilterResult filter_file(const std::string& in, const std::string& out, const MedianOptions& o);

// "median 5x5 replicate on cpu (CPU): 462x366x1 u8 in 3.1 ms -> out.tif"; runs on a GPU add
// " (+ 215.0 ms CUDA start-up)" before the arrow.
std::string summary(const MedianOptions& o, const FilterResult& r, const std::string& out);

}  // namespace fastmedian::cli
