package io.github.appsetmapper.compile;

import com.jayway.jsonpath.JsonPath;
import io.github.appsetmapper.config.AuthSpec;
import io.github.appsetmapper.config.EnrichSpec;
import io.github.appsetmapper.config.Expr;
import io.github.appsetmapper.config.ListSpec;
import io.github.appsetmapper.config.MappingException;
import io.github.appsetmapper.config.MappingSpec;
import io.github.appsetmapper.config.Problems;
import io.github.appsetmapper.config.RequestOptions;
import io.github.appsetmapper.config.RequestSpec;
import io.github.appsetmapper.config.TlsSpec;
import io.github.appsetmapper.expr.Scope;
import io.github.appsetmapper.expr.Scope.Name;
import io.github.appsetmapper.secret.SecretSource;
import io.github.appsetmapper.upstream.call.HostPolicy;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Compiles a {@link MappingSpec} into a {@link CompiledMapping}, reporting every problem at once.
 */
public final class MappingCompiler {
  private static final String SECRET_ONLY_IN_REQUEST =
      "'secret' can be used only inside a request (url, query, headers, body, auth)";
  private static final String RESPONSE_ONLY_IN_VALUE =
      "'response' can be used only in an enrich 'value' or a 'failWhen'";
  private static final String PAGE_ONLY_IN_REQUEST = "'page' exists only inside a request";

  private static String sharedToken(String name) {
    return "'"
        + name
        + "' cannot be read here: a token is shared by every call, so its settings may read"
        + " only vars and secret";
  }

  private final Problems problems = new Problems();
  final ExpressionCompiler expressions;
  final PathCompiler paths = new PathCompiler(problems);
  private final MappingSpec spec;
  private final CompileOptions options;

  /** The scope of what every call shares (a token's settings): vars and secret only. */
  Scope sharedScope;

  /**
   * The names whose values the caller chooses: everything Argo CD's request carries, and enrich
   * results computed from it (added as the enrich steps compile, in order).
   */
  private final Set<String> fromCaller = new LinkedHashSet<>(CALLER);

  /** The element name of the forEach step whose request is compiling (null: none). */
  private String element;

  /** The names holding upstream data besides item, response and page: enrich, lets, elements. */
  private Set<String> upstreamNames() {
    Set<String> names = new LinkedHashSet<>(spec.enrich().keySet());
    names.addAll(spec.let().keySet());
    if (spec.explode() != null && spec.explode().as() != null) {
      names.add(spec.explode().as());
    }
    if (element != null) {
      names.add(element);
    }
    return names;
  }

  /** What the caller sends: the request body's {@code applicationSetName} and {@code input}. */
  static final Set<String> CALLER = Set.of(Name.INPUT.word(), Name.APPLICATION_SET_NAME.word());

  private MappingCompiler(MappingSpec spec, CompileOptions options, Set<String> unread) {
    this.spec = spec;
    this.options = options;
    this.expressions = new ExpressionCompiler(problems, AuthorSlips.Declared.of(spec), unread);
  }

  public static CompiledMapping compile(MappingSpec spec, CompileOptions options)
      throws MappingException {
    return new MappingCompiler(spec, options, Set.of()).compile();
  }

  /** As read of a file that did not parse: {@code unread}'s names are not said unknown. */
  static CompiledMapping compileRead(MappingSpec spec, CompileOptions options, Set<String> unread)
      throws MappingException {
    return new MappingCompiler(spec, options, unread).compile();
  }

