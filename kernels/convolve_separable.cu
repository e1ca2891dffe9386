// Separable convolution, both passes in one kernel: the column pass reads the input through
// L1 into a float intermediate in shared memory (TH rows of 128 + KB - 1 columns, and a few
// more), the row pass reads the intermediate and writes the output (convolve_args.cuh). The
// grid holds as many blocks as stay resident, each looping over tiles of 128 x TH outputs.
//
// Radius buckets (KB = 2 RB + 1 taps) unroll both passes with the masks zero-padded to KB, so
// no tap needs a test: a padded tap adds fma(0, v, sum) = sum exactly while v is finite (the
// sum is never -0: it starts at +0). The column pass therefore also reads the rows and columns
// the padded taps meet (real pixels, through the border mode) and notes whether any value it
// wrote is not finite. Every value read meets at least one tap, and a padded tap's 0 * NaN or
// 0 * Inf is NaN, so a non-finite input always shows in the intermediate: a float block that
// wrote one redoes the column pass with the taps limited to the mask (the "careful" pass), and
// a block whose intermediate is not finite runs the careful row pass; together they give the
// reference's bits for NaN and infinities.
// Every thread of a block runs the same number of items in each pass, so the passes run in
// uniform control flow, where the weights stay instruction operands. Longer masks (RB = 0)
// always take the careful, looping form.
#include <algorithm>
#include <cstring>

#include "convolve_args.cuh"
#include "convolve_tile.cuh"
#include "shared_memory.cuh"

