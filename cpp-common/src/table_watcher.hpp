// The tenant table file (a mounted ConfigMap) as a FileWatcher feed: a table that parses
// replaces the active one; one that does not (malformed, partial, gone) leaves it active.
#pragma once
#include "file_watcher.hpp"
#include "tenant_registry.hpp"

namespace saasbench {

// `counted` reports every reload attempt (true = applied).
FileHandler tenant_table_file(TenantRegistry& registry, std::function<void(bool applied)> counted);

}  // namespace saasbench
