// `saas-bench calibrate`: measures milliseconds per stress unit on this machine.
#pragma once
#include <filesystem>
#include <iosfwd>

namespace saasbench {

struct Calibration {
  double cpu_ms_per_unit = 0;
  double memory_ms_per_unit = 0;
  double io_ms_per_unit = 0;
  double io_fsync_ms_per_request = 0;  // one fdatasync of a 100-block write, minus the writes
  double paper_profile_ms = 0;         // cpu 150, memory 12000, io 100, measured as a whole
};

Calibration calibrate(const std::filesystem::path& data_dir);
void print(const Calibration& c, std::ostream& out);

}  // namespace saasbench
