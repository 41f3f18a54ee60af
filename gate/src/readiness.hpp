// The gate's health and readiness, one definition each for /readyz on the service port and on the probe port
// (ProbeServer): 503 while draining, else 200 only when a fresh connection to the app succeeds.
#pragma once
#include <chrono>
#include <memory>
#include <utility>

#include "admin_api.hpp"
#include "asio_types.hpp"
#include "response.hpp"

namespace isolato::gate {

inline saasbench::Response healthy() { return saasbench::ok_json(R"({"status":"ok"})"); }

template <class Answer>
void check_readiness(const Executor& ex, const boost::asio::ip::tcp::endpoint& upstream,
                     std::chrono::milliseconds connect_timeout, bool draining, Answer answer) {
  if (draining) return answer(saasbench::problem(503, "shutting down"));
  auto probe = std::make_shared<Stream>(ex);
  probe->expires_after(connect_timeout);
  probe->async_connect(upstream, [probe, answer = std::move(answer)](boost::beast::error_code ec) mutable {
    answer(ec ? saasbench::problem(503, "upstream not accepting connections: " + ec.message())
              : saasbench::ok_json(R"({"status":"ready"})"));
  });
}

}  // namespace isolato::gate
