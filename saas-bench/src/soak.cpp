#include "soak.hpp"

#include <algorithm>
#include <thread>
#include <vector>

#include "stress.hpp"

namespace saasbench {

std::uint64_t soak(unsigned threads, const std::atomic<bool>& stop) {
  std::atomic<std::uint64_t> steps{0};
  std::atomic<std::uint64_t> sink{0};  // keeps the computed values, so the work is not elided
  std::vector<std::jthread> pool;
  const unsigned n = std::max(1U, threads);
  pool.reserve(n);
  for (unsigned t = 0; t < n; ++t) {
    pool.emplace_back([&, seed = std::uint64_t{t} + 1] {
      std::uint64_t value = seed;
      std::uint64_t done = 0;
      while (!stop.load(std::memory_order_relaxed)) {
        value = stress::cpu(kSoakUnitsPerStep, value);
        ++done;
      }
      steps.fetch_add(done);
      sink.fetch_xor(value);
    });
  }
  pool.clear();  // joins
  return steps.load();
}

}  // namespace saasbench
