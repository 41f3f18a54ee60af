// Test scaffolding for the HTTP tests of saas-bench and isolato-gate: a blocking client on a
// real loopback socket (raw bytes in, parsed responses out), bounded polling, a /metrics gauge.
#pragma once
#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>
#include <chrono>
#include <cstdint>
#include <regex>
#include <string>
#include <string_view>
#include <thread>

namespace saasbench::testing {
namespace asio = boost::asio;
namespace http = boost::beast::http;
using tcp = asio::ip::tcp;
using namespace std::chrono_literals;

class Client {
 public:
  explicit Client(unsigned short port) { socket_.connect({asio::ip::make_address("127.0.0.1"), port}); }
  void send(std::string_view raw) { asio::write(socket_, asio::buffer(raw)); }
  http::response<http::string_body> receive() {
    http::response_parser<http::string_body> parser;
    parser.body_limit(64 << 20);
    http::read(socket_, buffer_, parser);
    return parser.release();
  }
  http::response<http::string_body> request(std::string_view method, std::string_view target,
                                            std::string_view body = {}, std::string_view extra = {}) {
    send(std::string(method) + " " + std::string(target) + " HTTP/1.1\r\nHost: t\r\nContent-Length: " +
         std::to_string(body.size()) + "\r\n" + std::string(extra) + "\r\n" + std::string(body));
    return receive();
  }
  // True when the server closed the connection (blocks until it does or data arrives).
  bool closed_by_server() {
    char c;
    boost::system::error_code ec;
    asio::read(socket_, asio::buffer(&c, 1), ec);
    return ec == asio::error::eof || ec == asio::error::connection_reset;
  }
  void close() { socket_.close(); }

 private:
  asio::io_context ioc_;
  tcp::socket socket_{ioc_};
  boost::beast::flat_buffer buffer_;
};

// Awaits a condition by polling (bounded), the way awaitility does.
template <typename F> bool eventually(F condition, std::chrono::milliseconds timeout = 5s) {
  const auto end = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < end) {
    if (condition()) return true;
    std::this_thread::sleep_for(2ms);
  }
  return condition();
}

inline std::int64_t gauge(Client& c, const std::string& name) {
  const auto body = c.request("GET", "/metrics").body();
  std::smatch m;
  if (!std::regex_search(body, m, std::regex("\n" + name + " ([0-9-]+)\n"))) return -1;
  return std::stoll(m[1]);
}

}  // namespace saasbench::testing
