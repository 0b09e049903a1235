package io.github.appsetmapper.cli;

import io.github.appsetmapper.compile.CompiledMapping;
import io.github.appsetmapper.replay.ExchangeFile;
import io.github.appsetmapper.secret.SecretUnavailableException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;

/** {@code record}'s secrets: each declared secret's live value, and the stand-in written for it. */
final class RecordedSecrets {
  private RecordedSecrets() {}

  /**
   * Each declared secret's stand-in: the existing file's, else {@code recorded-NAME}; for a PEM
   * private key (a GitHub App's) a key made for the test, since the mapping must sign with it.
   */
  static Map<String, String> standIns(Map<String, String> live, ExchangeFile existing)
      throws java.security.GeneralSecurityException {
    Map<String, String> out = new TreeMap<>();
    for (Map.Entry<String, String> secret : live.entrySet()) {
      String fromFile = existing == null ? null : existing.secrets().get(secret.getKey());
      if (fromFile != null) {
        out.put(secret.getKey(), fromFile);
      } else if (secret.getValue().contains("PRIVATE KEY-----")) {
        out.put(secret.getKey(), testKey());
      } else {
        out.put(secret.getKey(), "recorded-" + secret.getKey());
      }
    }
    return out;
  }

  /** A new RSA private key as PKCS#8 PEM: it signs nothing but a test's requests. */
  private static String testKey() throws java.security.GeneralSecurityException {
    java.security.KeyPairGenerator generator = java.security.KeyPairGenerator.getInstance("RSA");
    generator.initialize(2048);
    String base64 =
        java.util.Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
            .encodeToString(generator.generateKeyPair().getPrivate().getEncoded());
    return "-----BEGIN PRIVATE KEY-----\n" + base64 + "\n-----END PRIVATE KEY-----\n";
  }

  /** Each declared secret's live value; null (said on err) when one cannot be read. */
  static Map<String, String> liveSecrets(CompiledMapping mapping, PrintWriter err) {
    Map<String, String> out = new TreeMap<>();
    for (String name : mapping.secrets().keySet()) {
      String value;
      try {
        value = mapping.secrets().get(name).value();
      } catch (SecretUnavailableException e) {
        err.println("error: secret " + name + ": " + e.getMessage());
        return null;
      }
      if (value.length() < 4) {
        err.println(
            "error: secret "
                + name
                + " is shorter than 4 characters, too short to tell apart from the data it"
                + " would be replaced in");
        return null;
      }
      out.put(name, value);
    }
    return out;
  }
}
