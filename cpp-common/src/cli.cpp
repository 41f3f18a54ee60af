#include "cli.hpp"

namespace saasbench::cli {

std::optional<HostPort> host_port(const std::string& s) {
  const auto colon = s.rfind(':');
  if (colon == std::string::npos || colon == 0) return std::nullopt;
  auto port = number<unsigned>(s.substr(colon + 1), 0, 65535);
  if (!port) return std::nullopt;
  return HostPort{s.substr(0, colon), static_cast<unsigned short>(*port)};
}

Setter milliseconds(std::chrono::milliseconds& out) {
  return [&out](const std::string& v) -> std::optional<std::string> {
    auto n = number<long>(v, 1, 86'400'000);
    if (!n) return "must be milliseconds between 1 and 86400000";
    out = std::chrono::milliseconds(*n);
    return std::nullopt;
  };
}

Setter path(std::optional<std::filesystem::path>& out) {
  return [&out](const std::string& v) -> std::optional<std::string> {
    if (v.empty()) return "must be a file path";
    out = v;
    return std::nullopt;
  };
}

std::variant<Parsed, std::string> apply(const std::vector<std::string>& args, std::size_t start, const Options& options,
                                        const std::map<std::string, bool*, std::less<>>& flags) {
  for (std::size_t i = start; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "-h" || a == "--help") return Parsed::help;
    if (auto f = flags.find(a); f != flags.end()) {
      *f->second = true;
      continue;
    }
    auto it = options.find(a);
    if (it == options.end()) return "unknown argument " + a;
    if (i + 1 >= args.size()) return a + ": missing value";
    if (auto err = it->second(args[++i])) return a + ": " + *err;
  }
  return Parsed::ok;
}

}  // namespace saasbench::cli
