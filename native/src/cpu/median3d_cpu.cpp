#include "cpu/median3d_cpu.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "semantics/constant_value.hpp"
#include "cpu/border_table.hpp"
#include "cpu/histogram_median.hpp"
#include "cpu/isa_kernels.hpp"
#include "cpu/key_block.hpp"
#include "cpu/key_of.hpp"
#include "cpu/parallel.hpp"
#include "cpu/key_rows.hpp"
#include "cpu/median_cpu.hpp"
#include "cpu/rank_transform.hpp"
#include "support/stream_copy.hpp"
#include "semantics/order_key.hpp"

namespace fastmedian::detail {

namespace {

using kernels::OrderKey;

// Below this many voxels a call runs on the caller's thread alone.
constexpr std::int64_t kMinVoxelsForThreads = 1 << 14;

// The windows with a network (isa_kernels.hpp): tiles of output rows and planes at a time.
template <class T>
class NetworkFilter3D {
public:
    using K = typename KeyOf<T>::type;

    // dst: the box of src's output at `origin` (all of it by default).
    NetworkFilter3D(const ConstImageView& src, const ImageView& dst, const Footprint3D& fp,
                    NetworkTile3D tile, Border border, double cval, const Origin& origin)
        : src_(src), dst_(dst), fp_(fp), tile_(tile), origin_x_(origin.x), width_(dst.width),
          xs_(border_table(src.width, fp.radius_x, border, origin.x, dst.width)),
          ys_(border_table(src.height, fp.radius_y, border, origin.y, dst.height)),
          zs_(border_table(src.planes, fp.radius_z, border, origin.plane, dst.planes)),
          outside_(static_cast<K>(OrderKey<T>::to_key(constant_value<T>(cval)))),
          avx2_(use_avx2_kernels()),
          in_keys_(dst.width + 2 * fp.radius_x + kRowSlackKeys),
          out_stride_(dst.width + kRowSlackKeys),
          stream_out_(dst.width * dst.height * dst.planes * static_cast<std::int64_t>(sizeof(T)) >= kStreamOutBytes) {}

    // Filters rows [y0, y1) of dst's tile of planes from z0, tile by tile. Each input plane's
    // padded rows live in a ring of tile rows + 2 * radius_y slots, so each source row is padded
    // once per band.
    void run(std::int64_t z0, std::int64_t y0, std::int64_t y1) const {
        const int rows = tile_.rows + 2 * fp_.radius_y, planes = tile_.planes + 2 * fp_.radius_z;
        std::vector<K> ring(static_cast<std::size_t>(planes * rows * in_keys_));
        std::vector<const K*> in(static_cast<std::size_t>(planes * rows));
        std::vector<K> out(static_cast<std::size_t>(tile_.planes * tile_.rows * out_stride_));
        std::vector<K*> out_rows(static_cast<std::size_t>(tile_.planes * tile_.rows));
        for (std::size_t i = 0; i < out_rows.size(); ++i) out_rows[i] = out.data() + i * out_stride_;
        // Padded row i (source row i - radius_y, relative to y0) of plane p lives in slot i % rows.
        auto slot = [&](int p, std::int64_t i) {
            return ring.data() + (p * rows + i % rows) * in_keys_;
        };
        std::int64_t padded = 0;
        for (std::int64_t y = y0; y < y1; y += tile_.rows) {
            const std::int64_t first = y - y0, end = first + rows;
            for (; padded < end; ++padded)
                for (int p = 0; p < planes; ++p)
                    pad_row(source(zs_, z0 + p), source(ys_, y0 + padded), slot(p, padded));
            for (int p = 0; p < planes; ++p)
                for (int r = 0; r < rows; ++r) in[p * rows + r] = slot(p, first + r);
            const VolumeKeyBlock<K> block{in.data(), out_rows.data(), width_};
            if (avx2_) network3d_median_avx2(block, fp_);
            else network3d_median_portable(block, fp_);
            for (int z = 0; z < tile_.planes && z0 + z < dst_.planes; ++z)
                for (int r = 0; r < tile_.rows && y + r < y1; ++r)
                    from_keys(out_rows[z * tile_.rows + r],
                              reinterpret_cast<T*>(dst_.row(z0 + z, y + r)));
        }
        if (stream_out_) stream_fence();  // once a band, not a row (keys_to_pixels)
    }

private:
    // Entry i of a border table; -1 (the constant) past its end, for a tile's rows and planes
    // beyond dst, whose outputs are not written.
    static std::int64_t source(const std::vector<std::int64_t>& table, std::int64_t i) {
        return i < static_cast<std::int64_t>(table.size()) ? table[i] : -1;
    }

