#include "config.hpp"

#include <charconv>
#include <functional>
#include <map>

namespace saasbench {

std::string usage() {
  return R"(usage: saas-bench [serve] [options]     run the service
       saas-bench calibrate [--data-dir DIR]   print milliseconds per stress unit here
       saas-bench soak [--workers N]           burn idle CPU until SIGTERM (the filler)
options:
  --listen ADDR:PORT        listen address (default 0.0.0.0:8080; port 0 = any free port)
  --io-threads N            HTTP threads (default 1)
  --workers N               stress worker threads (default: ceil(cgroup CPU limit) or cores)
  --tenants FILE            tenant table JSON, reloaded when it changes
  --admin-token-file FILE   bearer tokens for /v1/admin/*, one per line, any accepted;
                            reloaded when it changes (admin disabled without it)
  --data-dir DIR            where the io stress writes (default /data)
  --max-in-flight N         admitted tenant requests at once before 503 (default 256)
  --max-body-bytes N        request body limit, 413 above (default 1048576)
  --read-timeout-ms N       time to receive a whole request, idle keep-alive included (15000)
  --grace-ms N              drain time after SIGTERM (default 20000)
  --file-poll-ms N          how often the tenant and token files are checked (default 500)
)";
}

namespace {

template <typename T> std::optional<T> number(const std::string& s, T min, T max) {
  T v{};
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc{} || p != s.data() + s.size() || v < min || v > max) return std::nullopt;
  return v;
}

std::optional<ListenOptions> listen_address(const std::string& s, ListenOptions base) {
  const auto colon = s.rfind(':');
  if (colon == std::string::npos || colon == 0) return std::nullopt;
  auto port = number<unsigned>(s.substr(colon + 1), 0, 65535);
  if (!port) return std::nullopt;
  base.address = s.substr(0, colon);
  base.port = static_cast<unsigned short>(*port);
  return base;
}

}  // namespace

std::variant<Config, std::string> parse_args(const std::vector<std::string>& args) {
  Config c;
  std::size_t i = 0;
  if (i < args.size() && args[i] == "serve")
    ++i;
  else if (i < args.size() && args[i] == "calibrate")
    c.command = Config::Command::calibrate, ++i;
  else if (i < args.size() && args[i] == "soak")
    c.command = Config::Command::soak, ++i;
  // Each option takes one value and stores it, or returns why the value is wrong.
  using Setter = std::function<std::optional<std::string>(const std::string&)>;
  auto ms = [](std::chrono::milliseconds& out) {
    return Setter([&out](const std::string& v) -> std::optional<std::string> {
      auto n = number<long>(v, 1, 86'400'000);
      if (!n) return "must be milliseconds between 1 and 86400000";
      out = std::chrono::milliseconds(*n);
      return std::nullopt;
    });
  };
  const std::map<std::string, Setter> options{
      {"--listen",
       [&](const std::string& v) -> std::optional<std::string> {
         auto l = listen_address(v, c.listen);
         if (!l) return "must be ADDRESS:PORT";
         c.listen = *l;
         return std::nullopt;
       }},
      {"--io-threads",
       [&](const std::string& v) -> std::optional<std::string> {
         auto n = number<std::size_t>(v, 1, 64);
         if (!n) return "must be between 1 and 64";
         c.listen.io_threads = *n;
         return std::nullopt;
       }},
      {"--workers",
       [&](const std::string& v) -> std::optional<std::string> {
         auto n = number<unsigned>(v, 1, 256);
         if (!n) return "must be between 1 and 256";
         c.workers = *n;
         return std::nullopt;
       }},
      {"--tenants",
       [&](const std::string& v) -> std::optional<std::string> {
         c.tenants_file = v;
         return std::nullopt;
       }},
      {"--admin-token-file",
       [&](const std::string& v) -> std::optional<std::string> {
         c.admin_token_file = v;
         return std::nullopt;
       }},
      {"--data-dir",
       [&](const std::string& v) -> std::optional<std::string> {
         c.data_dir = v;
         return std::nullopt;
       }},
      {"--max-in-flight",
       [&](const std::string& v) -> std::optional<std::string> {
         auto n = number<std::int64_t>(v, 1, 1'000'000);
         if (!n) return "must be between 1 and 1000000";
         c.max_in_flight = *n;
         return std::nullopt;
       }},
      {"--max-body-bytes",
       [&](const std::string& v) -> std::optional<std::string> {
         auto n = number<std::size_t>(v, 1024, 64 << 20);
         if (!n) return "must be between 1024 and 67108864";
         c.max_body_bytes = *n;
         return std::nullopt;
       }},
      {"--read-timeout-ms", ms(c.read_timeout)},
      {"--grace-ms", ms(c.grace)},
      {"--file-poll-ms", ms(c.file_poll)},
  };
  for (; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "-h" || a == "--help") {
      c.command = Config::Command::help;
      return c;
    }
    auto it = options.find(a);
    if (it == options.end()) return "unknown argument " + a;
    if (i + 1 >= args.size()) return a + ": missing value";
    if (auto err = it->second(args[++i])) return a + ": " + *err;
  }
  return c;
}

}  // namespace saasbench
