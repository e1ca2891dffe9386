#include "median3x3_stream.cuh"

#include <type_traits>

#include "border_index.cuh"
#include "device_sms.cuh"
#include "fma_pipe.cuh"
#include "lane_rows.cuh"
#include "median_stream.cuh"
#include "overlapped_launch.cuh"
#include "stream_strips.cuh"

namespace fastmedian::kernels::stream3 {

namespace {

// Blocks of one warp, 32 an SM (the most an SM holds), the grid's strips as the other streaming
// kernels' (stream_strips.cuh): at least 4 rows, the last ones 2. H100, 2048^2 / 4096^2 / 8192^2,
// against 4-warp blocks 10 an SM: 373-381 / 642-650 / 851-852 against 366-367 / 624-628 /
// 844-845 (2-warp blocks 20 an SM: 398-405 / 625-628 / 863-868). The last strips of 2 rows
// (H100, with overlapped launches): 463 / 766 / 951 -> 478 / 796 / 1009; strips of at least 6
// or 8 rows everywhere, or the last 30% in strips of 2, ran slower. First strips of 6 rows
// where the grid keeps 3 waves so (kLongStrip, stream_strips.cuh): 4096^2 908 -> 927; a grid
// of 4 or 3 waves instead of 8 (8192^2: strips of 18 or 24 rows) 1040 -> 920 / 833. Measured
// on the H200 with 4-warp blocks: fewer registers ran 1-15% slower; a grid of one wave, whose
// blocks all load at once and then all compute, 12-36% slower. Not kept (H100 4096^2): blocks
// that loop over strips, one wave of them, 480 against 910; the last wave's blocks triggering
// the next launch early, with or without an L2 prefetch of their first rows, 643-814.
struct Window3 {
    static constexpr int kWarps = 1, kMinBlocks = 32, kMinStrip = 4, kLastStrip = 2, kLongStrip = 6;
};
constexpr int kBlockCols = Window3::kWarps * stream::kWarpCols;

__device__ __forceinline__ std::uint32_t lo(std::uint32_t a, std::uint32_t b) { return __vminu2(a, b); }
__device__ __forceinline__ std::uint32_t hi(std::uint32_t a, std::uint32_t b) { return __vmaxu2(a, b); }

// The packed keys of the four columns x .. x + 3 of a row whose words (pixels x .. x + 3) are a
// (upper strip) and b (lower strip) in this lane.
__device__ __forceinline__ void row_keys(std::uint32_t a, std::uint32_t b, std::uint32_t (&k)[4]) {
#pragma unroll
    for (int j = 0; j < 4; ++j) k[j] = __byte_perm(a, b, j * 0x11 + (4 + j) * 0x1100);
}

struct Sorted3 {
    std::uint32_t l, m, h;
};

// {v, p, q} sorted, s = p + q: the low and high by three-input min/max, the middle the sum less
// those two, on the FMA pipe (fma_pipe.cuh). Against sorting the shared pair once and inserting
// each row's third (10 min/max two rows): H100 4096^2 873 -> 906 Gpix/s, 910 with the medians'
// sums below.
__device__ __forceinline__ Sorted3 sort3(std::uint32_t v, std::uint32_t p, std::uint32_t q, std::uint32_t s,
                                         const FmaOnes& k) {
    const std::uint32_t l = __vimin3_u16x2(v, p, q), h = __vimax3_u16x2(v, p, q);
    return {l, k.sub(k.sub(k.add(v, s), l), h), h};
}

// Columns x - 1 and x + 4 (c[0], c[5]) from the lanes either side, whose columns 3 and 0 they are.
__device__ __forceinline__ void neighbours(Sorted3 (&c)[6]) {
    c[0] = {__shfl_up_sync(~0u, c[4].l, 1), __shfl_up_sync(~0u, c[4].m, 1), __shfl_up_sync(~0u, c[4].h, 1)};
    c[5] = {__shfl_down_sync(~0u, c[1].l, 1), __shfl_down_sync(~0u, c[1].m, 1), __shfl_down_sync(~0u, c[1].h, 1)};
}

// The four packed medians of output columns x .. x + 3 from their six columns' sorted triples.
__device__ __forceinline__ void medians(const Sorted3 (&c)[6], std::uint32_t (&out)[4], const FmaOnes& k) {
    // The middles of columns 1, 2 and of 3, 4 as sorted pairs, each shared by two outputs.
    const std::uint32_t p1l = lo(c[1].m, c[2].m), p1h = hi(c[1].m, c[2].m);
    const std::uint32_t p2l = lo(c[3].m, c[4].m), p2h = hi(c[3].m, c[4].m);
    const std::uint32_t mid[4] = {hi(p1l, lo(c[0].m, p1h)), hi(p1l, lo(c[3].m, p1h)),
                                  hi(p2l, lo(c[2].m, p2h)), hi(p2l, lo(c[5].m, p2h))};
#pragma unroll
    for (int x = 0; x < 4; ++x) {
        const std::uint32_t l = __vimax3_u16x2(c[x].l, c[x + 1].l, c[x + 2].l);
        const std::uint32_t h = __vimin3_u16x2(c[x].h, c[x + 1].h, c[x + 2].h);
        // med3 as min/max, or as the sum less the low and the high: half the outputs each way
        // balances the ALU and FMA pipes (all by sums ran the same, none 1% slower).
        if (x % 2 == 0)
            out[x] = k.sub(k.sub(k.add(l, k.add(mid[x], h)), __vimin3_u16x2(l, mid[x], h)), __vimax3_u16x2(l, mid[x], h));
        else
            out[x] = hi(lo(l, mid[x]), lo(hi(l, mid[x]), h));
    }
}

// Strips of rows each of a lane's two strips (even).
__global__ void __launch_bounds__(32 * Window3::kWarps, Window3::kMinBlocks)
    median3x3_u8(const __grid_constant__ PlanesArgs a, const stream::Strips strips) {
    wait_for_previous_grid();
    const int strip = strips.rows_of(blockIdx.y);
    const int ya = strips.first_row(blockIdx.y), yb = ya + strip;  // the strips' first rows
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int x = blockIdx.x * kBlockCols + warp * stream::kWarpCols + 4 * (lane - 1);  // this lane's word
    const char* plane = static_cast<const char*>(a.src) + blockIdx.z * a.src_plane_stride;
    char* out_plane = static_cast<char*>(a.dst) + blockIdx.z * a.dst_plane_stride;
    const bool stores = lane >= 1 && lane <= 30;
    // Blocks whose words and rows all lie in the image load and store without tests: code of its own.
    const int bx = blockIdx.x * kBlockCols;
    const bool inside = bx >= 4 && bx + kBlockCols + 4 <= a.width && ya >= 1 && yb + strip + 1 <= a.height &&
                        lane_rows_serve(a);
    auto run = [&](auto is_inside) {
        constexpr bool kInside = decltype(is_inside)::value;
        const std::uint32_t outside = (a.outside_key & 0xFFu) * 0x01010101u;
        // A word past a side of the image, or reaching past its right edge, gathers its four
        // pixels through the border; -1 for the constant.
        const bool plain = kInside || (x >= 0 && x + 4 <= a.width);
        int sx[4];
#pragma unroll
        for (int q = 0; q < 4; ++q) sx[q] = plain ? 0 : static_cast<int>(border_index(x + q, a.width, a.border));
        const LaneRows src(plane + x, a.src_pitch), dst(out_plane + x, a.dst_pitch);  // inside
        auto word = [&](int y) -> std::uint32_t {
            std::uint32_t w = 0;
            if constexpr (kInside) {
                load_global(src.at(y), w);
            } else {
                std::int64_t sy = y;
                if (static_cast<unsigned>(y) >= static_cast<unsigned>(a.height)) {
                    sy = border_index(y, a.height, a.border);
                    if (sy < 0) return outside;
                }
                const std::uint8_t* row = reinterpret_cast<const std::uint8_t*>(plane + sy * a.src_pitch);
                if (plain) return *reinterpret_cast<const std::uint32_t*>(row + x);
#pragma unroll
                for (int q = 0; q < 4; ++q)
                    w |= static_cast<std::uint32_t>(sx[q] < 0 ? outside & 0xFFu : row[sx[q]]) << (8 * q);
            }
            return w;
        };
        auto store = [&](int y, std::uint32_t w) {
            if constexpr (kInside) {
                store_global_if(stores, dst.at(y), w);
            } else {
                if (!stores || y >= a.height || x >= a.width) return;
                std::uint8_t* row = reinterpret_cast<std::uint8_t*>(out_plane + static_cast<std::int64_t>(y) * a.dst_pitch);
                if (x + 4 <= a.width) {
                    *reinterpret_cast<std::uint32_t*>(row + x) = w;
                } else {
#pragma unroll
                    for (int q = 0; q < 4; ++q)
                        if (x + q < a.width) row[x + q] = static_cast<std::uint8_t>(w >> (8 * q));
                }
            }
        };

        // Rows y - 1 and y of each strip, then two rows a step: output rows y and y + 1 need
        // rows y - 1 .. y + 2. The next step's words are loaded before this step's network.
        const FmaOnes k = fma_ones();
        std::uint32_t up[4], mid[4];
        row_keys(word(ya - 1), word(yb - 1), up);
        row_keys(word(ya), word(yb), mid);
        std::uint32_t na1 = word(ya + 1), nb1 = word(yb + 1), na2 = word(ya + 2), nb2 = word(yb + 2);
#pragma unroll 1
        for (int i = 0; i < strip; i += 2) {
            std::uint32_t d1[4], d2[4];
            row_keys(na1, nb1, d1);
            row_keys(na2, nb2, d2);
            if (i + 2 < strip) {
                na1 = word(ya + i + 3);
                nb1 = word(yb + i + 3);
                na2 = word(ya + i + 4);
                nb2 = word(yb + i + 4);
            }
            // This lane's columns of output rows y and y + 1 sorted, the rows they share once;
            // the columns either side sorted by the lanes beside it.
            Sorted3 c0[6], c1[6];
#pragma unroll
            for (int c = 0; c < 4; ++c) {
                const std::uint32_t s = k.add(mid[c], d1[c]);
                c0[1 + c] = sort3(up[c], mid[c], d1[c], s, k);
                c1[1 + c] = sort3(d2[c], mid[c], d1[c], s, k);
            }
            neighbours(c0);
            neighbours(c1);
            std::uint32_t o0[4], o1[4];
            medians(c0, o0, k);
            medians(c1, o1, k);
            // Lane 0's pixels (upper strip) and lane 1's (lower) of the four outputs of each row.
            const std::uint32_t r0a = __byte_perm(o0[0], o0[1], 0x6240), r0b = __byte_perm(o0[2], o0[3], 0x6240);
            const std::uint32_t r1a = __byte_perm(o1[0], o1[1], 0x6240), r1b = __byte_perm(o1[2], o1[3], 0x6240);
            store(ya + i, __byte_perm(r0a, r0b, 0x5410));
            store(yb + i, __byte_perm(r0a, r0b, 0x7632));
            store(ya + i + 1, __byte_perm(r1a, r1b, 0x5410));
            store(yb + i + 1, __byte_perm(r1a, r1b, 0x7632));
#pragma unroll
            for (int c = 0; c < 4; ++c) {
                up[c] = d1[c];
                mid[c] = d2[c];
            }
        }
    };
    if (inside)
        run(std::true_type{});
    else
        run(std::false_type{});
}

}  // namespace

bool serves(const PlanesArgs& a) { return stream::serves(PixelType::u8, a); }  // the same words

cudaError_t launch(const PlanesArgs& a, cudaStream_t stream) {
    if (!serves(a)) return cudaErrorInvalidValue;
    int sms = 0;
    const cudaError_t e = current_sm_count(sms);
    if (e != cudaSuccess) return e;
    const stream::Strips strips = stream::strips_for<Window3>(a, sms);
    if (strips.rows > 65535) return cudaErrorInvalidConfiguration;
    const dim3 grid(static_cast<unsigned>(stream::block_columns<Window3>(a)), static_cast<unsigned>(strips.rows), a.planes);
    return launch_overlapped(median3x3_u8, grid, dim3(32 * Window3::kWarps), 0, stream, a, strips);
}

}  // namespace fastmedian::kernels::stream3
