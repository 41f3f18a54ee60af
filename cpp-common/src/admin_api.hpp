// The tenant-table admin endpoint (GET/PUT /v1/admin/tenants) as saas-bench and isolato-gate
// both answer it, free of HTTP-library types: bearer token, strict parse, atomic swap.
#pragma once
#include <functional>
#include <string>
#include <string_view>

#include "admin_auth.hpp"
#include "response.hpp"
#include "tenant_registry.hpp"

namespace saasbench {

struct AdminRequest {
  std::string_view method;
  std::string_view authorization;  // raw header value
  std::string_view body;
};

// 405 unless GET/PUT; 403 without tokens; 401 on a wrong token; GET: the table; PUT: applies a
// valid table (`counted(true)`) or answers 400 naming the field (`counted(false)`).
Response admin_tenants(const AdminRequest& request, TenantRegistry& registry, const AdminAuth& auth,
                       const std::function<void(bool applied)>& counted);

Response ok_json(std::string body);
Response method_not_allowed(std::string allow);  // 405 with its Allow header

}  // namespace saasbench
