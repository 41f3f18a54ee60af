#include "probe_server.hpp"

#include <boost/asio/post.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/empty_body.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/write.hpp>
#include <memory>

#include "admin_api.hpp"
#include "http_message.hpp"
#include "log.hpp"
#include "readiness.hpp"

namespace isolato::gate {
namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

namespace {
struct Probe {
  explicit Probe(Socket s) : stream(std::move(s)) {}
  Stream stream;
  beast::flat_buffer buf;
  http::request_parser<http::empty_body> request;
  saasbench::HttpResponse out;
};
}  // namespace

ProbeServer::ProbeServer(const Endpoint& listen, tcp::endpoint upstream, std::chrono::milliseconds connect_timeout,
                         std::chrono::milliseconds read_timeout, const std::atomic<bool>& draining)
    : upstream_(std::move(upstream)),
      connect_timeout_(connect_timeout),
      read_timeout_(read_timeout),
      draining_(draining) {
  port_ = listen_on(acceptor_, listen);
}

ProbeServer::~ProbeServer() {
  if (!thread_.joinable()) return;
  ioc_.stop();
  thread_.join();
}

void ProbeServer::start() {
  accept();
  thread_ = std::thread([this] { ioc_.run(); });
}

void ProbeServer::accept() {
  acceptor_.async_accept([this](boost::system::error_code ec, Socket socket) {
    if (!acceptor_.is_open()) return;
    if (ec) {  // e.g. out of file descriptors: back off instead of spinning
      backoff_.expires_after(std::chrono::milliseconds(50));
      return backoff_.async_wait([this](boost::system::error_code) { accept(); });
    }
    if (open_ < kMaxOpen) serve(std::move(socket));
    accept();
  });
}

void ProbeServer::serve(Socket socket) {
  ++open_;
  // Each probe's last handler drops it: the connection closes, its slot is free again.
  std::shared_ptr<Probe> p(new Probe(std::move(socket)), [this](Probe* done) {
    delete done;
    --open_;
  });
  p->request.header_limit(4096);
  p->stream.expires_after(read_timeout_);
  http::async_read(p->stream, p->buf, p->request, [this, p](beast::error_code ec, std::size_t) {
    if (ec) return;
    const auto answer = [p](saasbench::Response r) {
      p->out = saasbench::to_message(std::move(r), false);
      http::async_write(p->stream, p->out, [p](beast::error_code, std::size_t) {});
    };
    const auto& req = p->request.get();
    const std::string_view target = req.target();
    if (req.method() != http::verb::get) return answer(saasbench::method_not_allowed("GET"));
    if (target == "/healthz") return answer(healthy());
    if (target == "/readyz")
      return check_readiness(p->stream.get_executor(), upstream_, connect_timeout_, draining_.load(), answer);
    answer(saasbench::problem(404, "the probe port answers GET /healthz and GET /readyz only"));
  });
}

}  // namespace isolato::gate
