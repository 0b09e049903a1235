package io.github.appsetmapper.upstream.net;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.hc.client5.http.DnsResolver;

/**
 * Every connection HttpClient opens (the first URL, each redirect, each page, token calls) resolves
 * its host here, so the address checks run after DNS resolution on every hop, whatever name or
 * literal the URL used. Addresses that are refused are dropped; when none is left the connection
 * fails, naming the host, the address and why. Configured proxies are exempt: the operator chose
 * them.
 */
public final class GuardedDnsResolver implements DnsResolver {
  private final DnsResolver delegate;
  private final Addresses policy;
  private final Set<String> exempt;

  public GuardedDnsResolver(DnsResolver delegate, Addresses policy, Set<String> exemptHosts) {
    this.delegate = delegate;
    this.policy = policy;
    this.exempt = Set.copyOf(exemptHosts.stream().map(h -> h.toLowerCase(Locale.ROOT)).toList());
  }

  @Override
  public InetAddress[] resolve(String host) throws UnknownHostException {
    InetAddress[] all = delegate.resolve(host);
    if (exempt.contains(host.toLowerCase(Locale.ROOT))) {
      return all;
    }
    List<InetAddress> allowed = new ArrayList<>();
    String firstRefusal = null;
    InetAddress firstRefused = null;
    for (InetAddress address : all) {
      String refusal = policy.refusal(address);
      if (refusal == null) {
        allowed.add(address);
      } else if (firstRefusal == null) {
        firstRefusal = refusal;
        firstRefused = address;
      }
    }
    if (allowed.isEmpty() && firstRefusal != null) {
      String address = firstRefused.getHostAddress();
      boolean literal =
          address.equalsIgnoreCase(host)
              || ("[" + address + "]").equalsIgnoreCase(host)
              || sameAddress(host, firstRefused);
      throw new RefusedAddressException(
          "refused: "
              + host
              + (literal ? " is " : " resolves to " + address + ", ")
              + firstRefusal
              + Addresses.hint(firstRefusal));
    }
    return allowed.toArray(new InetAddress[0]);
  }

  private static boolean sameAddress(String host, InetAddress address) {
    InetAddress literal = Addresses.literal(host);
    return literal != null && literal.equals(address);
  }

  @Override
  public String resolveCanonicalHostname(String host) throws UnknownHostException {
    return delegate.resolveCanonicalHostname(host);
  }
}
