/* The pod sandbox process: holds the pod's namespaces, does nothing, exits on SIGTERM/SIGINT. */
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

static void on_signal(int sig) { (void)sig; _exit(0); }

int main(void) {
  signal(SIGTERM, on_signal);
  signal(SIGINT, on_signal);
  for (;;) pause();
}
