// Stopping a long call early, for front ends that must answer an interrupt (Ctrl-C in Python)
// while a filter runs on another thread.
//
//     std::atomic<bool> stop{false};
//     std::thread t([&] { fm::CancelScope scope(stop); fm::median3d(in, out, options); });
//     ...                // on Ctrl-C:
//     stop = true;       // the call throws Error(cancelled) soon after
//
// A call made on the scope's thread while the scope lives checks the flag between pieces of its
// work (rows, bands, tiles or planes; on the CPU, and on the GPU for images in host memory) and,
// once the flag is set, throws Error with code cancelled. The output then holds part of the
// result; the input is never written. A call without a scope never stops early.
#pragma once

#include <atomic>

namespace fastmedian {

class CancelScope {
public:
    explicit CancelScope(const std::atomic<bool>& flag) noexcept;
    ~CancelScope();
    CancelScope(const CancelScope&) = delete;
    CancelScope& operator=(const CancelScope&) = delete;

private:
    const std::atomic<bool>* previous_;  // the enclosing scope's flag on this thread, if any
};

}  // namespace fastmedian
