// isolato-gate: the tenant gate sidecar. See docs/gate.md.
#include <iostream>
#include <string>

#include "gate.hpp"
#include "log.hpp"
#include "stop_signals.hpp"

namespace {
using namespace isolato::gate;

int run(int argc, char** argv) {
  auto parsed = parse_gate_args(std::vector<std::string>(argv + 1, argv + argc));
  if (auto* err = std::get_if<std::string>(&parsed)) {
    std::cerr << "isolato-gate: " << *err << "\n";
    return 2;
  }
  const GateConfig& config = std::get<GateConfig>(parsed);
  if (config.help) {
    std::cout << gate_usage();
    return 0;
  }
  const sigset_t stop_signals = saasbench::block_stop_signals();
  Gate gate(config);
  gate.start();
  saasbench::drain_on_stop_signal(stop_signals, gate, config.grace);
  return 0;
}
}  // namespace

int main(int argc, char** argv) { return saasbench::run_logging_errors(run, argc, argv); }