  private CompiledMapping compile() throws MappingException {
    AuthoredText.check(spec, problems);
    Map<String, String> vars = Declarations.vars(spec, options, problems);
    Map<String, SecretSource> secrets =
        SecretSources.compile(spec, options, vars, problems, expressions);
    Map<String, InputRule> inputs = Declarations.inputs(spec, problems);
    Scope base =
        Scope.empty()
            .declaring(
                Name.INPUT, new Scope.Declared(spec.input().keySet(), spec.inputAdditional()))
            .declaring(Name.SECRET, new Scope.Declared(spec.secrets().keySet(), false))
            .declaring(Name.VARS, new Scope.Declared(spec.vars().keySet(), false))
            .with(Name.INPUT, Scope.UNKNOWN)
            .with(Name.APPLICATION_SET_NAME, Scope.UNKNOWN)
            .with(Name.VARS, Scope.UNKNOWN)
            .without(Name.SECRET, SECRET_ONLY_IN_REQUEST)
            .without(Name.RESPONSE, RESPONSE_ONLY_IN_VALUE)
            .without(Name.PAGE, PAGE_ONLY_IN_REQUEST)
            .without(Name.ITEM, "'item' exists only when the mapping has a 'list'");
    sharedScope =
        base.without(Name.INPUT, sharedToken("input"))
            .without(Name.APPLICATION_SET_NAME, sharedToken("applicationSetName"))
            .without(Name.ITEM, sharedToken("item"))
            .without(Name.PAGE, sharedToken("page"))
            .with(Name.SECRET, Scope.UNKNOWN);
    if (spec.list() != null) {
      base = base.with(Name.ITEM, Scope.UNKNOWN);
    }
    CompiledList list = list(spec.list(), base);
    RowStepsCompiler rowSteps = new RowStepsCompiler(expressions, problems, spec);
    base = rowSteps.explode(base);
    rowSteps.lets(base);
    List<CompiledEnrich> enrich = new ArrayList<>();
    Scope rowScope = base;
    List<String> later = new ArrayList<>(spec.enrich().keySet());
    for (String name : later) {
      rowScope =
          rowScope.without(
              name, "'" + name + "' is enriched after this step; enrich runs in order");
    }
    CompiledExpression label = rowSteps.label(rowScope);
    rowSteps.chosenByCaller(0, fromCaller);
    for (EnrichSpec step : spec.enrich().values()) {
      if (Name.RESERVED.contains(step.name())) {
        problems.add(
            step.pos(), "'" + step.name() + "' is a reserved name; choose another enrich name");
      }
      CompiledEnrich compiled = enrich(step, rowSteps.letsBefore(enrich.size(), rowScope));
      enrich.add(compiled);
      if (compiled.value() != null
          && (UrlCompiler.firstRead(compiled.value(), fromCaller) != null
              || elementFromCaller(compiled))) {
        fromCaller.add(step.name());
      }
      rowScope = rowScope.with(step.name(), Scope.UNKNOWN);
      rowSteps.chosenByCaller(enrich.size(), fromCaller);
    }
    rowScope = rowSteps.letsBefore(enrich.size(), rowScope);
    Map<String, CompiledExpression> parameters = new LinkedHashMap<>();
    for (Map.Entry<String, Expr> parameter : spec.parameters().entrySet()) {
      parameters.put(parameter.getKey(), expressions.expression(parameter.getValue(), rowScope));
    }
    CompiledMapping mapping =
        CompiledMapping.builder()
            .settings(spec.settings())
            .sourceFile(spec.pos().file())
            .inputs(inputs)
            .vars(vars)
            .secrets(secrets)
            .list(list)
            .enrich(List.copyOf(enrich))
            .filter(filter(expressions.expression(spec.filter(), rowScope), rowSteps))
            .sortBy(expressions.expression(spec.sortBy(), rowScope))
            .distinctBy(expressions.expression(spec.distinctBy(), rowScope))
            .parameters(parameters)
            .hosts(new HostPolicy(spec.allowedHosts()))
            .rowSteps(rowSteps.steps(label))
            .build();
    problems.throwIfAny();
    return mapping;
  }

  /**
   * The filter with its parts and what each needs: a part that reads no enrich result runs before
   * the first enrich, one that reads step k's after step k (see {@link CompiledFilter}).
   */
  private CompiledFilter filter(CompiledExpression whole, RowStepsCompiler rowSteps) {
    if (whole == null) {
      return null;
    }
    for (CompiledFilter.Joiner joiner :
        List.of(CompiledFilter.Joiner.AND, CompiledFilter.Joiner.OR)) {
      List<CompiledExpression> operands = expressions.operands(whole, joiner);
      if (!operands.isEmpty()) {
        List<CompiledFilter.Part> parts = new ArrayList<>();
        for (CompiledExpression operand : operands) {
          parts.add(new CompiledFilter.Part(operand, rowSteps.needs(operand)));
        }
        return new CompiledFilter(whole, joiner, parts);
      }
    }
    return new CompiledFilter(
        whole,
        CompiledFilter.Joiner.NONE,
        List.of(new CompiledFilter.Part(whole, rowSteps.needs(whole))));
  }

