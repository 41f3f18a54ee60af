// Fixed pool of threads that run the stress work, so I/O threads never block on it.
// Jobs get the index of the thread running them (to use that thread's scratch file).
#pragma once
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace saasbench {

class WorkerPool {
 public:
  using Job = std::function<void(std::size_t worker)>;

  explicit WorkerPool(std::size_t threads);
  ~WorkerPool();  // runs what is queued, then joins
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  std::size_t size() const { return threads_.size(); }
  // Queues a job; returns false once the pool is stopping.
  bool submit(Job job);
  // Stops taking jobs, finishes the queued ones and joins the threads. Idempotent.
  void stop();

 private:
  void loop(std::size_t index);

  std::mutex mutex_;
  std::condition_variable cv_;
  std::deque<Job> queue_;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace saasbench
