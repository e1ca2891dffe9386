// Host side of the CUDA convolution. Views in device memory are filtered in place on the
// caller's stream; host views go through the plane pipeline (plane_pipeline.hpp).
#include "cuda/convolve_cuda.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <vector>

#include "convolve_args.cuh"
#include "cuda/cuda_util.hpp"
#include "cuda/plane_pipeline.hpp"

namespace fastmedian::detail {

namespace {

constexpr std::int64_t kMaxPlanesPerLaunch = 65535;  // grid.z

cudaError_t launch(const kernels::ConvolveArgs& a, const ConvolvePlan& plan, PixelType type,
                   cudaStream_t stream) {
    const int t = static_cast<int>(type);
    if (plan.separable)
        return kernels::launch_convolve_separable(a, plan.row.data(), plan.kw, plan.column.data(),
                                                  plan.kh, t, stream);
    return kernels::launch_convolve_generic(a, plan.weights.data(), plan.kw, plan.kh, t, stream);
}

kernels::ConvolveArgs convolve_args(const ConstImageView& src, const ImageView& dst,
                                    const ConvolvePlan& plan, Border border) {
    kernels::ConvolveArgs a{};
    a.width = static_cast<int>(src.width);
    a.height = static_cast<int>(src.height);
    a.border = static_cast<int>(border);
    a.outside = plan.outside;
    a.float_out = dst.type == PixelType::f32 ? 1 : 0;
    return a;
}

void device_views(const ConstImageView& src, const ImageView& dst, const ConvolvePlan& plan,
                  Border border, int device, cudaStream_t stream) {
    check_device_pointer(src.data, device, "src.data");
    check_device_pointer(dst.data, device, "dst.data");
    kernels::ConvolveArgs a = convolve_args(src, dst, plan, border);
    a.src_pitch = src.row_stride;
    a.src_plane_stride = src.plane_stride;
    a.dst_pitch = dst.row_stride;
    a.dst_plane_stride = dst.plane_stride;
    for (std::int64_t z = 0; z < src.planes; z += kMaxPlanesPerLaunch) {
        a.src = src.plane(z);
        a.dst = dst.plane(z);
        a.planes = static_cast<int>(std::min(kMaxPlanesPerLaunch, src.planes - z));
        check_launch(launch(a, plan, src.type, stream), "kernel launch (convolve)");
    }
}

void host_views(const ConstImageView& src, const ImageView& dst, const ConvolvePlan& plan,
                Border border, const std::vector<int>& devices) {
    kernels::ConvolveArgs a = convolve_args(src, dst, plan, border);
    a.planes = 1;
    filter_host_planes(src, dst, devices, {plan.kh / 2, border, 0}, [&](const DevicePlane& p) {
        kernels::ConvolveArgs plane = a;
        plane.height = static_cast<int>(p.rows);
        plane.src = p.src;
        plane.src_pitch = p.src_pitch;
        plane.src_plane_stride = p.src_pitch * p.rows;
        plane.dst = p.dst;
        plane.dst_pitch = p.dst_pitch;
        plane.dst_plane_stride = p.dst_pitch * p.rows;
        check_launch(launch(plane, plan, src.type, p.stream), "kernel launch (convolve)");
    });
}

}  // namespace

void convolve_cuda(const ConstImageView& src, const ImageView& dst, const ConvolvePlan& plan,
                   Border border, const std::vector<int>& devices, void* cuda_stream) {
    const int device = devices.front();
    check(cudaSetDevice(device), "cudaSetDevice");
    if (src.memory == Memory::cuda) {
        const auto stream = static_cast<cudaStream_t>(cuda_stream);
        device_views(src, dst, plan, border, device, stream != nullptr ? stream : cudaStreamPerThread);
        if (stream == nullptr) check(cudaStreamSynchronize(cudaStreamPerThread), "convolution on the GPU");
    } else {
        host_views(src, dst, plan, border, devices);
    }
}

}  // namespace fastmedian::detail
