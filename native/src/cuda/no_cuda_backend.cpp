// The CUDA backend's entry points in a build without CUDA: the dispatcher calls them only when
// choose_backend picked CUDA, which it never does here (no devices), so each refuses as a
// request for backend cuda would. Keeps the dispatcher free of #ifdefs.
#include <string>

#include "cuda/convolve_cuda.hpp"
#include "cuda/cuda_backend.hpp"
#include "fastmedian/devices.hpp"
#include "fastmedian/errors.hpp"

namespace fastmedian::detail {

namespace {

[[noreturn]] void no_cuda() {
    throw Error(ErrorCode::backend_unavailable,
                "backend cuda is not available: " + cuda_unavailable_reason());
}

}  // namespace

void median2d_cuda(const ConstImageView&, const ImageView&, const Footprint&, Border, double,
                   const std::vector<int>&, void*, const Origin&) {
    no_cuda();
}

void median3d_cuda(const ConstImageView&, const ImageView&, const Footprint3D&, Border, double,
                   int, void*, const Origin&) {
    no_cuda();
}

void temporal_median_cuda(const ConstImageView&, const ImageView&, int, const kernels::OutputMode&,
                          int, void*) {
    no_cuda();
}

struct TemporalStreamCuda::State {};

TemporalStreamCuda::TemporalStreamCuda(PixelType, std::int64_t, std::int64_t, int,
                                       const kernels::OutputMode&, int) {
    no_cuda();
}
TemporalStreamCuda::~TemporalStreamCuda() = default;
void TemporalStreamCuda::start(const ConstImageView&, std::int64_t) { no_cuda(); }
void TemporalStreamCuda::finish(const ImageView&) { no_cuda(); }

void background_cuda(const ConstImageView&, const ImageView&, const Footprint&, bool, Border,
                     double, const kernels::OutputMode&, const std::vector<int>&, void*) {
    no_cuda();
}

void convolve_cuda(const ConstImageView&, const ImageView&, const ConvolvePlan&, Border,
                   const std::vector<int>&, void*) {
    no_cuda();
}

}  // namespace fastmedian::detail
