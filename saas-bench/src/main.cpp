// saas-bench: the multi-tenant CPU/memory/IO stress service (filled in by its own issue).
#include <cstdio>
int main() {
  std::puts("saas-bench: not built yet");
  return 0;
}
