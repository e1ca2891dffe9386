#include "median3d_select.cuh"

#include <cstdint>

#include "semantics/border_index.hpp"
#include "semantics/order_key.hpp"

namespace fastmedian::kernels {

namespace {

constexpr int kBlockW = 32, kBlockH = 8;

template <class T>
__global__ void __launch_bounds__(kBlockW * kBlockH)
median3d_select(const __grid_constant__ VolumeArgs a, const __grid_constant__ Runs3DWindow w) {
    const int x = blockIdx.x * kBlockW + threadIdx.x, y = blockIdx.y * kBlockH + threadIdx.y;
    const int z = a.first_plane + blockIdx.z;
    if (x >= a.width || y >= a.height) return;
    const char* src = static_cast<const char*>(a.src);
    const int rows = 2 * w.radius_y + 1;
    // Interior voxels read their window directly; the others resolve the border per read.
    const bool inside = x - w.radius_x >= 0 && x + w.radius_x < a.width && y - w.radius_y >= 0 &&
                        y + w.radius_y < a.height && z - w.radius_z >= 0 && z + w.radius_z < a.depth;
    // Invariant: the median's key lies in [lo, lo + span); each pass splits it in 4. The key
    // ranges (2^8, 2^16, 2^32) are powers of 4, so thresholds never pass lo + span.
    std::uint32_t lo = 0;
    std::uint64_t span = std::uint64_t{OrderKey<T>::kMaxKey} + 1;
    while (span > 1) {
        const std::uint64_t q = span / 4;
        const std::uint32_t t1 = lo + static_cast<std::uint32_t>(q);
        const std::uint32_t t2 = lo + static_cast<std::uint32_t>(2 * q);
        const std::uint32_t t3 = lo + static_cast<std::uint32_t>(3 * q);
        int below1 = 0, below2 = 0, below3 = 0;  // keys < t1, < t2, < t3
        auto count = [&](std::uint32_t k) {
            below1 += k < t1;
            below2 += k < t2;
            below3 += k < t3;
        };
        for (int dz = -w.radius_z; dz <= w.radius_z; ++dz) {
            const std::int64_t sz = inside ? z + dz : border_index(z + dz, a.depth, a.border);
            for (int dy = -w.radius_y; dy <= w.radius_y; ++dy) {
                const int h = w.half_width[(dz + w.radius_z) * rows + dy + w.radius_y];
                if (h < 0) continue;
                const std::int64_t sy = inside ? y + dy : border_index(y + dy, a.height, a.border);
                if (sz < 0 || sy < 0) {
                    for (int dx = -h; dx <= h; ++dx) count(a.outside_key);
                    continue;
                }
                const T* row = reinterpret_cast<const T*>(src + sz * a.src_plane_stride +
                                                          sy * a.src_pitch);
                if (inside) {
                    for (int dx = -h; dx <= h; ++dx) count(OrderKey<T>::to_key(__ldg(row + x + dx)));
                } else {
                    for (int dx = -h; dx <= h; ++dx) {
                        const std::int64_t sx = border_index(x + dx, a.width, a.border);
                        count(sx < 0 ? a.outside_key : OrderKey<T>::to_key(__ldg(row + sx)));
                    }
                }
            }
        }
        lo = w.rank < below1 ? lo : w.rank < below2 ? t1 : w.rank < below3 ? t2 : t3;
        span = q;
    }
    T* out = reinterpret_cast<T*>(static_cast<char*>(a.dst) + z * a.dst_plane_stride +
                                  static_cast<std::int64_t>(y) * a.dst_pitch);
    out[x] = OrderKey<T>::from_key(lo);
}

template <class T>
cudaError_t launch(const VolumeArgs& a, int planes, const Runs3DWindow& w, cudaStream_t stream) {
    const dim3 grid((a.width + kBlockW - 1) / kBlockW, (a.height + kBlockH - 1) / kBlockH, planes);
    if (grid.y > 65535 || grid.z > 65535) return cudaErrorInvalidConfiguration;
    median3d_select<T><<<grid, dim3(kBlockW, kBlockH), 0, stream>>>(a, w);
    return cudaGetLastError();
}

}  // namespace

cudaError_t launch_median3d_select(PixelType type, const VolumeArgs& a, int planes,
                                   const Runs3DWindow& w, cudaStream_t stream) {
    switch (type) {
        case PixelType::u8: return launch<std::uint8_t>(a, planes, w, stream);
        case PixelType::u16: return launch<std::uint16_t>(a, planes, w, stream);
        case PixelType::f32: return launch<float>(a, planes, w, stream);
    }
    return cudaErrorInvalidValue;
}

}  // namespace fastmedian::kernels
