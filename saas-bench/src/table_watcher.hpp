// Keeps the tenant table in step with a JSON file (a mounted ConfigMap). The file is checked
// every poll interval: a change of inode, size or mtime (a ConfigMap update swaps a symlink)
// triggers a reload. A file that is malformed, partial or gone leaves the old table active.
#pragma once
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <mutex>
#include <thread>

#include "metrics.hpp"
#include "tenant_registry.hpp"

namespace saasbench {

class TableWatcher {
 public:
  TableWatcher(std::filesystem::path file, TenantRegistry& registry, Metrics& metrics);
  ~TableWatcher();  // stops the polling thread, if started
  TableWatcher(const TableWatcher&) = delete;
  TableWatcher& operator=(const TableWatcher&) = delete;

  enum class Outcome { unchanged, applied, rejected, missing };
  // One check, on the caller's thread.
  Outcome check_now();
  void start(std::chrono::milliseconds interval);

 private:
  struct Stamp {
    std::uintmax_t inode = 0, size = 0;
    std::int64_t mtime_ns = 0;
    bool operator==(const Stamp&) const = default;
  };

  std::filesystem::path file_;
  TenantRegistry& registry_;
  Metrics& metrics_;
  std::optional<Stamp> last_;
  bool reported_missing_ = false;
  std::mutex mutex_;
  std::condition_variable stop_cv_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace saasbench
