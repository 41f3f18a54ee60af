// One HTTP/1.1 connection: reads requests with Beast's parser (size limits, timeouts), hands
// them to the Router, runs stress work on the WorkerPool and writes responses, keep-alive.
#pragma once
#include <atomic>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/string_body.hpp>
#include <chrono>
#include <memory>
#include <optional>
#include <string>

#include "http_message.hpp"
#include "router.hpp"
#include "stress.hpp"
#include "worker_pool.hpp"

namespace saasbench {

struct SessionLimits {
  std::size_t max_header_bytes = 8192;            // larger: 431
  std::size_t max_body_bytes = 1 << 20;           // larger: 413 (tenant requests have a lower limit)
  std::chrono::milliseconds read_timeout{15000};  // whole request incl. keep-alive idle time
  std::chrono::milliseconds write_timeout{15000};
};

// What every session shares; owned by the server, outlives all sessions.
struct SessionShared {
  Router& router;
  WorkerPool& pool;
  const stress::ScratchFiles& files;
  SessionLimits limits;
  std::atomic<bool> draining{false};
};

class HttpSession : public std::enable_shared_from_this<HttpSession> {
 public:
  HttpSession(boost::asio::ip::tcp::socket socket, SessionShared& shared);
  void start();
  // Server is draining: close now if waiting for a request; else after the current response.
  // Must run on the session's executor.
  void drain();

 private:
  void read();
  void on_read(boost::beast::error_code ec);
  void dispatch();
  void run_job(StressJob job);
  void write(Response r);
  void on_write(boost::beast::error_code ec);
  void close();

  boost::beast::tcp_stream stream_;
  boost::beast::flat_buffer buffer_;
  std::optional<boost::beast::http::request_parser<boost::beast::http::string_body>> parser_;
  HttpResponse out_;
  SessionShared& shared_;
  bool busy_ = false;
  bool keep_alive_ = true;
};

}  // namespace saasbench
