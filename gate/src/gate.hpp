// isolato-gate: one event loop that admits tenant requests (tenant key -> token bucket) and
// relays them to the upstream over pooled keep-alive connections, bodies streamed both ways.
#pragma once
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <chrono>
#include <future>
#include <memory>
#include <thread>
#include <vector>

#include "admin_auth.hpp"
#include "file_watcher.hpp"
#include "gate_config.hpp"
#include "gate_metrics.hpp"
#include "tenant_registry.hpp"

namespace isolato::gate {

class GateSession;

// Idle keep-alive connections to the upstream, used last-in first-out (the warmest first).
// One idle longer than max_idle is closed, not reused: the app closes idle connections after its
// own keep-alive timeout, and a request sent as it does is lost (a 502; a request with a body
// cannot be retried safely). Touched on the loop's thread only.
class UpstreamPool {
 public:
  using Clock = std::chrono::steady_clock;
  static constexpr std::size_t kMaxIdle = 256;
  explicit UpstreamPool(std::chrono::milliseconds max_idle) : max_idle_(max_idle) {}
  std::unique_ptr<boost::beast::tcp_stream> take(Clock::time_point now = Clock::now());
  void give(std::unique_ptr<boost::beast::tcp_stream> s, Clock::time_point now = Clock::now());
  std::size_t idle() const { return idle_.size(); }

 private:
  struct Idle {
    std::unique_ptr<boost::beast::tcp_stream> stream;
    Clock::time_point since;
  };
  std::chrono::milliseconds max_idle_;
  std::vector<Idle> idle_;
};

// What every session shares; owned by the Gate, outlives all sessions.
struct GateShared {
  const GateConfig& config;
  saasbench::TenantRegistry& registry;
  saasbench::AdminAuth& auth;
  GateMetrics& metrics;
  boost::asio::ip::tcp::endpoint upstream;
  UpstreamPool pool;
  bool draining = false;  // loop thread only
};

class Gate {
 public:
  // Reads the token file and the table (throws when the token file cannot be read) and binds
  // (throws boost::system::system_error when it cannot); serves after start().
  explicit Gate(GateConfig config);
  ~Gate();
  Gate(const Gate&) = delete;
  Gate& operator=(const Gate&) = delete;

  unsigned short port() const { return port_; }
  void start();
  // SIGTERM: /readyz answers 503, no new connections, idle ones close, requests in flight
  // finish (their connection closes after the response); waits up to `grace`, then stops hard.
  // True when everything finished in time.
  bool shutdown(std::chrono::milliseconds grace);
  GateMetrics& metrics() { return metrics_; }

 private:
  void accept();

  GateConfig config_;
  saasbench::TenantRegistry registry_;
  saasbench::AdminAuth auth_;
  GateMetrics metrics_;
  boost::asio::io_context ioc_{1};
  boost::asio::ip::tcp::acceptor acceptor_{ioc_};
  boost::asio::steady_timer backoff_{ioc_};
  GateShared shared_;
  std::vector<std::weak_ptr<GateSession>> sessions_;  // loop thread only
  unsigned short port_ = 0;
  std::unique_ptr<saasbench::FileWatcher> table_watcher_;
  std::unique_ptr<saasbench::FileWatcher> token_watcher_;
  std::promise<void> done_;
  std::thread thread_;
  bool stopped_ = false;
};

}  // namespace isolato::gate
