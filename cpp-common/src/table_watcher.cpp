#include "table_watcher.hpp"

#include "tenant_json.hpp"

namespace saasbench {

FileHandler tenant_table_file(TenantRegistry& registry, std::function<void(bool applied)> counted) {
  return {"tenant table",
          [&registry](std::string_view text) -> FileHandler::Result {
            auto parsed = parse_tenant_table(text);
            if (auto* err = std::get_if<TableError>(&parsed)) return {false, err->to_string()};
            auto& table = std::get<TenantTableSpec>(parsed);
            std::string summary = "version " + table.version + ", " + std::to_string(table.tenants.size()) + " tenants";
            if (auto older = registry.replace(std::move(table))) return {false, *older};
            return {true, std::move(summary)};
          },
          std::move(counted)};
}

}  // namespace saasbench
