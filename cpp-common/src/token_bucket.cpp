#include "token_bucket.hpp"

#include <algorithm>
#include <cmath>

namespace saasbench {

TokenBucket::TokenBucket(double rate, double burst, double initial, Clock::time_point now)
    : rate_(rate), burst_(burst), tokens_(std::clamp(initial, 0.0, burst)), last_(now) {}

void TokenBucket::refill(Clock::time_point now) {
  if (now <= last_) return;  // a caller's clock read may race another's: never go backwards
  const double elapsed = std::chrono::duration<double>(now - last_).count();
  tokens_ = std::min(burst_, tokens_ + elapsed * rate_);
  last_ = now;
}

TokenBucket::Decision TokenBucket::try_take(Clock::time_point now) {
  refill(now);
  if (tokens_ >= 1.0) {
    tokens_ -= 1.0;
    return {true, Clock::duration::zero()};
  }
  const double wait_s = (1.0 - tokens_) / rate_;
  return {false, std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(wait_s))};
}

double TokenBucket::tokens(Clock::time_point now) const {
  TokenBucket copy = *this;
  copy.refill(now);
  return copy.tokens_;
}

long retry_after_seconds(TokenBucket::Clock::duration d) {
  const double s = std::chrono::duration<double>(d).count();
  return std::max(1L, static_cast<long>(std::ceil(s)));
}

}  // namespace saasbench
