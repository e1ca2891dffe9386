// Host side of the CUDA convolution. Views in device memory are filtered in place on the
// caller's stream; host views go through one pitched device plane at a time, as the median's do.
#include "cuda/convolve_cuda.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>

#include "convolve_args.cuh"
#include "cuda/cuda_util.hpp"

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
                Border border, cudaStream_t stream) {
    const std::size_t in_bytes = static_cast<std::size_t>(src.width) * pixel_size(src.type);
    const std::size_t out_bytes = static_cast<std::size_t>(src.width) * pixel_size(dst.type);
    const auto height = static_cast<std::size_t>(src.height);
    DeviceBuffer d_src(in_bytes, height), d_dst(out_bytes, height);
    kernels::ConvolveArgs a = convolve_args(src, dst, plan, border);
    a.src = d_src.get();
    a.src_pitch = d_src.pitch();
    a.src_plane_stride = d_src.pitch() * src.height;
    a.dst = d_dst.get();
    a.dst_pitch = d_dst.pitch();
    a.dst_plane_stride = d_dst.pitch() * src.height;
    a.planes = 1;
    for (std::int64_t z = 0; z < src.planes; ++z) {
        check(cudaMemcpy2DAsync(d_src.get(), d_src.pitch(), src.plane(z),
                                static_cast<std::size_t>(src.row_stride), in_bytes, height,
                                cudaMemcpyHostToDevice, stream),
              "cudaMemcpy2DAsync (upload)");
        check_launch(launch(a, plan, src.type, stream), "kernel launch (convolve)");
        check(cudaMemcpy2DAsync(dst.plane(z), static_cast<std::size_t>(dst.row_stride),
                                d_dst.get(), d_dst.pitch(), out_bytes, height,
                                cudaMemcpyDeviceToHost, stream),
              "cudaMemcpy2DAsync (download)");
    }
    check(cudaStreamSynchronize(stream), "convolution on the GPU");
}

}  // namespace

void convolve_cuda(const ConstImageView& src, const ImageView& dst, const ConvolvePlan& plan,
                   Border border, int device, void* cuda_stream) {
    check(cudaSetDevice(device), "cudaSetDevice");
    if (src.memory == Memory::cuda) {
        const auto stream = static_cast<cudaStream_t>(cuda_stream);
        device_views(src, dst, plan, border, device, stream != nullptr ? stream : cudaStreamPerThread);
        if (stream == nullptr) check(cudaStreamSynchronize(cudaStreamPerThread), "convolution on the GPU");
    } else {
        host_views(src, dst, plan, border, cudaStreamPerThread);
    }
}

}  // namespace fastmedian::detail
