#include "worker_pool.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <set>

using namespace saasbench;

TEST(WorkerPool, RunsEveryJobOnAWorkerIndex) {
  std::atomic<int> ran{0};
  std::mutex m;
  std::set<std::size_t> seen;
  {
    WorkerPool pool(3);
    EXPECT_EQ(pool.size(), 3u);
    for (int i = 0; i < 200; ++i)
      ASSERT_TRUE(pool.submit([&](std::size_t w) {
        std::lock_guard lock(m);
        seen.insert(w);
        ++ran;
      }));
    pool.stop();  // drains the queue before joining
    EXPECT_EQ(ran.load(), 200);
  }
  for (auto w : seen) EXPECT_LT(w, 3u);
}

TEST(WorkerPool, RefusesJobsAfterStop) {
  WorkerPool pool(1);
  pool.stop();
  EXPECT_FALSE(pool.submit([](std::size_t) {}));
  pool.stop();  // idempotent
}
