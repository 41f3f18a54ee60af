#include "gate.hpp"

#include <sys/socket.h>

#include <algorithm>
#include <boost/asio/post.hpp>

#include "gate_session.hpp"
#include "log.hpp"
#include "table_watcher.hpp"

namespace isolato::gate {
namespace asio = boost::asio;
namespace beast = boost::beast;
using tcp = asio::ip::tcp;

namespace {
// True while the upstream has neither closed the connection nor sent anything unasked: a
// non-blocking peek sees EOF (0) or data (> 0) or nothing yet (EAGAIN).
bool still_open(Stream& s) {
  char c;
  const auto n = ::recv(s.socket().native_handle(), &c, 1, MSG_PEEK | MSG_DONTWAIT);
  return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK);
}
}  // namespace

std::unique_ptr<Stream> UpstreamPool::take(Clock::time_point now) {
  while (!idle_.empty()) {
    auto [s, since] = std::move(idle_.back());
    idle_.pop_back();
    if (now - since > max_idle_) {  // LIFO: every one below has idled longer still
      idle_.clear();
      return nullptr;
    }
    if (now - since < kCheckAfter || still_open(*s)) return std::move(s);
  }
  return nullptr;
}

void UpstreamSlots::leave(const GateSession* s) {
  std::erase_if(waiting_, [s](const auto& w) { return w.get() == s; });
}

std::shared_ptr<GateSession> UpstreamSlots::hand_on() {
  if (waiting_.empty()) {
    --in_use_;
    gauge_.fetch_sub(1, std::memory_order_relaxed);
    return nullptr;
  }
  auto next = std::move(waiting_.front());
  waiting_.pop_front();
  return next;
}

void UpstreamPool::give(std::unique_ptr<Stream> s, Clock::time_point now) {
  if (idle_.size() < kMaxIdle) idle_.push_back({std::move(s), now});
}

Gate::Gate(GateConfig config)
    : config_(std::move(config)),
      auth_(config_.admin_token_file ? saasbench::read_token_file(*config_.admin_token_file)
                                     : std::vector<std::string>{}),
      shared_{config_,
              registry_,
              auth_,
              metrics_,
              tcp::endpoint(asio::ip::make_address(config_.upstream.host), config_.upstream.port),
              UpstreamPool(config_.upstream_idle),
              UpstreamSlots(config_.max_upstream_requests, metrics_.upstream_requests())} {
  tick_ = std::clamp(std::min(config_.read_timeout, config_.upstream_timeout) / 8, std::chrono::milliseconds(10),
                     std::chrono::milliseconds(250));
  if (config_.tenants_file) {
    table_watcher_ = std::make_unique<saasbench::FileWatcher>(
        *config_.tenants_file, saasbench::tenant_table_file(registry_, metrics_.table_file_counter()));
    table_watcher_->check_now();
    table_watcher_->start(config_.file_poll);
  }
  if (config_.admin_token_file) {  // read above already; this takes the stamp, then polls
    token_watcher_ = std::make_unique<saasbench::FileWatcher>(
        *config_.admin_token_file, saasbench::admin_token_file(auth_, metrics_.token_reload_counter()));
    token_watcher_->check_now();
    token_watcher_->start(config_.file_poll);
  }
  port_ = listen_on(acceptor_, config_.listen);
  if (config_.probe_listen)
    probes_ = std::make_unique<ProbeServer>(*config_.probe_listen, shared_.upstream, config_.connect_timeout,
                                            config_.probe_read_timeout, shared_.draining);
}

Gate::~Gate() {
  try {
    shutdown(std::chrono::milliseconds(0));
  } catch (const std::exception& e) {  // a failing join: nothing left to do but say so
    saasbench::log_line("error", std::string("stopping the gate: ") + e.what());
  }
}

void Gate::start() {
  if (probes_) probes_->start();
  accept();
  sweep();
  thread_ = std::thread([this] {
    ioc_.run();  // returns once the acceptor is closed and every session has ended
    done_.set_value();
  });
  saasbench::log_line("info", "isolato-gate listening on " + config_.listen.host + ":" + std::to_string(port_) +
                                  ", upstream " + config_.upstream.host + ":" + std::to_string(config_.upstream.port));
}

void Gate::accept() {
  acceptor_.async_accept([this](boost::system::error_code ec, Socket socket) {
    if (!acceptor_.is_open()) return;
    if (ec) {  // e.g. out of file descriptors: back off instead of spinning
      saasbench::log_line("warn", "accept failed: " + ec.message());
      backoff_.expires_after(std::chrono::milliseconds(50));
      backoff_.async_wait([this](boost::system::error_code) {
        if (acceptor_.is_open()) accept();
      });
      return;
    }
    const auto open = static_cast<std::size_t>(metrics_.connections().load(std::memory_order_relaxed));
    if (open >= config_.max_connections + config_.probe_connections) {
      GateMetrics::rejected(metrics_.unknown_tenant(), Reject::overload);
      boost::system::error_code ignored;  // over the probes' reserve too: closed before any byte is read
      socket.close(ignored);
      return accept();
    }
    boost::system::error_code ignored;  // Nagle off: small requests and responses, latency counts
    socket.set_option(tcp::no_delay(true), ignored);
    socket.non_blocking(true, ignored);  // the session writes at once when it can
    auto session = std::make_shared<GateSession>(std::move(socket), shared_, open >= config_.max_connections);
    sessions_.push_back(session);
    session->start();
    accept();
  });
}

void Gate::sweep() {
  sweep_.expires_after(tick_);
  sweep_.async_wait([this](boost::system::error_code ec) {
    if (ec) return;
    const auto now = std::chrono::steady_clock::now();
    std::erase_if(sessions_, [now](const std::weak_ptr<GateSession>& w) {
      const auto s = w.lock();
      if (s) s->check_deadline(now);
      return !s;
    });
    if (!shared_.draining || !sessions_.empty()) sweep();
  });
}

bool Gate::shutdown(std::chrono::milliseconds grace) {
  if (stopped_) return true;
  stopped_ = true;
  asio::post(ioc_, [this] {
    shared_.draining = true;
    boost::system::error_code ignored;
    acceptor_.close(ignored);
    backoff_.cancel();
    for (auto& w : sessions_)
      if (auto s = w.lock()) s->drain();
    while (shared_.pool.take()) {
    }  // idle upstream connections end with the gate
  });
  bool clean = true;
  if (thread_.joinable()) {
    clean = done_.get_future().wait_for(grace) == std::future_status::ready;
    ioc_.stop();
    thread_.join();
  }
  table_watcher_.reset();
  token_watcher_.reset();
  probes_.reset();  // answered 503 (draining) until here
  return clean;
}

}  // namespace isolato::gate
