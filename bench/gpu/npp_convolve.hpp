// NPP's convolutions as peers: nppiFilter (2D mask, float weights: nppiFilter32f_8u_C1R,
// nppiFilter32f_16u_C1R, nppiFilter_32f_C1R) and the separable pair nppiFilterRow +
// nppiFilterColumn (32f_8u / 32f_16u / _32f, their intermediate in the image's own type, as NPP
// has it). Valid interior output only, as NPP has no border modes; stream-ordered (_Ctx).
#pragma once

#include <cstdint>
#include <vector>

#include <cuda_runtime_api.h>

#include "fastmedian/image.hpp"

namespace bench {

class NppConvolve {
public:
    // A generic mask: kh rows of kw weights, or a separable one: row (kw) and column (kh)
    // weights; `separable` picks which. Uploads the weights (in NPP's reversed order) and, for
    // the separable pair, allocates the intermediate image.
    NppConvolve(fastmedian::PixelType type, int width, int height, bool separable,
                const std::vector<float>& weights, int kw, int kh,
                const std::vector<float>& row, const std::vector<float>& column,
                cudaStream_t stream);
    ~NppConvolve();
    NppConvolve(const NppConvolve&) = delete;
    NppConvolve& operator=(const NppConvolve&) = delete;

    // Filters the interior (width - kw + 1) x (height - kh + 1) pixels; false if NPP refused.
    bool run(const void* src, std::int64_t src_pitch, void* dst, std::int64_t dst_pitch);
    std::int64_t output_pixels() const;

private:
    fastmedian::PixelType type_;
    int width_, height_, kw_, kh_;
    bool separable_;
    float* kernel_ = nullptr;   // generic mask, or row then column weights
    void* tmp_ = nullptr;       // separable: the row pass's output
    std::size_t tmp_pitch_ = 0;
    void* context_ = nullptr;   // NppStreamContext, kept opaque here
    bool ok_ = false;
};

}  // namespace bench