    void to_keys(const T* pixels, K* keys) const {
        if constexpr (std::is_same_v<T, K>) std::memcpy(keys, pixels, width_ * sizeof(K));
        else if (avx2_) float_to_keys_avx2(pixels, width_, keys);
        else float_to_keys_portable(pixels, width_, keys);
    }
    // Writes a row of output keys as pixels; the keys may be overwritten.
    void from_keys(K* keys, T* pixels) const { keys_to_pixels(keys, pixels, width_, avx2_, stream_out_); }

    // Keys of source row (sz, sy) (-1: the constant) under dst's columns, extended by radius_x
    // on both sides.
    void pad_row(std::int64_t sz, std::int64_t sy, K* keys) const {
        const std::int64_t w = width_, rx = fp_.radius_x;
        if (sz < 0 || sy < 0) {
            std::fill(keys, keys + w + 2 * rx, outside_);
            return;
        }
        const T* s = reinterpret_cast<const T*>(src_.row(sz, sy));
        auto key = [&](std::int64_t sx) {
            return sx < 0 ? outside_ : static_cast<K>(OrderKey<T>::to_key(s[sx]));
        };
        for (std::int64_t p = 0; p < rx; ++p) keys[p] = key(xs_[p]);
        to_keys(s + origin_x_, keys + rx);
        for (std::int64_t p = rx + w; p < w + 2 * rx; ++p) keys[p] = key(xs_[p]);
    }

    const ConstImageView& src_;
    const ImageView& dst_;
    const Footprint3D& fp_;
    NetworkTile3D tile_;
    std::int64_t origin_x_, width_;  // dst's first column in src, and its width
    std::vector<std::int64_t> xs_, ys_, zs_;
    K outside_;
    bool avx2_;
    std::int64_t in_keys_, out_stride_;
    bool stream_out_;  // the output goes to memory with streaming stores (keys_to_pixels)
};

template <class T>
void network_filter3d(const ConstImageView& src, const ImageView& dst, const Footprint3D& fp,
                      NetworkTile3D tile, Border border, double cval, const Origin& origin) {
    const NetworkFilter3D<T> filter(src, dst, fp, tile, border, cval, origin);
    const int threads =
        dst.width * dst.height * dst.planes < kMinVoxelsForThreads ? 1 : cpu_threads();
    // Bands of whole tiles, about two tasks per thread, so that the last tasks even out.
    const std::int64_t tiles_y = (dst.height + tile.rows - 1) / tile.rows;
    const std::int64_t tiles_z = (dst.planes + tile.planes - 1) / tile.planes;
    const std::int64_t bands =
        std::clamp<std::int64_t>((2 * threads + tiles_z - 1) / tiles_z, 1, (dst.height + 15) / 16);
    parallel_for(tiles_z * bands, threads, [&](std::int64_t i) {
        const std::int64_t z = i / bands, b = i % bands;
        filter.run(z * tile.planes, tile.rows * (tiles_y * b / bands),
                   std::min(dst.height, tile.rows * (tiles_y * (b + 1) / bands)));
    });
}

// Where the windows of a call read: border tables along each axis (output index + offset +
// radius -> input index, or -1 for the constant), the window's rows (dz, dy) that hold any
// voxel, and the same rows as one 2D window of runs for Huang's sliding histogram.
struct WindowRows3D {
    WindowRows3D(const ConstImageView& src, const ImageView& dst, const Footprint3D& fp,
                 Border border, const Origin& origin)
        : xs(border_table(src.width, fp.radius_x, border, origin.x, dst.width)),
          ys(border_table(src.height, fp.radius_y, border, origin.y, dst.height)),
          zs(border_table(src.planes, fp.radius_z, border, origin.plane, dst.planes)),
          rows(fp.rows()), planes(2 * fp.radius_z + 1) {
        flat.radius_x = fp.radius_x;
        for (int r = 0; r < planes * rows; ++r)
            if (fp.half_width[r] >= 0) {
                filled.push_back(r);
                flat.half_width.push_back(fp.half_width[r]);
            }
        flat.radius_y = static_cast<int>(flat.half_width.size()) / 2;
        flat.count = fp.count;
    }
    // k[c] = the key of input plane zs[zi], row ys[yi], column xs[x0 + c], for c in [0, n): the
    // constant's key outside the volume.
    template <class T>
    void key_row(std::uint32_t* k, const ConstImageView& src, std::int64_t zi, std::int64_t yi,
                 std::int64_t x0, std::int64_t n, std::uint32_t outside) const {
        const std::int64_t sz = zs[zi], sy = ys[yi];
        const T* row = sz < 0 || sy < 0 ? nullptr : reinterpret_cast<const T*>(src.row(sz, sy));
        for (std::int64_t c = 0; c < n; ++c) {
            const std::int64_t sx = xs[x0 + c];
            k[c] = row == nullptr || sx < 0 ? outside : OrderKey<T>::to_key(row[sx]);
        }
    }

