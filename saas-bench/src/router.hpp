// Routing and admission: turns a parsed request into either a response right away or a
// StressJob for the worker pool. Free of HTTP-library types so it is tested and fuzzed directly.
#pragma once
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string_view>
#include <utility>
#include <variant>

#include "admin_auth.hpp"
#include "metrics.hpp"
#include "response.hpp"
#include "tenant_registry.hpp"

namespace saasbench {

using Clock = std::chrono::steady_clock;

struct Request {
  std::string_view method;  // "GET", "POST", ...
  std::string_view target;  // path and query
  std::string_view authorization;
  std::string_view body;
  Clock::time_point start = Clock::now();  // when the request was parsed
};

// Counts an admitted request as in flight for as long as it lives.
class InFlightTicket {
 public:
  explicit InFlightTicket(std::atomic<std::int64_t>& counter) : counter_(&counter) {}
  InFlightTicket(InFlightTicket&& o) noexcept : counter_(std::exchange(o.counter_, nullptr)) {}
  InFlightTicket& operator=(InFlightTicket&&) = delete;
  ~InFlightTicket() {
    if (counter_) counter_->fetch_sub(1, std::memory_order_relaxed);
  }

 private:
  std::atomic<std::int64_t>* counter_;
};

struct StressJob {
  std::shared_ptr<TenantState> tenant;
  Clock::time_point start;
  InFlightTicket ticket;
};

using Routed = std::variant<Response, StressJob>;

struct RouterOptions {
  std::int64_t max_in_flight = 256;           // admitted tenant requests at once, then 503
  std::size_t max_tenant_body_bytes = 65536;  // larger bodies on tenant requests: 413
  std::size_t worker_threads = 1;             // reported in /metrics
  std::size_t io_threads = 1;
};

class Router {
 public:
  Router(TenantRegistry& registry, Metrics& metrics, const AdminAuth& auth, RouterOptions options);

  Routed route(const Request& request);
  // Completes a job the worker pool ran: `error` empty on success.
  Response finish(const StressJob& job, std::string_view error);
  // While draining, /readyz answers 503 so the Service stops sending new requests.
  void set_draining() { draining_.store(true, std::memory_order_relaxed); }

 private:
  Routed tenant_request(const Request& request, std::string_view id);
  static Response tenant_response(TenantMetrics& m, Clock::time_point start, Response r);
  Response admin_tenants(const Request& request);
  Response reject(Rejection why, TenantMetrics& m, Clock::time_point start, Response r);

  TenantRegistry& registry_;
  Metrics& metrics_;
  const AdminAuth& auth_;
  RouterOptions options_;
  std::atomic<bool> draining_{false};
};

}  // namespace saasbench
