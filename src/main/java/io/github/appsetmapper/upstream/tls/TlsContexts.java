package io.github.appsetmapper.upstream.tls;

import io.github.appsetmapper.files.FileStamp;
import io.github.appsetmapper.upstream.call.RequestFailure;
import io.github.appsetmapper.upstream.call.TlsSettings;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;

/**
 * SSL contexts for {@link TlsSettings}, built once and rebuilt when one of the files changes
 * (modification time, size or file identity, so a Kubernetes Secret's symlink swap counts). Each
 * context has a {@code version} that changes with it; pooled connections are keyed by it, so a
 * rotated certificate is never served by a connection made with the old one.
 */
public final class TlsContexts {
  /** A built context, its version, and whether host names are checked. */
  public record Material(SSLContext context, String version, boolean verifyHostnames) {}

  private record Built(List<FileStamp> stamps, Material material) {}

  private final Map<TlsSettings, Built> built = new ConcurrentHashMap<>();
  private final java.util.concurrent.atomic.AtomicLong versions =
      new java.util.concurrent.atomic.AtomicLong();

  /**
   * @throws RequestFailure (kind LOCAL) when a file cannot be read or holds no usable PEM
   */
  public Material material(TlsSettings settings) throws RequestFailure {
    List<FileStamp> stamps = new ArrayList<>();
    for (Path file : files(settings)) {
      stamps.add(stamp(file, settings));
    }
    Built current = built.get(settings);
    if (current != null && current.stamps().equals(stamps)) {
      return current.material();
    }
    Material material = build(settings);
    built.put(settings, new Built(stamps, material));
    return material;
  }

  private static List<Path> files(TlsSettings settings) {
    List<Path> files = new ArrayList<>();
    if (settings.caFile() != null) {
      files.add(settings.caFile());
    }
    if (settings.certFile() != null) {
      files.add(settings.certFile());
      files.add(settings.keyFile());
    }
    return files;
  }

  private static FileStamp stamp(Path file, TlsSettings settings) throws RequestFailure {
    try {
      return FileStamp.of(file);
    } catch (IOException e) {
      throw unreadable(file, settings, e);
    }
  }

  private Material build(TlsSettings settings) throws RequestFailure {
    try {
      TrustManager[] trust = null;
      if (settings.insecureSkipVerify()) {
        trust = new TrustManager[] {new TrustEverything()};
      } else if (settings.caFile() != null) {
        KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
        store.load(null, null);
        int i = 0;
        for (X509Certificate ca : certificates(settings.caFile(), settings, "caFile")) {
          store.setCertificateEntry("ca-" + i++, ca);
        }
        TrustManagerFactory factory =
            TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        factory.init(store);
        trust = factory.getTrustManagers();
      }
      javax.net.ssl.KeyManager[] keys = null;
      if (settings.certFile() != null) {
        List<X509Certificate> chain = certificates(settings.certFile(), settings, "certFile");
        PrivateKey key;
        try {
          key = Pem.privateKey(read(settings.keyFile(), settings));
        } catch (GeneralSecurityException e) {
          throw new RequestFailure(
                  "tls: keyFile " + settings.keyFile() + ": " + e.getMessage(),
                  RequestFailure.Kind.LOCAL)
              .causedBy(e);
        }
        char[] password = new char[0];
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        store.setKeyEntry("client", key, password, chain.toArray(new X509Certificate[0]));
        KeyManagerFactory factory =
            KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        factory.init(store, password);
        keys = factory.getKeyManagers();
      }
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(keys, trust, new SecureRandom());
      return new Material(
          context, "tls-" + versions.incrementAndGet(), !settings.insecureSkipVerify());
    } catch (GeneralSecurityException | IOException e) {
      throw new RequestFailure(
              "tls: the certificate and key files do not make a usable TLS setup ("
                  + e.getClass().getSimpleName()
                  + ")",
              RequestFailure.Kind.LOCAL)
          .causedBy(e);
    }
  }

  private static List<X509Certificate> certificates(Path file, TlsSettings settings, String field)
      throws RequestFailure {
    try {
      return Pem.certificates(read(file, settings));
    } catch (GeneralSecurityException e) {
      throw new RequestFailure(
              "tls: " + field + " " + file + " holds no PEM certificate", RequestFailure.Kind.LOCAL)
          .causedBy(e);
    }
  }

  private static String read(Path file, TlsSettings settings) throws RequestFailure {
    try {
      // Bounded as every file read is: a FIFO or a hung mount never holds the request.
      return io.github.appsetmapper.files.BoundedFiles.readText(
          file, io.github.appsetmapper.files.BoundedFiles.SECRET_BYTES);
    } catch (IOException e) {
      throw unreadable(file, settings, e);
    }
  }

  private static RequestFailure unreadable(Path file, TlsSettings settings, IOException e) {
    String field =
        file.equals(settings.caFile())
            ? "caFile"
            : file.equals(settings.certFile()) ? "certFile" : "keyFile";
    String why = e instanceof NoSuchFileException ? "no such file" : "cannot be read";
    return new RequestFailure("tls: " + field + " " + file + ": " + why, RequestFailure.Kind.LOCAL)
        .causedBy(e);
  }

  /** {@code insecureSkipVerify}: any certificate is accepted (host names are not checked). */
  private static final class TrustEverything implements X509TrustManager {
    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) {}

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) {
      Objects.requireNonNull(chain);
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
      return new X509Certificate[0];
    }
  }
}
