package io.github.appsetmapper.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A forward proxy on loopback, as a corporate proxy behaves: absolute-form requests for http URLs,
 * CONNECT tunnels for https, optional Basic proxy auth (407 first). It resolves host names itself
 * from {@code hosts}, so a test can prove a name was never resolved by appset-mapper. Records the
 * targets it was asked for.
 */
public final class TestProxy implements AutoCloseable {
  private final ServerSocket socket;
  private final ExecutorService threads = Executors.newCachedThreadPool();
  private final Map<String, String> hosts;
  private final String credentials;
  private final List<String> targets = Collections.synchronizedList(new ArrayList<>());

  public TestProxy(Map<String, String> hosts, String credentials) throws IOException {
    this.hosts = hosts;
    this.credentials = credentials;
    this.socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    threads.submit(this::accept);
  }

  public String url() {
    return "http://127.0.0.1:" + socket.getLocalPort();
  }

  /** "CONNECT host:port" or "GET http://host:port/path", in order. */
  public List<String> targets() {
    synchronized (targets) {
      return List.copyOf(targets);
    }
  }

  private void accept() {
    while (!socket.isClosed()) {
      try {
        Socket client = socket.accept();
        threads.submit(() -> serve(client));
      } catch (IOException e) {
        return;
      }
    }
  }

  private void serve(Socket client) {
    try (client) {
      InputStream in = client.getInputStream();
      OutputStream out = client.getOutputStream();
      while (true) {
        List<String> head = readHead(in);
        if (head.isEmpty()) {
          return;
        }
        String[] line = head.get(0).split(" ");
        if (credentials != null && !authorized(head)) {
          out.write(
              ("HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic"
                      + " realm=\"proxy\"\r\nContent-Length: 0\r\n\r\n")
                  .getBytes(StandardCharsets.US_ASCII));
          out.flush();
          drainBody(in, head);
          continue;
        }
        targets.add(line[0] + " " + line[1]);
        if (line[0].equals("CONNECT")) {
          String[] target = line[1].split(":");
          Socket upstream = new Socket(resolve(target[0]), Integer.parseInt(target[1]));
          out.write(
              "HTTP/1.1 200 Connection established\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
          out.flush();
          pipe(client, upstream);
          return;
        }
        forward(URI.create(line[1]), line[0], head, in, out);
        return;
      }
    } catch (IOException e) {
      // the test sees the failure on its side
    }
  }

  private boolean authorized(List<String> head) {
    String expected =
        "Basic " + Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8));
    return head.stream().anyMatch(h -> h.equalsIgnoreCase("Proxy-Authorization: " + expected));
  }

  private void forward(URI uri, String method, List<String> head, InputStream in, OutputStream out)
      throws IOException {
    byte[] body = drainBody(in, head);
    try (Socket upstream = new Socket(resolve(uri.getHost()), uri.getPort())) {
      StringBuilder request = new StringBuilder();
      request
          .append(method)
          .append(' ')
          .append(uri.getRawPath())
          .append(uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery())
          .append(" HTTP/1.1\r\n");
      for (String header : head.subList(1, head.size())) {
        String name = header.substring(0, header.indexOf(':')).toLowerCase();
        if (!name.startsWith("proxy-") && !name.equals("connection")) {
          request.append(header).append("\r\n");
        }
      }
      request.append("Connection: close\r\n\r\n");
      OutputStream up = upstream.getOutputStream();
      up.write(request.toString().getBytes(StandardCharsets.ISO_8859_1));
      up.write(body);
      up.flush();
      upstream.getInputStream().transferTo(out);
      out.flush();
    }
  }

  private String resolve(String host) {
    return hosts.getOrDefault(host, host);
  }

  private static void pipe(Socket a, Socket b) throws IOException {
    try (b) {
      Thread back =
          new Thread(
              () -> {
                try {
                  b.getInputStream().transferTo(a.getOutputStream());
                } catch (IOException e) {
                  // closed
                }
              });
      back.start();
      a.getInputStream().transferTo(b.getOutputStream());
      try {
        back.join(5000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private static byte[] drainBody(InputStream in, List<String> head) throws IOException {
    for (String header : head) {
      if (header.toLowerCase().startsWith("content-length:")) {
        int length = Integer.parseInt(header.substring(15).trim());
        return in.readNBytes(length);
      }
    }
    return new byte[0];
  }

  private static List<String> readHead(InputStream in) throws IOException {
    List<String> lines = new ArrayList<>();
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    for (int b; (b = in.read()) >= 0; ) {
      if (b == '\n') {
        String text = line.toString(StandardCharsets.ISO_8859_1).replace("\r", "");
        line.reset();
        if (text.isEmpty()) {
          return lines;
        }
        lines.add(text);
      } else {
        line.write(b);
      }
    }
    return List.of();
  }

  @Override
  public void close() throws IOException {
    socket.close();
    threads.shutdownNow();
  }
}
