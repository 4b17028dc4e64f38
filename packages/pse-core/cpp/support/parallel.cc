#include "support/parallel.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

namespace pse {

namespace {

/// Workers sleep until a loop is posted, then take indices from a shared
/// counter. One loop runs at a time; the pool is never torn down (its threads
/// only ever wait on the condition variable at exit).
class Pool {
 public:
  static Pool& get() {
    static Pool* pool = new Pool();
    return *pool;
  }

  std::size_t workers() const { return workers_; }

  void run(std::size_t n, std::size_t helpers, const std::function<void(std::size_t)>& task) {
    std::lock_guard<std::mutex> one_loop(loop_mutex_);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      grow(helpers);
      task_ = &task;
      n_ = n;
      next_.store(0);
      wanted_ = helpers;
      active_ = 0;
      ++generation_;
    }
    wake_.notify_all();
    drain();
    std::unique_lock<std::mutex> lock(mutex_);
    wanted_ = 0;  // no late joiner may start on this loop
    done_.wait(lock, [&] { return active_ == 0; });
    task_ = nullptr;
  }

 private:
  Pool() : workers_(std::max(1u, std::thread::hardware_concurrency())) {}

  void grow(std::size_t helpers) {
    while (threads_ < helpers) {
      std::thread([this] { work(); }).detach();
      ++threads_;
    }
  }

  void drain() {
    for (std::size_t i = next_.fetch_add(1); i < n_; i = next_.fetch_add(1)) (*task_)(i);
  }

  void work() {
    std::uint64_t seen = 0;
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      wake_.wait(lock, [&] { return generation_ != seen && wanted_ > 0; });
      seen = generation_;
      --wanted_;
      ++active_;
      lock.unlock();
      drain();
      lock.lock();
      if (--active_ == 0) done_.notify_all();
    }
  }

  const std::size_t workers_;
  std::mutex loop_mutex_;
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  const std::function<void(std::size_t)>* task_ = nullptr;
  std::size_t n_ = 0;
  std::atomic<std::size_t> next_{0};
  std::size_t wanted_ = 0, active_ = 0, threads_ = 0;
  std::uint64_t generation_ = 0;
};

}  // namespace

void parallel_for(std::size_t n, std::size_t threads, const std::function<void(std::size_t)>& task) {
  if (n == 0) return;
  Pool& pool = Pool::get();
  if (threads == 0) threads = pool.workers();
  threads = std::min(threads, n);
  if (threads <= 1) {
    for (std::size_t i = 0; i < n; ++i) task(i);
    return;
  }
  pool.run(n, threads - 1, task);
}

}  // namespace pse
