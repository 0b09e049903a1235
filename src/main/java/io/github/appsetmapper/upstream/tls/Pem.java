package io.github.appsetmapper.upstream.tls;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.pkcs.PKCS8EncryptedPrivateKeyInfo;

/**
 * PEM text to keys and certificates: private keys as PKCS#8 ({@code BEGIN PRIVATE KEY}), PKCS#1 RSA
 * ({@code BEGIN RSA PRIVATE KEY}, what GitHub hands out for Apps) or SEC1 EC ({@code BEGIN EC
 * PRIVATE KEY}); certificates one or many. Errors never quote the text.
 */
public final class Pem {
  private Pem() {}

  public static PrivateKey privateKey(String pem) throws GeneralSecurityException {
    try (PEMParser parser = new PEMParser(new StringReader(pem))) {
      JcaPEMKeyConverter converter = new JcaPEMKeyConverter();
      for (Object object; (object = parser.readObject()) != null; ) {
        if (object instanceof PEMKeyPair pair) {
          return converter.getPrivateKey(pair.getPrivateKeyInfo());
        }
        if (object instanceof PrivateKeyInfo info) {
          return converter.getPrivateKey(info);
        }
        if (object instanceof PKCS8EncryptedPrivateKeyInfo) {
          throw new GeneralSecurityException("encrypted private keys are not supported");
        }
      }
      throw new GeneralSecurityException("no PEM private key found");
    } catch (IOException | RuntimeException e) {
      throw new GeneralSecurityException("not a readable PEM private key", e);
    }
  }

  public static List<X509Certificate> certificates(String pem) throws GeneralSecurityException {
    CertificateFactory factory = CertificateFactory.getInstance("X.509");
    List<X509Certificate> out = new ArrayList<>();
    for (var certificate :
        factory.generateCertificates(
            new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII)))) {
      out.add((X509Certificate) certificate);
    }
    if (out.isEmpty()) {
      throw new GeneralSecurityException("no PEM certificate found");
    }
    return out;
  }
}
