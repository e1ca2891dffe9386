// The rank-r key of a sliding window of 8-bit keys, kept as a histogram of 256 bins: a key
// enters and one leaves per step at a constant cost, and the rank's bin moves from where it
// was, across at most 256 bins. Serves the separable median's 1D passes on u8, whose sorted
// windows cost O(window) a step. (16-bit keys are not served: on full-range noise the rank's
// bin jumps thousands of bins a step, slower than a sorted window.)
#pragma once

#include <array>
#include <cstdint>

namespace fastmedian::detail {

class SlidingHistogram {
public:
    // `rank`: which key value() gives, 0 for the smallest in the window. Counts are 16-bit: at
    // most 65535 keys at once.
    explicit SlidingHistogram(int rank) : rank_(rank) {}

    void add(std::uint8_t k) {
        ++bins_[k];
        below_ += k < bin_ ? 1 : 0;
    }
    void remove(std::uint8_t k) {
        --bins_[k];
        below_ -= k < bin_ ? 1 : 0;
    }

    // The rank-th key of those held (there must be more than `rank`).
    std::uint8_t value() {
        // below_ counts the keys under bin_; the rank's key is bin_ once
        // below_ <= rank < below_ + bins_[bin_].
        while (below_ > rank_) below_ -= bins_[--bin_];
        while (below_ + bins_[bin_] <= rank_) below_ += bins_[bin_++];
        return static_cast<std::uint8_t>(bin_);
    }

private:
    std::array<std::uint16_t, 256> bins_{};
    int rank_;
    unsigned bin_ = 0;  // where the last walk ended: the next starts there
    int below_ = 0;
};

}  // namespace fastmedian::detail
