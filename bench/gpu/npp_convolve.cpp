#include "npp_convolve.hpp"

#include <nppi_filtering_functions.h>

#include <algorithm>

namespace bench {

namespace {

// Filled by hand, as npp_median.cpp does: nppGetStreamContext is deprecated.
NppStreamContext* make_context(cudaStream_t stream) {
    auto* ctx = new NppStreamContext{};
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
    return ctx;
}

}  // namespace

NppConvolve::NppConvolve(fastmedian::PixelType type, int width, int height, bool separable,
                         const std::vector<float>& weights, int kw, int kh,
                         const std::vector<float>& row, const std::vector<float>& column,
                         cudaStream_t stream)
    : type_(type), width_(width), height_(height), kw_(kw), kh_(kh), separable_(separable) {
    context_ = make_context(stream);
    // NPP expects its coefficients "in reverse order": for true convolution, reversed.
    std::vector<float> host = separable ? row : weights;
    if (separable) host.insert(host.end(), column.begin(), column.end());
    if (separable) {
        std::reverse(host.begin(), host.begin() + kw);
        std::reverse(host.begin() + kw, host.end());
    } else {
        std::reverse(host.begin(), host.end());
    }
    ok_ = cudaMalloc(reinterpret_cast<void**>(&kernel_), host.size() * sizeof(float)) == cudaSuccess &&
          cudaMemcpy(kernel_, host.data(), host.size() * sizeof(float), cudaMemcpyHostToDevice) ==
              cudaSuccess;
    if (ok_ && separable)
        ok_ = cudaMallocPitch(&tmp_, &tmp_pitch_, static_cast<std::size_t>(width) * fastmedian::pixel_size(type),
                              static_cast<std::size_t>(height)) == cudaSuccess;
}

NppConvolve::~NppConvolve() {
    cudaFree(kernel_);
    cudaFree(tmp_);
    delete static_cast<NppStreamContext*>(context_);
}

std::int64_t NppConvolve::output_pixels() const {
    return static_cast<std::int64_t>(width_ - kw_ + 1) * (height_ - kh_ + 1);
}

bool NppConvolve::run(const void* src, std::int64_t src_pitch, void* dst, std::int64_t dst_pitch) {
    if (!ok_) return false;
    const auto& ctx = *static_cast<NppStreamContext*>(context_);
    const int rx = kw_ / 2, ry = kh_ / 2;
    const auto px = static_cast<std::int64_t>(fastmedian::pixel_size(type_));
    const auto sp = static_cast<Npp32s>(src_pitch), dp = static_cast<Npp32s>(dst_pitch);
    // Output pixel (0, 0) of the ROI is image pixel (rx, ry).
    const auto* s = static_cast<const char*>(src) + ry * src_pitch + rx * px;
    auto* d = static_cast<char*>(dst) + ry * dst_pitch + rx * px;
    const NppiSize roi{width_ - kw_ + 1, height_ - kh_ + 1};
    NppStatus st = NPP_ERROR;
    if (!separable_) {
        const NppiSize mask{kw_, kh_};
        const NppiPoint anchor{rx, ry};
        switch (type_) {
            case fastmedian::PixelType::u8:
                st = nppiFilter32f_8u_C1R_Ctx(reinterpret_cast<const Npp8u*>(s), sp, reinterpret_cast<Npp8u*>(d),
                                              dp, roi, kernel_, mask, anchor, ctx);
                break;
            case fastmedian::PixelType::u16:
                st = nppiFilter32f_16u_C1R_Ctx(reinterpret_cast<const Npp16u*>(s), sp,
                                               reinterpret_cast<Npp16u*>(d), dp, roi, kernel_, mask, anchor, ctx);
                break;
            case fastmedian::PixelType::f32:
                st = nppiFilter_32f_C1R_Ctx(reinterpret_cast<const Npp32f*>(s), sp, reinterpret_cast<Npp32f*>(d),
                                            dp, roi, kernel_, mask, anchor, ctx);
                break;
        }
        return st == NPP_SUCCESS;
    }
    // Row pass over every row of the interior columns, then the column pass over the interior.
    const NppiSize rows_roi{width_ - kw_ + 1, height_};
    const auto* rs = static_cast<const char*>(src) + rx * px;
    auto* t = static_cast<char*>(tmp_) + rx * px;
    const auto tp = static_cast<Npp32s>(tmp_pitch_);
    const auto* cs = t + ry * static_cast<std::int64_t>(tmp_pitch_);
    const float* rk = kernel_;
    const float* ck = kernel_ + kw_;
    switch (type_) {
        case fastmedian::PixelType::u8:
            st = nppiFilterRow32f_8u_C1R_Ctx(reinterpret_cast<const Npp8u*>(rs), sp, reinterpret_cast<Npp8u*>(t),
                                             tp, rows_roi, rk, kw_, rx, ctx);
            if (st == NPP_SUCCESS)
                st = nppiFilterColumn32f_8u_C1R_Ctx(reinterpret_cast<const Npp8u*>(cs), tp,
                                                    reinterpret_cast<Npp8u*>(d), dp, roi, ck, kh_, ry, ctx);
            break;
        case fastmedian::PixelType::u16:
            st = nppiFilterRow32f_16u_C1R_Ctx(reinterpret_cast<const Npp16u*>(rs), sp,
                                              reinterpret_cast<Npp16u*>(t), tp, rows_roi, rk, kw_, rx, ctx);
            if (st == NPP_SUCCESS)
                st = nppiFilterColumn32f_16u_C1R_Ctx(reinterpret_cast<const Npp16u*>(cs), tp,
                                                     reinterpret_cast<Npp16u*>(d), dp, roi, ck, kh_, ry, ctx);
            break;
        case fastmedian::PixelType::f32:
            st = nppiFilterRow_32f_C1R_Ctx(reinterpret_cast<const Npp32f*>(rs), sp, reinterpret_cast<Npp32f*>(t),
                                           tp, rows_roi, rk, kw_, rx, ctx);
            if (st == NPP_SUCCESS)
                st = nppiFilterColumn_32f_C1R_Ctx(reinterpret_cast<const Npp32f*>(cs), tp,
                                                  reinterpret_cast<Npp32f*>(d), dp, roi, ck, kh_, ry, ctx);
            break;
    }
    return st == NPP_SUCCESS;
}

}  // namespace bench
