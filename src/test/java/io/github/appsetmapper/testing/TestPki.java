package io.github.appsetmapper.testing;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.bouncycastle.asn1.ASN1Encodable;
import org.bouncycastle.asn1.DERSequence;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.util.io.pem.PemObject;

/**
 * A certificate authority made at test time, issuing server certificates for 127.0.0.1 and
 * localhost and client certificates, written as PEM the way operators get them.
 */
public final class TestPki {
  private static final AtomicLong SERIAL = new AtomicLong(System.nanoTime());

  /** A key and its certificate. */
  public record Issued(KeyPair keys, X509Certificate certificate) {}

  private final String name;
  private final KeyPair keys;
  private final X509Certificate certificate;

  public TestPki(String name) {
    this.name = name;
    this.keys = rsa();
    this.certificate = sign(name, keys, null, true, false);
  }

  public X509Certificate certificate() {
    return certificate;
  }

  public Issued server() {
    KeyPair pair = rsa();
    return new Issued(pair, sign("localhost", pair, this, false, true));
  }

  public Issued client(String subject, KeyPair pair) {
    return new Issued(pair, sign(subject, pair, this, false, false));
  }

  public static KeyPair rsa() {
    return generate("RSA", 2048);
  }

  public static KeyPair ec() {
    return generate("EC", 256);
  }

  private static KeyPair generate(String algorithm, int size) {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance(algorithm);
      generator.initialize(size);
      return generator.generateKeyPair();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  private X509Certificate sign(
      String subject, KeyPair pair, TestPki issuer, boolean ca, boolean serverNames) {
    try {
      Instant now = Instant.now();
      JcaX509v3CertificateBuilder builder =
          new JcaX509v3CertificateBuilder(
              new X500Name("CN=" + (issuer == null ? name : issuer.name)),
              BigInteger.valueOf(SERIAL.incrementAndGet()),
              Date.from(now.minus(Duration.ofHours(1))),
              Date.from(now.plus(Duration.ofDays(2))),
              new X500Name("CN=" + subject),
              pair.getPublic());
      builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(ca));
      if (serverNames) {
        builder.addExtension(
            Extension.subjectAlternativeName,
            false,
            new DERSequence(
                new ASN1Encodable[] {
                  new GeneralName(GeneralName.dNSName, "localhost"),
                  new GeneralName(GeneralName.iPAddress, "127.0.0.1")
                }));
        builder.addExtension(
            Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth));
      } else if (!ca) {
        builder.addExtension(
            Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_clientAuth));
      }
      PrivateKey signer = issuer == null ? pair.getPrivate() : issuer.keys.getPrivate();
      String algorithm = signer.getAlgorithm().equals("EC") ? "SHA256withECDSA" : "SHA256withRSA";
      return new JcaX509CertificateConverter()
          .getCertificate(builder.build(new JcaContentSignerBuilder(algorithm).build(signer)));
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * A server SSL context with this certificate; {@code clientCa} non-null asks for a client cert.
   */
  public static SSLContext serverContext(Issued server, TestPki ca, TestPki clientCa) {
    try {
      KeyStore keys = KeyStore.getInstance("PKCS12");
      keys.load(null, null);
      keys.setKeyEntry(
          "server",
          server.keys().getPrivate(),
          new char[0],
          new X509Certificate[] {server.certificate(), ca.certificate()});
      KeyManagerFactory kmf =
          KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      kmf.init(keys, new char[0]);
      TrustManagerFactory tmf = null;
      if (clientCa != null) {
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("client-ca", clientCa.certificate());
        tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
      }
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(
          kmf.getKeyManagers(), tmf == null ? null : tmf.getTrustManagers(), new SecureRandom());
      return context;
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  public static String pem(Object object) {
    StringWriter out = new StringWriter();
    try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
      writer.writeObject(object);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toString();
  }

  /** PKCS#8 ({@code BEGIN PRIVATE KEY}). */
  public static String pkcs8(PrivateKey key) {
    StringWriter out = new StringWriter();
    try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
      writer.writeObject(new PemObject("PRIVATE KEY", key.getEncoded()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toString();
  }

  /**
   * PKCS#1 for RSA ({@code BEGIN RSA PRIVATE KEY}), SEC1 for EC ({@code BEGIN EC PRIVATE KEY}, the
   * curve named inside, as OpenSSL writes it).
   */
  public static String traditional(PrivateKey key) {
    if (!key.getAlgorithm().equals("EC")) {
      return pem(key);
    }
    try {
      org.bouncycastle.asn1.pkcs.PrivateKeyInfo info =
          org.bouncycastle.asn1.pkcs.PrivateKeyInfo.getInstance(key.getEncoded());
      org.bouncycastle.asn1.sec.ECPrivateKey inner =
          org.bouncycastle.asn1.sec.ECPrivateKey.getInstance(info.parsePrivateKey());
      org.bouncycastle.asn1.sec.ECPrivateKey sec1 =
          new org.bouncycastle.asn1.sec.ECPrivateKey(
              256, inner.getKey(), null, info.getPrivateKeyAlgorithm().getParameters());
      StringWriter out = new StringWriter();
      try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
        writer.writeObject(new PemObject("EC PRIVATE KEY", sec1.getEncoded()));
      }
      return out.toString();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static Path write(Path file, String text) {
    try {
      return Files.writeString(file, text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
