// A tiny upstream for the gate's HTTP tests, on a real loopback port: echoes the request body
// and the tenant header back, can be told to stall (answer nothing), and counts the
// connections it accepted (keep-alive reuse shows as one connection for many requests).
#pragma once
#include <sys/socket.h>

#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>
#include <list>
#include <mutex>
#include <thread>

namespace isolato::gate::testing {

class TestUpstream {
 public:
  enum class Mode { echo, stall };
  explicit TestUpstream(Mode mode = Mode::echo) : mode_(mode) {
    namespace asio = boost::asio;
    acceptor_.open(asio::ip::tcp::v4());
    acceptor_.bind({asio::ip::make_address("127.0.0.1"), 0});
    acceptor_.listen();
    port_ = acceptor_.local_endpoint().port();
    thread_ = std::thread([this] { accept_loop(); });
  }
  ~TestUpstream() {
    boost::system::error_code ignored;
    ::shutdown(acceptor_.native_handle(), SHUT_RDWR);  // wakes the blocking accept (Linux)
    acceptor_.close(ignored);
    {
      std::lock_guard lock(mutex_);
      for (auto& s : sockets_) s.shutdown(boost::asio::ip::tcp::socket::shutdown_both, ignored);
    }
    thread_.join();
    for (auto& t : workers_) t.join();
  }
  TestUpstream(const TestUpstream&) = delete;
  TestUpstream& operator=(const TestUpstream&) = delete;
  unsigned short port() const { return port_; }
  int accepted() const { return accepted_.load(); }

 private:
  void accept_loop() {
    for (;;) {
      boost::system::error_code ec;
      boost::asio::ip::tcp::socket s(ioc_);
      acceptor_.accept(s, ec);
      if (ec) return;
      ++accepted_;
      std::lock_guard lock(mutex_);
      auto& sock = sockets_.emplace_back(std::move(s));
      workers_.emplace_back([this, &sock] { serve(sock); });
    }
  }
  void serve(boost::asio::ip::tcp::socket& s) {
    namespace http = boost::beast::http;
    boost::beast::flat_buffer buf;
    for (;;) {
      http::request_parser<http::string_body> p;
      p.body_limit(256 << 20);
      boost::system::error_code ec;
      http::read(s, buf, p, ec);
      if (ec) return;
      if (mode_ == Mode::stall) continue;  // read on; the gate's timeout has to act
      const auto& req = p.get();
      http::response<http::string_body> res{http::status::ok, 11};
      res.set(http::field::content_type, "application/octet-stream");
      res.set("X-Seen-Tenant", req["X-Tenant"]);
      res.set("X-Seen-Target", req.target());
      res.body() = req.body();
      res.prepare_payload();
      res.keep_alive(req.keep_alive());
      http::write(s, res, ec);
      if (ec || !req.keep_alive()) return;
    }
  }

  Mode mode_;
  boost::asio::io_context ioc_;
  boost::asio::ip::tcp::acceptor acceptor_{ioc_};
  unsigned short port_ = 0;
  std::atomic<int> accepted_{0};
  std::mutex mutex_;
  std::list<boost::asio::ip::tcp::socket> sockets_;
  std::list<std::thread> workers_;
  std::thread thread_;
};

}  // namespace isolato::gate::testing
