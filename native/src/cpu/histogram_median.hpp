// Any window (large squares, large circles) by Huang's sliding histogram over the window's row
// runs: moving one pixel right removes the left end of every run and adds the new right end,
// and the median is tracked incrementally on a two-level (coarse/fine) histogram. u8 and u16
// keys index the histogram directly; f32 keys are first replaced by their rank among the
// block's distinct keys, which keeps the histogram small and the result exact. u8 squares
// take Perreault and Hebert's constant-time median instead (column histograms).
#pragma once

#include "core/footprint.hpp"
#include "cpu/key_block.hpp"

namespace fastmedian::detail {

template <class K>
void histogram_median(const KeyBlock<K>& block, const Footprint& fp);

// Output rows per block that suit histogram_median<K> for this window: u8 squares set up a
// histogram per input column for each block, so they take taller blocks than the others
// (whose float path ranks each block's keys at once).
template <class K>
int histogram_block_rows(const Footprint& fp);

}  // namespace fastmedian::detail
