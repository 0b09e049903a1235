package io.github.appsetmapper.upstream.auth;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.Signature;
import java.time.Instant;
import java.util.Base64;

/**
 * The JWT a GitHub App signs to ask for an installation token: RS256, issued a minute in the past
 * (GitHub's advice against clock drift), valid for nine minutes (GitHub allows ten), issuer the
 * App's id.
 */
final class GithubJwt {
  private static final Base64.Encoder URL = Base64.getUrlEncoder().withoutPadding();

  private GithubJwt() {}

  static String sign(String appId, PrivateKey key, Instant now) throws GeneralSecurityException {
    long issued = now.getEpochSecond() - 60;
    String header = "{\"alg\":\"RS256\",\"typ\":\"JWT\"}";
    String payload =
        "{\"iat\":"
            + issued
            + ",\"exp\":"
            + (issued + 600 - 60)
            + ",\"iss\":\""
            + appId.replace("\\", "\\\\").replace("\"", "\\\"")
            + "\"}";
    String signingInput = encode(header) + "." + encode(payload);
    Signature signature = Signature.getInstance("SHA256withRSA");
    signature.initSign(key);
    signature.update(signingInput.getBytes(StandardCharsets.US_ASCII));
    return signingInput + "." + URL.encodeToString(signature.sign());
  }

  private static String encode(String json) {
    return URL.encodeToString(json.getBytes(StandardCharsets.UTF_8));
  }
}