  private CompiledList list(ListSpec list, Scope scope) {
    if (list == null) {
      return null;
    }
    Scope requestScope =
        requestScope(scope.without(Name.ITEM, "'item' does not exist in the list request"));
    CompiledRequest request = request("list", list.request(), requestScope);
    return new CompiledList(
        request,
        paths.rowPath(list.items(), list.missingIsEmpty(), "items"),
        PaginateCompiler.compile(list.paginate(), requestScope, paths, expressions, problems),
        paths.rowPath(list.entries(), list.missingIsEmpty(), "entries"));
  }

  /**
   * {@code response.status} and {@code response.headers}, the parts of an answer besides its body.
   */
  private static final java.util.regex.Pattern NOT_THE_BODY =
      java.util.regex.Pattern.compile(
          "(#root\\s*\\.\\s*)?response\\s*(\\?\\.|\\.)\\s*(status|headers)\\b"
              + "|(#root\\s*\\.\\s*)?response\\s*\\[\\s*'(status|headers)'\\s*\\]");

  /**
   * Whether an enrich reads only the status and headers: a {@code value} that names {@code
   * response} only as {@code response.status} or {@code response.headers}. Only then is a 204 a
   * complete answer. Judged on the text, so any other mention of {@code response} counts as reading
   * the body.
   */
  private static boolean readsNoBody(CompiledExpression value) {
    return value != null
        && !NOT_THE_BODY.matcher(value.source().text()).replaceAll("").contains("response");
  }

  private CompiledEnrich enrich(EnrichSpec step, Scope rowScope) {
    String name = "enrich." + step.name();
    CompiledEnrich.ForEach forEach = null;
    boolean elementFromCaller = false;
    if (step.forEach() != null) {
      EnrichSpec.ForEach each = step.forEach();
      CompiledExpression in = expressions.expression(each.in(), rowScope);
      String as = each.as();
      if (as != null && (Name.RESERVED.contains(as) || spec.enrich().containsKey(as))) {
        problems.add(
            each.pos(),
            "forEach 'as: "
                + as
                + "' is "
                + (Name.RESERVED.contains(as) ? "a reserved name" : "an enrich name")
                + "; choose another name for the element");
        as = null;
      }
      if (as != null) {
        rowScope = rowScope.with(as, Scope.UNKNOWN);
        // An element of a list the caller chose is the caller's too (never a URL's host).
        elementFromCaller = in != null && UrlCompiler.firstRead(in, fromCaller) != null;
      }
      CompiledExpression key = expressions.expression(each.key(), rowScope);
      if (step.explode()) {
        problems.add(each.pos(), "forEach and explode do not combine; keep one");
      }
      forEach = new CompiledEnrich.ForEach(in, as, key);
    }
    if (elementFromCaller) {
      fromCaller.add(forEach.as());
    }
    element = forEach == null ? null : forEach.as();
    Scope requestScope = requestScope(rowScope);
    CompiledRequest request = request(name, step.request(), requestScope);
    element = null;
    if (elementFromCaller) {
      fromCaller.remove(forEach.as());
    }
    JsonPath select = paths.jsonPath(step.select());
    RowPath rows =
        select == null || select.isDefinite()
            ? null
            : paths.rowPath(step.select(), step.missingIsEmpty(), "select");
    CompiledExpression value =
        expressions.expression(step.value(), rowScope.with(Name.RESPONSE, Scope.UNKNOWN));
    if (step.paginate() != null && (select == null || select.isDefinite())) {
      problems.add(
          step.paginate().pos(),
          "paginate on an enrich needs an indefinite 'select' (such as $[*]) whose pages are joined");
    }
    return CompiledEnrich.builder()
        .name(step.name())
        .request(request)
        .select(select)
        .rows(rows)
        .value(value)
        .onMissing(step.onMissing())
        .explode(step.explode())
        .paginate(
            PaginateCompiler.compile(step.paginate(), requestScope, paths, expressions, problems))
        .readsNoBody(readsNoBody(value))
        .forEach(forEach)
        .build();
  }

