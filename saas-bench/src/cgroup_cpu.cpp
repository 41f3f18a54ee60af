#include "cgroup_cpu.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace saasbench {
namespace fs = std::filesystem;

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ' || s.back() == '\r')) s.remove_suffix(1);
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  return s;
}

std::optional<long long> to_int(std::string_view s) {
  s = trim(s);
  long long v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc{} || p != s.data() + s.size()) return std::nullopt;
  return v;
}

std::optional<std::string> slurp(const fs::path& p) {
  std::ifstream in(p);
  if (!in) return std::nullopt;
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::optional<double> ratio(std::optional<long long> quota, std::optional<long long> period) {
  if (!quota || !period || *quota <= 0 || *period <= 0) return std::nullopt;
  return static_cast<double>(*quota) / static_cast<double>(*period);
}

// Directories of this process's cgroup per line "id:controllers:path" of /proc/self/cgroup.
std::vector<std::pair<std::string, std::string>> cgroup_paths(std::string_view self) {
  std::vector<std::pair<std::string, std::string>> out;
  while (!self.empty()) {
    const auto nl = self.find('\n');
    const auto line = self.substr(0, nl);
    const auto a = line.find(':');
    const auto b = a == std::string_view::npos ? a : line.find(':', a + 1);
    if (b != std::string_view::npos)
      out.emplace_back(std::string(line.substr(a + 1, b - a - 1)), std::string(line.substr(b + 1)));
    self = nl == std::string_view::npos ? std::string_view{} : self.substr(nl + 1);
  }
  return out;
}

bool has_controller(std::string_view list, std::string_view name) {
  while (!list.empty()) {
    const auto comma = list.find(',');
    if (list.substr(0, comma) == name) return true;
    list = comma == std::string_view::npos ? std::string_view{} : list.substr(comma + 1);
  }
  return false;
}

}  // namespace

std::optional<double> parse_cpu_max(std::string_view text) {
  text = trim(text);
  const auto sp = text.find(' ');
  if (sp == std::string_view::npos) return std::nullopt;
  if (text.substr(0, sp) == "max") return std::nullopt;
  return ratio(to_int(text.substr(0, sp)), to_int(text.substr(sp + 1)));
}

std::optional<double> parse_cfs(std::string_view quota, std::string_view period) {
  return ratio(to_int(quota), to_int(period));
}

std::optional<double> read_cpu_limit(const fs::path& root, std::string_view self_cgroup) {
  std::vector<fs::path> v1_dirs, v2_dirs;
  for (const auto& [controllers, path] : cgroup_paths(self_cgroup)) {
    const fs::path rel = fs::path(path).relative_path();
    if (controllers.empty()) {
      v2_dirs.push_back(root / rel);
      v2_dirs.push_back(root / "unified" / rel);
    } else if (has_controller(controllers, "cpu")) {
      for (const char* mount : {"cpu", "cpu,cpuacct", "cpuacct,cpu"}) {
        v1_dirs.push_back(root / mount / rel);
        v1_dirs.push_back(root / mount);  // a container sees its own cgroup as the mount root
      }
    }
  }
  for (const auto& dir : v1_dirs) {
    auto quota = slurp(dir / "cpu.cfs_quota_us");
    auto period = slurp(dir / "cpu.cfs_period_us");
    if (quota && period) return parse_cfs(*quota, *period);
  }
  v2_dirs.push_back(root);
  for (const auto& dir : v2_dirs)
    if (auto max = slurp(dir / "cpu.max")) return parse_cpu_max(*max);
  return std::nullopt;
}

std::optional<double> read_cpu_limit() {
  const auto self = slurp("/proc/self/cgroup");
  return read_cpu_limit("/sys/fs/cgroup", self.value_or(""));
}

unsigned workers_for(std::optional<double> cpu_limit, unsigned cores) {
  if (!cpu_limit) return std::max(1U, cores);
  return std::max(1U, static_cast<unsigned>(std::ceil(*cpu_limit - 1e-9)));
}

}  // namespace saasbench