namespace fastmedian::kernels {

namespace {

constexpr int kMaxLength = 1023;
constexpr int kTileWidth = 128;  // 32 threads x 4 outputs
constexpr int kColumnRun = 8;    // column-pass outputs per thread, down a column

// RB 0 and -1 loop over any mask length; -1 in tiles of half the rows, whose blocks fit the
// 64 KB of Turing's.
template <int RB> struct SeparableShape {
    static constexpr bool kLoop = RB <= 0;
    static constexpr int KB = kLoop ? kMaxLength : 2 * RB + 1;
    static constexpr int TH = RB == 0 ? 16 : RB < 0 ? 8 : 64;
    // Intermediate columns of the bucketed passes: the tile's outputs plus KB - 1 (the padded
    // taps read them all), rounded up to whole warps so that every thread has as many items.
    static constexpr int kColumns = kLoop ? 0 : (kTileWidth + KB - 1 + 31) / 32 * 32;
    static constexpr int kPitch = (kLoop ? kTileWidth + KB - 1 + 3 : kColumns) / 4 * 4 + 4;
};

// Each mask zero past its length (the launch zero-fills the whole struct).
template <int KB>
struct SeparableMask {
    int kw, kh;
    float row[KB];
    float column[KB];
};

// The intermediate, then the byte offsets of the input rows (TH + KB - 1 of them).
template <int RB>
constexpr std::size_t separable_shared_bytes() {
    using Shape = SeparableShape<RB>;
    return std::size_t(Shape::TH) * Shape::kPitch * sizeof(float) +
           std::size_t(Shape::TH + Shape::KB - 1) * sizeof(long long);
}

// Adds 0 * v: stays 0 while every v is finite, NaN from the first that is not.
__device__ __forceinline__ float note_finite(float v, float flag) { return fmaf(v, 0.0f, flag); }

template <class T>
__device__ __forceinline__ float read_direct(const char* p) {
    const T v = __ldg(reinterpret_cast<const T*>(p));
    if constexpr (sizeof(T) < 4) return small_to_float(v);
    else return v;
}

// Column pass of a bucketed kernel: t(c, s * 8 + q) for intermediate column c (x = xs + c),
// each output's input rows taken top to bottom (from row ys + s * 8). kPadded: every tap of
// the bucket, zero-padded; otherwise the taps stop at kh. kDirect: the block's reads all lie
// inside the image (addresses computed, no border mode). Notes non-finite results in bad_t.
template <class T, int RB, bool kPadded, bool kDirect>
__device__ __forceinline__ void column_pass(const ConvolveArgs& a,
                                            const SeparableMask<SeparableShape<RB>::KB>& mask,
                                            const char* plane, const long long* row_offset,
                                            float* t, int xs, int ys, float& bad_t) {
    using Shape = SeparableShape<RB>;
    constexpr int KB = Shape::KB, kColumns = Shape::kColumns, kPitch = Shape::kPitch;
    constexpr int kItems = kColumns * (Shape::TH / kColumnRun) / kConvolveThreads;
    const int kh = mask.kh;
    const int tid = threadIdx.y * 32 + threadIdx.x;
#pragma unroll 1
    for (int k = 0; k < kItems; ++k) {
        const int item = k * kConvolveThreads + tid;
        const int c = item % kColumns, s = item / kColumns;
        const long long* ro = row_offset + s * kColumnRun;
        int col = 0;
        const char* direct = nullptr;
        if constexpr (kDirect)
            direct = plane + static_cast<long long>(ys + s * kColumnRun) * a.src_pitch +
                     static_cast<long long>(xs + c) * static_cast<long long>(sizeof(T));
        else
            col = convolve_column(a, xs + c);
        float acc[kColumnRun];
#pragma unroll
        for (int q = 0; q < kColumnRun; ++q) acc[q] = 0.0f;
#pragma unroll
        for (int i = 0; i < kColumnRun + KB - 1; ++i) {
            float v;
            if constexpr (kDirect) v = read_direct<T>(direct + i * a.src_pitch);
            else v = convolve_read<T>(a, plane, ro[i], col);
#pragma unroll
            for (int q = 0; q < kColumnRun; ++q) {
                const int m = i - q;
                if (m >= 0 && m < KB && (kPadded || m < kh)) acc[q] = fmaf(mask.column[m], v, acc[q]);
            }
        }
#pragma unroll
        for (int q = 0; q < kColumnRun; ++q) {
            bad_t = note_finite(acc[q], bad_t);
            t[(s * kColumnRun + q) * kPitch + c] = acc[q];
        }
    }
}

// Column pass of the looping kernel (any kh up to kMaxLength): only the columns the row
// pass reads, the taps in a loop.
template <class T, int RB>
__device__ __forceinline__ void column_pass_loop(const ConvolveArgs& a,
                                                 const SeparableMask<kMaxLength>& mask,
                                                 const char* plane, const long long* row_offset,
                                                 float* t, int xs) {
    using Shape = SeparableShape<RB>;
    const int kw = mask.kw, kh = mask.kh;
    const int cols = kTileWidth + kw - 1;
    const int tid = threadIdx.y * 32 + threadIdx.x;
    for (int item = tid; item < cols * (Shape::TH / kColumnRun); item += kConvolveThreads) {
        const int c = item % cols, s = item / cols;
        const int col = convolve_column(a, xs + c);
        const long long* ro = row_offset + s * kColumnRun;
        float acc[kColumnRun];
#pragma unroll
        for (int q = 0; q < kColumnRun; ++q) acc[q] = 0.0f;
#pragma unroll 1
        for (int i = 0; i < kColumnRun + kh - 1; ++i) {
            const float v = convolve_read<T>(a, plane, ro[i], col);
#pragma unroll
            for (int q = 0; q < kColumnRun; ++q) {
                const int m = i - q;
                if (m >= 0 && m < kh) acc[q] = fmaf(mask.column[m], v, acc[q]);
            }
        }
#pragma unroll
        for (int q = 0; q < kColumnRun; ++q) t[(s * kColumnRun + q) * Shape::kPitch + c] = acc[q];
    }
}

// Row pass: four outputs per item, the intermediate's columns taken left to right; eight items
// (TH = 64) or two (the looping kernel) per thread.
template <class T, int RB, bool kPadded>
__device__ __forceinline__ void row_pass(const ConvolveArgs& a,
                                         const SeparableMask<SeparableShape<RB>::KB>& mask,
                                         const float* t, long long z, int x0, int y0) {
    using Shape = SeparableShape<RB>;
    constexpr int KB = Shape::KB, kPitch = Shape::kPitch;
    const int kw = mask.kw;
#pragma unroll 1
    for (int k = 0; k < Shape::TH / 8; ++k) {
        const int r = k * 8 + threadIdx.y, j = threadIdx.x;
        const float* row = t + r * kPitch + 4 * j;
        float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
        if constexpr (Shape::kLoop) {
#pragma unroll 1
            for (int n = 0; n < kw; ++n) {
                const float w = mask.row[n];
#pragma unroll
                for (int p = 0; p < 4; ++p) acc[p] = fmaf(w, row[p + n], acc[p]);
            }
        } else {
            constexpr int kChunks = (4 + KB - 1 + 3) / 4;
            float win[kChunks * 4];
#pragma unroll
            for (int c = 0; c < kChunks; ++c) {
                float4 v = make_float4(0.f, 0.f, 0.f, 0.f);
                if (kPadded || 4 * c < 4 + kw - 1) v = *reinterpret_cast<const float4*>(row + 4 * c);
                win[4 * c] = v.x;
                win[4 * c + 1] = v.y;
                win[4 * c + 2] = v.z;
                win[4 * c + 3] = v.w;
            }
#pragma unroll
            for (int n = 0; n < KB; ++n) {
                if (kPadded || n < kw) {
                    const float w = mask.row[n];
#pragma unroll
                    for (int p = 0; p < 4; ++p) acc[p] = fmaf(w, win[p + n], acc[p]);
                }
            }
        }
        convolve_store4<T>(a, z, y0 + r, x0 + 4 * j, acc);
    }
}

// Blocks of 32 x 8 threads (kConvolveThreads). No __launch_bounds__: with it ptxas spills.
template <class T, int RB>
__global__ void convolve_separable(const __grid_constant__ ConvolveArgs a,
                                   const __grid_constant__ SeparableMask<SeparableShape<RB>::KB> mask,
                                   int tiles_x, int tiles_y) {
    using Shape = SeparableShape<RB>;
    constexpr int KB = Shape::KB, TH = Shape::TH;
    extern __shared__ float4 shared_words[];
    const int kw = mask.kw, kh = mask.kh;
    float* t = reinterpret_cast<float*>(shared_words);
    long long* row_offset = reinterpret_cast<long long*>(t + TH * Shape::kPitch);
    const int tid = threadIdx.y * 32 + threadIdx.x;
    const long long tiles = static_cast<long long>(tiles_x) * tiles_y * a.planes;
    for (long long tt = blockIdx.x; tt < tiles; tt += gridDim.x) {
        const ConvolveTile tile(tt, tiles_x, tiles_y);
        const int x0 = tile.tx * kTileWidth, y0 = tile.ty * TH;
        const int xs = x0 - kw / 2, ys = y0 - kh / 2;  // the intermediate's first column, row
        const char* plane = static_cast<const char*>(a.src) + tile.z * a.src_plane_stride;
        __syncthreads();  // the previous tile's passes are done with t and row_offset
        for (int r = tid; r < TH + KB - 1; r += kConvolveThreads)
            row_offset[r] = convolve_row_offset(a, ys + r);
        __syncthreads();

        if constexpr (Shape::kLoop) {
            column_pass_loop<T, RB>(a, mask, plane, row_offset, t, xs);
            __syncthreads();
            row_pass<T, RB, false>(a, mask, t, tile.z, x0, y0);
        } else {
            float bad_t = 0.0f;
            const bool direct = xs >= 0 && xs + Shape::kColumns <= a.width && ys >= 0 &&
                                ys + TH + KB - 1 <= a.height;
            if (direct)
                column_pass<T, RB, true, true>(a, mask, plane, row_offset, t, xs, ys, bad_t);
            else
                column_pass<T, RB, true, false>(a, mask, plane, row_offset, t, xs, ys, bad_t);
            if (sizeof(T) == 4 && __syncthreads_or(bad_t != 0.0f)) {
                // A float block may have read a NaN or an infinity: redo its column pass with
                // the mask's own taps. (Integer inputs are finite: the padded pass was exact.)
                bad_t = 0.0f;
                column_pass<T, RB, false, false>(a, mask, plane, row_offset, t, xs, ys, bad_t);
            }
            if (__syncthreads_or(bad_t != 0.0f)) row_pass<T, RB, false>(a, mask, t, tile.z, x0, y0);
            else row_pass<T, RB, true>(a, mask, t, tile.z, x0, y0);
        }
    }
}

template <class T, int RB>
cudaError_t launch(const ConvolveArgs& a, const float* row, int kw, const float* column, int kh,
                   cudaStream_t stream) {
    using Shape = SeparableShape<RB>;
    SeparableMask<Shape::KB> mask;
    std::memset(&mask, 0, sizeof mask);
    mask.kw = kw;
    mask.kh = kh;
    std::copy(row, row + kw, mask.row);
    std::copy(column, column + kh, mask.column);
    constexpr std::size_t shared = separable_shared_bytes<RB>();
    auto kernel = convolve_separable<T, RB>;
    const cudaError_t e = opt_in_shared(kernel, shared);
    if (e != cudaSuccess) return e;
    const int tiles_x = (a.width + kTileWidth - 1) / kTileWidth;
    const int tiles_y = (a.height + Shape::TH - 1) / Shape::TH;
    const long long tiles = static_cast<long long>(tiles_x) * tiles_y * a.planes;
    const int resident = convolve_resident_blocks(kernel, kConvolveThreads, shared);
    const long long blocks = std::min<long long>(tiles, resident > 0 ? resident : tiles);
    kernel<<<static_cast<unsigned>(blocks), dim3(32, 8), shared, stream>>>(a, mask, tiles_x, tiles_y);
    return cudaGetLastError();
}

// The bucket RB where its blocks fit the GPU's shared memory, else the looping kernel (in tiles
// of half the rows where even its blocks do not fit): Turing's 64 KB holds the buckets to 48.
template <class T, int RB>
cudaError_t launch_fitting(const ConvolveArgs& a, const float* row, int kw, const float* column, int kh,
                           cudaStream_t s) {
    if (shared_fits(convolve_separable<T, RB>, separable_shared_bytes<RB>()))
        return launch<T, RB>(a, row, kw, column, kh, s);
    if constexpr (RB >= 0) return launch_fitting<T, RB == 0 ? -1 : 0>(a, row, kw, column, kh, s);
    return launch<T, RB>(a, row, kw, column, kh, s);  // refused: opt_in_shared says why
}

template <class T>
cudaError_t launch_type(const ConvolveArgs& a, const float* row, int kw, const float* column,
                        int kh, cudaStream_t s) {
    const int r = std::max(kw, kh) / 2;
    if (r <= 4) return launch_fitting<T, 4>(a, row, kw, column, kh, s);
    if (r <= 8) return launch_fitting<T, 8>(a, row, kw, column, kh, s);
    if (r <= 12) return launch_fitting<T, 12>(a, row, kw, column, kh, s);
    if (r <= 16) return launch_fitting<T, 16>(a, row, kw, column, kh, s);
    if (r <= 24) return launch_fitting<T, 24>(a, row, kw, column, kh, s);
    if (r <= 32) return launch_fitting<T, 32>(a, row, kw, column, kh, s);
    if (r <= 48) return launch_fitting<T, 48>(a, row, kw, column, kh, s);
    if (r <= 64) return launch_fitting<T, 64>(a, row, kw, column, kh, s);
    return launch_fitting<T, 0>(a, row, kw, column, kh, s);
}

}  // namespace

cudaError_t launch_convolve_separable(const ConvolveArgs& args, const float* row, int kw,
                                      const float* column, int kh, int pixel_type,
                                      cudaStream_t stream) {
    if (kw < 1 || kh < 1 || kw % 2 == 0 || kh % 2 == 0 || kw > kMaxLength || kh > kMaxLength)
        return cudaErrorInvalidValue;
    if (args.width < 1 || args.height < 1 || args.planes < 1) return cudaSuccess;
    switch (pixel_type) {
        case 0: return launch_type<std::uint8_t>(args, row, kw, column, kh, stream);
        case 1: return launch_type<std::uint16_t>(args, row, kw, column, kh, stream);
        default: return launch_type<float>(args, row, kw, column, kh, stream);
    }
}

}  // namespace fastmedian::kernels
