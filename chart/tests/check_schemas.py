#!/usr/bin/env python3
"""Every manifest we ship, against the real schemas, refusing unknown fields.

Usage: check_schemas.py --node NODE [--rendered LABEL=FILE ...] [--rendered-bad VALUES=FILE ...]

Checked, each object against the Kubernetes, Argo CD or Prometheus Operator schema by
schemas/validate.mjs (offline; fields the schema does not define are errors, except under
map-typed and free-form fields):
  - the chart rendered with each values scenario (--rendered, from run.sh);
  - samples/*/argocd/*.yaml (ApplicationSets, the plugin ConfigMap, the token Secret);
  - chart/examples/*-values.yaml: extraObjects as manifests, extraContainers and extraVolumes
    as a Container and a Volume;
  - every ```yaml snippet of README.md, docs/, chart/README.md, samples/ and mappings/ that is a
    manifest (apiVersion and kind);
  - tests/manifests/good/*.yaml must pass and tests/manifests/bad/*.yaml must fail, each with an
    error matching its first line `# expect: <regex>`; so must the renders of
    tests/manifests/bad-values/*.yaml (--rendered-bad, the values file = its render).
Checks of our own on top:
  - Argo CD plugin ConfigMaps (a ConfigMap an ApplicationSet's plugin generator names, or one
    with a token/baseUrl/requestTimeout key in any case): only those three keys, token `$secret:key`
    or `$key`, baseUrl an http(s) URL without the /api/v1/getparams.execute Argo CD appends,
    requestTimeout whole seconds;
  - each rendered Deployment's terminationGracePeriodSeconds covers the server's --drain-delay plus
    --grace-period (its args, else ServeCommand's defaults) and a second to exit.
Prints `ok ...` / `not ok ...` lines; exits 1 when anything failed.
"""
import argparse
import glob
import json
import os
import re
import subprocess
import sys

import yaml

TESTS = os.path.dirname(os.path.abspath(__file__))
CHART = os.path.dirname(TESTS)
REPO = os.path.dirname(CHART)
VALIDATOR = os.path.join(TESTS, "schemas", "validate.mjs")
PLUGIN_KEYS = ("token", "baseUrl", "requestTimeout")
SECRET_REF = re.compile(r"^\$(?:[a-z0-9]([-a-z0-9.]*[a-z0-9])?:)?[-._a-zA-Z0-9]+$")
EXIT_MARGIN_SECONDS = 1
MARKDOWN = ["README.md", "docs/*.md", "chart/README.md", "samples/**/*.md", "mappings/**/*.md"]

failed = 0


def report(ok, name, why=""):
    global failed
    if ok:
        print(f"ok {name}")
    else:
        failed += 1
        print(f"not ok {name}: {why}")


def rel(path):
    return os.path.relpath(path, REPO)


def describe(obj):
    if not isinstance(obj, dict):
        return type(obj).__name__
    name = (obj.get("metadata") or {}).get("name", "?")
    return f"{obj.get('apiVersion')}/{obj.get('kind')} {name}"


class Item:
    """One object to validate: where it comes from and, for a fragment, which schema."""

    def __init__(self, where, obj, schema=None, expect=None, group=None):
        self.where, self.obj, self.schema, self.expect = where, obj, schema, expect
        self.group = group or where
        self.errors = []

    def label(self):
        return f"[{self.where}] {describe(self.obj) if self.schema is None else self.schema['name']}"


def load_docs(path):
    with open(path) as f:
        return [d for d in yaml.safe_load_all(f) if d is not None]


def first_line_expect(path):
    with open(path) as f:
        m = re.match(r"^# expect: (.+)$", f.readline().rstrip("\n"))
    return m.group(1) if m else None


# ------------------------------------------------------------------------------ sources
def rendered_items(pairs):
    items = []
    for pair in pairs:
        label, path = pair.split("=", 1)
        for i, doc in enumerate(load_docs(path)):
            items.append(Item(f"{label} #{i}", doc))
    return items


def sample_items():
    items = []
    for path in sorted(glob.glob(os.path.join(REPO, "samples", "*", "argocd", "*.yaml"))):
        for doc in load_docs(path):
            items.append(Item(rel(path), doc))
    return items


def example_items():
    """argo-helm values: the parts that are Kubernetes objects or fragments of one."""
    items = []
    container = {"module": "kubernetes-models/v1", "name": "Container"}
    volume = {"module": "kubernetes-models/v1", "name": "Volume"}
    for path in sorted(glob.glob(os.path.join(CHART, "examples", "*.yaml"))):
        for doc in load_docs(path):
            for obj in doc.get("extraObjects") or []:
                items.append(Item(f"{rel(path)} extraObjects", obj))
            for component in doc.values():
                if not isinstance(component, dict):
                    continue
                for c in component.get("extraContainers") or []:
                    items.append(Item(f"{rel(path)} extraContainers {c.get('name')}", c, container))
                for v in component.get("extraVolumes") or []:
                    items.append(Item(f"{rel(path)} extraVolumes {v.get('name')}", v, volume))
    if not items:
        report(False, "chart/examples hold objects to validate", "none found")
    return items


