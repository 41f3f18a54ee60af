// The kubelet's probes on a port and a thread of their own (--probe-listen): /healthz and
// /readyz, one request per connection. A pool pod's gate has a small CPU share; under overload
// its loop runs behind every queued tenant connection, and an HTTP probe of the service port
// timed out and took the only pod out of its Service. Here the probe waits for no tenant: the
// kernel schedules this thread by its own (tiny) CPU use, within the pod's CPU period.
#pragma once
#include <atomic>
#include <chrono>
#include <thread>

#include "asio_types.hpp"
#include "gate_config.hpp"

namespace isolato::gate {

class ProbeServer {
 public:
  // Binds (throws boost::system::system_error when it cannot); serves after start().
  // read_timeout: how long a connection has to send its request
  ProbeServer(const Endpoint& listen, boost::asio::ip::tcp::endpoint upstream,
              std::chrono::milliseconds connect_timeout, std::chrono::milliseconds read_timeout,
              const std::atomic<bool>& draining);
  ~ProbeServer();
  ProbeServer(const ProbeServer&) = delete;
  ProbeServer& operator=(const ProbeServer&) = delete;
  unsigned short port() const { return port_; }
  void start();

  // Probes answered at once; a connection beyond is closed unread (a flood of them must not
  // hold the thread).
  static constexpr std::size_t kMaxOpen = 8;

 private:
  void accept();
  void serve(Socket socket);

  boost::asio::ip::tcp::endpoint upstream_;
  std::chrono::milliseconds connect_timeout_;
  std::chrono::milliseconds read_timeout_;
  const std::atomic<bool>& draining_;
  std::size_t open_ = 0;  // its thread only; outlives ioc_, whose end drops the probes left
  boost::asio::io_context ioc_{1};
  Acceptor acceptor_{ioc_};
  Timer backoff_{ioc_};
  unsigned short port_ = 0;
  std::thread thread_;
};

}  // namespace isolato::gate
