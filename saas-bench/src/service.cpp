#include "service.hpp"

#include <thread>

#include "cgroup_cpu.hpp"
#include "log.hpp"

namespace saasbench {

unsigned worker_count(const Config& config) {
  if (config.workers) return *config.workers;
  return workers_for(read_cpu_limit(), std::thread::hardware_concurrency());
}

Service::Service(const Config& config)
    : auth_(config.admin_token_file ? read_token_file(*config.admin_token_file) : std::vector<std::string>{}),
      pool_(worker_count(config)),
      files_(config.data_dir, pool_.size()),
      router_(registry_, metrics_, auth_,
              RouterOptions{config.max_in_flight, std::min<std::size_t>(65536, config.max_body_bytes), pool_.size(),
                            config.listen.io_threads}) {
  SessionLimits limits;
  limits.max_body_bytes = config.max_body_bytes;
  limits.read_timeout = config.read_timeout;
  limits.write_timeout = config.read_timeout;
  server_ = std::make_unique<HttpServer>(config.listen, limits, router_, pool_, files_);
  if (config.tenants_file) {
    table_watcher_ = std::make_unique<FileWatcher>(*config.tenants_file,
                                                   tenant_table_file(registry_, metrics_.table_file_counter()));
    table_watcher_->check_now();
    table_watcher_->start(config.file_poll);
  }
  if (config.admin_token_file) {  // read above already; this takes the stamp, then polls
    token_watcher_ = std::make_unique<FileWatcher>(*config.admin_token_file,
                                                   admin_token_file(auth_, metrics_.token_reload_counter()));
    token_watcher_->check_now();
    token_watcher_->start(config.file_poll);
  }
  server_->start();
  log_line("info", "listening on " + config.listen.address + ":" + std::to_string(server_->port()) + " with " +
                       std::to_string(config.listen.io_threads) + " io threads and " + std::to_string(pool_.size()) +
                       " workers");
}

Service::~Service() { shutdown(std::chrono::milliseconds(0)); }

bool Service::shutdown(std::chrono::milliseconds grace) {
  if (stopped_) return true;
  stopped_ = true;
  router_.set_draining();
  table_watcher_.reset();
  token_watcher_.reset();
  const bool clean = server_->shutdown(grace);
  // Jobs still queued post into stopped loops; the loops live until server_ is destroyed.
  pool_.stop();
  server_.reset();
  return clean;
}

}  // namespace saasbench
