// The container's CPU limit from the cgroup CFS quota (v1 cpu.cfs_quota_us/cfs_period_us,
// v2 cpu.max), which sizes the worker pool: a 237m pod gets 1 worker, not one per host core.
#pragma once
#include <filesystem>
#include <optional>
#include <string_view>

namespace saasbench {

// "23700 100000" → 0.237 CPUs; "max 100000" → nullopt (unlimited).
std::optional<double> parse_cpu_max(std::string_view text);
// quota "-1" → nullopt; "23700" with period "100000" → 0.237.
std::optional<double> parse_cfs(std::string_view quota, std::string_view period);

// Looks for the limit of this process's cgroup below `root` (normally /sys/fs/cgroup) using
// `self_cgroup` (the text of /proc/self/cgroup) to find its directory; falls back to the
// mount's root directory, which is what a container sees. nullopt = no limit found.
std::optional<double> read_cpu_limit(const std::filesystem::path& root, std::string_view self_cgroup);
std::optional<double> read_cpu_limit();

// Worker threads for a limit: ceil(limit), at least 1; the core count without a limit.
unsigned workers_for(std::optional<double> cpu_limit, unsigned cores);

}  // namespace saasbench