  /** Whether a forEach step's value reads its element, and the element is the caller's. */
  private boolean elementFromCaller(CompiledEnrich step) {
    CompiledEnrich.ForEach each = step.forEach();
    return each != null
        && each.in() != null
        && each.as() != null
        && UrlCompiler.firstRead(each.in(), fromCaller) != null
        && step.value().inspection().reads(each.as());
  }

  private static Scope requestScope(Scope scope) {
    return scope.with(Name.SECRET, Scope.UNKNOWN).with(Name.PAGE, Scope.UNKNOWN);
  }

  /** Where {@code response} is read (failWhen, a cursor's until): never with {@code secret}. */
  static Scope responseScope(Scope requestScope) {
    return requestScope
        .with(Name.RESPONSE, Scope.UNKNOWN)
        .without(Name.SECRET, SECRET_ONLY_IN_REQUEST);
  }

  private CompiledRequest request(String step, RequestSpec request, Scope scope) {
    return request(step, request, scope, false);
  }

  /** {@code login}: a login request, which never takes {@code defaults.auth} (its own token). */
  CompiledRequest request(String step, RequestSpec request, Scope scope, boolean login) {
    if (request == null) {
      return null;
    }
    RequestOptions options =
        login
            ? request.options().overForLogin(spec.defaults())
            : request.options().over(spec.defaults());
    Set<String> caller = Set.copyOf(fromCaller);
    Template url = expressions.template(request.url(), scope, UrlCompiler.place(caller));
    UrlTemplate urlTemplate = url == null ? null : UrlCompiler.compile(url, problems, caller);
    Map<String, Template> query = new LinkedHashMap<>();
    request.query().forEach((k, v) -> query.put(k, expressions.template(v, scope)));
    Map<String, Template> headers = new LinkedHashMap<>();
    options
        .headers()
        .forEach((k, v) -> headers.put(k, expressions.template(v, scope, RequestReach.place(k))));
    RequestReach.checkHostHeader(headers, problems);
    Scope responseScope = responseScope(scope);
    TlsSpec tls = options.tls();
    Object body = body(request.body(), scope);
    CompiledAuth compiledAuth = auth(step, options.auth(), scope);
    String credentials =
        urlTemplate == null
            ? null
            : RequestReach.credentials(compiledAuth, urlTemplate, query, headers, body, tls);
    if (urlTemplate != null && spec.allowedHosts().isEmpty()) {
      RequestReach.checkCredentialedHost(urlTemplate, credentials, upstreamNames(), problems);
    }
    return CompiledRequest.builder()
        .step(step)
        .method(request.method())
        .url(urlTemplate)
        .query(query)
        .headers(headers)
        .body(body)
        .timeout(options.timeout())
        .auth(compiledAuth)
        .failWhen(expressions.expression(options.failWhen(), responseScope))
        .acceptStatus(request.acceptStatus() == null ? Set.of() : request.acceptStatus())
        .settings(RequestSettings.of(options, request.format()))
        .format(request.format())
        .credentials(credentials)
        .build();
  }

  private Object body(Object node, Scope scope) {
    if (node instanceof Expr expr) {
      return expressions.template(expr, scope, AuthorSlips.Place.BODY);
    }
    if (node instanceof Map<?, ?> map) {
      Map<String, Object> out = new LinkedHashMap<>();
      map.forEach((k, v) -> out.put(String.valueOf(k), body(v, scope)));
      return out;
    }
    if (node instanceof List<?> list) {
      List<Object> out = new ArrayList<>();
      list.forEach(v -> out.add(body(v, scope)));
      return out;
    }
    return node;
  }

  private CompiledAuth auth(String step, AuthSpec auth, Scope scope) {
    return auth == null ? null : auth.accept(new AuthCompiler(this, step, scope));
  }

  /** A problem when {@code name} is not a declared secret. */
  void secretRef(AuthSpec auth, String name) {
    if (name != null && !spec.secrets().containsKey(name)) {
      problems.add(auth.pos(), "secret '" + name + "' is not declared under secrets");
    }
  }
}