    std::vector<std::int64_t> xs, ys, zs;
    int rows, planes;
    std::vector<int> filled;
    Footprint flat;
};

// u8 and u16 windows without a network, and the reference: each output row's window rows as
// padded keys; then (not the reference) Huang's sliding histogram along the row, else each
// voxel's window copied and selected with nth_element.
template <class T>
void median3d_typed(const ConstImageView& src, const ImageView& dst, const Footprint3D& fp,
                    Border border, double cval, const Origin& origin, bool reference) {
    const int threads = reference ? 1 : cpu_threads();
    const WindowRows3D w(src, dst, fp, border, origin);
    const std::uint32_t outside = OrderKey<T>::to_key(constant_value<T>(cval));
    const std::int64_t padded = dst.width + 2 * fp.radius_x;
    const int rows = w.rows, planes = w.planes;

    parallel_for(dst.planes * dst.height, threads, [&](std::int64_t i) {
        const std::int64_t z = i / dst.height, y = i % dst.height;
        // Padded key row (dz, dy) of this output row, for the rows the window reaches.
        std::vector<std::uint32_t> keys(static_cast<std::size_t>(planes * rows * padded));
        for (int dz = -fp.radius_z; dz <= fp.radius_z; ++dz)
            for (int dy = -fp.radius_y; dy <= fp.radius_y; ++dy) {
                if (fp.half(dz, dy) < 0) continue;
                w.key_row<T>(keys.data() + ((dz + fp.radius_z) * rows + dy + fp.radius_y) * padded, src,
                             z + dz + fp.radius_z, y + dy + fp.radius_y, 0, padded, outside);
            }
        T* out = reinterpret_cast<T*>(dst.row(z, y));
        if constexpr (!std::is_same_v<T, float>) {
            if (!reference) {  // u8 and u16 keys are the pixels themselves
                std::vector<const std::uint32_t*> row_keys;
                for (int r : w.filled) row_keys.push_back(keys.data() + r * padded);
                constexpr bool u8 = std::is_same_v<T, std::uint8_t>;
                sliding_histogram_row(row_keys.data(), out, dst.width, w.flat, u8 ? 256 : 65536, u8 ? 4 : 8);
                return;
            }
        }
        std::vector<std::uint32_t> window(static_cast<std::size_t>(fp.count));
        for (std::int64_t x = 0; x < dst.width; ++x) {
            auto n = window.begin();
            for (int r = 0; r < planes * rows; ++r) {
                const int h = fp.half_width[r];
                if (h < 0) continue;
                const std::uint32_t* k = keys.data() + r * padded + x + fp.radius_x;
                n = std::copy(k - h, k + h + 1, n);
            }
            const auto mid = window.begin() + fp.rank();
            std::nth_element(window.begin(), mid, window.end());
            out[x] = OrderKey<T>::from_key(*mid);
        }
    });
}

// Output rows and columns of a tile of the ranked f32 path: its keys (every plane and row its
// windows reach, 7 x 38 x 262 for box 7x7x7) number its ranks, which the sliding histogram
// indexes, so a tile's histogram stays near a core's L2 cache; taller tiles would share the
// sort among more outputs but hold more ranks.
constexpr std::int64_t kRankedTileRows = 32;
constexpr std::int64_t kRankedTileColumns = 256;

// f32 windows without a network: the keys of a tile of outputs (the rows of every plane its
// windows reach) replaced by their dense ranks, then Huang's sliding histogram along each
// output row over the ranks, which map back to exactly the median keys. Float keys have no
// small range to index a histogram by (sorting each voxel's window instead: 0.6 Mvox/s for box
// 7x7x7 on 2 cores), and a tile's sort is shared by all of its outputs.
void median3d_ranked_f32(const ConstImageView& src, const ImageView& dst, const Footprint3D& fp,
                         Border border, double cval, const Origin& origin) {
    const WindowRows3D w(src, dst, fp, border, origin);
    const std::uint32_t outside = OrderKey<float>::to_key(constant_value<float>(cval));
    const std::int64_t tiles_y = (dst.height + kRankedTileRows - 1) / kRankedTileRows;
    const std::int64_t tiles_x = (dst.width + kRankedTileColumns - 1) / kRankedTileColumns;
    const int threads = dst.width * dst.height * dst.planes < kMinVoxelsForThreads ? 1 : cpu_threads();
    parallel_for(dst.planes * tiles_y * tiles_x, threads, [&](std::int64_t i) {
        const std::int64_t z = i / (tiles_y * tiles_x);
        const std::int64_t y0 = i / tiles_x % tiles_y * kRankedTileRows;
        const std::int64_t x0 = i % tiles_x * kRankedTileColumns;
        const std::int64_t out_rows = std::min(kRankedTileRows, dst.height - y0);
        const std::int64_t out_width = std::min(kRankedTileColumns, dst.width - x0);
        const std::int64_t in_rows = out_rows + 2 * fp.radius_y;
        const std::int64_t padded = out_width + 2 * fp.radius_x;
        // Tile row (plane p, row t) holds input plane zs[z + p], row ys[y0 + t].
        std::vector<std::uint32_t> keys(static_cast<std::size_t>(w.planes * in_rows * padded));
        std::vector<const std::uint32_t*> key_rows;
        for (int p = 0; p < w.planes; ++p)
            for (std::int64_t t = 0; t < in_rows; ++t) {
                std::uint32_t* k = keys.data() + (p * in_rows + t) * padded;
                w.key_row<float>(k, src, z + p, y0 + t, x0, padded, outside);
                key_rows.push_back(k);
            }
        RankedKeys ranked;
        rank_keys(key_rows.data(), padded, static_cast<std::int64_t>(key_rows.size()), ranked);
        const auto levels = static_cast<std::uint32_t>(ranked.keys.size());
        std::vector<const std::uint32_t*> window_rows(w.filled.size());
        std::vector<std::uint32_t> out_ranks(static_cast<std::size_t>(out_width));
        for (std::int64_t j = 0; j < out_rows; ++j) {
            for (std::size_t r = 0; r < w.filled.size(); ++r) {
                const int p = w.filled[r] / w.rows, dy = w.filled[r] % w.rows;  // dy + radius_y
                window_rows[r] = ranked.ranks.data() + (p * in_rows + j + dy) * padded;
            }
            sliding_histogram_ranks(window_rows.data(), out_ranks.data(), out_width, w.flat, levels);
            float* out = reinterpret_cast<float*>(dst.row(z, y0 + j)) + x0;
            for (std::int64_t x = 0; x < out_width; ++x)
                out[x] = OrderKey<float>::from_key(ranked.keys[out_ranks[static_cast<std::size_t>(x)]]);
        }
    });
}

}  // namespace

void median3d_cpu(const ConstImageView& src, const ImageView& dst, const Footprint3D& fp,
                  Border border, double cval, const Origin& origin, bool reference) {
    if (const auto planar = reference ? std::nullopt : planar_footprint(fp))
        return median2d_cpu(src, dst, *planar, border, cval, origin);
    const NetworkTile3D tile = reference ? NetworkTile3D{} : network3d_tile(fp);
    if (tile.rows > 0) {
        switch (src.type) {
            case PixelType::u8: network_filter3d<std::uint8_t>(src, dst, fp, tile, border, cval, origin); break;
            case PixelType::u16: network_filter3d<std::uint16_t>(src, dst, fp, tile, border, cval, origin); break;
            case PixelType::f32: network_filter3d<float>(src, dst, fp, tile, border, cval, origin); break;
        }
        return;
    }
    switch (src.type) {
        case PixelType::u8: median3d_typed<std::uint8_t>(src, dst, fp, border, cval, origin, reference); break;
        case PixelType::u16: median3d_typed<std::uint16_t>(src, dst, fp, border, cval, origin, reference); break;
        case PixelType::f32:
            if (reference) median3d_typed<float>(src, dst, fp, border, cval, origin, reference);
            else median3d_ranked_f32(src, dst, fp, border, cval, origin);
            break;
    }
}

}  // namespace fastmedian::detail
