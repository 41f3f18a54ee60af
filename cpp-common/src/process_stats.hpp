// CPU time and resident memory of this process, from /proc/self/stat.
#pragma once
#include <cstdint>
#include <string_view>

namespace saasbench {

struct ProcessStats {
  double cpu_seconds = 0;
  std::uint64_t resident_bytes = 0;
};

// Parses the text of /proc/<pid>/stat (fields 14, 15 = utime, stime; 24 = rss pages).
ProcessStats parse_proc_stat(std::string_view text, long ticks_per_second, long page_size);
ProcessStats read_process_stats();

}  // namespace saasbench
