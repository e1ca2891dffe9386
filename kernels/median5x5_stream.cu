// The streaming 5x5 median (median_stream.cuh).
#include "generated/median_stream/network5.cuh"
#include "median_stream.cuh"
#include "median_stream_kernel.cuh"

namespace fastmedian::kernels::stream {

namespace {

// Blocks of one warp, 16 an SM (111-128 registers; fewer would spill: 4-warp blocks 5 an SM
// ran slower); strips of at least 8 rows, the last ones 4. One-warp blocks ran faster than
// 4-warp blocks 4 an SM and 2-warp blocks 8 an SM; other strip heights ran about the same
// (docs/notebook/gpu-median-h100-2026-11-26-stream.md).
struct Window5 {
    static constexpr int kSize = 5;
    static constexpr int kWarps = 1, kMinBlocks = 16, kMinStrip = 8, kLastStrip = 4, kLongStrip = 8;
    static constexpr int kBlockCols = kWarps * stream::kWarpCols;

    // Carried per column: row y - 2, rows y - 1 and y sorted, row y, row y + 1; and the four
    // rows y - 1 .. y + 2 both output rows share.
    template <class L>
    struct Columns {
        using Net = stream5::Network<L>;
        std::uint32_t r0[4], pair[4][2], ry[4], r3[4], s4[4][4];
        __device__ void start(const std::uint32_t (&k)[4][4]) {
#pragma unroll
            for (int j = 0; j < 4; ++j) {
                r0[j] = k[0][j];
                Net::sort2(k[1][j], k[2][j], pair[j]);
                ry[j] = k[2][j];
                r3[j] = k[3][j];
            }
        }
        __device__ void first(const std::uint32_t (&ka)[4], const std::uint32_t (&kb)[4], std::uint32_t (&c)[4][5]) {
#pragma unroll
            for (int j = 0; j < 4; ++j) {
                std::uint32_t q[2];
                Net::sort2(r3[j], ka[j], q);
                Net::core4(pair[j], q, s4[j]);
                Net::insert(r0[j], s4[j], c[j]);
                r0[j] = ry[j];
                pair[j][0] = q[0];
                pair[j][1] = q[1];
                ry[j] = ka[j];
                r3[j] = kb[j];
            }
        }
        __device__ void second(const std::uint32_t (&kb)[4], std::uint32_t (&c)[4][5]) {
#pragma unroll
            for (int j = 0; j < 4; ++j) Net::insert(kb[j], s4[j], c[j]);
        }
    };

    // Columns -2 and 4, 5 from the lanes either side; the pair of columns 3, 4 merged here
    // and taken by the right lane as its -1, 0.
    template <class L>
    __device__ static void row_medians(const std::uint32_t (&col)[4][5], std::uint32_t (&m)[4]) {
        using Net = stream5::Network<L>;
        std::uint32_t c[8][5];
#pragma unroll
        for (int r = 0; r < 5; ++r) {
#pragma unroll
            for (int j = 0; j < 4; ++j) c[2 + j][r] = col[j][r];
            c[0][r] = __shfl_up_sync(~0u, col[2][r], 1);
            c[6][r] = __shfl_down_sync(~0u, col[0][r], 1);
            c[7][r] = __shfl_down_sync(~0u, col[1][r], 1);
        }
        std::uint32_t p12[10], p34[10], p56[10];
        Net::pair(c[3], c[4], p34);
        Net::pair(c[5], c[6], p56);
#pragma unroll
        for (int r = 0; r < 10; ++r) p12[r] = __shfl_up_sync(~0u, p56[r], 1);
        Net::medians(c, p12, p34, p56, m);
    }
};

}  // namespace

cudaError_t launch_square5(PixelType type, const PlanesArgs& a, cudaStream_t stream) {
    return launch<Window5>(type, a, stream);
}

}  // namespace fastmedian::kernels::stream
