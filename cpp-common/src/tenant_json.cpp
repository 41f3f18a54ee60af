#include "tenant_json.hpp"

#include <boost/json.hpp>
#include <cmath>
#include <initializer_list>

namespace saasbench {
namespace json = boost::json;

bool valid_tenant_id(std::string_view id) {
  if (id.empty() || id.size() > limits::kMaxIdLength) return false;
  auto alnum = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); };
  if (!alnum(id.front())) return false;
  for (char c : id)
    if (!alnum(c) && c != '-' && c != '_' && c != '.') return false;
  return true;
}

namespace {

// Thrown inside the parser only; turned into a TableError at the boundary.
struct Reject {
  TableError error;
};

[[noreturn]] void reject(std::string field, std::string message) {
  throw Reject{{std::move(field), std::move(message)}};
}

const json::object& as_object(const json::value& v, const std::string& field) {
  if (!v.is_object()) reject(field, "must be an object");
  return v.get_object();
}

void only_known_fields(const json::object& o, const std::string& at, std::initializer_list<std::string_view> known) {
  for (const auto& kv : o) {
    bool ok = false;
    for (auto k : known) ok = ok || kv.key() == k;
    if (!ok) reject(at.empty() ? std::string(kv.key()) : at + "." + std::string(kv.key()), "unknown field");
  }
}

std::uint64_t bounded_uint(const json::object& o, std::string_view key, const std::string& at, std::uint64_t max) {
  const auto* v = o.if_contains(key);
  if (v == nullptr) return 0;
  const std::string field = at.empty() ? std::string(key) : at + "." + std::string(key);
  std::int64_t n = 0;
  if (v->is_int64())
    n = v->get_int64();
  else if (v->is_uint64() && v->get_uint64() <= max)
    n = static_cast<std::int64_t>(v->get_uint64());
  else if (v->is_uint64())
    n = -1;
  else
    reject(field, "must be an integer");
  if (n < 0 || static_cast<std::uint64_t>(n) > max) reject(field, "must be between 0 and " + std::to_string(max));
  return static_cast<std::uint64_t>(n);
}

double positive_number(const json::value& v, const std::string& field, double max) {
  if (!v.is_number()) reject(field, "must be a number");
  const double d = v.to_number<double>();
  if (!std::isfinite(d) || d <= 0 || d > max)
    reject(field, "must be greater than 0 and at most " + std::to_string(static_cast<long>(max)));
  return d;
}

Profile parse_profile(const json::value& v, const std::string& at) {
  const auto& o = as_object(v, at);
  only_known_fields(o, at, {"cpu", "memory", "io", "fsync"});
  Profile p;
  p.cpu = static_cast<std::uint32_t>(bounded_uint(o, "cpu", at, limits::kMaxCpu));
  p.memory = static_cast<std::uint32_t>(bounded_uint(o, "memory", at, limits::kMaxMemory));
  p.io = static_cast<std::uint32_t>(bounded_uint(o, "io", at, limits::kMaxIo));
  if (const auto* f = o.if_contains("fsync")) {
    if (!f->is_bool()) reject(at + ".fsync", "must be true or false");
    p.fsync = f->get_bool();
  }
  return p;
}

TenantSpec parse_tenant(const json::value& v, const std::string& at) {
  const auto& o = as_object(v, at);
  only_known_fields(o, at, {"profile", "rateRps", "burst"});
  TenantSpec t;
  const auto* profile = o.if_contains("profile");
  if (profile == nullptr) reject(at + ".profile", "is required");
  t.profile = parse_profile(*profile, at + ".profile");
  if (const auto* r = o.if_contains("rateRps"); r != nullptr && !r->is_null())
    t.rate_rps = positive_number(*r, at + ".rateRps", limits::kMaxRate);
  if (const auto* b = o.if_contains("burst")) {
    t.burst = positive_number(*b, at + ".burst", limits::kMaxBurst);
    if (t.burst < 1) reject(at + ".burst", "must be at least 1");
  } else {
    t.burst = t.rate_rps ? std::max(1.0, *t.rate_rps) : 1.0;
  }
  return t;
}

TenantTableSpec parse_table(const json::value& root) {
  const auto& o = as_object(root, "");
  only_known_fields(o, "", {"version", "revision", "tenants"});
  TenantTableSpec table;
  if (o.contains("revision")) table.revision = bounded_uint(o, "revision", "", limits::kMaxRevision);
  const auto* version = o.if_contains("version");
  if (version == nullptr || !version->is_string()) reject("version", "must be a string");
  table.version = std::string(version->get_string());
  if (table.version.empty() || table.version.size() > limits::kMaxVersionLength)
    reject("version", "must be 1 to " + std::to_string(limits::kMaxVersionLength) + " characters");
  const auto* tenants = o.if_contains("tenants");
  if (tenants == nullptr) reject("tenants", "is required");
  const auto& to = as_object(*tenants, "tenants");
  if (to.size() > limits::kMaxTenants) reject("tenants", "at most " + std::to_string(limits::kMaxTenants) + " tenants");
  for (const auto& kv : to) {
    const std::string id(kv.key());
    const std::string at = "tenants." + id;
    if (!valid_tenant_id(id)) reject(at, "tenant id must match [A-Za-z0-9][A-Za-z0-9._-]{0,62}");
    table.tenants.emplace(id, parse_tenant(kv.value(), at));
  }
  return table;
}

}  // namespace

std::variant<TenantTableSpec, TableError> parse_tenant_table(std::string_view text) {
  json::parse_options opt;
  opt.max_depth = 8;  // the format is 4 levels deep; deeper input is not a table
  boost::system::error_code ec;
  json::value root = json::parse(text, ec, {}, opt);
  if (ec) return TableError{"", "invalid JSON: " + ec.message()};
  try {
    return parse_table(root);
  } catch (const Reject& r) {
    return r.error;
  }
}

// Whole numbers print as integers (50, not 5E1): the controller and people read this back.
static json::value number_value(double d) {
  if (d == std::floor(d) && std::abs(d) < 9e15) return static_cast<std::int64_t>(d);
  return d;
}

std::string to_json(const TenantTableSpec& table) {
  json::object tenants;
  for (const auto& [id, t] : table.tenants) {
    json::object profile{
        {"cpu", t.profile.cpu}, {"memory", t.profile.memory}, {"io", t.profile.io}, {"fsync", t.profile.fsync}};
    json::object o{{"profile", std::move(profile)}, {"burst", number_value(t.burst)}};
    if (t.rate_rps) o["rateRps"] = number_value(*t.rate_rps);
    tenants[id] = std::move(o);
  }
  json::object root{{"version", table.version}, {"tenants", std::move(tenants)}};
  if (table.revision) root["revision"] = *table.revision;
  return json::serialize(root);
}

}  // namespace saasbench
