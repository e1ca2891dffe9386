// The 3D hierarchical-tiling median kernel (see median3d_tiled.cuh), templated on a generated
// network; instantiated once per window by the generated sources in generated/median3d_tiled/.
#pragma once

#include <cstdint>

#include <cuda_runtime_api.h>

#include "fastmedian/image.hpp"
#include "median3d_args.cuh"
#include "median_lanes.cuh"
#include "median_tiled_kernel.cuh"
#include "semantics/border_index.hpp"

namespace fastmedian::kernels::tiled3d {

// kWarps: warps of a block, stacked vertically (the generator's choice: 8, or fewer where a
// large window's staged inputs would not fit 48 KB of static shared memory).
template <class Net, int kWarps, class L>
dim3 grid_for(const VolumeArgs& a) {
    constexpr int kBlockW = 32 * Net::kTileW * L::kCols, kBlockH = kWarps * Net::kTileH;
    return dim3((a.width + kBlockW - 1) / kBlockW, (a.height + kBlockH - 1) / kBlockH,
                (a.depth + Net::kTileD - 1) / Net::kTileD);
}

template <class Net, int kWarps, class T, class L>
__global__ void __launch_bounds__(32 * kWarps)
median3d_tiled(const __grid_constant__ VolumeArgs a) {
    constexpr int TW = Net::kTileW, TH = Net::kTileH, TD = Net::kTileD;
    constexpr int RX = Net::kRadiusX, RY = Net::kRadiusY, RZ = Net::kRadiusZ;
    constexpr int kHalfW = 32 * TW;  // output columns of a warp (of one packed half)
    constexpr int kInCols = kHalfW + 2 * RX, kInRows = kWarps * TH + 2 * RY, kInPlanes = TD + 2 * RZ;
    // Words of a phase row: padded so that a warp's staging writes hit 32 banks, unless that
    // would not fit the 48 KB of static shared memory a block may have (the windows deepest in
    // z; the generator's warp count assumes the same): their staging writes then conflict (2 to
    // 4 ways, a small cost beside their networks), and the block keeps more warps.
    constexpr int kQPadded = tiled::phase_words(kInCols, TW), kQCompact = (kInCols + TW - 1) / TW;
    constexpr int kQ = 4 * kInPlanes * kInRows * TW * kQPadded <= 48 * 1024 ? kQPadded : kQCompact;
    constexpr int kColSteps = (kInCols + 31) / 32;
    // Staged column c of row r, plane p lives at tile[p][r][c % TW][c / TW]: lane l's reads of
    // column l * TW + c fall on consecutive words, so a warp's reads hit 32 banks.
    __shared__ std::uint32_t tile[kInPlanes][kInRows][TW][kQ];

    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int x0 = blockIdx.x * kHalfW * L::kCols, y0 = blockIdx.y * kWarps * TH;
    const int z0 = (a.first_plane + blockIdx.z) * TD;
    // Staging: warps take rows of the input box, lanes take columns (lane + 32 j); the border
    // is resolved once per column here, once per row and plane below.
    int sx[kColSteps][L::kCols];  // source column, -1 for the constant
#pragma unroll
    for (int j = 0; j < kColSteps; ++j)
#pragma unroll
        for (int h = 0; h < L::kCols; ++h)
            sx[j][h] = static_cast<int>(border_index(x0 - RX + lane + 32 * j + h * kHalfW, a.width, a.border));
    const char* src = static_cast<const char*>(a.src);
    using Key = tiled::TileKey<T>;
    const std::uint32_t outside = Key::from_order_key(a.outside_key);
    for (int i = warp; i < kInPlanes * kInRows; i += kWarps) {
        const int p = i / kInRows, r = i - p * kInRows;
        const std::int64_t sz = border_index(z0 - RZ + p, a.depth, a.border);
        const std::int64_t sy = border_index(y0 - RY + r, a.height, a.border);
        const T* row = reinterpret_cast<const T*>(src + (sz < 0 ? 0 : sz) * a.src_plane_stride +
                                                  (sy < 0 ? 0 : sy) * a.src_pitch);
        const bool outside_row = sz < 0 || sy < 0;
#pragma unroll
        for (int j = 0; j < kColSteps; ++j) {
            const int c = lane + 32 * j;
            if (kInCols % 32 != 0 && c >= kInCols) break;
            std::uint32_t word = 0;
#pragma unroll
            for (int h = 0; h < L::kCols; ++h)
                word |= (outside_row || sx[j][h] < 0 ? outside : Key::to_key(row[sx[j][h]]))
                        << (16 * h);
            tile[p][r][c % TW][c / TW] = word;
        }
    }
    __syncthreads();

    const int ox = x0 + lane * TW, oy = y0 + warp * TH;
    if (ox >= a.width || oy >= a.height) return;  // the packed half to the right is outside too
    auto in = [&](int c, int r, int p) { return tile[p][warp * TH + r][c % TW][lane + c / TW]; };
    std::uint32_t keys[TD][TH][TW];
    auto out = [&](int x, int y, int z, std::uint32_t k) { keys[z][y][x] = k; };
    Net::template run<L>(in, out);

#pragma unroll
    for (int z = 0; z < TD; ++z) {
        if (z0 + z >= a.depth) break;
        char* plane = static_cast<char*>(a.dst) + (z0 + z) * a.dst_plane_stride;
#pragma unroll
        for (int y = 0; y < TH; ++y) {
            if (oy + y >= a.height) break;
            T* row = reinterpret_cast<T*>(plane + static_cast<std::int64_t>(oy + y) * a.dst_pitch);
#pragma unroll
            for (int h = 0; h < L::kCols; ++h)
                tiled::store_run<T, L, Key>(row, ox + h * kHalfW, a.width, keys[z][y], h);
        }
    }
}

template <class Net, int kWarps, class T>
cudaError_t launch_typed(VolumeArgs a, cudaStream_t stream) {
    using L = typename tiled::TileKey<T>::Lanes;
    dim3 grid = grid_for<Net, kWarps, L>(a);
    if (grid.y > 65535) return cudaErrorInvalidConfiguration;
    constexpr unsigned kMaxGridZ = 65535;
    const unsigned groups = grid.z;
    for (unsigned g = 0; g < groups; g += kMaxGridZ) {
        a.first_plane = static_cast<int>(g);
        grid.z = groups - g < kMaxGridZ ? groups - g : kMaxGridZ;
        median3d_tiled<Net, kWarps, T, L><<<grid, 32 * kWarps, 0, stream>>>(a);
        const cudaError_t e = cudaGetLastError();
        if (e != cudaSuccess) return e;
    }
    return cudaSuccess;
}

// Packed serves u8 and u16 (u16x2 lanes), Scalar f32 (32-bit lanes), in blocks of their warps.
template <class Packed, int kPackedWarps, class Scalar, int kScalarWarps>
cudaError_t launch(PixelType type, const VolumeArgs& a, cudaStream_t stream) {
    switch (type) {
        case PixelType::u8: return launch_typed<Packed, kPackedWarps, std::uint8_t>(a, stream);
        case PixelType::u16: return launch_typed<Packed, kPackedWarps, std::uint16_t>(a, stream);
        case PixelType::f32: return launch_typed<Scalar, kScalarWarps, float>(a, stream);
    }
    return cudaErrorInvalidValue;
}

}  // namespace fastmedian::kernels::tiled3d
