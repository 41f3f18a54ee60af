package dev.isolato.kube;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Daemon threads named {@code prefix-N}, so that a thread dump tells whose they are (an unnamed
 * pool's {@code pool-9-thread-37} does not).
 */
public final class NamedThreads implements ThreadFactory {
  private final String prefix;
  private final AtomicInteger next = new AtomicInteger();

  public NamedThreads(String prefix) {
    this.prefix = prefix;
  }

  @Override
  public Thread newThread(Runnable r) {
    Thread t = new Thread(r, prefix + "-" + next.incrementAndGet());
    t.setDaemon(true);
    return t;
  }
}
