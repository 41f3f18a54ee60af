// One log line per event on stderr ("<UTC time> <level> <message>"); stderr writes of one
// fprintf call are not interleaved between threads.
#pragma once
#include <chrono>
#include <cstdio>
#include <ctime>
#include <exception>
#include <string_view>

namespace saasbench {

inline void log_line(std::string_view level, std::string_view message) {
  const auto now = std::chrono::system_clock::now();
  const std::time_t t = std::chrono::system_clock::to_time_t(now);
  std::tm tm{};
  ::gmtime_r(&t, &tm);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", &tm);
  std::fprintf(stderr, "%s %.*s %.*s\n", stamp, static_cast<int>(level.size()), level.data(),
               static_cast<int>(message.size()), message.data());
}

// A service's main(): what makes serving impossible (address in use, unreadable token file, ...)
// is one error line and exit code 1, not an abort.
inline int run_logging_errors(int (*run)(int, char**), int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    log_line("error", e.what());
    return 1;
  }
}

}  // namespace saasbench
