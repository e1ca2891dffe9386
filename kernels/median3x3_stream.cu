#include "median3x3_stream.cuh"

#include <type_traits>

#include "device_sms.cuh"
#include "fma_pipe.cuh"
#include "lane_rows.cuh"
#include "overlapped_launch.cuh"
#include "semantics/border_index.hpp"
#include "stream_strips.cuh"

namespace fastmedian::kernels::stream3 {

namespace {

// Blocks of one warp, 32 an SM (the most an SM holds), each 240 columns wide (lanes 1..30,
// eight pixels a lane, one 8-byte load a row) and one strip of rows tall (the two strips
// stream_strips.cuh gives a block, one after the other): 8 rows, the grid's last ones 4. Faster
// at 2048^2 to 8192^2 than four pixels a lane and two strips, one in each half of the keys,
// since a block's rows and its words are half as many for as many pixels (that layout's loads
// and stores alone, without the network, ran well below the identity kernel). Measured with four
// pixels a lane and not kept, all slower: blocks that loop over strips, one wave of them; the
// last wave's blocks triggering the next launch early, with or without an L2 prefetch of their
// first rows; a block's rows all copied to shared memory at its start (cp.async); 2-warp blocks
// of 48 or 40 registers (spilling) (docs/notebook/gpu-median-h100-2026-11-27-fma.md,
// docs/notebook/gpu-median-h100-2026-11-27-lanes8.md).
struct Window3 {
    static constexpr int kBlockCols = 240, kMinBlocks = 32, kMinStrip = 4, kLastStrip = 2, kLongStrip = 6;
};
constexpr int kBlockCols = Window3::kBlockCols;

__device__ __forceinline__ std::uint32_t lo(std::uint32_t a, std::uint32_t b) { return __vminu2(a, b); }
__device__ __forceinline__ std::uint32_t hi(std::uint32_t a, std::uint32_t b) { return __vmaxu2(a, b); }

// The packed keys of a row's eight pixels x .. x + 7 in this lane (w): columns j and j + 4 in the
// halves of key j.
__device__ __forceinline__ void row_keys(uint2 w, std::uint32_t (&k)[4]) {
#pragma unroll
    for (int j = 0; j < 4; ++j) k[j] = __byte_perm(w.x, w.y, j * 0x11 + (4 + j) * 0x1100);
}

struct Sorted3 {
    std::uint32_t l, m, h;
};

// {v, p, q} sorted, s = p + q: the low and high by three-input min/max, the middle the sum less
// those two, on the FMA pipe (fma_pipe.cuh). Against sorting the shared pair once and inserting
// each row's third (10 min/max two rows): faster, and a little more with the medians' sums
// below (docs/notebook/gpu-median-h100-2026-11-27-fma.md).
__device__ __forceinline__ Sorted3 sort3(std::uint32_t v, std::uint32_t p, std::uint32_t q, std::uint32_t s,
                                         const FmaOnes& k) {
    const std::uint32_t l = __vimin3_u16x2(v, p, q), h = __vimax3_u16x2(v, p, q);
    return {l, k.sub(k.sub(k.add(v, s), l), h), h};
}

// The keys of columns x - 1 and x + 3 (c[0]) and of x + 4 and x + 8 (c[5]): one half from this
// lane's keys of columns x + 3 or x + 4, the other from the lane beside it.
__device__ __forceinline__ void neighbours(Sorted3 (&c)[6]) {
    auto left = [](std::uint32_t own) { return __byte_perm(__shfl_up_sync(~0u, own, 1), own, 0x5432); };
    auto right = [](std::uint32_t own) { return __byte_perm(own, __shfl_down_sync(~0u, own, 1), 0x5432); };
    c[0] = {left(c[4].l), left(c[4].m), left(c[4].h)};
    c[5] = {right(c[1].l), right(c[1].m), right(c[1].h)};
}

// The four packed medians of the keys c[1..4] from the sorted triples of their columns and of
// their neighbours'.
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

// The eight pixels x .. x + 7 of row y gathered through the border, for the lanes at the
// image's sides that the lanes beside them cannot serve (a right edge that is not a multiple of
// 8 pixels, the wrapped border, images narrower than 8). It waits for its loads, where a whole
// load is read a step later, so it is kept to these lanes and out of the loops' code.
__device__ __noinline__ uint2 gather_row(const PlanesArgs& a, const char* plane, std::uint32_t outside, int x, int y) {
    const std::int64_t sy = border_index(y, a.height, a.border);
    if (sy < 0) return {outside, outside};
    const std::uint8_t* row = reinterpret_cast<const std::uint8_t*>(plane + sy * a.src_pitch);
    uint2 w{0, 0};
    for (int q = 0; q < 8; ++q) {
        const std::int64_t sx = border_index(x + q, a.width, a.border);
        (q < 4 ? w.x : w.y) |= (sx < 0 ? outside & 0xFFu : row[sx]) << (8 * (q % 4));
    }
    return w;
}

// The pixels x .. x + 7 of output row y that lie in the image, a byte at a time.
__device__ __noinline__ void store_part(const PlanesArgs& a, char* out_plane, int x, int y, uint2 w) {
    std::uint8_t* row = reinterpret_cast<std::uint8_t*>(out_plane + static_cast<std::int64_t>(y) * a.dst_pitch);
    for (int q = 0; q < 8 && x + q < a.width; ++q) row[x + q] = static_cast<std::uint8_t>((q < 4 ? w.x : w.y) >> (8 * (q % 4)));
}

__global__ void __launch_bounds__(32, Window3::kMinBlocks)
    median3x3_u8(const __grid_constant__ PlanesArgs a, const stream::Strips strips) {
    wait_for_previous_grid();
    const int rows = 2 * strips.rows_of(blockIdx.y), y0 = strips.first_row(blockIdx.y);  // the block's strip
    const int lane = threadIdx.x;
    const int bx = blockIdx.x * kBlockCols, x = bx + 8 * (lane - 1);  // this lane's pixels x .. x + 7
    const char* plane = static_cast<const char*>(a.src) + blockIdx.z * a.src_plane_stride;
    char* out_plane = static_cast<char*>(a.dst) + blockIdx.z * a.dst_plane_stride;
    const std::uint32_t outside = (a.outside_key & 0xFFu) * 0x01010101u;

    // A lane loads its eight pixels whole where they lie in the image. At the sides, the one pixel
    // past the edge that an output reads (x + 7 = -1 in lane 0, x = width in the lane after the
    // last) comes through the border from the lane beside it, a step later, when the row's keys are
    // made (edge()); lanes past the right edge load what they may, since no output reads it. Only
    // where neither serves (the wrapped border, a right edge not a multiple of 8, images narrower
    // than 8) do lanes gather their pixels (gather_row). Blocks at the sides ran several times as
    // long as the others while their edge lanes gathered
    // (docs/notebook/tuning-figures-from-comments.md).
    const int last_whole = (a.width & ~7) - 8;  // the last whole eight pixels of a row
    const bool edges = a.border != kWrap && last_whole >= 0;
    const bool left = x == -8 && edges, right = x == a.width && x >= 8 && edges;
    const bool past = x > a.width && last_whole >= 0;
    const bool whole = ((x >= 0 && x + 8 <= a.width) || left || right || past) && lane_rows_serve(a);
    const int column = left ? 0 : right || past ? last_whole : x;
    // byte_perm selectors that put the pixel past the edge in place: column -1 is column 0 of the
    // lane beside (column 1 for the mirrored border), column width its column width - 1 (width -
    // 2); the constant's byte otherwise.
    const bool constant = a.border == kConstant, mirror = a.border == kMirror;
    const unsigned left_select = left ? (mirror ? 0x5210u : 0x4210u) : 0x3210u;
    const unsigned right_select = right ? (constant ? 0x3214u : mirror ? 0x3216u : 0x3217u) : 0x3210u;
    const bool side_block = bx == 0 || bx + kBlockCols + 8 > a.width;  // the same for the block's lanes
    auto edge = [&](uint2 w) -> uint2 {
        if (side_block) {  // (only in the general loop below)
            const std::uint32_t from_right = constant ? outside : __shfl_down_sync(~0u, w.x, 1);
            const std::uint32_t from_left = constant ? outside : __shfl_up_sync(~0u, w.y, 1);
            w.y = __byte_perm(w.y, from_right, left_select);
            w.x = __byte_perm(w.x, from_left, right_select);
        }
        return w;
    };
    const bool stores = lane >= 1 && lane <= 30 && x < a.width;
    const bool store_whole = stores && x + 8 <= a.width;
    const LaneRows src(plane + column, a.src_pitch), dst(out_plane + x, a.dst_pitch);
    // Blocks whose rows and lanes all lie in the image test nothing: code of their own, faster
    // than all blocks testing and fixing their edges
    // (docs/notebook/gpu-median-h100-2026-11-27-lanes8.md).
    const bool inside = y0 >= 1 && y0 + rows + 1 <= a.height && !side_block && lane_rows_serve(a);
    auto run = [&](auto is_inside) {
        constexpr bool kInside = decltype(is_inside)::value;
        auto load = [&](int y) -> uint2 {
            uint2 w;
            if constexpr (kInside) {
                load_global(src.at(y), w);
            } else if (whole) {
                int sy = y;
                if (static_cast<unsigned>(y) >= static_cast<unsigned>(a.height)) {
                    sy = static_cast<int>(border_index(y, a.height, a.border));
                    if (sy < 0) return {outside, outside};
                }
                load_global(src.at(sy), w);
            } else {
                w = gather_row(a, plane, outside, x, y);
            }
            return w;
        };
        auto store = [&](int y, uint2 w) {
            if constexpr (kInside) return store_global_if(stores, dst.at(y), w);
            const bool row = y < a.height;
            store_global_if(store_whole && row, dst.at(y), w);
            if (stores && !store_whole && row) store_part(a, out_plane, x, y, w);
        };

        // Rows y - 1 and y, then two rows a step: output rows y and y + 1 need rows y - 1 .. y + 2.
        // The next step's rows are loaded before this step's network.
        const FmaOnes k = fma_ones();
        std::uint32_t up[4], mid[4];
        row_keys(kInside ? load(y0 - 1) : edge(load(y0 - 1)), up);
        row_keys(kInside ? load(y0) : edge(load(y0)), mid);
        uint2 next1 = load(y0 + 1), next2 = load(y0 + 2);
#pragma unroll 1
        for (int i = 0; i < rows; i += 2) {
            std::uint32_t d1[4], d2[4];
            row_keys(kInside ? next1 : edge(next1), d1);
            row_keys(kInside ? next2 : edge(next2), d2);
            if (i + 2 < rows) {
                next1 = load(y0 + i + 3);
                next2 = load(y0 + i + 4);
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
            // Pixels x .. x + 3 (the low halves) and x + 4 .. x + 7 (the high) of each row.
            const std::uint32_t r0a = __byte_perm(o0[0], o0[1], 0x6240), r0b = __byte_perm(o0[2], o0[3], 0x6240);
            const std::uint32_t r1a = __byte_perm(o1[0], o1[1], 0x6240), r1b = __byte_perm(o1[2], o1[3], 0x6240);
            store(y0 + i, {__byte_perm(r0a, r0b, 0x5410), __byte_perm(r0a, r0b, 0x7632)});
            store(y0 + i + 1, {__byte_perm(r1a, r1b, 0x5410), __byte_perm(r1a, r1b, 0x7632)});
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

bool serves(const PlanesArgs& a) { return planes_aligned(a, 8); }

cudaError_t launch(const PlanesArgs& a, cudaStream_t stream) {
    if (!serves(a)) return cudaErrorInvalidValue;
    int sms = 0;
    const cudaError_t e = current_sm_count(sms);
    if (e != cudaSuccess) return e;
    const stream::Strips strips = stream::strips_for<Window3>(a, sms);
    if (strips.rows > 65535) return cudaErrorInvalidConfiguration;
    const dim3 grid(static_cast<unsigned>(stream::block_columns<Window3>(a)), static_cast<unsigned>(strips.rows), a.planes);
    return launch_overlapped(median3x3_u8, grid, dim3(32), 0, stream, a, strips);
}

}  // namespace fastmedian::kernels::stream3
