#include "stop_signals.hpp"

#include <pthread.h>

namespace saasbench {

sigset_t block_stop_signals() {
  std::signal(SIGPIPE, SIG_IGN);
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  return signals;
}

int wait_for_stop_signal(const sigset_t& signals) {
  int sig = 0;
  sigwait(&signals, &sig);
  return sig;
}

const char* stop_signal_name(int sig) { return sig == SIGTERM ? "SIGTERM" : "SIGINT"; }

}  // namespace saasbench
