package io.github.appsetmapper.server;

import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.PathTemplateMatch;
import java.util.Map;

/**
 * The getparams route by name, matched by hand in front of the {@link
 * io.undertow.server.RoutingHandler}: the path Argo CD calls on every refresh. The router reaches
 * the same handler with the same {@code {name}}, but tries its templates one by one and builds a
 * map and substrings for each (a few percent of a static getparams' CPU). Anything not exactly of
 * this form, a trailing slash or an empty name among them, or a method not exactly {@code POST}
 * ({@code post} among them: the router's 405), goes to the router as before; GetparamsRouteTest
 * compares the two on the router itself.
 */
final class GetparamsRoute implements HttpHandler {
  static final String TEMPLATE = "/mappings/{name}/api/v1/getparams.execute";
  private static final String PREFIX = "/mappings/";
  private static final String SUFFIX = "/api/v1/getparams.execute";

  private final HttpHandler getparams;
  private final HttpHandler router;

  GetparamsRoute(HttpHandler getparams, HttpHandler router) {
    this.getparams = getparams;
    this.router = router;
  }

  /** Whether {@code path} may be this route: nothing else starts so ({@link Routes}). */
  static boolean mayBe(String path) {
    return path.startsWith(PREFIX);
  }

  /** The {@code {name}} of {@code path} when it is exactly this route's form, else null. */
  static String name(String path) {
    int end = path.length() - SUFFIX.length();
    if (end <= PREFIX.length() || !path.startsWith(PREFIX) || !path.endsWith(SUFFIX)) {
      return null;
    }
    int slash = path.indexOf('/', PREFIX.length());
    // The router's template stops a name at '?' (a decoded %3F): such a path is its to refuse.
    int question = path.indexOf('?', PREFIX.length());
    return slash == end && (question < 0 || question > end)
        ? path.substring(PREFIX.length(), end)
        : null;
  }

  @Override
  public void handleRequest(HttpServerExchange exchange) throws Exception {
    String name = Refusals.is(exchange, "POST") ? name(exchange.getRelativePath()) : null;
    if (name == null) {
      router.handleRequest(exchange);
      return;
    }
    exchange.putAttachment(
        PathTemplateMatch.ATTACHMENT_KEY, new PathTemplateMatch(TEMPLATE, Map.of("name", name)));
    getparams.handleRequest(exchange);
  }
}
