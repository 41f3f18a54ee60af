// Where a request names its tenant (--tenant-key): a header, the path segment after a prefix,
// or the first DNS label of Host. Pure: takes the request's parts as text, so it is unit
// tested and fuzzed without sockets.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <variant>

namespace isolato::gate {

struct TenantKey {
  enum class Kind { header, path, host };
  Kind kind = Kind::header;
  std::string name = "X-Tenant";  // header name (header) or path prefix ending in '/' (path)
};

// "header:X-Tenant", "path:/v1/tenants/" or "host"; an error text otherwise.
std::variant<TenantKey, std::string> parse_tenant_key(std::string_view spec);

// The parts of a request the key may read. `header` is the value of the key's header when the
// request has it.
struct KeySource {
  std::string_view target;  // request-target: path and query
  std::string_view host;    // Host header ("" when absent)
  std::optional<std::string_view> header;
};

struct KeyMissing {};  // the request names no tenant
struct KeyInvalid {    // it names one that cannot be a tenant id (encoded, "..", too long, ...)
  std::string reason;
};
using KeyResult = std::variant<std::string_view, KeyMissing, KeyInvalid>;

// The tenant id, checked with the tenant-table id rule (valid_tenant_id); the view points
// into `source`.
KeyResult extract_tenant(const TenantKey& key, const KeySource& source);

}  // namespace isolato::gate
