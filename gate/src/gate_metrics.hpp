// The gate's metrics: the contract every reader uses (docs/gate.md#metrics), prefix isolato_gate_.
// Per-tenant series live in the tenant's TenantMetrics (they go when the tenant leaves the
// table); requests naming no known tenant count as tenant "_unknown".
#pragma once
#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "prom.hpp"

namespace isolato::gate {

// Indexes into TenantMetrics::events.
enum class Reject : std::size_t { rate, unknown_tenant, overload, draining, count_ };
enum class UpstreamError : std::size_t { connect = 4, reset, timeout, end_ };

class GateMetrics {
 public:
  static constexpr std::string_view kUnknownTenant = "_unknown";  // ids cannot start with '_'

  saasbench::TenantMetrics& unknown_tenant() { return unknown_; }
  static void rejected(saasbench::TenantMetrics& m, Reject r) { m.count(static_cast<std::size_t>(r)); }
  static void upstream_error(saasbench::TenantMetrics& m, UpstreamError e) { m.count(static_cast<std::size_t>(e)); }
  void table_update(bool admin, bool ok) { table_updates_[(admin ? 2 : 0) + (ok ? 1 : 0)].fetch_add(1); }
  std::function<void(bool)> table_file_counter() {
    return [this](bool ok) { table_update(false, ok); };
  }
  std::function<void(bool)> token_reload_counter() {
    return [this](bool ok) { token_reloads_[ok ? 1 : 0].fetch_add(1); };
  }
  std::atomic<std::int64_t>& connections() { return connections_; }
  std::atomic<std::int64_t>& upstream_requests() { return upstream_requests_; }
  std::atomic<std::int64_t>& queued_requests() { return queued_requests_; }

  std::string expose(const std::string& table_version, std::vector<saasbench::TenantSeries> tenants) const;

 private:
  saasbench::TenantMetrics unknown_;
  std::array<std::atomic<std::uint64_t>, 4> table_updates_{};  // [admin][ok]
  std::array<std::atomic<std::uint64_t>, 2> token_reloads_{};  // [ok]
  std::atomic<std::int64_t> connections_{0};
  std::atomic<std::int64_t> upstream_requests_{0};
  std::atomic<std::int64_t> queued_requests_{0};
};

}  // namespace isolato::gate
