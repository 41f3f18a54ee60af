// Token bucket: `rate` tokens per second refill a bucket of depth `burst`; one request takes one.
// Pure and not thread-safe: the caller passes the time and serialises access.
#pragma once
#include <chrono>

namespace saasbench {

class TokenBucket {
 public:
  using Clock = std::chrono::steady_clock;

  struct Decision {
    bool admitted;
    Clock::duration retry_after;  // zero when admitted; else until one token is back
  };

  // Starts with `initial` tokens (clamped to [0, burst]).
  TokenBucket(double rate, double burst, double initial, Clock::time_point now);

  Decision try_take(Clock::time_point now);
  double tokens(Clock::time_point now) const;

 private:
  void refill(Clock::time_point now);

  double rate_;
  double burst_;
  double tokens_;
  Clock::time_point last_;
};

// Retry-After carries whole seconds; never advertise 0 for a rejected request.
long retry_after_seconds(TokenBucket::Clock::duration d);

}  // namespace saasbench
