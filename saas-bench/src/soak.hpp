// `saas-bench soak`: the filler of a class with vertical headroom (docs/saas-bench.md#soak).
// Threads run the cpu stress in short bounded steps until told to stop. How much CPU they get
// is the kernel's business: the filler's cgroup has the fewest shares of the node, so it takes
// only what the class pods leave idle, and its CFS quota (the headroom) caps it.
#pragma once
#include <atomic>
#include <cstdint>

namespace saasbench {

// Stress units per step: short enough (well under a millisecond here) that a stop is seen at once.
inline constexpr std::uint32_t kSoakUnitsPerStep = 10;

// Runs `threads` threads (at least 1), each doing cpu stress steps until `stop` is true;
// returns the steps done in all. Returns promptly once `stop` is set.
std::uint64_t soak(unsigned threads, const std::atomic<bool>& stop);

}  // namespace saasbench
