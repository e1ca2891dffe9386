// The rank-r key of a sliding window of 8- or 16-bit keys, kept as a histogram: a key enters
// and one leaves per step at a constant cost, and the rank's bin moves from where it was, a few
// bins at a time on images (a window moving by one pixel changes little). 16-bit keys keep a
// coarse histogram of 256 bins of 256 beside, so the walk skips empty stretches in strides of
// 256. Serves the separable median's 1D passes, whose sorted windows cost O(window) a step.
#pragma once

#include <cstdint>
#include <type_traits>
#include <vector>

namespace fastmedian::detail {

template <class K>
class SlidingHistogram {
    static_assert(std::is_same_v<K, std::uint8_t> || std::is_same_v<K, std::uint16_t>,
                  "8- or 16-bit keys");
    static constexpr bool kCoarse = sizeof(K) == 2;

public:
    // `rank`: which key value() gives, 0 for the smallest in the window. Counts are 16-bit: at
    // most 65535 keys at once.
    explicit SlidingHistogram(int rank)
        : fine_(std::size_t{1} << (8 * sizeof(K))), coarse_(kCoarse ? 256 : 0), rank_(rank) {}

    void add(K k) {
        ++fine_[k];
        if constexpr (kCoarse) ++coarse_[k >> 8];
        below_ += k < bin_ ? 1 : 0;
    }
    void remove(K k) {
        --fine_[k];
        if constexpr (kCoarse) --coarse_[k >> 8];
        below_ -= k < bin_ ? 1 : 0;
    }

    // The rank-th key of those held (there must be more than `rank`).
    K value() {
        // below_ counts the keys under bin_; the rank's key is bin_ once
        // below_ <= rank < below_ + fine_[bin_].
        while (below_ > rank_) {
            if constexpr (kCoarse) {
                while (bin_ != 0 && (bin_ & 255) == 0 &&
                       below_ - coarse_[(bin_ >> 8) - 1] > rank_) {
                    bin_ -= 256;
                    below_ -= coarse_[bin_ >> 8];
                }
            }
            --bin_;
            below_ -= fine_[bin_];
        }
        while (below_ + fine_[bin_] <= rank_) {
            below_ += fine_[bin_];
            ++bin_;
            if constexpr (kCoarse) {
                while ((bin_ & 255) == 0 && below_ + coarse_[bin_ >> 8] <= rank_) {
                    below_ += coarse_[bin_ >> 8];
                    bin_ += 256;
                }
            }
        }
        return static_cast<K>(bin_);
    }

private:
    std::vector<std::uint16_t> fine_, coarse_;
    int rank_;
    std::uint32_t bin_ = 0;  // where the last walk ended: the next starts there
    std::int64_t below_ = 0;
};

}  // namespace fastmedian::detail
