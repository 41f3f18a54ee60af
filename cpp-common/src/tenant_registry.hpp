// The active tenant table: an immutable snapshot swapped atomically as a whole. Requests hold
// the snapshot (or one tenant of it) they started with, so a swap never disturbs them.
#pragma once
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "prom.hpp"
#include "tenant.hpp"
#include "token_bucket.hpp"

namespace saasbench {

// One tenant of a snapshot: its spec, its (mutable, locked) token bucket and its metrics
// series (shared with the same tenant's entry in the next table while it stays in it).
class TenantState {
 public:
  using Clock = TokenBucket::Clock;
  TenantState(std::string id, TenantSpec spec, std::optional<double> initial_tokens, Clock::time_point now,
              std::shared_ptr<TenantMetrics> metrics = std::make_shared<TenantMetrics>());

  const std::string& id() const { return id_; }
  const TenantSpec& spec() const { return spec_; }
  TenantMetrics& metrics() const { return *metrics_; }
  const std::shared_ptr<TenantMetrics>& metrics_handle() const { return metrics_; }
  // Takes a token when the tenant is rate limited; always admits otherwise.
  TokenBucket::Decision admit(Clock::time_point now);
  // Tokens left now, or nullopt for an unlimited tenant.
  std::optional<double> tokens(Clock::time_point now) const;

 private:
  std::string id_;
  TenantSpec spec_;
  mutable std::mutex mutex_;
  std::optional<TokenBucket> bucket_;
  std::shared_ptr<TenantMetrics> metrics_;
};

class TenantTable {
 public:
  TenantTable(TenantTableSpec spec, std::map<std::string, std::shared_ptr<TenantState>, std::less<>> tenants);
  const TenantTableSpec& spec() const { return spec_; }
  const std::string& version() const { return spec_.version; }
  std::shared_ptr<TenantState> find(std::string_view id) const;
  // The tenants' series for Metrics::expose (valid while this table lives).
  std::vector<TenantSeries> series() const;

 private:
  TenantTableSpec spec_;
  std::map<std::string, std::shared_ptr<TenantState>, std::less<>> tenants_;
};

// Why `incoming` must not replace `in_use`: both carry a revision and incoming's is lower.
std::optional<std::string> older_table(const TenantTableSpec& in_use, const TenantTableSpec& incoming);

class TenantRegistry {
 public:
  using Clock = TenantState::Clock;
  TenantRegistry();

  std::shared_ptr<const TenantTable> current() const;
  // Installs a new table. A tenant that stays keeps its bucket's fill level (capped at the new
  // burst), so a reload neither refills nor empties anybody's allowance, and its metrics; a
  // tenant that leaves takes its metrics series with it. A table older than the one in use
  // (older_table) is not installed: the reason is returned.
  std::optional<std::string> replace(TenantTableSpec spec, Clock::time_point now = Clock::now());

 private:
  std::mutex replace_mutex_;  // one replace at a time: the file and the admin push race otherwise
  mutable std::mutex mutex_;  // guards the pointer only; readers copy it and let go
  std::shared_ptr<const TenantTable> current_;
};

}  // namespace saasbench
