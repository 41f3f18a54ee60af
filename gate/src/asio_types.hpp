// The socket types of the gate's loops, and how each of its listeners opens.
#pragma once
#include <boost/asio/basic_socket_acceptor.hpp>
#include <boost/asio/basic_stream_socket.hpp>
#include <boost/asio/basic_waitable_timer.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <chrono>

#include "gate_config.hpp"

namespace isolato::gate {

// Bound to the io_context's own executor type, not the polymorphic any_io_executor: every
// handler of every request would otherwise pay for type-erased executor copies (a measured ~3 %
// of the gate's CPU per request).
using Executor = boost::asio::io_context::executor_type;
using Socket = boost::asio::basic_stream_socket<boost::asio::ip::tcp, Executor>;
using Stream = boost::beast::basic_stream<boost::asio::ip::tcp, Executor>;
using Acceptor = boost::asio::basic_socket_acceptor<boost::asio::ip::tcp, Executor>;
using Timer = boost::asio::basic_waitable_timer<std::chrono::steady_clock,
                                                boost::asio::wait_traits<std::chrono::steady_clock>, Executor>;

// Opens, binds (address reuse on) and listens; the port bound (throws system_error when it cannot).
inline unsigned short listen_on(Acceptor& acceptor, const Endpoint& at) {
  const boost::asio::ip::tcp::endpoint endpoint(boost::asio::ip::make_address(at.host), at.port);
  acceptor.open(endpoint.protocol());
  acceptor.set_option(boost::asio::ip::tcp::acceptor::reuse_address(true));
  acceptor.bind(endpoint);
  acceptor.listen(boost::asio::socket_base::max_listen_connections);
  return acceptor.local_endpoint().port();
}

}  // namespace isolato::gate
