// Command line of isolato-gate (docs/gate.md; `isolato-gate --help`). Pure: errors come
// back as text, and main exits 2 with them.
#pragma once
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "tenant_key.hpp"

namespace isolato::gate {

struct Endpoint {
  std::string host;
  unsigned short port = 0;
};

struct GateConfig {
  Endpoint listen{"0.0.0.0", 8080};
  Endpoint upstream{"127.0.0.1", 8081};
  TenantKey tenant_key;
  bool pass_unknown = false;  // --unknown-tenant pass
  std::optional<std::filesystem::path> tenants_file;
  std::optional<std::filesystem::path> admin_token_file;
  bool forward_table = false;
  std::chrono::milliseconds upstream_timeout{10000};
  std::chrono::milliseconds connect_timeout{1000};
  std::chrono::milliseconds upstream_idle{4000};  // under the app's keep-alive timeout
  std::chrono::milliseconds read_timeout{15000};
  std::chrono::milliseconds grace{20000};
  std::chrono::milliseconds file_poll{500};
  std::size_t max_body_bytes = 8 << 20;
  std::size_t max_header_bytes = 8192;
  std::size_t max_connections = 4096;
  // Connections beyond max_connections that may only ask for /healthz, /readyz or /metrics, each
  // within probe_read_timeout (also the probe port's): the readiness probe and Prometheus' scrape still get an answer
  // when tenants fill the cap (a refused probe took a full gate out of service, or had it restarted)
  std::size_t probe_connections = 32;
  std::chrono::milliseconds probe_read_timeout{2000};
  // The kubelet's probes on a port and a thread of their own (ProbeServer): behind a full loop on
  // a throttled CPU an HTTP probe of the service port timed out, and the pod left its Service
  std::optional<Endpoint> probe_listen;
  // Requests relayed to the app at once; more wait in the gate, in arrival order, at most
  // queue_timeout (then 503 + Retry-After, counted as overload). An app handed every waiting
  // request at once shares its CPU among them all, its own readiness probe included. 0: no limit
  std::size_t max_upstream_requests = 64;
  std::chrono::milliseconds queue_timeout{1000};
  bool help = false;
};

std::variant<GateConfig, std::string> parse_gate_args(const std::vector<std::string>& args);
std::string gate_usage();

}  // namespace isolato::gate
