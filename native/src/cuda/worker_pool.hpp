// A few persistent host threads for the plane pipeline: each runs one worker's loop, so that
// several planes are staged, copied and filtered at once (one core copies far less than the PCIe
// bus carries: docs/notebook/tuning-figures-from-comments.md) without creating threads on every
// call.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace fastmedian::detail {

class WorkerPool {
public:
    // threads - 1 helpers; the caller's thread is one of the workers.
    explicit WorkerPool(int threads);
    ~WorkerPool();
    WorkerPool(const WorkerPool&) = delete;
    WorkerPool& operator=(const WorkerPool&) = delete;

    // Calls work(i) for i in [0, count), each on its own thread while there are threads, and
    // returns when all are done. work must not throw.
    void run(int count, const std::function<void(int)>& work);
    int threads() const { return static_cast<int>(helpers_.size()) + 1; }

private:
    void help();
    void take_work();

    std::mutex mutex_;
    std::condition_variable wake_, done_;
    const std::function<void(int)>* work_ = nullptr;
    int count_ = 0, next_ = 0, finished_ = 0;
    std::uint64_t generation_ = 0;
    bool stopping_ = false;
    std::vector<std::thread> helpers_;
};

}  // namespace fastmedian::detail