FENCE = re.compile(r"^( *)```ya?ml[^\n]*\n(.*?)^\1```", re.M | re.S)


def markdown_items():
    items = []
    files = sorted({p for pattern in MARKDOWN for p in glob.glob(os.path.join(REPO, pattern), recursive=True)})
    readme_manifests = 0
    for path in files:
        text = open(path).read()
        for m in FENCE.finditer(text):
            line = text.count("\n", 0, m.start()) + 1
            indent = len(m.group(1))
            body = "\n".join(l[indent:] for l in m.group(2).split("\n"))
            where = f"{rel(path)}:{line}"
            looks_like_manifest = re.search(r"^apiVersion:", body, re.M) and re.search(r"^kind:", body, re.M)
            try:
                docs = [d for d in yaml.safe_load_all(body) if d is not None]
            except yaml.YAMLError as e:
                if looks_like_manifest:
                    report(False, f"[{where}] the manifest snippet parses", str(e).replace("\n", " "))
                continue
            for doc in docs:
                if isinstance(doc, dict) and "apiVersion" in doc and "kind" in doc:
                    items.append(Item(where, doc))
                    readme_manifests += rel(path) == "README.md"
    report(readme_manifests > 0, f"README.md has manifest snippets to validate ({readme_manifests})",
           "none found: the check would pass vacuously")
    return items


def fixture_items():
    items = []
    for kind in ("good", "bad"):
        for path in sorted(glob.glob(os.path.join(TESTS, "manifests", kind, "*.yaml"))):
            expect = first_line_expect(path) if kind == "bad" else None
            if kind == "bad" and not expect:
                report(False, f"[{rel(path)}] first line is '# expect: <regex>'", "missing")
                continue
            for doc in load_docs(path):
                items.append(Item(rel(path), doc, doc.pop("x-fragment", None), expect or ""))
    return items


def rendered_bad_items(pairs):
    items = []
    for pair in pairs:
        values, path = pair.split("=", 1)
        expect = first_line_expect(values)
        if not expect:
            report(False, f"[{rel(values)}] first line is '# expect: <regex>'", "missing")
            continue
        for i, doc in enumerate(load_docs(path)):
            items.append(Item(f"{rel(values)} (rendered) #{i}", doc, None, expect, f"{rel(values)} (rendered)"))
    return items


# ------------------------------------------------------------------------------ our checks
def plugin_configmap_errors(obj):
    data = obj.get("data") or {}
    errors = []
    for key in data:
        if key not in PLUGIN_KEYS:
            errors.append(f"data.{key}: not a key Argo CD reads (token, baseUrl, requestTimeout)")
    token, base_url, timeout = (data.get(k) for k in PLUGIN_KEYS)
    if not token:
        errors.append("data.token: missing (Argo CD refuses the ConfigMap)")
    elif not SECRET_REF.match(str(token)):
        errors.append(f"data.token: {token!r} is not '$<secret>:<key>' or '$<key of argocd-secret>'")
    if not base_url:
        errors.append("data.baseUrl: missing (Argo CD refuses the ConfigMap)")
    else:
        m = re.match(r"^https?://[^/?#\s]+(/[^?#\s]*)?$", str(base_url))
        if not m:
            errors.append(f"data.baseUrl: {base_url!r} is not an http(s) URL without query or fragment")
        elif str(base_url).endswith("/") or str(base_url).endswith("/api/v1/getparams.execute"):
            errors.append(f"data.baseUrl: {base_url!r}: Argo CD appends /api/v1/getparams.execute itself")
    if timeout is not None and not re.match(r"^[1-9][0-9]*$", str(timeout)):
        errors.append(f"data.requestTimeout: {timeout!r} is not a whole number of seconds (a string)")
    return errors


def plugin_configmap_names(items):
    names = set()
    for item in items:
        obj = item.obj
        if isinstance(obj, dict) and obj.get("kind") == "ApplicationSet":
            for gen in walk_generators((obj.get("spec") or {}).get("generators") or []):
                ref = ((gen.get("plugin") or {}).get("configMapRef") or {}).get("name")
                if ref:
                    names.add(ref)
    return names


def walk_generators(generators):
    for gen in generators:
        if not isinstance(gen, dict):
            continue
        yield gen
        for nested in ("matrix", "merge"):
            yield from walk_generators((gen.get(nested) or {}).get("generators") or [])


def is_plugin_configmap(obj, referenced):
    if not isinstance(obj, dict) or obj.get("apiVersion") != "v1" or obj.get("kind") != "ConfigMap":
        return False
    keys = {str(k).lower() for k in (obj.get("data") or {})}
    return (obj.get("metadata") or {}).get("name") in referenced or bool(keys & {k.lower() for k in PLUGIN_KEYS})


