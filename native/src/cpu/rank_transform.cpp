#include "cpu/rank_transform.hpp"

#include <array>

namespace fastmedian::detail {

namespace {

// LSD radix sort of (key << 32 | index) by the key's bytes; bytes on which every key agrees
// (often the sign and exponent byte of floats in an image) cost no pass.
void sort_by_key(std::vector<std::uint64_t>& items, std::vector<std::uint64_t>& spare) {
    std::array<std::array<std::size_t, 256>, 4> counts{};
    for (std::uint64_t item : items)
        for (int b = 0; b < 4; ++b) ++counts[b][(item >> (32 + 8 * b)) & 0xFF];
    spare.resize(items.size());
    for (int b = 0; b < 4; ++b) {
        std::array<std::size_t, 256>& c = counts[b];
        bool one_bucket = false;
        for (std::size_t n : c) one_bucket |= n == items.size();
        if (one_bucket) continue;
        std::size_t sum = 0;
        for (std::size_t& n : c) {
            const std::size_t here = n;
            n = sum;
            sum += here;
        }
        for (std::uint64_t item : items) spare[c[(item >> (32 + 8 * b)) & 0xFF]++] = item;
        items.swap(spare);
    }
}

}  // namespace

void rank_keys(const std::uint32_t* const* rows, std::int64_t width, std::int64_t n_rows,
               RankedKeys& out) {
    std::vector<std::uint64_t> items(static_cast<std::size_t>(width * n_rows)), spare;
    for (std::int64_t r = 0; r < n_rows; ++r)
        for (std::int64_t x = 0; x < width; ++x)
            items[r * width + x] =
                (std::uint64_t{rows[r][x]} << 32) | static_cast<std::uint64_t>(r * width + x);
    sort_by_key(items, spare);
    out.ranks.resize(items.size());
    out.keys.clear();
    for (std::uint64_t item : items) {
        const auto key = static_cast<std::uint32_t>(item >> 32);
        if (out.keys.empty() || out.keys.back() != key) out.keys.push_back(key);
        out.ranks[static_cast<std::uint32_t>(item)] = static_cast<std::uint32_t>(out.keys.size() - 1);
    }
}

void rank_keys(const std::uint16_t* const* rows, std::int64_t width, std::int64_t n_rows,
               RankedKeys& out) {
    std::vector<std::uint32_t> rank_of(std::size_t{1} << 16, 0);
    for (std::int64_t r = 0; r < n_rows; ++r)
        for (std::int64_t x = 0; x < width; ++x) rank_of[rows[r][x]] = 1;
    out.keys.clear();
    for (std::uint32_t v = 0; v < rank_of.size(); ++v)
        if (rank_of[v] != 0) {
            rank_of[v] = static_cast<std::uint32_t>(out.keys.size());
            out.keys.push_back(v);
        }
    out.ranks.resize(static_cast<std::size_t>(width * n_rows));
    for (std::int64_t r = 0; r < n_rows; ++r)
        for (std::int64_t x = 0; x < width; ++x) out.ranks[r * width + x] = rank_of[rows[r][x]];
}

}  // namespace fastmedian::detail
