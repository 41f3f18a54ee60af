// The socket types of the gate's loops.
#pragma once
#include <boost/asio/basic_stream_socket.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/tcp_stream.hpp>

namespace isolato::gate {

// Bound to the io_context's own executor type, not the polymorphic any_io_executor: every
// handler of every request would otherwise pay for type-erased executor copies (a measured ~3 %
// of the gate's CPU per request).
using Executor = boost::asio::io_context::executor_type;
using Socket = boost::asio::basic_stream_socket<boost::asio::ip::tcp, Executor>;
using Stream = boost::beast::basic_stream<boost::asio::ip::tcp, Executor>;

}  // namespace isolato::gate
