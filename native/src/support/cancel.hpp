// The thread's cancel flag (fastmedian/cancel.hpp) as the backends see it.
#pragma once

#include <atomic>

namespace fastmedian::detail {

// The flag of the innermost CancelScope on this thread, or of the job a pool worker is working
// on (parallel_for); null when nothing can cancel the current call.
const std::atomic<bool>* cancel_flag() noexcept;

// Makes `flag` (possibly null) this thread's while it lives: parallel_for's workers take the
// flag of the call they help, so that parallel_for calls nested in its body check it too.
class UseCancelFlag {
public:
    explicit UseCancelFlag(const std::atomic<bool>* flag) noexcept;
    ~UseCancelFlag();
    UseCancelFlag(const UseCancelFlag&) = delete;
    UseCancelFlag& operator=(const UseCancelFlag&) = delete;

private:
    const std::atomic<bool>* previous_;
};

// Throws Error(cancelled) when this thread's flag is set. Called between pieces of work.
void throw_if_cancelled();

}  // namespace fastmedian::detail
