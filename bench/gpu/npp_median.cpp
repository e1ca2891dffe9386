#include "npp_median.hpp"

#include <nppi_filtering_functions.h>

namespace bench {

NppMedian::NppMedian(fastmedian::PixelType type, int width, int height, int k,
                     cudaStream_t stream)
    : type_(type), width_(width), height_(height), k_(k) {
    auto* ctx = new NppStreamContext{};
    context_ = ctx;
    // Filled by hand: nppGetStreamContext is deprecated in recent toolkits.
    int device = 0;
    cudaGetDevice(&device);
    ctx->hStream = stream;
    ctx->nCudaDeviceId = device;
    cudaDeviceGetAttribute(&ctx->nMultiProcessorCount, cudaDevAttrMultiProcessorCount, device);
    cudaDeviceGetAttribute(&ctx->nMaxThreadsPerMultiProcessor,
                           cudaDevAttrMaxThreadsPerMultiProcessor, device);
    cudaDeviceGetAttribute(&ctx->nMaxThreadsPerBlock, cudaDevAttrMaxThreadsPerBlock, device);
    int shared = 0;
    cudaDeviceGetAttribute(&shared, cudaDevAttrMaxSharedMemoryPerBlock, device);
    ctx->nSharedMemPerBlock = static_cast<size_t>(shared);
    cudaDeviceGetAttribute(&ctx->nCudaDevAttrComputeCapabilityMajor,
                           cudaDevAttrComputeCapabilityMajor, device);
    cudaDeviceGetAttribute(&ctx->nCudaDevAttrComputeCapabilityMinor,
                           cudaDevAttrComputeCapabilityMinor, device);
    unsigned flags = 0;
    cudaStreamGetFlags(stream, &flags);
    ctx->nStreamFlags = flags;
    const NppiSize roi{width - k + 1, height - k + 1}, mask{k, k};
    Npp32u bytes = 0;
    NppStatus s = NPP_ERROR;
    switch (type) {
        case fastmedian::PixelType::u8:
            s = nppiFilterMedianGetBufferSize_8u_C1R_Ctx(roi, mask, &bytes, *ctx);
            break;
        case fastmedian::PixelType::u16:
            s = nppiFilterMedianGetBufferSize_16u_C1R_Ctx(roi, mask, &bytes, *ctx);
            break;
        case fastmedian::PixelType::f32:
            s = nppiFilterMedianGetBufferSize_32f_C1R_Ctx(roi, mask, &bytes, *ctx);
            break;
    }
    ok_ = s == NPP_SUCCESS && cudaMalloc(&buffer_, bytes > 0 ? bytes : 1) == cudaSuccess;
}

NppMedian::~NppMedian() {
    cudaFree(buffer_);
    delete static_cast<NppStreamContext*>(context_);
}

std::int64_t NppMedian::output_pixels() const {
    return static_cast<std::int64_t>(width_ - k_ + 1) * (height_ - k_ + 1);
}

bool NppMedian::run(const void* src, std::int64_t src_pitch, void* dst, std::int64_t dst_pitch) {
    if (!ok_) return false;
    const auto& ctx = *static_cast<NppStreamContext*>(context_);
    const int r = k_ / 2;
    const NppiSize roi{width_ - k_ + 1, height_ - k_ + 1}, mask{k_, k_};
    const NppiPoint anchor{r, r};
    const auto px = static_cast<std::int64_t>(fastmedian::pixel_size(type_));
    // The output pixel (0, 0) of the ROI is the image pixel (r, r).
    const auto* s = static_cast<const char*>(src) + r * src_pitch + r * px;
    auto* d = static_cast<char*>(dst) + r * dst_pitch + r * px;
    auto* buf = static_cast<Npp8u*>(buffer_);
    const auto sp = static_cast<Npp32s>(src_pitch), dp = static_cast<Npp32s>(dst_pitch);
    NppStatus st = NPP_ERROR;
    switch (type_) {
        case fastmedian::PixelType::u8:
            st = nppiFilterMedian_8u_C1R_Ctx(reinterpret_cast<const Npp8u*>(s), sp,
                                             reinterpret_cast<Npp8u*>(d), dp, roi, mask, anchor,
                                             buf, ctx);
            break;
        case fastmedian::PixelType::u16:
            st = nppiFilterMedian_16u_C1R_Ctx(reinterpret_cast<const Npp16u*>(s), sp,
                                              reinterpret_cast<Npp16u*>(d), dp, roi, mask,
                                              anchor, buf, ctx);
            break;
        case fastmedian::PixelType::f32:
            st = nppiFilterMedian_32f_C1R_Ctx(reinterpret_cast<const Npp32f*>(s), sp,
                                              reinterpret_cast<Npp32f*>(d), dp, roi, mask,
                                              anchor, buf, ctx);
            break;
    }
    return st == NPP_SUCCESS;
}

}  // namespace bench
