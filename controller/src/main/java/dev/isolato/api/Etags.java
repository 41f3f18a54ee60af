package dev.isolato.api;

import org.springframework.http.HttpStatus;

/** ETags are the resourceVersion in quotes; If-Match makes an update conditional. */
final class Etags {
  private Etags() {}

  static String of(String resourceVersion) {
    return "\"" + resourceVersion + "\"";
  }

  /** The resourceVersion an If-Match header asks for, or null when there is none. */
  static String resourceVersion(String ifMatch) {
    if (ifMatch == null || ifMatch.isBlank() || ifMatch.trim().equals("*")) {
      return null;
    }
    String v = ifMatch.trim();
    if (v.startsWith("W/")) {
      v = v.substring(2);
    }
    return v.replace("\"", "");
  }

  static ApiException stale(String kind, String name, String wanted) {
    return new ApiException(
        HttpStatus.PRECONDITION_FAILED,
        "Stale update",
        kind
            + " '"
            + name
            + "' changed since version "
            + wanted
            + "; GET it again and retry with its new ETag");
  }
}
