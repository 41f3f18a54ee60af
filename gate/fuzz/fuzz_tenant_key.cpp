// libFuzzer target: --tenant-key parsing and tenant extraction on arbitrary text. Invariants:
// an extracted id always passes the tenant-table id rule, and is a part of the input it came
// from (never decoded or rebuilt).
#include <cstdint>
#include <cstdlib>

#include "tenant.hpp"
#include "tenant_key.hpp"

using namespace isolato::gate;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  // "<key spec>\n<target>\n<host>\n<header value>"; a missing part is empty.
  std::string_view parts[4];
  std::string_view rest = input;
  for (auto& part : parts) {
    const auto nl = rest.find('\n');
    part = rest.substr(0, nl);
    rest = nl == std::string_view::npos ? std::string_view{} : rest.substr(nl + 1);
  }
  auto parsed = parse_tenant_key(parts[0]);
  static const TenantKey fallback[] = {
      {TenantKey::Kind::header, "X-Tenant"}, {TenantKey::Kind::path, "/v1/tenants/"}, {TenantKey::Kind::host, ""}};
  const TenantKey key = std::holds_alternative<TenantKey>(parsed) ? std::get<TenantKey>(parsed) : fallback[size % 3];
  const KeySource source{parts[1], parts[2], parts[3].empty() ? std::nullopt : std::optional(parts[3])};
  const KeyResult r = extract_tenant(key, source);
  if (const auto* id = std::get_if<std::string_view>(&r)) {
    if (!saasbench::valid_tenant_id(*id)) std::abort();
    if (id->data() < input.data() || id->data() + id->size() > input.data() + input.size()) std::abort();
  }
  return 0;
}
