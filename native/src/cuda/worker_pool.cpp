#include "cuda/worker_pool.hpp"

#include <system_error>

namespace fastmedian::detail {

WorkerPool::WorkerPool(int threads) {
    for (int t = 1; t < threads; ++t) {
        try {
            helpers_.emplace_back([this] { help(); });
        } catch (const std::system_error&) {
            break;  // fewer threads to be had: the others take the work
        }
    }
}

WorkerPool::~WorkerPool() {
    {
        const std::lock_guard<std::mutex> lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    for (std::thread& t : helpers_) t.join();
}

void WorkerPool::run(int count, const std::function<void(int)>& work) {
    {
        const std::lock_guard<std::mutex> lock(mutex_);
        work_ = &work;
        count_ = count;
        next_ = finished_ = 0;
        ++generation_;
    }
    wake_.notify_all();
    take_work();
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [&] { return finished_ == count_; });
    work_ = nullptr;
}

// Takes items of the current run until none is left.
void WorkerPool::take_work() {
    std::unique_lock<std::mutex> lock(mutex_);
    while (work_ != nullptr && next_ < count_) {
        const int i = next_++;
        const std::function<void(int)>& work = *work_;
        lock.unlock();
        work(i);
        lock.lock();
        if (++finished_ == count_) done_.notify_all();
    }
}

void WorkerPool::help() {
    std::uint64_t seen = 0;
    for (;;) {
        {
            std::unique_lock<std::mutex> lock(mutex_);
            wake_.wait(lock, [&] { return stopping_ || generation_ != seen; });
            if (stopping_) return;
            seen = generation_;
        }
        take_work();
    }
}

}  // namespace fastmedian::detail
