// isolato-gate: one event loop that admits tenant requests (tenant key -> token bucket) and
// relays them to the upstream over pooled keep-alive connections, bodies streamed both ways.
#pragma once
#include <atomic>
#include <boost/asio/basic_stream_socket.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <chrono>
#include <deque>
#include <future>
#include <memory>
#include <thread>
#include <vector>

#include "admin_auth.hpp"
#include "asio_types.hpp"
#include "file_watcher.hpp"
#include "gate_config.hpp"
#include "gate_metrics.hpp"
#include "probe_server.hpp"
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
  // A connection idle this long is checked before reuse (a peek: closed by the upstream?).
  // Upstreams close idle keep-alive connections after seconds (gunicorn 2 s, Node 5 s, nginx
  // 75 s), so one idle for less is reused unchecked: under load that spares a syscall per
  // request. A close that races the reuse anyway ends as the retry or 502 of upstream_failed.
  static constexpr Clock::duration kCheckAfter = std::chrono::milliseconds(250);
  std::unique_ptr<Stream> take(Clock::time_point now = Clock::now());
  void give(std::unique_ptr<Stream> s, Clock::time_point now);
  std::size_t idle() const { return idle_.size(); }

 private:
  struct Idle {
    std::unique_ptr<Stream> stream;
    Clock::time_point since;
  };
  std::chrono::milliseconds max_idle_;
  std::vector<Idle> idle_;
};

// The app's share of requests at once (--max-upstream-requests): sessions over it wait in
// arrival order, held here (no read or write of theirs is pending to keep them alive) until a
// slot comes free or their wait times out. Touched on the loop's thread only.
class UpstreamSlots {
 public:
  UpstreamSlots(std::size_t limit, std::atomic<std::int64_t>& in_use_gauge) : limit_(limit), gauge_(in_use_gauge) {}
  bool try_take() {
    if (limit_ != 0 && in_use_ >= limit_) return false;
    ++in_use_;
    gauge_.fetch_add(1, std::memory_order_relaxed);
    return true;
  }
  void wait(std::shared_ptr<GateSession> s) { waiting_.push_back(std::move(s)); }
  void leave(const GateSession* s);  // its wait timed out
  // A slot came free: the oldest waiter, popped, takes it; nullptr (and the slot given back) when
  // nobody waits.
  std::shared_ptr<GateSession> hand_on();

 private:
  std::size_t limit_;
  std::size_t in_use_ = 0;
  std::atomic<std::int64_t>& gauge_;
  std::deque<std::shared_ptr<GateSession>> waiting_;
};

// What every session shares; owned by the Gate, outlives all sessions.
struct GateShared {
  const GateConfig& config;
  saasbench::TenantRegistry& registry;
  saasbench::AdminAuth& auth;
  GateMetrics& metrics;
  boost::asio::ip::tcp::endpoint upstream;
  UpstreamPool pool;
  UpstreamSlots slots;
  std::atomic<bool> draining = false;  // written by the loop thread, read by the probe thread too
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
  unsigned short probe_port() const { return probes_ ? probes_->port() : 0; }
  void start();
  // SIGTERM: /readyz answers 503, no new connections, idle ones close, requests in flight
  // finish (their connection closes after the response); waits up to `grace`, then stops hard.
  // True when everything finished in time.
  bool shutdown(std::chrono::milliseconds grace);
  GateMetrics& metrics() { return metrics_; }

 private:
  void accept();
  // Every tick_: the sessions' header-read deadlines (GateSession::check_deadline). Stops when
  // the gate drains and no session is left, so that the loop can end.
  void sweep();

  GateConfig config_;
  saasbench::TenantRegistry registry_;
  saasbench::AdminAuth auth_;
  GateMetrics metrics_;
  // One thread runs the loop and only it touches the sockets and timers: the reactor's
  // per-socket locking is left out (UNSAFE_IO); posting from other threads stays safe.
  boost::asio::io_context ioc_{BOOST_ASIO_CONCURRENCY_HINT_UNSAFE_IO};
  Acceptor acceptor_{ioc_};
  Timer backoff_{ioc_};
  Timer sweep_{ioc_};
  std::chrono::milliseconds tick_{250};  // an eighth of the shorter of the read and upstream timeouts
  GateShared shared_;
  std::vector<std::weak_ptr<GateSession>> sessions_;  // loop thread only
  unsigned short port_ = 0;
  std::unique_ptr<saasbench::FileWatcher> table_watcher_;
  std::unique_ptr<saasbench::FileWatcher> token_watcher_;
  std::unique_ptr<ProbeServer> probes_;  // with --probe-listen
  std::promise<void> done_;
  std::thread thread_;
  bool stopped_ = false;
};

}  // namespace isolato::gate
