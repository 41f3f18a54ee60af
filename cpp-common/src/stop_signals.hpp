// SIGTERM/SIGINT handling of the service binaries (saas-bench, isolato-gate).
#pragma once
#include <chrono>
#include <csignal>
#include <string>

#include "log.hpp"

namespace saasbench {

// A peer closing early must be an error code, not a process-killing signal: SIGPIPE is
// ignored. SIGTERM and SIGINT are blocked in this and every later thread (threads inherit the
// mask), to be taken by wait_for_stop_signal. Call before starting any thread.
sigset_t block_stop_signals();
// Blocks until SIGTERM or SIGINT; returns it.
int wait_for_stop_signal(const sigset_t& signals);
const char* stop_signal_name(int sig);

// Waits for SIGTERM/SIGINT, then drains `service` (anything with bool shutdown(grace)) and
// logs how that went. The service binaries' last step before exiting 0.
template <class Service>
void drain_on_stop_signal(const sigset_t& signals, Service& service, std::chrono::milliseconds grace) {
  const int sig = wait_for_stop_signal(signals);
  log_line("info", std::string("received ") + stop_signal_name(sig) + ", draining");
  const bool clean = service.shutdown(grace);
  log_line("info", clean ? "drained, exiting" : "grace period over, exiting with requests cut off");
}

}  // namespace saasbench
