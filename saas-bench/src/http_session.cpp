#include "http_session.hpp"

#include <boost/asio/post.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/write.hpp>

namespace saasbench {
namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;

HttpSession::HttpSession(asio::ip::tcp::socket socket, SessionShared& shared)
    : stream_(std::move(socket)), shared_(shared) {}

void HttpSession::start() { read(); }

void HttpSession::read() {
  parser_.emplace();
  parser_->header_limit(static_cast<std::uint32_t>(shared_.limits.max_header_bytes));
  parser_->body_limit(shared_.limits.max_body_bytes);
  stream_.expires_after(shared_.limits.read_timeout);
  http::async_read(stream_, buffer_, *parser_,
                   [self = shared_from_this()](beast::error_code ec, std::size_t) { self->on_read(ec); });
}

void HttpSession::on_read(beast::error_code ec) {
  if (ec == http::error::end_of_stream || ec == beast::error::timeout || ec == asio::error::operation_aborted ||
      ec == asio::error::connection_reset || ec == asio::error::eof)
    return close();
  busy_ = true;
  if (ec) {  // a request we will not serve: answer why, then close
    keep_alive_ = false;
    if (ec == http::error::header_limit) return write(problem(431, "request header fields too large"));
    if (ec == http::error::body_limit) return write(problem(413, "request body too large"));
    return write(problem(400, "malformed HTTP request: " + ec.message()));
  }
  keep_alive_ = parser_->get().keep_alive() && !shared_.draining.load(std::memory_order_relaxed);
  dispatch();
}

void HttpSession::dispatch() {
  const auto& req = parser_->get();
  Request request{req.method_string(), req.target(), {}, req.body(), Clock::now()};
  if (auto it = req.find(http::field::authorization); it != req.end()) request.authorization = it->value();
  Routed routed = shared_.router.route(request);
  if (auto* job = std::get_if<StressJob>(&routed)) return run_job(std::move(*job));
  write(std::get<Response>(routed));
}

void HttpSession::run_job(StressJob job) {
  // Nothing to compute, allocate or write: answering here spares two thread hops, and cannot
  // block the I/O thread. Only real stress work goes to the CPU-limit-sized pool.
  if (job.tenant->spec().profile.empty()) return write(shared_.router.finish(job, {}));
  // Shared so that the pool's copyable std::function can carry it; the tracked executor keeps
  // the io_context from running out of work while the job is away.
  auto shared_job = std::make_shared<StressJob>(std::move(job));
  auto home = asio::prefer(stream_.get_executor(), asio::execution::outstanding_work_t::tracked);
  auto self = shared_from_this();
  const auto seed = static_cast<std::uint64_t>(shared_job->start.time_since_epoch().count());
  const bool queued = shared_.pool.submit([self, shared_job, home, seed](std::size_t worker) {
    std::string error;
    try {
      stress::run(shared_job->tenant->spec().profile, self->shared_.files.at(worker), seed);
    } catch (const std::exception& e) {
      error = e.what();
    }
    asio::post(home, [self, shared_job, error = std::move(error)] {
      self->write(self->shared_.router.finish(*shared_job, error));
    });
  });
  if (!queued) write(problem(503, "shutting down"));
}

void HttpSession::write(Response r) {
  keep_alive_ = keep_alive_ && !shared_.draining.load(std::memory_order_relaxed);
  out_ = to_message(std::move(r), keep_alive_);
  stream_.expires_after(shared_.limits.write_timeout);
  http::async_write(stream_, out_,
                    [self = shared_from_this()](beast::error_code ec, std::size_t) { self->on_write(ec); });
}

void HttpSession::on_write(beast::error_code ec) {
  busy_ = false;
  if (ec || !keep_alive_ || shared_.draining.load(std::memory_order_relaxed)) return close();
  read();
}

void HttpSession::drain() {
  if (!busy_) close();
}

void HttpSession::close() {
  beast::error_code ignored;  // the peer may be gone already; nothing to report
  stream_.socket().shutdown(asio::ip::tcp::socket::shutdown_both, ignored);
  stream_.socket().close(ignored);
}

}  // namespace saasbench
