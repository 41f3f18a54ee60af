#include "tenant_registry.hpp"

namespace saasbench {

TenantState::TenantState(std::string id, TenantSpec spec, std::optional<double> initial_tokens, Clock::time_point now,
                         std::shared_ptr<TenantMetrics> metrics)
    : id_(std::move(id)), spec_(spec), metrics_(std::move(metrics)) {
  if (spec_.rate_rps) bucket_.emplace(*spec_.rate_rps, spec_.burst, initial_tokens.value_or(spec_.burst), now);
}

TokenBucket::Decision TenantState::admit(Clock::time_point now) {
  if (!bucket_) return {true, Clock::duration::zero()};
  std::lock_guard lock(mutex_);
  return bucket_->try_take(now);
}

std::optional<double> TenantState::tokens(Clock::time_point now) const {
  if (!bucket_) return std::nullopt;
  std::lock_guard lock(mutex_);
  return bucket_->tokens(now);
}

TenantTable::TenantTable(TenantTableSpec spec, std::map<std::string, std::shared_ptr<TenantState>, std::less<>> tenants)
    : spec_(std::move(spec)), tenants_(std::move(tenants)) {}

std::shared_ptr<TenantState> TenantTable::find(std::string_view id) const {
  auto it = tenants_.find(id);
  return it == tenants_.end() ? nullptr : it->second;
}

std::vector<TenantSeries> TenantTable::series() const {
  std::vector<TenantSeries> out;
  out.reserve(tenants_.size());
  for (const auto& [id, state] : tenants_) out.push_back({id, &state->metrics()});
  return out;
}

TenantRegistry::TenantRegistry()
    : current_(std::make_shared<const TenantTable>(
          TenantTableSpec{}, std::map<std::string, std::shared_ptr<TenantState>, std::less<>>{})) {}

std::shared_ptr<const TenantTable> TenantRegistry::current() const {
  std::lock_guard lock(mutex_);
  return current_;
}

std::optional<std::string> older_table(const TenantTableSpec& in_use, const TenantTableSpec& incoming) {
  if (!in_use.revision || !incoming.revision || *incoming.revision >= *in_use.revision) return std::nullopt;
  return "revision " + std::to_string(*incoming.revision) + " is older than the table in use (version " +
         in_use.version + ", revision " + std::to_string(*in_use.revision) + ")";
}

std::optional<std::string> TenantRegistry::replace(TenantTableSpec spec, Clock::time_point now) {
  std::lock_guard writer(replace_mutex_);
  const auto old = current();
  if (auto why = older_table(old->spec(), spec)) return why;
  std::map<std::string, std::shared_ptr<TenantState>, std::less<>> states;
  for (const auto& [id, t] : spec.tenants) {
    auto prev = old->find(id);
    auto state = prev ? std::make_shared<TenantState>(id, t, prev->tokens(now), now, prev->metrics_handle())
                      : std::make_shared<TenantState>(id, t, std::nullopt, now);
    states.emplace(id, std::move(state));
  }
  auto next = std::make_shared<const TenantTable>(std::move(spec), std::move(states));
  std::lock_guard lock(mutex_);
  current_ = std::move(next);
  return std::nullopt;
}

}  // namespace saasbench
