package dev.isolato.slo;

import java.util.Locale;

/** Locale-independent formatting for explanations and evidence (stable across machines). */
final class Text {
  private Text() {}

  static String fmt(String format, Object... args) {
    return String.format(Locale.ROOT, format, args);
  }

  /** 95.0 → "95", 99.9 → "99.9". */
  static String trim(double value) {
    return value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value);
  }
}
