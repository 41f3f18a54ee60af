"""Where a JVM's CPU went (JDK Flight Recorder)."""
