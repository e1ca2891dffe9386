// The separable median smoother on the CPU (background method separable): a 1D median of
// 2 * radius + 1 down each column, then along each row, with the border mode at both passes.
// Works on order keys (semantics/order_key.hpp), so the result is exactly one of the input values.
#pragma once

#include "fastmedian/image.hpp"
#include "fastmedian/options.hpp"
#include "semantics/median_output.hpp"

namespace fastmedian::detail {

// Fast: every column's and row's window kept sorted and slid (sorted_window.hpp), on all cores.
// dst receives median_output(src, smoothed, mode) for every plane. Expects validated views.
void separable_median_cpu(const ConstImageView& src, const ImageView& dst, int radius,
                          Border border, double cval, const kernels::OutputMode& mode);

// The reference: every 1D window copied out and nth_element'ed.
void separable_median_reference(const ConstImageView& src, const ImageView& dst, int radius,
                                Border border, double cval, const kernels::OutputMode& mode);

}  // namespace fastmedian::detail
