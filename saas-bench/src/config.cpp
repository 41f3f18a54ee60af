#include "config.hpp"

#include "cli.hpp"

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

std::variant<Config, std::string> parse_args(const std::vector<std::string>& args) {
  Config c;
  std::size_t i = 0;
  if (i < args.size() && args[i] == "serve")
    ++i;
  else if (i < args.size() && args[i] == "calibrate")
    c.command = Config::Command::calibrate, ++i;
  else if (i < args.size() && args[i] == "soak")
    c.command = Config::Command::soak, ++i;
  const cli::Options options{
      {"--listen",
       [&](const std::string& v) -> std::optional<std::string> {
         auto l = cli::host_port(v);
         if (!l) return "must be ADDRESS:PORT";
         c.listen.address = l->host;
         c.listen.port = l->port;
         return std::nullopt;
       }},
      {"--io-threads", cli::count<std::size_t>(c.listen.io_threads, 1, 64)},
      {"--workers",
       [&](const std::string& v) -> std::optional<std::string> {
         auto n = cli::number<unsigned>(v, 1, 256);
         if (!n) return "must be between 1 and 256";
         c.workers = *n;
         return std::nullopt;
       }},
      {"--tenants", cli::path(c.tenants_file)},
      {"--admin-token-file", cli::path(c.admin_token_file)},
      {"--data-dir",
       [&](const std::string& v) -> std::optional<std::string> {
         c.data_dir = v;
         return std::nullopt;
       }},
      {"--max-in-flight", cli::count<std::int64_t>(c.max_in_flight, 1, 1'000'000)},
      {"--max-body-bytes", cli::count<std::size_t>(c.max_body_bytes, 1024, 64 << 20)},
      {"--read-timeout-ms", cli::milliseconds(c.read_timeout)},
      {"--grace-ms", cli::milliseconds(c.grace)},
      {"--file-poll-ms", cli::milliseconds(c.file_poll)},
  };
  auto applied = cli::apply(args, i, options);
  if (auto* err = std::get_if<std::string>(&applied)) return *err;
  if (std::get<cli::Parsed>(applied) == cli::Parsed::help) c.command = Config::Command::help;
  return c;
}

}  // namespace saasbench
