// Host side of the CUDA median: copy each plane to the device, run the kernel, copy it back.
// Buffers are allocated per call here; the transfer pipeline (pinned staging, streams, reuse)
// is later work.
#include <cuda_runtime_api.h>

#include <string>
#include <utility>

#include "core/constant_value.hpp"
#include "cuda/cuda_backend.hpp"
#include "fastmedian/errors.hpp"
#include "median_bisect.cuh"
#include "order_key.cuh"

namespace fastmedian::detail {

namespace {

void check(cudaError_t e, const char* what) {
    if (e == cudaSuccess) return;
    cudaGetLastError();  // clear a non-sticky error so the next call starts clean
    throw Error(ErrorCode::device_error,
                std::string("CUDA ") + what + " failed: " + cudaGetErrorString(e));
}

class DeviceBuffer {
public:
    explicit DeviceBuffer(std::size_t bytes) { check(cudaMalloc(&ptr_, bytes), "cudaMalloc"); }
    DeviceBuffer(std::size_t width_bytes, std::size_t height) {
        check(cudaMallocPitch(&ptr_, &pitch_, width_bytes, height), "cudaMallocPitch");
    }
    ~DeviceBuffer() { cudaFree(ptr_); }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    void* get() const { return ptr_; }
    std::size_t pitch() const { return pitch_; }

private:
    void* ptr_ = nullptr;
    std::size_t pitch_ = 0;
};

template <class T>
std::uint32_t outside_key(double cval) {
    return kernels::OrderKey<T>::to_key(constant_value<T>(cval));
}

}  // namespace

void median2d_cuda(const ConstImageView& src, const ImageView& dst, const Footprint& fp,
                   Border border, double cval, int device) {
    check(cudaSetDevice(device), "cudaSetDevice");
    const std::size_t row_bytes = static_cast<std::size_t>(src.width) * pixel_size(src.type);
    const auto height = static_cast<std::size_t>(src.height);
    DeviceBuffer d_src(row_bytes, height), d_dst(row_bytes, height);
    DeviceBuffer d_half_width(fp.half_width.size() * sizeof(int));
    check(cudaMemcpy(d_half_width.get(), fp.half_width.data(), fp.half_width.size() * sizeof(int),
                     cudaMemcpyHostToDevice),
          "cudaMemcpy (window)");

    kernels::MedianBisectArgs args{};
    args.src = d_src.get();
    args.src_pitch = static_cast<std::int64_t>(d_src.pitch());
    args.dst = d_dst.get();
    args.dst_pitch = static_cast<std::int64_t>(d_dst.pitch());
    args.width = static_cast<int>(src.width);
    args.height = static_cast<int>(src.height);
    args.half_width = static_cast<const int*>(d_half_width.get());
    args.radius_y = fp.radius_y;
    args.border = static_cast<int>(border);
    args.rank = static_cast<int>(fp.rank());

    cudaError_t (*launch)(const kernels::MedianBisectArgs&, cudaStream_t) = nullptr;
    switch (src.type) {
        case PixelType::u8:
            launch = kernels::launch_median_bisect_u8;
            args.outside_key = outside_key<std::uint8_t>(cval);
            break;
        case PixelType::u16:
            launch = kernels::launch_median_bisect_u16;
            args.outside_key = outside_key<std::uint16_t>(cval);
            break;
        case PixelType::f32:
            launch = kernels::launch_median_bisect_f32;
            args.outside_key = outside_key<float>(cval);
            break;
    }

    for (std::int64_t z = 0; z < src.planes; ++z) {
        check(cudaMemcpy2D(d_src.get(), d_src.pitch(), src.plane(z),
                           static_cast<std::size_t>(src.row_stride), row_bytes, height,
                           cudaMemcpyHostToDevice),
              "cudaMemcpy2D (upload)");
        check(launch(args, nullptr), "kernel launch (median_bisect)");
        check(cudaMemcpy2D(dst.plane(z), static_cast<std::size_t>(dst.row_stride), d_dst.get(),
                           d_dst.pitch(), row_bytes, height, cudaMemcpyDeviceToHost),
              "cudaMemcpy2D (download)");
    }
}

}  // namespace fastmedian::detail
