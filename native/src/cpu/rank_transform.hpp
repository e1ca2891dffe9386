// Dense ranks of 32-bit keys: equal keys share a rank and ranks keep the keys' order, so a
// median over ranks maps back to exactly the median key.
#pragma once

#include <cstdint>
#include <vector>

namespace fastmedian::detail {

struct RankedKeys {
    std::vector<std::uint32_t> ranks;  // rows x width, dense
    std::vector<std::uint32_t> keys;   // keys[r]: the key of rank r (ascending, distinct)
};

// Ranks the keys of rows[0..n_rows), `width` keys each, into `out`, reusing its storage.
void rank_keys(const std::uint32_t* const* rows, std::int64_t width, std::int64_t n_rows,
               RankedKeys& out);
// The same for 16-bit keys, through a table of every 16-bit value instead of a sort.
void rank_keys(const std::uint16_t* const* rows, std::int64_t width, std::int64_t n_rows,
               RankedKeys& out);

}  // namespace fastmedian::detail
