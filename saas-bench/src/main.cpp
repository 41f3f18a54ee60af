// saas-bench: the multi-tenant CPU/memory/IO stress service. See docs/saas-bench.md.
#include <atomic>
#include <iostream>
#include <string>
#include <thread>

#include "calibrate.hpp"
#include "config.hpp"
#include "log.hpp"
#include "service.hpp"
#include "soak.hpp"
#include "stop_signals.hpp"

namespace {
using namespace saasbench;

int run(int argc, char** argv) {
  auto parsed = parse_args(std::vector<std::string>(argv + 1, argv + argc));
  if (auto* err = std::get_if<std::string>(&parsed)) {
    std::cerr << "saas-bench: " << *err << "\n" << usage();
    return 2;
  }
  const Config& config = std::get<Config>(parsed);
  if (config.command == Config::Command::help) {
    std::cout << usage();
    return 0;
  }
  if (config.command == Config::Command::calibrate) {
    print(calibrate(config.data_dir), std::cout);
    return 0;
  }
  const sigset_t stop_signals = block_stop_signals();
  if (config.command == Config::Command::soak) {
    const unsigned threads = worker_count(config);
    log_line("info", "soaking idle CPU with " + std::to_string(threads) + " threads until SIGTERM");
    std::atomic<bool> stop{false};
    std::uint64_t steps = 0;
    std::thread worker([&] { steps = soak(threads, stop); });
    wait_for_stop_signal(stop_signals);
    stop = true;
    worker.join();
    log_line("info", "soak stopped after " + std::to_string(steps) + " steps");
    return 0;
  }
  Service service(config);
  drain_on_stop_signal(stop_signals, service, config.grace);
  return 0;
}
}  // namespace

int main(int argc, char** argv) { return run_logging_errors(run, argc, argv); }
