#include "gate_config.hpp"

#include "cli.hpp"

namespace isolato::gate {
namespace cli = saasbench::cli;

std::string gate_usage() {
  return R"(usage: isolato-gate [options]     the tenant gate in front of one HTTP service (docs/gate.md)
options:
  --listen ADDR:PORT          where tenants connect (default 0.0.0.0:8080)
  --upstream ADDR:PORT        the service, on loopback (default 127.0.0.1:8081)
  --tenant-key KEY            header:NAME | path:/PREFIX/ | host (default header:X-Tenant)
  --unknown-tenant POLICY     reject (404) | pass (forwarded as tenant "_unknown"); default reject
  --tenants FILE              tenant table JSON (saas-bench's format), reloaded when it changes
  --admin-token-file FILE     bearer tokens for /v1/admin/tenants, one per line; reloaded
  --forward-table             PUT an applied admin table on to the upstream's /v1/admin/tenants
  --upstream-timeout-ms N     wait for the upstream's response header / next body bytes (10000)
  --connect-timeout-ms N      connect to the upstream (1000)
  --upstream-idle-ms N        reuse an idle upstream connection only this long; keep it under
                              the app's keep-alive timeout (4000)
  --read-timeout-ms N         receive a request header, keep-alive idle included (15000)
  --max-body-bytes N          request body limit, 413 above (default 8388608)
  --max-connections N         client connections at once; more are closed at once (4096)
  --max-upstream-requests N   requests relayed to the app at once, 0 = no limit (64); more wait
  --queue-timeout-ms N        longest wait for one of those, then 503 + Retry-After (1000)
  --probe-listen ADDR:PORT    also answer /healthz and /readyz there, on a thread of their own
  --grace-ms N                drain time after SIGTERM (default 20000)
  --file-poll-ms N            how often the table and token files are checked (default 500)
)";
}

namespace {
cli::Setter endpoint(Endpoint& out) {
  return [&out](const std::string& v) -> std::optional<std::string> {
    auto hp = cli::host_port(v);
    if (!hp) return "must be ADDRESS:PORT";
    out = {hp->host, hp->port};
    return std::nullopt;
  };
}
}  // namespace

std::variant<GateConfig, std::string> parse_gate_args(const std::vector<std::string>& args) {
  GateConfig c;
  const cli::Options options{
      {"--listen", endpoint(c.listen)},
      {"--upstream", endpoint(c.upstream)},
      {"--tenant-key",
       [&](const std::string& v) -> std::optional<std::string> {
         auto key = parse_tenant_key(v);
         if (auto* err = std::get_if<std::string>(&key)) return *err;
         c.tenant_key = std::get<TenantKey>(key);
         return std::nullopt;
       }},
      {"--unknown-tenant",
       [&](const std::string& v) -> std::optional<std::string> {
         if (v != "reject" && v != "pass") return "must be reject or pass";
         c.pass_unknown = v == "pass";
         return std::nullopt;
       }},
      {"--tenants", cli::path(c.tenants_file)},
      {"--admin-token-file", cli::path(c.admin_token_file)},
      {"--upstream-timeout-ms", cli::milliseconds(c.upstream_timeout)},
      {"--connect-timeout-ms", cli::milliseconds(c.connect_timeout)},
      {"--upstream-idle-ms", cli::milliseconds(c.upstream_idle)},
      {"--read-timeout-ms", cli::milliseconds(c.read_timeout)},
      {"--grace-ms", cli::milliseconds(c.grace)},
      {"--file-poll-ms", cli::milliseconds(c.file_poll)},
      {"--max-body-bytes", cli::count<std::size_t>(c.max_body_bytes, 1024, std::size_t{1} << 32)},
      {"--max-connections", cli::count<std::size_t>(c.max_connections, 1, 1'000'000)},
      {"--max-upstream-requests", cli::count<std::size_t>(c.max_upstream_requests, 0, 1'000'000)},
      {"--queue-timeout-ms", cli::milliseconds(c.queue_timeout)},
      {"--probe-listen",
       [&](const std::string& v) -> std::optional<std::string> {
         Endpoint e;
         if (auto err = endpoint(e)(v)) return err;
         c.probe_listen = e;
         return std::nullopt;
       }},
  };
  auto applied = cli::apply(args, 0, options, {{"--forward-table", &c.forward_table}});
  if (auto* err = std::get_if<std::string>(&applied)) return *err;
  c.help = std::get<cli::Parsed>(applied) == cli::Parsed::help;
  if (c.forward_table && !c.admin_token_file) return "--forward-table needs --admin-token-file";
  return c;
}

}  // namespace isolato::gate
