#include "median3d_padded.cuh"

#include <cstdint>
#include <utility>

#include "generated/median_networks.cuh"
#include "median_lanes.cuh"
#include "semantics/border_index.hpp"
#include "semantics/order_key.hpp"
#include "staged_tile.cuh"

namespace fastmedian::kernels {

namespace {

constexpr int kThreadsX = 32, kThreadsY = 8, kThreads = kThreadsX * kThreadsY;
constexpr unsigned kMaxGridY = 65535, kMaxGridZ = 65535;
constexpr std::size_t kSharedBytes = 48 * 1024;

// The window as the kernel reads it, passed by value: the staged box's shape and where each
// of the window's keys lies from a thread's first (its window's corner), in staged keys.
struct PaddedWindow {
    int count;
    int radius_x, radius_y, radius_z;
    int in_cols, in_rows;  // of a plane of the staged box
    int offsets[kMaxPaddedWindow];
};

// The staged box of a block of T: columns, rows, planes.
struct Box {
    int cols, rows, planes;
};
template <class T>
Box box_of(int radius_x, int radius_y, int radius_z) {
    return {kThreadsX * LanesFor<T>::type::kCols + 2 * radius_x, kThreadsY + 2 * radius_y, 2 * radius_z + 1};
}

// The shared memory of a block of T: each staged row's source, each staged column's, the keys.
template <class T>
std::size_t shared_bytes(int radius_x, int radius_y, int radius_z) {
    const Box b = box_of<T>(radius_x, radius_y, radius_z);
    const std::size_t rows = static_cast<std::size_t>(b.rows) * b.planes;
    return rows * sizeof(std::int64_t) + static_cast<std::size_t>(b.cols) * sizeof(int) +
           rows * b.cols * sizeof(typename StagedKey<T>::type);
}

// N: the padded size; the window has w.count <= N keys.
template <int N, class T, class L>
__global__ void __launch_bounds__(kThreads)
median3d_padded(const __grid_constant__ VolumeArgs a, const __grid_constant__ PaddedWindow w) {
    using Key = typename StagedKey<T>::type;
    // The source of each staged row (plane, row), a byte offset or -1 for the constant; of
    // each staged column, a column or -1; then the keys.
    extern __shared__ std::int64_t shared[];
    const int planes = 2 * w.radius_z + 1, rows = planes * w.in_rows;
    std::int64_t* row_at = shared;
    int* col_of = reinterpret_cast<int*>(row_at + rows);
    Key* tile = reinterpret_cast<Key*>(col_of + w.in_cols);

    const int x0 = blockIdx.x * kThreadsX * L::kCols, y0 = blockIdx.y * kThreadsY;
    const int z = a.first_plane + blockIdx.z;
    const int tid = threadIdx.y * kThreadsX + threadIdx.x;
    for (int i = tid; i < w.in_cols; i += kThreads)
        col_of[i] = static_cast<int>(border_index(x0 - w.radius_x + i, a.width, a.border));
    for (int i = tid; i < rows; i += kThreads) {
        const int p = i / w.in_rows, r = i - p * w.in_rows;
        const std::int64_t sz = border_index(z - w.radius_z + p, a.depth, a.border);
        const std::int64_t sy = border_index(y0 - w.radius_y + r, a.height, a.border);
        row_at[i] = sz < 0 || sy < 0 ? -1 : sz * a.src_plane_stride + sy * a.src_pitch;
    }
    __syncthreads();
    // Warps take staged rows, lanes their columns: each warp reads along a source row.
    const char* src = static_cast<const char*>(a.src);
    for (int i = threadIdx.y; i < rows; i += kThreadsY) {
        const std::int64_t at = row_at[i];
        const T* row = reinterpret_cast<const T*>(src + (at < 0 ? 0 : at));
        for (int c = threadIdx.x; c < w.in_cols; c += kThreadsX) {
            const int sx = col_of[c];
            tile[i * w.in_cols + c] = static_cast<Key>(
                at < 0 || sx < 0 ? a.outside_key : OrderKey<T>::to_key(row[sx]));
        }
    }
    __syncthreads();

    const int lx = threadIdx.x * L::kCols, x = x0 + lx, y = y0 + threadIdx.y;
    if (x >= a.width || y >= a.height) return;
    const Key* corner = tile + threadIdx.y * w.in_cols + lx;
    // Keys past the window's: half of them below every key, half above (the pad is even: a
    // centred window has an odd count, as every padded size is).
    const int low_end = w.count + (N - w.count) / 2;
    std::uint32_t v[N];
#pragma unroll
    for (int i = 0; i < N; ++i)
        v[i] = i < w.count ? pack_keys<L>(corner, w.offsets[i]) : i < low_end ? 0u : 0xFFFFFFFFu;
    const std::uint32_t m = median_of<N, L>(v);
    T* out = reinterpret_cast<T*>(static_cast<char*>(a.dst) + z * a.dst_plane_stride +
                                  static_cast<std::int64_t>(y) * a.dst_pitch);
#pragma unroll
    for (int i = 0; i < L::kCols; ++i)
        if (x + i < a.width) out[x + i] = OrderKey<T>::from_key(lane_key<L>(m, i));
}

constexpr std::size_t kPaddedSizeCount = sizeof(kPaddedSizes) / sizeof(kPaddedSizes[0]);
static_assert(kPaddedSizes[kPaddedSizeCount - 1] == kMaxPaddedWindow, "the largest padded size");

template <class T, class L, std::size_t... I>
void launch_padded(dim3 grid, std::size_t shared, cudaStream_t stream, const VolumeArgs& a,
                   const PaddedWindow& w, std::index_sequence<I...>) {
    // Launches the kernel of the first size at least w.count (the window has at most the last
    // size's keys: median3d_padded_serves).
    const bool launched = ((w.count <= kPaddedSizes[I] &&
                            (median3d_padded<kPaddedSizes[I], T, L>
                                 <<<grid, dim3(kThreadsX, kThreadsY), shared, stream>>>(a, w),
                             true)) || ...);
    (void)launched;
}

// The window's offsets in the staged box of a block of T (w.count counts all its keys, also past
// kMaxPaddedWindow, where only the first are kept).
template <class T>
PaddedWindow padded_window(const int* half_width, int radius_x, int radius_y, int radius_z) {
    const Box b = box_of<T>(radius_x, radius_y, radius_z);
    PaddedWindow w{};
    w.radius_x = radius_x;
    w.radius_y = radius_y;
    w.radius_z = radius_z;
    w.in_cols = b.cols;
    w.in_rows = b.rows;
    const int rows = 2 * radius_y + 1;
    for (int dz = -radius_z; dz <= radius_z; ++dz)
        for (int dy = -radius_y; dy <= radius_y; ++dy) {
            const int h = half_width[(dz + radius_z) * rows + dy + radius_y];
            for (int dx = -h; dx <= h; ++dx) {
                if (w.count < kMaxPaddedWindow)
                    w.offsets[w.count] = ((dz + radius_z) * b.rows + dy + radius_y) * b.cols + dx + radius_x;
                ++w.count;
            }
        }
    return w;
}

template <class T>
cudaError_t launch(const VolumeArgs& a, int planes, const int* half_width, int radius_x, int radius_y,
                   int radius_z, cudaStream_t stream) {
    const PaddedWindow w = padded_window<T>(half_width, radius_x, radius_y, radius_z);
    // More keys than the largest padded size, or an even count (a centred window's is odd).
    if (w.count > kMaxPaddedWindow || w.count % 2 == 0) return cudaErrorInvalidValue;
    using L = typename LanesFor<T>::type;
    const dim3 grid((a.width + kThreadsX * L::kCols - 1) / (kThreadsX * L::kCols),
                    (a.height + kThreadsY - 1) / kThreadsY, planes);
    if (grid.y > kMaxGridY || grid.z > kMaxGridZ) return cudaErrorInvalidConfiguration;
    // The first padded size that holds the window.
    launch_padded<T, L>(grid, shared_bytes<T>(radius_x, radius_y, radius_z), stream, a, w,
                        std::make_index_sequence<kPaddedSizeCount>{});
    return cudaGetLastError();
}

}  // namespace

std::size_t median3d_padded_shared_bytes(PixelType type, int radius_x, int radius_y, int radius_z) {
    switch (type) {
        case PixelType::u8: return shared_bytes<std::uint8_t>(radius_x, radius_y, radius_z);
        case PixelType::u16: return shared_bytes<std::uint16_t>(radius_x, radius_y, radius_z);
        case PixelType::f32: return shared_bytes<float>(radius_x, radius_y, radius_z);
    }
    return 0;
}

bool median3d_padded_serves(PixelType type, int count, int radius_x, int radius_y, int radius_z, int height) {
    return count <= kMaxPaddedWindow &&
           median3d_padded_shared_bytes(type, radius_x, radius_y, radius_z) <= kSharedBytes &&
           static_cast<unsigned>((height + kThreadsY - 1) / kThreadsY) <= kMaxGridY;
}

cudaError_t launch_median3d_padded(PixelType type, const VolumeArgs& volume, int planes,
                                   const int* half_width, int radius_x, int radius_y,
                                   int radius_z, cudaStream_t stream) {
    switch (type) {
        case PixelType::u8:
            return launch<std::uint8_t>(volume, planes, half_width, radius_x, radius_y, radius_z, stream);
        case PixelType::u16:
            return launch<std::uint16_t>(volume, planes, half_width, radius_x, radius_y, radius_z, stream);
        case PixelType::f32:
            return launch<float>(volume, planes, half_width, radius_x, radius_y, radius_z, stream);
    }
    return cudaErrorInvalidValue;
}

}  // namespace fastmedian::kernels
