package io.github.appsetmapper.upstream.net;

import java.net.UnknownHostException;

/** Every address a host name resolved to is refused by {@link Addresses}. */
public final class RefusedAddressException extends UnknownHostException {
  public RefusedAddressException(String message) {
    super(message);
  }
}
