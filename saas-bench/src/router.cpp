#include "router.hpp"

#include <cstdio>

#include "admin_api.hpp"
#include "log.hpp"

namespace saasbench {

namespace {
constexpr std::string_view kTenantPrefix = "/v1/tenants/";
constexpr std::string_view kTenantSuffix = "/requests";
constexpr std::string_view kAdminTenants = "/v1/admin/tenants";

}  // namespace

Router::Router(TenantRegistry& registry, Metrics& metrics, const AdminAuth& auth, RouterOptions options)
    : registry_(registry), metrics_(metrics), auth_(auth), options_(options) {}

Routed Router::route(const Request& request) {
  std::string_view path = request.target.substr(0, request.target.find('?'));
  if (path.starts_with(kTenantPrefix) && path.ends_with(kTenantSuffix) &&
      path.size() >= kTenantPrefix.size() + kTenantSuffix.size()) {
    const auto id = path.substr(kTenantPrefix.size(), path.size() - kTenantPrefix.size() - kTenantSuffix.size());
    return tenant_request(request, id);
  }
  if (path == kAdminTenants) return admin_tenants(request);
  const bool get = request.method == "GET";
  if (path == "/healthz") return get ? ok_json(R"({"status":"ok"})") : method_not_allowed("GET");
  if (path == "/readyz") {
    if (!get) return method_not_allowed("GET");
    if (draining_.load(std::memory_order_relaxed)) return problem(503, "shutting down");
    return ok_json(R"({"status":"ready"})");
  }
  if (path == "/metrics") {
    if (!get) return method_not_allowed("GET");
    const auto table = registry_.current();
    Response r;
    r.content_type = "text/plain; version=0.0.4";
    r.body = metrics_.expose({table->version(), table->spec().tenants.size(), options_.worker_threads,
                              options_.io_threads, table->series()});
    return r;
  }
  return problem(404, "no such resource");
}

Response Router::tenant_response(TenantMetrics& m, Clock::time_point start, Response r) {
  m.record(r.status, Clock::now() - start);
  return r;
}

Response Router::reject(Rejection why, TenantMetrics& m, Clock::time_point start, Response r) {
  metrics_.rejected(why);
  return tenant_response(m, start, std::move(r));
}

Routed Router::tenant_request(const Request& request, std::string_view id) {
  const auto start = request.start;
  if (!valid_tenant_id(id))
    return reject(Rejection::bad_request, metrics_.unknown_tenant(), start,
                  problem(400, "tenant id must match [A-Za-z0-9][A-Za-z0-9._-]{0,62}", "tenantId"));
  if (request.method != "POST") {
    metrics_.rejected(Rejection::bad_request);
    return method_not_allowed("POST");
  }
  auto tenant = registry_.current()->find(id);
  if (!tenant)
    return reject(Rejection::unknown_tenant, metrics_.unknown_tenant(), start,
                  problem(404, "unknown tenant", "tenantId"));
  if (request.body.size() > options_.max_tenant_body_bytes)
    return reject(Rejection::bad_request, tenant->metrics(), start,
                  problem(413, "body larger than " + std::to_string(options_.max_tenant_body_bytes) + " bytes"));
  const auto decision = tenant->admit(Clock::now());
  if (!decision.admitted) {
    char rate[32];
    std::snprintf(rate, sizeof rate, "%g", tenant->spec().rate_rps.value_or(0));
    Response r = problem(429, "tenant exceeds its admitted rate of " + std::string(rate) + " requests/s");
    r.retry_after_s = retry_after_seconds(decision.retry_after);
    return reject(Rejection::rate_limited, tenant->metrics(), start, std::move(r));
  }
  if (tenant->spec().profile.empty()) return tenant_response(tenant->metrics(), start, ok_json("{}"));
  auto& in_flight = metrics_.in_flight();
  InFlightTicket ticket(in_flight);
  if (in_flight.fetch_add(1, std::memory_order_relaxed) >= options_.max_in_flight)
    return reject(Rejection::overloaded, tenant->metrics(), start, problem(503, "too many requests in flight"));
  return StressJob{std::move(tenant), start, std::move(ticket)};
}

Response Router::finish(const StressJob& job, std::string_view error) {
  if (!error.empty()) {
    log_line("error", "tenant " + job.tenant->id() + ": " + std::string(error));
    return tenant_response(job.tenant->metrics(), job.start, problem(500, "stress work failed"));
  }
  return tenant_response(job.tenant->metrics(), job.start, ok_json("{}"));
}

Response Router::admin_tenants(const Request& request) {
  return saasbench::admin_tenants({request.method, request.authorization, request.body}, registry_, auth_,
                                  [this](bool ok) { metrics_.table_update(TableSource::admin, ok); });
}

}  // namespace saasbench
