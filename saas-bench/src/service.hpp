// The whole service wired together, in the order things must start and stop: tenant table,
// metrics, router, worker pool, HTTP server, file watchers (tenant table, admin tokens). Used by main and by the HTTP
// tests.
#pragma once
#include <chrono>
#include <memory>

#include "admin_auth.hpp"
#include "config.hpp"
#include "http_server.hpp"
#include "metrics.hpp"
#include "router.hpp"
#include "stress.hpp"
#include "table_watcher.hpp"
#include "tenant_registry.hpp"
#include "worker_pool.hpp"

namespace saasbench {

class Service {
 public:
  // Binds, loads the table file (a bad file leaves the table empty and is logged) and the
  // token file, serves, and reloads both files when they change. Throws on what makes serving impossible (address in
  // use, unreadable token file, data directory not writable).
  explicit Service(const Config& config);
  ~Service();  // shutdown(0) if not done
  Service(const Service&) = delete;
  Service& operator=(const Service&) = delete;

  unsigned short port() const { return server_->port(); }
  std::size_t workers() const { return pool_.size(); }
  TenantRegistry& registry() { return registry_; }
  // Drain and stop (see HttpServer::shutdown); returns true when all finished within grace.
  bool shutdown(std::chrono::milliseconds grace);

 private:
  TenantRegistry registry_;
  Metrics metrics_;
  AdminAuth auth_;
  WorkerPool pool_;
  stress::ScratchFiles files_;
  Router router_;
  std::unique_ptr<HttpServer> server_;
  std::unique_ptr<FileWatcher> table_watcher_;
  std::unique_ptr<FileWatcher> token_watcher_;
  bool stopped_ = false;
};

unsigned worker_count(const Config& config);

}  // namespace saasbench
