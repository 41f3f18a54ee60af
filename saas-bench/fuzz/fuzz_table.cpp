// libFuzzer target: the tenant-table parser. Any input must give a table or an error (never a
// crash, leak or UB), and an accepted table must survive printing and parsing back.
// Numbers are compared within 1e-12 relative: Boost.JSON 1.81 parses decimals fast but not
// always correctly rounded (found by this target: a 40-digit rateRps came back 1 ulp off).
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "tenant_json.hpp"

namespace {
using namespace saasbench;

bool close(double a, double b) { return std::abs(a - b) <= 1e-12 * std::max(std::abs(a), std::abs(b)); }

bool same(const TenantTableSpec& a, const TenantTableSpec& b) {
  if (a.version != b.version || a.tenants.size() != b.tenants.size()) return false;
  for (const auto& [id, t] : a.tenants) {
    auto it = b.tenants.find(id);
    if (it == b.tenants.end()) return false;
    const TenantSpec& u = it->second;
    if (t.profile != u.profile || t.rate_rps.has_value() != u.rate_rps.has_value() || !close(t.burst, u.burst))
      return false;
    if (t.rate_rps && !close(*t.rate_rps, *u.rate_rps)) return false;
  }
  return true;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto parsed = parse_tenant_table(std::string_view(reinterpret_cast<const char*>(data), size));
  if (auto* table = std::get_if<TenantTableSpec>(&parsed)) {
    auto again = parse_tenant_table(to_json(*table));
    if (!std::holds_alternative<TenantTableSpec>(again) || !same(std::get<TenantTableSpec>(again), *table))
      std::abort();
  }
  return 0;
}
