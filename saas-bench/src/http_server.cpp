#include "http_server.hpp"

#include <sys/socket.h>

#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>

#include "log.hpp"

namespace saasbench {
namespace asio = boost::asio;
using tcp = asio::ip::tcp;

namespace {
// SO_REUSEPORT as an Asio SettableSocketOption (Asio has no public type for it).
class ReusePort {
 public:
  explicit ReusePort(bool on) : value_(on ? 1 : 0) {}
  template <typename Protocol> int level(const Protocol&) const { return SOL_SOCKET; }
  template <typename Protocol> int name(const Protocol&) const { return SO_REUSEPORT; }
  template <typename Protocol> const int* data(const Protocol&) const { return &value_; }
  template <typename Protocol> std::size_t size(const Protocol&) const { return sizeof value_; }

 private:
  int value_;
};
}  // namespace

HttpServer::HttpServer(const ListenOptions& listen, SessionLimits limits, Router& router, WorkerPool& pool,
                       const stress::ScratchFiles& files)
    : shared_{router, pool, files, limits} {
  tcp::endpoint endpoint(asio::ip::make_address(listen.address), listen.port);
  for (std::size_t i = 0; i < std::max<std::size_t>(1, listen.io_threads); ++i) {
    auto loop = std::make_unique<Loop>();
    loop->acceptor.open(endpoint.protocol());
    loop->acceptor.set_option(tcp::acceptor::reuse_address(true));
    loop->acceptor.set_option(ReusePort(true));
    loop->acceptor.bind(endpoint);
    loop->acceptor.listen(asio::socket_base::max_listen_connections);
    endpoint = loop->acceptor.local_endpoint();  // the others join the port the first got
    loops_.push_back(std::move(loop));
  }
  port_ = endpoint.port();
}

HttpServer::~HttpServer() {
  try {
    shutdown(std::chrono::milliseconds(0));
  } catch (const std::exception& e) {  // a failing lock or join: nothing left to do but say so
    log_line("error", std::string("stopping the HTTP server: ") + e.what());
  }
}

void HttpServer::start() {
  started_ = true;
  running_ = loops_.size();
  for (auto& loop : loops_) {
    accept(*loop);
    loop->thread = std::thread([this, l = loop.get()] {
      l->ioc.run();
      std::lock_guard lock(mutex_);
      if (--running_ == 0) all_done_.notify_all();
    });
  }
}

void HttpServer::track(Loop& loop, const std::shared_ptr<HttpSession>& s) {
  if (loop.sessions.size() >= 64 && loop.sessions.size() == loop.sessions.capacity())
    std::erase_if(loop.sessions, [](const auto& w) { return w.expired(); });
  loop.sessions.push_back(s);
}

void HttpServer::accept(Loop& loop) {
  loop.acceptor.async_accept(loop.ioc, [this, &loop](boost::system::error_code ec, tcp::socket socket) {
    if (!loop.acceptor.is_open()) return;
    if (ec) {  // e.g. out of file descriptors: back off instead of spinning
      log_line("warn", "accept failed: " + ec.message());
      loop.backoff.expires_after(std::chrono::milliseconds(50));
      loop.backoff.async_wait([this, &loop](boost::system::error_code) {
        if (loop.acceptor.is_open()) accept(loop);
      });
      return;
    }
    boost::system::error_code ignored;  // Nagle off: responses are small and latency counts
    socket.set_option(tcp::no_delay(true), ignored);
    auto session = std::make_shared<HttpSession>(std::move(socket), shared_);
    track(loop, session);
    session->start();
    accept(loop);
  });
}

bool HttpServer::shutdown(std::chrono::milliseconds grace) {
  if (stopped_) return true;
  stopped_ = true;
  shared_.draining.store(true);
  for (auto& loop : loops_) {
    asio::post(loop->ioc, [l = loop.get()] {
      boost::system::error_code ignored;
      l->acceptor.close(ignored);
      l->backoff.cancel();
      for (auto& w : l->sessions)
        if (auto s = w.lock()) s->drain();
    });
  }
  bool clean = true;
  if (started_) {
    std::unique_lock lock(mutex_);
    clean = all_done_.wait_for(lock, grace, [this] { return running_ == 0; });
  }
  for (auto& loop : loops_) loop->ioc.stop();
  for (auto& loop : loops_)
    if (loop->thread.joinable()) loop->thread.join();
  return clean;
}

}  // namespace saasbench
