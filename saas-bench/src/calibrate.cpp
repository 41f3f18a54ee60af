#include "calibrate.hpp"

#include <algorithm>
#include <chrono>
#include <functional>
#include <ostream>
#include <vector>

#include "stress.hpp"

namespace saasbench {

namespace {
// Median over repetitions of one call, in milliseconds: robust to a noisy neighbour.
double median_ms(int reps, const std::function<void()>& f) {
  std::vector<double> ms;
  for (int i = 0; i < reps; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  std::nth_element(ms.begin(), ms.begin() + reps / 2, ms.end());
  return ms[static_cast<std::size_t>(reps / 2)];
}
}  // namespace

Calibration calibrate(const std::filesystem::path& data_dir) {
  stress::ScratchFiles files(data_dir, 1);
  const auto& file = files.at(0);
  volatile std::uint64_t sink = 0;  // results must be used or the work could be elided
  Calibration c;
  constexpr std::uint32_t kCpu = 1000, kMemory = 32768, kIo = 1000;
  c.cpu_ms_per_unit = median_ms(15, [&] { sink = sink + stress::cpu(kCpu, 42); }) / kCpu;
  c.memory_ms_per_unit = median_ms(15, [&] { sink = sink + stress::MemoryBlock(kMemory, 42).checksum(); }) / kMemory;
  c.io_ms_per_unit = median_ms(15, [&] { stress::io(file, kIo, 42, false); }) / kIo;
  const double with_fsync = median_ms(5, [&] { stress::io(file, 100, 42, true); });
  c.io_fsync_ms_per_request = std::max(0.0, with_fsync - 100 * c.io_ms_per_unit);
  const Profile paper{150, 12000, 100, false};
  c.paper_profile_ms = median_ms(31, [&] { sink = sink + stress::run(paper, file, 42); });
  return c;
}

void print(const Calibration& c, std::ostream& out) {
  out << "cpu     " << c.cpu_ms_per_unit << " ms/unit (unit = 10,000 xorshift64 steps)\n"
      << "memory  " << c.memory_ms_per_unit << " ms/unit (unit = 1 KiB allocated, written, read back)\n"
      << "io      " << c.io_ms_per_unit << " ms/unit (unit = one 4 KiB pwrite)\n"
      << "fsync   " << c.io_fsync_ms_per_request << " ms per request (one fdatasync after 100 blocks)\n"
      << "paper profile (cpu 150, memory 12000, io 100): " << c.paper_profile_ms << " ms measured, "
      << 150 * c.cpu_ms_per_unit + 12000 * c.memory_ms_per_unit + 100 * c.io_ms_per_unit
      << " ms predicted from the units\n";
}

}  // namespace saasbench