def serve_defaults():
    """--drain-delay and --grace-period defaults, read from serve's @Option declarations (ServeCommand
    and the option classes it mixes in, all in the cli package)."""
    cli = os.path.join(REPO, "src/main/java/io/github/appsetmapper/cli")
    source = "\n".join(open(os.path.join(cli, f)).read() for f in sorted(os.listdir(cli)) if f.endswith(".java"))
    defaults = {}
    for flag in ("--drain-delay", "--grace-period"):
        m = re.search(r'names\s*=\s*"' + re.escape(flag) + r'"[^@]*?defaultValue\s*=\s*"([^"]+)"', source, re.S)
        if not m:
            raise ValueError(f"no default for {flag} in the cli package's @Option declarations")
        defaults[flag] = seconds(m.group(1))
    return defaults


def seconds(text):
    m = re.match(r"^(\d+(?:\.\d+)?)(ms|s|m|h)$", text.strip())
    if not m:
        raise ValueError(f"unknown duration {text!r}")
    return float(m.group(1)) * {"ms": 0.001, "s": 1, "m": 60, "h": 3600}[m.group(2)]


def shutdown_budget_errors(obj, defaults):
    if not isinstance(obj, dict) or obj.get("kind") != "Deployment":
        return []
    pod = ((obj.get("spec") or {}).get("template") or {}).get("spec") or {}
    errors = []
    for c in pod.get("containers") or []:
        args = [str(a) for a in (c.get("args") or [])]
        if "serve" not in args:
            continue
        values = dict(defaults)
        for i, arg in enumerate(args):
            for flag in defaults:
                if arg == flag and i + 1 < len(args):
                    values[flag] = seconds(args[i + 1])
                elif arg.startswith(flag + "="):
                    values[flag] = seconds(arg.split("=", 1)[1])
        needed = values["--drain-delay"] + values["--grace-period"] + EXIT_MARGIN_SECONDS
        tgps = pod.get("terminationGracePeriodSeconds", 30)
        if tgps < needed:
            errors.append(
                f"terminationGracePeriodSeconds {tgps} does not cover --drain-delay "
                f"{values['--drain-delay']:g}s + --grace-period {values['--grace-period']:g}s "
                f"+ {EXIT_MARGIN_SECONDS}s to exit: Kubernetes kills the pod mid-drain")
    return errors


# ------------------------------------------------------------------------------ main
def validate(node, items):
    payload = [{"id": i, "object": item.obj, **({"schema": item.schema} if item.schema else {})}
               for i, item in enumerate(items)]
    done = subprocess.run([node, VALIDATOR], input=json.dumps(payload), capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"validate.mjs exited {done.returncode}: {done.stderr.strip()}")
    for result in json.loads(done.stdout):
        items[result["id"]].errors.extend(result["errors"])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--node", default="node")
    parser.add_argument("--rendered", action="append", default=[], metavar="LABEL=FILE")
    parser.add_argument("--rendered-bad", action="append", default=[], metavar="VALUES=FILE")
    options = parser.parse_args()

    shipped = rendered_items(options.rendered) + sample_items() + example_items() + markdown_items()
    fixtures = fixture_items() + rendered_bad_items(options.rendered_bad)
    items = shipped + fixtures
    try:
        validate(options.node, items)
    except Exception as e:  # noqa: BLE001 - no validator, no check
        report(False, "schemas/validate.mjs ran", str(e))
        return 1

    referenced = plugin_configmap_names(items)
    defaults = serve_defaults()
    for item in items:
        if is_plugin_configmap(item.obj, referenced):
            item.errors += [f"Argo CD plugin ConfigMap: {e}" for e in plugin_configmap_errors(item.obj)]
        item.errors += shutdown_budget_errors(item.obj, defaults)

    for item in shipped:
        report(not item.errors, f"{item.label()} is valid", "; ".join(item.errors))
    groups = {}
    for item in fixtures:
        groups.setdefault(item.group, []).append(item)
    for group, members in groups.items():
        errors = [e for m in members for e in m.errors]
        expect = members[0].expect
        if expect == "":
            report(not errors, f"[{group}] accepted (good fixture)", "; ".join(errors))
        else:
            matching = [e for e in errors if re.search(expect, e)]
            report(bool(matching), f"[{group}] rejected: {matching[0] if matching else ''}",
                   f"errors {errors or 'none'} do not match {expect!r}")
    kinds = {}
    for item in shipped:
        key = item.obj.get("kind") if item.schema is None and isinstance(item.obj, dict) else item.schema["name"]
        kinds[key] = kinds.get(key, 0) + 1
    print(f"# schemas: {len(shipped)} shipped objects ({', '.join(f'{k} {v}' for k, v in sorted(kinds.items()))}), "
          f"{len(fixtures)} fixture objects")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
