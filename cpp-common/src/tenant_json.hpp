// The tenant table's JSON format (docs/saas-bench.md#tenant-table): parse strictly, print back.
#pragma once
#include <string>
#include <string_view>
#include <variant>

#include "tenant.hpp"

namespace saasbench {

// Why a table was rejected: `field` is a dotted path such as "tenants.t1.profile.cpu".
struct TableError {
  std::string field;
  std::string message;
  std::string to_string() const { return field.empty() ? message : field + ": " + message; }
};

// Parses a whole table; any error rejects the whole table.
std::variant<TenantTableSpec, TableError> parse_tenant_table(std::string_view text);

// Prints a table in the same format (parse_tenant_table(to_json(t)) == t).
std::string to_json(const TenantTableSpec& table);

}  // namespace saasbench
