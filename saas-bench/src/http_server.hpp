// Listens on one address with N I/O threads, each with its own io_context and SO_REUSEPORT
// acceptor (the kernel spreads connections; no locks between threads on the hot path).
#pragma once
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "http_session.hpp"

namespace saasbench {

struct ListenOptions {
  std::string address = "0.0.0.0";
  unsigned short port = 8080;  // 0 = any free port (see HttpServer::port)
  std::size_t io_threads = 1;
};

class HttpServer {
 public:
  // Binds right away (throws boost::system::system_error when it cannot); serves after start().
  HttpServer(const ListenOptions& listen, SessionLimits limits, Router& router, WorkerPool& pool,
             const stress::ScratchFiles& files);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  unsigned short port() const { return port_; }
  void start();
  // Stops accepting, closes idle connections, lets admitted requests finish and waits up to
  // `grace` for that; then stops hard. Returns true when everything finished in time.
  bool shutdown(std::chrono::milliseconds grace);

 private:
  struct Loop {
    boost::asio::io_context ioc{1};
    boost::asio::ip::tcp::acceptor acceptor{ioc};
    boost::asio::steady_timer backoff{ioc};
    std::vector<std::weak_ptr<HttpSession>> sessions;  // touched on this loop's thread only
    std::thread thread;
  };
  void accept(Loop& loop);
  void track(Loop& loop, const std::shared_ptr<HttpSession>& s);

  SessionShared shared_;
  unsigned short port_ = 0;
  bool started_ = false;
  bool stopped_ = false;
  std::mutex mutex_;
  std::condition_variable all_done_;
  std::size_t running_ = 0;
  std::vector<std::unique_ptr<Loop>> loops_;  // last: destroyed first, before shared_
};

}  // namespace saasbench
