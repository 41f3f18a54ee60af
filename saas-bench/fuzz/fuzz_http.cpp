// libFuzzer target: the HTTP request path as the server runs it — Beast's request parser with
// the server's limits, then the Router (admission, admin endpoint with its table parser,
// metrics), the stress work of a small profile, and response serialisation. Pipelined
// requests in one input are served one after another, as on a keep-alive connection.
#include <unistd.h>

#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "http_session.hpp"
#include "router.hpp"
#include "stress.hpp"
#include "tenant_json.hpp"

namespace {
using namespace saasbench;
namespace http = boost::beast::http;

struct World {
  TenantRegistry registry;
  Metrics metrics;
  AdminAuth auth{{"fuzz-token"}};
  Router router{registry, metrics, auth, RouterOptions{4, 4096, 1, 1}};
  stress::ScratchFiles files{std::filesystem::temp_directory_path() / ("saasbench-fuzz-" + std::to_string(::getpid())),
                             1};
  World() { reset(); }
  void reset() {
    auto t = parse_tenant_table(R"({"version":"fuzz","tenants":{
        "a":{"profile":{"cpu":1,"memory":4,"io":1}},"b":{"profile":{}},
        "c":{"profile":{},"rateRps":5,"burst":2}}})");
    registry.replace(std::get<TenantTableSpec>(t));
  }
};
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static World world;  // one service per fuzzing process, as in a real server
  world.reset();       // inputs must not depend on each other's admin pushes
  std::string_view rest(reinterpret_cast<const char*>(data), size);
  for (int i = 0; i < 8 && !rest.empty(); ++i) {
    http::request_parser<http::string_body> parser;
    parser.header_limit(8192);
    parser.body_limit(1 << 20);
    parser.eager(true);
    boost::beast::error_code ec;
    const std::size_t used = parser.put(boost::asio::buffer(rest.data(), rest.size()), ec);
    if (!parser.is_done()) {
      if (!ec || ec == http::error::need_more) parser.put_eof(ec);
      if (!parser.is_done()) return 0;  // the server would answer 400/413/431 and close
    }
    rest.remove_prefix(std::min(used, rest.size()));
    const auto& req = parser.get();
    Request request{req.method_string(), req.target(), {}, req.body()};
    if (auto it = req.find(http::field::authorization); it != req.end()) request.authorization = it->value();
    Routed routed = world.router.route(request);
    Response response;
    if (auto* job = std::get_if<StressJob>(&routed)) {
      stress::run(job->tenant->spec().profile, world.files.at(0), 1);
      response = world.router.finish(*job, "");
    } else {
      response = std::get<Response>(routed);
    }
    if (response.status < 200 || response.status > 599) std::abort();
    std::ostringstream wire;  // Beast's serializer, as the session writes it
    wire << to_message(std::move(response), req.keep_alive());
    if (wire.str().empty()) std::abort();
    if (world.metrics.in_flight().load() != 0 && !std::holds_alternative<StressJob>(routed)) std::abort();
  }
  return 0;
}
