#include "process_stats.hpp"

#include <unistd.h>

#include <charconv>
#include <fstream>
#include <sstream>
#include <string>

namespace saasbench {

ProcessStats parse_proc_stat(std::string_view text, long ticks_per_second, long page_size) {
  ProcessStats s;
  // The command name (field 2) is in parentheses and may hold spaces: count from after it.
  const auto close = text.rfind(')');
  if (close == std::string_view::npos || ticks_per_second <= 0) return s;
  std::string_view rest = text.substr(close + 1);
  std::uint64_t fields[22] = {};  // fields 3..24
  for (int i = 0; i < 22; ++i) {
    const auto start = rest.find_first_not_of(' ');
    if (start == std::string_view::npos) return s;
    rest = rest.substr(start);
    const auto end = rest.find(' ');
    const auto token = rest.substr(0, end);
    std::from_chars(token.data(), token.data() + token.size(), fields[i]);
    if (end == std::string_view::npos) {
      if (i < 21) return s;
      break;
    }
    rest = rest.substr(end);
  }
  s.cpu_seconds = static_cast<double>(fields[14 - 3] + fields[15 - 3]) / static_cast<double>(ticks_per_second);
  s.resident_bytes = fields[24 - 3] * static_cast<std::uint64_t>(page_size);
  return s;
}

ProcessStats read_process_stats() {
  std::ifstream in("/proc/self/stat");
  std::stringstream text;
  text << in.rdbuf();
  return parse_proc_stat(text.str(), ::sysconf(_SC_CLK_TCK), ::sysconf(_SC_PAGESIZE));
}

}  // namespace saasbench
