// The streaming 7x7 median (median_stream.cuh).
#include "generated/median_stream/network7.cuh"
#include "median_stream.cuh"
#include "median_stream_kernel.cuh"

namespace fastmedian::kernels::stream {

namespace {

// Blocks of one warp, 10 an SM (168 registers, a few bytes spilled; 8 an SM without spills
// ran u8 / u16 slower, f32 faster); strips of at least 16 rows, the last ones 8, since each
// strip loads 6 rows more than it outputs: faster than strips of 12 and last 4, and than 4-warp
// blocks 3 an SM (docs/notebook/gpu-median-h100-2026-11-26-stream.md).
struct Window7 {
    static constexpr int kSize = 7;
    static constexpr int kWarps = 1, kMinBlocks = 10, kMinStrip = 16, kLastStrip = 8, kLongStrip = 16;
    static constexpr int kBlockCols = kWarps * stream::kWarpCols;

    // Carried per column: rows y - 2 .. y + 1 sorted (q), rows y, y + 1 sorted (p), row y + 2
    // (even), rows y - 3, y - 1, y + 1 (odd); and the six rows y - 2 .. y + 3 both output rows
    // share.
    template <class L>
    struct Columns {
        using Net = stream7::Network<L>;
        std::uint32_t q[4][4], p[4][2], even[4], odd[4][3], s6[4][6];
        __device__ void start(const std::uint32_t (&k)[6][4]) {
#pragma unroll
            for (int j = 0; j < 4; ++j) {
                std::uint32_t p0[2];
                Net::sort2(k[1][j], k[2][j], p0);
                Net::sort2(k[3][j], k[4][j], p[j]);
                Net::core4(p0, p[j], q[j]);
                even[j] = k[5][j];
                odd[j][0] = k[0][j];
                odd[j][1] = k[2][j];
                odd[j][2] = k[4][j];
            }
        }
        __device__ void first(const std::uint32_t (&ka)[4], const std::uint32_t (&kb)[4], std::uint32_t (&c)[4][7]) {
#pragma unroll
            for (int j = 0; j < 4; ++j) {
                std::uint32_t pn[2];
                Net::sort2(even[j], ka[j], pn);
                Net::core6(q[j], pn, s6[j]);
                Net::insert(odd[j][0], s6[j], c[j]);
                Net::core4(p[j], pn, q[j]);
                p[j][0] = pn[0];
                p[j][1] = pn[1];
                even[j] = kb[j];
                odd[j][0] = odd[j][1];
                odd[j][1] = odd[j][2];
                odd[j][2] = ka[j];
            }
        }
        __device__ void second(const std::uint32_t (&kb)[4], std::uint32_t (&c)[4][7]) {
#pragma unroll
            for (int j = 0; j < 4; ++j) Net::insert(kb[j], s6[j], c[j]);
        }
    };

    // Columns -3, -1 and 4, 6 from the lanes either side; the pairs of columns 0, 1 and 2, 3
    // merged here, taken by the left lane as its 4, 5 and by the right lane as its -2, -1.
    template <class L>
    __device__ static void row_medians(const std::uint32_t (&col)[4][7], std::uint32_t (&m)[4]) {
        using Net = stream7::Network<L>;
        std::uint32_t c[10][7];
#pragma unroll
        for (int r = 0; r < 7; ++r) {
            c[0][r] = __shfl_up_sync(~0u, col[1][r], 1);
            c[2][r] = __shfl_up_sync(~0u, col[3][r], 1);
            c[7][r] = __shfl_down_sync(~0u, col[0][r], 1);
            c[9][r] = __shfl_down_sync(~0u, col[2][r], 1);
        }
        std::uint32_t p12[14], p34[14], p56[14], p78[14];
        Net::pair(col[0], col[1], p34);
        Net::pair(col[2], col[3], p56);
#pragma unroll
        for (int r = 0; r < 14; ++r) {
            p12[r] = __shfl_up_sync(~0u, p56[r], 1);
            p78[r] = __shfl_down_sync(~0u, p34[r], 1);
        }
        Net::medians(c, p12, p34, p56, p78, m);
    }
};

}  // namespace

cudaError_t launch_square7(PixelType type, const PlanesArgs& a, cudaStream_t stream) {
    return launch<Window7>(type, a, stream);
}

}  // namespace fastmedian::kernels::stream
