// Any window (large squares, large circles) by Huang's sliding histogram over the window's row
// runs: moving one pixel right removes the left end of every run and adds the new right end,
// and the median is tracked incrementally on a two-level (coarse/fine) histogram. u8 and u16
// keys index the histogram directly; f32 keys are first replaced by their rank among the
// block's distinct keys, which keeps the histogram small and the result exact. Squares take
// Perreault and Hebert's constant-time median instead (column histograms): u8 keys directly,
// u16 and f32 keys over their ranks in the block.
#pragma once

#include <cstdint>
#include <vector>

#include "cpu/key_block.hpp"
#include "cpu/rank_transform.hpp"
#include "semantics/footprint.hpp"

namespace fastmedian::detail {

// What histogram_median keeps from one block to the next of a band: the column histograms are
// left at zero after each block, so a later block pays only for any growth.
struct HistogramScratch {
    RankedKeys ranked;
    std::vector<std::uint8_t> counts;
    std::vector<std::uint16_t> row_group;
};

template <class K>
void histogram_median(const KeyBlock<K>& block, const Footprint& fp, HistogramScratch& scratch);

// Huang's sliding histogram over one output row of `width` medians of keys in [0, levels)
// (u8 and u16 pixels as they are): `fp` lists the window's rows as runs and rows[j] points at
// row j's keys for the window of output 0. For windows of any shape that have no network,
// such as the 3D median's (the rows of every plane the window reaches); coarse bins of
// 2^shift keys.
template <class Out>
void sliding_histogram_row(const std::uint32_t* const* rows, Out* out, std::int64_t width,
                           const Footprint& fp, std::uint32_t levels, int shift);

// sliding_histogram_row over dense ranks in [0, levels) (keys ranked first, as the 3D median's
// f32 windows without a network are), with coarse bins of about sqrt(levels) ranks.
void sliding_histogram_ranks(const std::uint32_t* const* rows, std::uint32_t* out, std::int64_t width,
                             const Footprint& fp, std::uint32_t levels);

// Output rows per block that suit histogram_median<K> for this window: the constant-time
// squares set up a histogram per input column for each block, so they take taller blocks than
// the others (whose float path ranks each block's keys at once).
template <class K>
int histogram_block_rows(const Footprint& fp);

}  // namespace fastmedian::detail
