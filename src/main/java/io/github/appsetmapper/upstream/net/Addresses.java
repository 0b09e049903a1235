package io.github.appsetmapper.upstream.net;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Locale;

/**
 * Which resolved addresses an upstream call may connect to. Always refused: the unspecified address
 * ({@code 0.0.0.0/8}, {@code ::}), multicast and broadcast. Refused unless {@code allowLinkLocal}:
 * link-local ({@code 169.254.0.0/16}, {@code fe80::/10}) and cloud metadata addresses ({@code
 * 169.254.169.254}, AWS's {@code fd00:ec2::254}, Alibaba's {@code 100.100.100.200}). Refused with
 * {@code denyPrivate}: loopback, RFC 1918, carrier-grade NAT ({@code 100.64.0.0/10}) and IPv6
 * unique-local ({@code fc00::/7}). IPv4 addresses embedded in IPv6 (IPv4-compatible, NAT64 {@code
 * 64:ff9b::/96}) are judged as the IPv4 address.
 */
public record Addresses(boolean allowLinkLocal, boolean denyPrivate) {
  public static final Addresses DEFAULT = new Addresses(false, false);

  /** Why {@code address} is refused, such as "a link-local address", or null when allowed. */
  public String refusal(InetAddress address) {
    InetAddress judged = embeddedIpv4(address);
    if (judged.isAnyLocalAddress() || isZeroNetwork(judged)) {
      return "the unspecified address";
    }
    if (judged.isMulticastAddress() || isBroadcast(judged)) {
      return "a multicast or broadcast address";
    }
    if (!allowLinkLocal && (judged.isLinkLocalAddress() || isMetadata(judged))) {
      return "a link-local or cloud metadata address";
    }
    if (denyPrivate && judged.isLoopbackAddress()) {
      return "a loopback address";
    }
    if (denyPrivate
        && (judged.isSiteLocalAddress() || isCarrierNat(judged) || isUniqueLocal(judged))) {
      return "a private address";
    }
    return null;
  }

  /** The flag that would allow what {@link #refusal} refused. */
  public static String hint(String refusal) {
    if (refusal.startsWith("a link-local")) {
      return " (--allow-link-local allows it)";
    }
    if (refusal.equals("a loopback address") || refusal.equals("a private address")) {
      return " (refused by --deny-private-networks)";
    }
    return "";
  }

  /** {@code localhost} or a loopback literal: where plain http may carry credentials. */
  public static boolean isLoopbackName(String host) {
    if (host == null) {
      return false;
    }
    String h = host.toLowerCase(Locale.ROOT);
    if (h.equals("localhost") || h.endsWith(".localhost")) {
      return true;
    }
    InetAddress literal = literal(h);
    return literal != null && literal.isLoopbackAddress();
  }

  /**
   * The address an IP literal ({@code 10.0.0.1}, {@code ::1}, {@code [::1]}) names, or null for a
   * host name; never a DNS query.
   */
  public static InetAddress literal(String host) {
    String h =
        host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    boolean ipv4 = h.matches("\\d{1,3}(\\.\\d{1,3}){3}");
    boolean ipv6 = h.contains(":") && h.matches("[0-9A-Fa-f:.%a-zA-Z0-9]+");
    if (!ipv4 && !ipv6) {
      return null;
    }
    try {
      return InetAddress.getByName(h);
    } catch (UnknownHostException e) {
      return null;
    }
  }

  private static InetAddress embeddedIpv4(InetAddress address) {
    if (!(address instanceof Inet6Address)) {
      return address;
    }
    byte[] b = address.getAddress();
    boolean compatible = true;
    for (int i = 0; i < 12; i++) {
      compatible &= b[i] == 0;
    }
    boolean nat64 =
        (b[0] & 0xff) == 0x00
            && (b[1] & 0xff) == 0x64
            && (b[2] & 0xff) == 0xff
            && (b[3] & 0xff) == 0x9b;
    for (int i = 4; nat64 && i < 12; i++) {
      nat64 = b[i] == 0;
    }
    boolean v4Tail =
        (b[12] | b[13] | b[14] | b[15]) != 0 && !(b[12] == 0 && b[13] == 0 && b[14] == 0);
    if ((compatible && v4Tail) || nat64) {
      try {
        return InetAddress.getByAddress(new byte[] {b[12], b[13], b[14], b[15]});
      } catch (UnknownHostException e) {
        return address;
      }
    }
    return address;
  }

  private static boolean isZeroNetwork(InetAddress a) {
    return a instanceof Inet4Address && a.getAddress()[0] == 0;
  }

  private static boolean isBroadcast(InetAddress a) {
    byte[] b = a.getAddress();
    return a instanceof Inet4Address && (b[0] & b[1] & b[2] & b[3]) == (byte) 0xff;
  }

  private static boolean isMetadata(InetAddress a) {
    byte[] b = a.getAddress();
    if (a instanceof Inet4Address) {
      return (b[0] & 0xff) == 100
          && (b[1] & 0xff) == 100
          && (b[2] & 0xff) == 100
          && (b[3] & 0xff) == 200;
    }
    // fd00:ec2::254
    byte[] aws = {(byte) 0xfd, 0, 0x0e, (byte) 0xc2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x02, 0x54};
    return java.util.Arrays.equals(b, aws);
  }

  private static boolean isCarrierNat(InetAddress a) {
    byte[] b = a.getAddress();
    return a instanceof Inet4Address && (b[0] & 0xff) == 100 && (b[1] & 0xc0) == 64;
  }

  private static boolean isUniqueLocal(InetAddress a) {
    return a instanceof Inet6Address && (a.getAddress()[0] & 0xfe) == 0xfc;
  }
}
