#include "token_bucket.hpp"

#include <gtest/gtest.h>

using namespace saasbench;
using namespace std::chrono_literals;

TEST(TokenBucket, AdmitsBurstThenRejects) {
  const auto t0 = TokenBucket::Clock::time_point{} + 1h;
  TokenBucket b(10, 3, 3, t0);
  EXPECT_TRUE(b.try_take(t0).admitted);
  EXPECT_TRUE(b.try_take(t0).admitted);
  EXPECT_TRUE(b.try_take(t0).admitted);
  auto d = b.try_take(t0);
  EXPECT_FALSE(d.admitted);
  EXPECT_EQ(std::chrono::duration_cast<std::chrono::milliseconds>(d.retry_after), 100ms);
}

TEST(TokenBucket, RefillsAtRateAndCapsAtBurst) {
  const auto t0 = TokenBucket::Clock::time_point{} + 1h;
  TokenBucket b(10, 2, 0, t0);
  EXPECT_FALSE(b.try_take(t0).admitted);
  EXPECT_TRUE(b.try_take(t0 + 100ms).admitted);
  EXPECT_FALSE(b.try_take(t0 + 150ms).admitted);
  EXPECT_DOUBLE_EQ(b.tokens(t0 + 10s), 2.0);
}

TEST(TokenBucket, IgnoresClockGoingBackwards) {
  const auto t0 = TokenBucket::Clock::time_point{} + 1h;
  TokenBucket b(1, 1, 1, t0);
  EXPECT_TRUE(b.try_take(t0).admitted);
  EXPECT_FALSE(b.try_take(t0 - 5s).admitted);
  EXPECT_TRUE(b.try_take(t0 + 1s).admitted);
}

TEST(TokenBucket, RetryAfterIsWholeSecondsAtLeastOne) {
  EXPECT_EQ(retry_after_seconds(0ms), 1);
  EXPECT_EQ(retry_after_seconds(100ms), 1);
  EXPECT_EQ(retry_after_seconds(1500ms), 2);
}
