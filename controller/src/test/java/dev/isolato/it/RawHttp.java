package dev.isolato.it;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * HTTP/1.1 over a plain socket: the request line carries the path bytes exactly as given (no client
 * normalizes '..', '//', ';' or percent-escapes), as curl sends the reproductions.
 */
final class RawHttp {
  record Reply(int status, Map<String, String> headers, String body) {
    String header(String name) {
      return headers.get(name.toLowerCase(Locale.ROOT));
    }
  }

  private RawHttp() {}

  static Reply send(int port, String method, String rawPath, String body, String... headers)
      throws IOException {
    StringBuilder req =
        new StringBuilder(method)
            .append(' ')
            .append(rawPath)
            .append(" HTTP/1.1\r\n")
            .append("Host: 127.0.0.1:")
            .append(port)
            .append("\r\nConnection: close\r\n");
    for (int i = 0; i + 1 < headers.length; i += 2) {
      req.append(headers[i]).append(": ").append(headers[i + 1]).append("\r\n");
    }
    byte[] content = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
    if (body != null) {
      req.append("Content-Type: application/json\r\nContent-Length: ")
          .append(content.length)
          .append("\r\n");
    }
    req.append("\r\n");
    try (Socket s = new Socket(java.net.InetAddress.getLoopbackAddress(), port)) {
      s.setSoTimeout(20_000);
      OutputStream out = s.getOutputStream();
      out.write(req.toString().getBytes(StandardCharsets.ISO_8859_1));
      out.write(content);
      out.flush();
      return parse(s.getInputStream().readAllBytes());
    }
  }

  private static Reply parse(byte[] raw) throws IOException {
    String text = new String(raw, StandardCharsets.ISO_8859_1);
    int end = text.indexOf("\r\n\r\n");
    if (end < 0) {
      throw new IOException("no complete HTTP response: " + text);
    }
    String[] lines = text.substring(0, end).split("\r\n", -1);
    int status = Integer.parseInt(lines[0].split(" ", -1)[1]);
    Map<String, String> headers = new LinkedHashMap<>();
    for (int i = 1; i < lines.length; i++) {
      int colon = lines[i].indexOf(':');
      headers.merge(
          lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT),
          lines[i].substring(colon + 1).trim(),
          (a, b) -> a + ", " + b);
    }
    byte[] rest = java.util.Arrays.copyOfRange(raw, end + 4, raw.length);
    if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
      rest = dechunk(new java.io.ByteArrayInputStream(rest));
    }
    return new Reply(status, headers, new String(rest, StandardCharsets.UTF_8));
  }

  private static byte[] dechunk(InputStream in) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    while (true) {
      StringBuilder size = new StringBuilder();
      for (int c; (c = in.read()) != '\n'; ) {
        if (c < 0) {
          return out.toByteArray();
        }
        size.append((char) c);
      }
      int n = Integer.parseInt(size.toString().trim().split(";", -1)[0], 16);
      if (n == 0) {
        return out.toByteArray();
      }
      out.write(in.readNBytes(n));
      in.readNBytes(2);
    }
  }
}
