#include "admin_api.hpp"

#include <boost/json.hpp>

#include "log.hpp"
#include "tenant_json.hpp"

namespace saasbench {

Response ok_json(std::string body) {
  Response r;
  r.body = std::move(body);
  return r;
}

Response method_not_allowed(std::string allow) {
  Response r = problem(405, "method not allowed; use " + allow);
  r.allow = std::move(allow);
  return r;
}

Response admin_tenants(const AdminRequest& request, TenantRegistry& registry, const AdminAuth& auth,
                       const std::function<void(bool applied)>& counted) {
  const bool get = request.method == "GET", put = request.method == "PUT";
  if (!get && !put) return method_not_allowed("GET, PUT");
  if (!auth.enabled()) return problem(403, "admin endpoints are disabled (no --admin-token-file)");
  if (!auth.allows(request.authorization)) {
    Response r = problem(401, "missing or wrong bearer token", "Authorization");
    r.www_authenticate = true;
    return r;
  }
  if (get) return ok_json(to_json(registry.current()->spec()));
  auto parsed = parse_tenant_table(request.body);
  if (auto* err = std::get_if<TableError>(&parsed)) {
    counted(false);
    log_line("warn", "tenant table from admin rejected, old table stays: " + err->to_string());
    return problem(400, "tenant table rejected: " + err->message, err->field);
  }
  auto& table = std::get<TenantTableSpec>(parsed);
  const std::string version = table.version;
  const std::size_t count = table.tenants.size();
  if (auto older = registry.replace(std::move(table))) {
    counted(false);
    log_line("warn", "tenant table " + version + " from admin not applied: " + *older);
    return problem(409, "tenant table not applied: " + *older, "revision");
  }
  counted(true);
  log_line("info", "tenant table " + version + " applied from admin (" + std::to_string(count) + " tenants)");
  return ok_json(boost::json::serialize(boost::json::object{{"version", version}, {"tenants", count}}));
}

}  // namespace saasbench
