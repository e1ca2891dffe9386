#include "support/cancel.hpp"

#include "fastmedian/cancel.hpp"
#include "fastmedian/errors.hpp"

namespace fastmedian {

namespace {
thread_local const std::atomic<bool>* current_flag = nullptr;
}  // namespace

CancelScope::CancelScope(const std::atomic<bool>& flag) noexcept : previous_(current_flag) {
    current_flag = &flag;
}

CancelScope::~CancelScope() { current_flag = previous_; }

namespace detail {

const std::atomic<bool>* cancel_flag() noexcept { return current_flag; }

UseCancelFlag::UseCancelFlag(const std::atomic<bool>* flag) noexcept : previous_(current_flag) {
    current_flag = flag;
}

UseCancelFlag::~UseCancelFlag() { current_flag = previous_; }

void throw_if_cancelled() {
    // Relaxed: the flag carries no data with it; the caller only needs to see it soon.
    if (current_flag != nullptr && current_flag->load(std::memory_order_relaxed))
        throw Error(ErrorCode::cancelled, "cancelled (the caller's CancelScope flag was set)");
}

}  // namespace detail
}  // namespace fastmedian
