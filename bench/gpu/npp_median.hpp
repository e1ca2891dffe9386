// NPP's median (nppiFilterMedian_*_C1R_Ctx) as a peer: valid interior output only, as NPP has
// no border modes.
#pragma once

#include <cstdint>

#include <cuda_runtime_api.h>

#include "fastmedian/image.hpp"

namespace bench {

class NppMedian {
public:
    // For images of width x height and a k x k mask; allocates NPP's scratch buffer.
    NppMedian(fastmedian::PixelType type, int width, int height, int k, cudaStream_t stream);
    ~NppMedian();
    NppMedian(const NppMedian&) = delete;
    NppMedian& operator=(const NppMedian&) = delete;

    // Filters the interior (width - k + 1) x (height - k + 1) pixels; false if NPP refused.
    bool run(const void* src, std::int64_t src_pitch, void* dst, std::int64_t dst_pitch);
    std::int64_t output_pixels() const;

private:
    fastmedian::PixelType type_;
    int width_, height_, k_;
    void* buffer_ = nullptr;
    void* context_ = nullptr;  // NppStreamContext, kept opaque here
    bool ok_ = false;
};

}  // namespace bench
