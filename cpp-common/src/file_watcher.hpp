// Keeps some state in step with a file mounted from a ConfigMap or Secret. The file is
// checked every poll interval with stat(), which follows symlinks: the kubelet updates a
// mount by swapping the `..data` symlink to a new directory, so the resolved file's device,
// inode, size, mtime or ctime changes and triggers a reload. A file that cannot be read, or
// whose content the handler rejects, leaves the previous state active.
#pragma once
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>

namespace saasbench {

// What a watched file feeds: `apply` installs the new content or says why not; `counted`
// reports every reload attempt (true = applied) to the metrics.
struct FileHandler {
  struct Result {
    bool applied = false;
    std::string message;  // applied: a summary for the log; rejected: the reason
  };
  std::string what;  // e.g. "tenant table", for log lines
  std::function<Result(std::string_view text)> apply;
  std::function<void(bool applied)> counted;
};

// Reads a whole regular file; nullopt with `error` set when it cannot be read.
std::optional<std::string> read_whole_file(const std::filesystem::path& path, std::string& error);

class FileWatcher {
 public:
  FileWatcher(std::filesystem::path file, FileHandler handler);
  ~FileWatcher();  // stops the polling thread, if started
  FileWatcher(const FileWatcher&) = delete;
  FileWatcher& operator=(const FileWatcher&) = delete;

  enum class Outcome { unchanged, applied, rejected, missing };
  // One check, on the caller's thread (not concurrently with the polling thread).
  Outcome check_now();
  void start(std::chrono::milliseconds interval);

 private:
  struct Stamp {
    std::uintmax_t device = 0, inode = 0, size = 0;
    std::int64_t mtime_ns = 0, ctime_ns = 0;
    bool operator==(const Stamp&) const = default;
  };

  std::filesystem::path file_;
  FileHandler handler_;
  std::optional<Stamp> last_;
  bool reported_missing_ = false;
  std::mutex mutex_;
  std::condition_variable stop_cv_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace saasbench
