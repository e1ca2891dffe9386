// Generic 2D convolution: input tile in shared memory as float, PX x PY outputs per thread,
// the mask as a kernel parameter (convolve_args.cuh). Squares 3..9 go to convolve_small.cu.
#include <algorithm>
#include <cstring>

#include "convolve_args.cuh"
#include "convolve_tile.cuh"
#include "shared_memory.cuh"

namespace fastmedian::kernels {

namespace {

constexpr int kMaxMaskRows = 63;

// Rows of KB weights (zero past kw), up to 63 rows.
template <int KB>
struct GenericMask {
    int kw, kh;
    float w[KB * kMaxMaskRows];
};

// Outputs per thread along x (PX, a multiple of 4) and along y (PY) for each bucket.
// kNarrow: 4 outputs along x whatever KB, for GPUs whose blocks cannot hold the wide tile
// (63-column masks on Turing's 64 KB).
template <int KB, bool kNarrow = false> struct GenericShape {
    static constexpr int PX = KB <= 15 || kNarrow ? 4 : 8;
    static constexpr int PY = KB <= 15 ? 2 : 1;
};

// The tile's row length in floats: the input columns, rounded up to whole 16-byte pieces,
// plus one piece, so every 16-byte read of a thread's window stays inside its row.
__host__ __device__ constexpr int tile_pitch(int tile_width, int kw) {
    return (tile_width + kw - 1 + 3) / 4 * 4 + 4;
}

__host__ __device__ constexpr std::size_t generic_shared_bytes(int tw, int th, int kw, int kh) {
    return std::size_t(th + kh - 1) * tile_pitch(tw, kw) * sizeof(float) +
           std::size_t(th + kh - 1) * sizeof(long long) + std::size_t(tw + kw - 1) * sizeof(int);
}

// One mask row m: every output of this thread takes the row's kw taps, left to right.
template <int KB, int PX, int PY, class Mask>
__device__ __forceinline__ void mask_row(const Mask& mask, int m, int kw, const float* tile,
                                         int pitch, float (&acc)[PY][PX]) {
    constexpr int kChunks = (PX + KB - 1 + 3) / 4;
#pragma unroll
    for (int q = 0; q < PY; ++q) {
        const float* row = tile + (threadIdx.y * PY + q + m) * pitch + threadIdx.x * PX;
        float win[kChunks * 4];
#pragma unroll
        for (int c = 0; c < kChunks; ++c) {
            float4 v = make_float4(0.f, 0.f, 0.f, 0.f);
            if (4 * c < PX + kw - 1) v = *reinterpret_cast<const float4*>(row + 4 * c);
            win[4 * c] = v.x;
            win[4 * c + 1] = v.y;
            win[4 * c + 2] = v.z;
            win[4 * c + 3] = v.w;
        }
#pragma unroll
        for (int n = 0; n < KB; ++n) {
            if (n < kw) {
                const float w = mask.w[m * KB + n];
#pragma unroll
                for (int p = 0; p < PX; ++p) acc[q][p] = fmaf(w, win[p + n], acc[q][p]);
            }
        }
    }
}

// Blocks of 32 x 8 threads (kConvolveThreads). No __launch_bounds__: with it ptxas spills.
template <class T, int KB, bool kNarrow>
__global__ void convolve_generic(const __grid_constant__ ConvolveArgs a,
                                 const __grid_constant__ GenericMask<KB> mask, int tiles_x) {
    constexpr int PX = GenericShape<KB, kNarrow>::PX, PY = GenericShape<KB, kNarrow>::PY;
    constexpr int TW = 32 * PX, TH = 8 * PY;
    extern __shared__ float4 shared_words[];
    const int kw = mask.kw, kh = mask.kh;
    const int rows = TH + kh - 1, cols = TW + kw - 1, pitch = tile_pitch(TW, kw);
    float* tile = reinterpret_cast<float*>(shared_words);
    long long* row_offset = reinterpret_cast<long long*>(tile + rows * pitch);
    int* column = reinterpret_cast<int*>(row_offset + rows);

    const int x0 = (blockIdx.x % tiles_x) * TW, y0 = (blockIdx.x / tiles_x) * TH;
    const int tid = threadIdx.y * 32 + threadIdx.x;
    const char* plane = static_cast<const char*>(a.src) + blockIdx.z * a.src_plane_stride;
    for (int r = tid; r < rows; r += kConvolveThreads)
        row_offset[r] = convolve_row_offset(a, y0 - kh / 2 + r);
    for (int c = tid; c < cols; c += kConvolveThreads) column[c] = convolve_column(a, x0 - kw / 2 + c);
    __syncthreads();
    for (int r = threadIdx.y; r < rows; r += 8) {
        const long long ro = row_offset[r];
        for (int c = threadIdx.x; c < cols; c += 32)
            tile[r * pitch + c] = convolve_read<T>(a, plane, ro, column[c]);
    }
    __syncthreads();

    float acc[PY][PX];
#pragma unroll
    for (int q = 0; q < PY; ++q)
#pragma unroll
        for (int p = 0; p < PX; ++p) acc[q][p] = 0.0f;
#pragma unroll 1
    for (int m = 0; m < kh; ++m) mask_row<KB, PX, PY>(mask, m, kw, tile, pitch, acc);

#pragma unroll
    for (int q = 0; q < PY; ++q) {
        const int y = y0 + threadIdx.y * PY + q;
#pragma unroll
        for (int g = 0; g < PX / 4; ++g) {
            const float v[4] = {acc[q][4 * g], acc[q][4 * g + 1], acc[q][4 * g + 2], acc[q][4 * g + 3]};
            convolve_store4<T>(a, blockIdx.z, y, x0 + threadIdx.x * PX + 4 * g, v);
        }
    }
}

template <class T, int KB, bool kNarrow>
cudaError_t launch(const ConvolveArgs& a, const float* weights, int kw, int kh,
                   cudaStream_t stream) {
    constexpr int PX = GenericShape<KB, kNarrow>::PX, PY = GenericShape<KB, kNarrow>::PY;
    constexpr int TW = 32 * PX, TH = 8 * PY;
    GenericMask<KB> mask;
    std::memset(&mask, 0, sizeof mask);
    mask.kw = kw;
    mask.kh = kh;
    for (int m = 0; m < kh; ++m)
        for (int n = 0; n < kw; ++n) mask.w[m * KB + n] = weights[m * kw + n];
    const std::size_t shared = generic_shared_bytes(TW, TH, kw, kh);
    auto kernel = convolve_generic<T, KB, kNarrow>;
    const cudaError_t e = opt_in_shared(kernel, shared);
    if (e != cudaSuccess) return e;
    const int tiles_x = (a.width + TW - 1) / TW, tiles_y = (a.height + TH - 1) / TH;
    const dim3 grid(static_cast<unsigned>(tiles_x) * static_cast<unsigned>(tiles_y), 1,
                    static_cast<unsigned>(a.planes));
    kernel<<<grid, dim3(32, 8), shared, stream>>>(a, mask, tiles_x);
    return cudaGetLastError();
}

// Masks of 32 to 63 columns take the wide tile where its block fits the GPU, else the narrow.
template <class T>
cudaError_t launch_type(const ConvolveArgs& a, const float* w, int kw, int kh, cudaStream_t s) {
    if (kw <= 15) return launch<T, 15, false>(a, w, kw, kh, s);
    if (kw <= 31) return launch<T, 31, false>(a, w, kw, kh, s);
    constexpr int TW = 32 * GenericShape<63>::PX, TH = 8 * GenericShape<63>::PY;
    if (shared_fits(convolve_generic<T, 63, false>, generic_shared_bytes(TW, TH, kw, kh)))
        return launch<T, 63, false>(a, w, kw, kh, s);
    return launch<T, 63, true>(a, w, kw, kh, s);
}

}  // namespace

cudaError_t launch_convolve_generic(const ConvolveArgs& args, const float* weights, int kw,
                                    int kh, int pixel_type, cudaStream_t stream) {
    if (kw < 1 || kh < 1 || kw % 2 == 0 || kh % 2 == 0 || kw > kMaxMaskRows || kh > kMaxMaskRows)
        return cudaErrorInvalidValue;
    if (args.width < 1 || args.height < 1 || args.planes < 1) return cudaSuccess;
    if (kw == kh && kw >= 3 && kw <= 9) return launch_convolve_small(args, weights, kw, pixel_type, stream);
    switch (pixel_type) {
        case 0: return launch_type<std::uint8_t>(args, weights, kw, kh, stream);
        case 1: return launch_type<std::uint16_t>(args, weights, kw, kh, stream);
        default: return launch_type<float>(args, weights, kw, kh, stream);
    }
}

}  // namespace fastmedian::kernels
