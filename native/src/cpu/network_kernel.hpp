// The network kernel, written once for any lane type V (lanes_scalar.hpp, lanes_avx2.hpp).
// Per output row it sorts every column of the window once (each sorted column serves all the
// outputs whose window contains it), then runs the window's selection network per vector of
// outputs. The 3x3 square has a kernel of its own that keeps everything in registers, and the
// mid-sized windows (squares 9 and 11, ImageJ circles of radius 4 to 6) run generated tiled
// networks, a column of outputs per vector lane. All
// write pixels straight to the caller's rows where the block allows (KeyBlock::direct) and
// touch the rows later blocks read (KeyBlock::ahead) as they go. Everything here has internal
// linkage: the AVX2 and scalar builds each get their own copy, so the linker can never hand
// AVX2 code to the scalar path.
#pragma once

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "semantics/footprint.hpp"
#include "cpu/key_block.hpp"
#include "cpu/generated/tiled_networks.hpp"
#include "cpu/lanes_min_max.hpp"
#include "networks/generated/median_column_networks.hpp"

namespace fastmedian::detail {
namespace {

// Sorted columns of height H live in scratch rows [column_base(H), column_base(H) + H):
// heights 1, 3, 5, 7 take rows 0, 1..3, 4..8, 9..15.
constexpr int column_base(int h) { return ((h - 1) / 2) * ((h - 1) / 2); }

template <class Net>
constexpr bool uses_height(int h) {
    for (int c = 0; c <= 2 * Net::kRadiusX; ++c)
        if (Net::kColumnHeight[c] == h) return true;
    return false;
}

// Sorts the centred columns of height H of the window whose rows are rows[0..2 * radius_y].
template <class V, class Net, int H, class K>
void sort_columns(const K* const* rows, std::int64_t stride, std::int64_t count, K* scratch) {
    if constexpr (uses_height<Net>(H)) {
        const K* const* first = rows + (Net::kRadiusY - H / 2);
        K* out = scratch + column_base(H) * stride;
        for (std::int64_t x = 0; x < count; x += V::kLanes) {
            V v[H];
            for (int i = 0; i < H; ++i) v[i] = V::load(first[i] + x);
            kernels::networks::SortColumn<H>::apply(v);
            for (int i = 0; i < H; ++i) v[i].store(out + i * stride + x);
        }
    }
}

// Touches KeyBlock::ahead[y] a cache line per step.
template <class K>
struct Prefetch {
    const char* at = nullptr;
    const char* end = nullptr;
    Prefetch() = default;
    Prefetch(const KeyBlock<K>& b, int y) {
        if (b.ahead && b.ahead[y]) {
            at = b.ahead[y];
            end = at + b.ahead_bytes;
        }
    }
    void step() {
        if (at < end) {
            __builtin_prefetch(at);
            at += 64;
        }
    }
};

// Writes output row y's vector at column x where KeyBlock::direct says.
template <class V, class K>
struct RowSink {
    K* out = nullptr;
    K* direct = nullptr;
    std::int64_t begin = 0, end = 0;
    bool stream = false;
    RowSink() = default;
    RowSink(const KeyBlock<K>& b, int y)
        : out(b.out + y * b.out_stride), direct(b.direct ? b.direct[y] : nullptr),
          begin(direct ? b.direct_begin : b.width), end(direct ? b.direct_end : b.width),
          stream(b.stream) {}
    void put(std::int64_t x, V m) const {
        if (x < begin || x >= end) m.store(out + x);
        else if (stream) pixel_bits(m).stream(direct + x);
        else pixel_bits(m).store(direct + x);
    }
    // The columns a row's vectors start at: from 0 to the direct columns' first, then whole
    // vectors through them and beyond.
    std::int64_t next(std::int64_t x) const {
        return x < begin ? std::min<std::int64_t>(x + V::kLanes, begin) : x + V::kLanes;
    }
};

template <class V, class Net, class K>
void network_block(const KeyBlock<K>& b, K* scratch) {
    const std::int64_t s = b.in_keys;
    const std::int64_t padded_width = b.width + 2 * Net::kRadiusX;
    for (int y = 0; y < b.rows; ++y) {
        const K* const* top = b.in + y;
        sort_columns<V, Net, 1>(top, s, padded_width, scratch);
        sort_columns<V, Net, 3>(top, s, padded_width, scratch);
        sort_columns<V, Net, 5>(top, s, padded_width, scratch);
        sort_columns<V, Net, 7>(top, s, padded_width, scratch);
        const RowSink<V, K> sink(b, y);
        Prefetch ahead(b, y);
        for (std::int64_t x = 0; x < b.width; x = sink.next(x)) {
            ahead.step();
            const K* at = scratch + x;
            auto in = [at, s](int c, int i) {
                return V::load(at + (column_base(Net::kColumnHeight[c]) + i) * s + c);
            };
            sink.put(x, Net::template median<V>(in));
        }
    }
    if (b.stream) V::stream_fence();
}

template <class V>
V median3(V a, V b, V c) {
    return V::max(V::min(a, b), V::min(V::max(a, b), c));
}

// The 3x3 square, two output rows at a time: each column's middle pair is sorted once for
// both rows, and every column is sorted in registers where it is needed.
template <class V, class K>
void square3_block(const KeyBlock<K>& b) {
    for (int y = 0; y < b.rows; y += 2) {
        const int second = y + 1 < b.rows ? 1 : 0;
        const K* r0 = b.in[y];
        const K* r1 = b.in[y + 1];
        const K* r2 = b.in[y + 2];
        const K* r3 = b.in[y + 2 + second];
        const RowSink<V, K> sink0(b, y), sink1(b, y + second);
        Prefetch ahead0(b, y), ahead1(b, y + second);
        for (std::int64_t x = 0; x < b.width; x = sink0.next(x)) {
            ahead0.step();
            ahead1.step();
            V lo0[3], mid0[3], hi0[3], lo1[3], mid1[3], hi1[3];
            for (int c = 0; c < 3; ++c) {
                const V a = V::load(r0 + x + c), p = V::load(r1 + x + c), q = V::load(r2 + x + c),
                        d = V::load(r3 + x + c);
                const V pl = V::min(p, q), ph = V::max(p, q);
                lo0[c] = V::min(a, pl);
                const V t0 = V::max(a, pl);
                mid0[c] = V::min(t0, ph);
                hi0[c] = V::max(t0, ph);
                lo1[c] = V::min(d, pl);
                const V t1 = V::max(d, pl);
                mid1[c] = V::min(t1, ph);
                hi1[c] = V::max(t1, ph);
            }
            const V m0 = median3(V::max(V::max(lo0[0], lo0[1]), lo0[2]), median3(mid0[0], mid0[1], mid0[2]),
                                 V::min(V::min(hi0[0], hi0[1]), hi0[2]));
            const V m1 = median3(V::max(V::max(lo1[0], lo1[1]), lo1[2]), median3(mid1[0], mid1[1], mid1[2]),
                                 V::min(V::min(hi1[0], hi1[1]), hi1[2]));
            sink0.put(x, m0);
            if (second) sink1.put(x, m1);
        }
    }
    if (b.stream) V::stream_fence();
}

// A mid-sized window's tiled network (cpu/generated/tiled_networks.hpp): each run
// computes a column of kTileH outputs per vector lane, sorting what their windows share once.
template <class V, class Net, class K>
void tiled_block(const KeyBlock<K>& b) {
    static_assert(Net::kTileW == 1, "lanes take neighbouring columns");
    constexpr int kRows = Net::kTileH + Net::kSize - 1;
    const int last_in = b.rows + Net::kSize - 2;
    for (int y = 0; y < b.rows; y += Net::kTileH) {
        const int rows = std::min(Net::kTileH, b.rows - y);
        // A last, partial tile reads the block's last row for the rows past it and drops the
        // outputs that need them.
        const K* in[kRows];
        for (int r = 0; r < kRows; ++r) in[r] = b.in[std::min(y + r, last_in)];
        RowSink<V, K> sinks[Net::kTileH];
        Prefetch<K> ahead[Net::kTileH];
        for (int r = 0; r < rows; ++r) {
            sinks[r] = RowSink<V, K>(b, y + r);
            ahead[r] = Prefetch<K>(b, y + r);
        }
        for (std::int64_t x = 0; x < b.width; x = sinks[0].next(x)) {
            for (int r = 0; r < rows; ++r) ahead[r].step();
            auto load = [&](int c, int r) { return V::load(in[r] + x + c); };
            auto store = [&](int, int r, V v) {
                if (r < rows) sinks[r].put(x, v);
            };
            Net::template run<LanesMinMax<V>>(load, store);
        }
    }
    if (b.stream) V::stream_fence();
}

template <class Net, class = void>
struct IsTiled : std::false_type {};
template <class Net>
struct IsTiled<Net, std::void_t<decltype(Net::kTileH)>> : std::true_type {};

// Calls f(Net{}) with the network that serves the window, a sorted-column network or a mid-sized
// window's tiled one, and returns true; returns false if none does.
template <class F>
bool with_any_network(const Footprint& fp, F&& f) {
    const int rows = static_cast<int>(fp.half_width.size());
    return kernels::networks::with_network(fp.half_width.data(), rows, f) ||
           kernels::tiled::with_cpu_network(fp.half_width.data(), rows, f);
}

template <class V, class K>
void network_median(const KeyBlock<K>& b, const Footprint& fp, K* scratch) {
    with_any_network(fp, [&](auto net) {
        using Net = decltype(net);
        if constexpr (std::is_same_v<Net, kernels::networks::Square3>) square3_block<V>(b);
        else if constexpr (IsTiled<Net>::value) tiled_block<V, Net>(b);
        else network_block<V, Net>(b, scratch);
    });
}

}  // namespace
}  // namespace fastmedian::detail
