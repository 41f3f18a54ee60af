#include "table_watcher.hpp"

#include <sys/stat.h>

#include <fstream>
#include <sstream>

#include "log.hpp"
#include "tenant_json.hpp"

namespace saasbench {

TableWatcher::TableWatcher(std::filesystem::path file, TenantRegistry& registry, Metrics& metrics)
    : file_(std::move(file)), registry_(registry), metrics_(metrics) {}

TableWatcher::~TableWatcher() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  stop_cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

TableWatcher::Outcome TableWatcher::check_now() {
  struct ::stat st {};
  if (::stat(file_.c_str(), &st) != 0) {
    if (!reported_missing_) {  // once per disappearance, not once per poll
      log_line("warn", "tenant table file " + file_.string() + " is missing; the active table stays");
      metrics_.table_update(TableSource::file, false);
      reported_missing_ = true;
    }
    last_.reset();
    return Outcome::missing;
  }
  reported_missing_ = false;
  const Stamp stamp{st.st_ino, static_cast<std::uintmax_t>(st.st_size),
                    std::int64_t{st.st_mtim.tv_sec} * 1'000'000'000 + st.st_mtim.tv_nsec};
  if (last_ && *last_ == stamp) return Outcome::unchanged;
  last_ = stamp;
  std::ifstream in(file_);
  std::stringstream text;
  text << in.rdbuf();
  auto parsed = parse_tenant_table(text.str());
  if (auto* err = std::get_if<TableError>(&parsed)) {
    log_line("warn", "tenant table file " + file_.string() + " rejected, the active table stays: " + err->to_string());
    metrics_.table_update(TableSource::file, false);
    return Outcome::rejected;
  }
  auto& table = std::get<TenantTableSpec>(parsed);
  log_line("info", "tenant table " + table.version + " applied from " + file_.string() + " (" +
                       std::to_string(table.tenants.size()) + " tenants)");
  registry_.replace(std::move(table));
  metrics_.table_update(TableSource::file, true);
  return Outcome::applied;
}

void TableWatcher::start(std::chrono::milliseconds interval) {
  thread_ = std::thread([this, interval] {
    std::unique_lock lock(mutex_);
    while (!stop_cv_.wait_for(lock, interval, [this] { return stop_; })) {
      lock.unlock();
      check_now();
      lock.lock();
    }
  });
}

}  // namespace saasbench
