// libFuzzer target: the tenant-table parser. Any input must give a table or an error (never a
// crash, leak or UB), and an accepted table must survive printing and parsing back unchanged.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "tenant_json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace saasbench;
  auto parsed = parse_tenant_table(std::string_view(reinterpret_cast<const char*>(data), size));
  if (auto* table = std::get_if<TenantTableSpec>(&parsed)) {
    auto again = parse_tenant_table(to_json(*table));
    if (!std::holds_alternative<TenantTableSpec>(again) || std::get<TenantTableSpec>(again) != *table) std::abort();
  }
  return 0;
}
