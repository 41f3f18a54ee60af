#include "soak.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <thread>

namespace {
using namespace std::chrono_literals;

TEST(Soak, WorksUntilStoppedThenReturnsItsStepsPromptly) {
  std::atomic<bool> stop{false};
  auto done = std::async(std::launch::async, [&] { return saasbench::soak(2, stop); });
  EXPECT_EQ(done.wait_for(50ms), std::future_status::timeout) << "soak ended before it was stopped";
  stop = true;
  ASSERT_EQ(done.wait_for(2s), std::future_status::ready) << "soak did not stop within 2 s of being told";
  EXPECT_GT(done.get(), 0U);
}

TEST(Soak, AlreadyStoppedDoesNoStep) {
  std::atomic<bool> stop{true};
  EXPECT_EQ(saasbench::soak(3, stop), 0U);
}

TEST(Soak, ZeroThreadsStillRunsOne) {
  std::atomic<bool> stop{false};
  auto done = std::async(std::launch::async, [&] { return saasbench::soak(0, stop); });
  std::this_thread::sleep_for(20ms);  // time to work, not synchronisation: the result is checked after the join
  stop = true;
  EXPECT_GT(done.get(), 0U);
}

}  // namespace
