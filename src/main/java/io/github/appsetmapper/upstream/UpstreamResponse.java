package io.github.appsetmapper.upstream;

import java.net.URI;

/** An upstream answer, its body already read within the size cap and decompressed. */
public record UpstreamResponse(int status, Headers headers, byte[] body, URI uri) {

  public boolean isSuccess() {
    return status >= 200 && status < 300;
  }
}
