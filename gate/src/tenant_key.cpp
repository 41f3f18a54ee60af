#include "tenant_key.hpp"

#include "tenant.hpp"

namespace isolato::gate {

std::variant<TenantKey, std::string> parse_tenant_key(std::string_view spec) {
  constexpr std::string_view kHeader = "header:", kPath = "path:";
  if (spec == "host") return TenantKey{TenantKey::Kind::host, ""};
  if (spec.starts_with(kHeader)) {
    const auto name = spec.substr(kHeader.size());
    // A header name is an RFC 9110 token; keep to the usual letters, digits and dashes.
    if (name.empty() || name.size() > 64 ||
        name.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                               "0123456789-_") != std::string_view::npos)
      return "header name must be 1-64 of [A-Za-z0-9_-]";
    return TenantKey{TenantKey::Kind::header, std::string(name)};
  }
  if (spec.starts_with(kPath)) {
    const auto prefix = spec.substr(kPath.size());
    if (prefix.size() < 2 || prefix.front() != '/' || prefix.back() != '/' ||
        prefix.find_first_of("?#%") != std::string_view::npos)
      return "path prefix must start and end with '/' and hold no '?', '#' or '%'";
    return TenantKey{TenantKey::Kind::path, std::string(prefix)};
  }
  return "must be header:NAME, path:/PREFIX/ or host";
}

namespace {
KeyResult checked(std::string_view id) {
  if (id.empty()) return KeyMissing{};
  if (!saasbench::valid_tenant_id(id)) return KeyInvalid{"tenant id must match [A-Za-z0-9][A-Za-z0-9._-]{0,62}"};
  return id;
}
}  // namespace

KeyResult extract_tenant(const TenantKey& key, const KeySource& source) {
  switch (key.kind) {
    case TenantKey::Kind::header:
      if (!source.header) return KeyMissing{};
      return checked(*source.header);
    case TenantKey::Kind::host: {
      // The first label of "t1.example.com:8080"; an IP literal or a bare name without dots
      // names no tenant.
      const auto host = source.host.substr(0, source.host.find(':'));
      const auto dot = host.find('.');
      if (dot == std::string_view::npos) return KeyMissing{};
      return checked(host.substr(0, dot));
    }
    case TenantKey::Kind::path: {
      const auto path = source.target.substr(0, source.target.find('?'));
      if (!path.starts_with(key.name)) return KeyMissing{};
      const auto rest = path.substr(key.name.size());
      // The id is checked as sent, never percent-decoded: "%2F" or ".." cannot pass the id
      // rule, so no encoded form can name another tenant's path.
      return checked(rest.substr(0, rest.find('/')));
    }
  }
  return KeyMissing{};
}

}  // namespace isolato::gate
