#!/usr/bin/env python3
"""Assertions on the manifests `helm template` rendered for one values scenario.

Usage: check_manifests.py --scenario NAME --release REL --namespace NS \
           --values chart/values.yaml [--values ci/x-values.yaml ...] rendered.yaml

Expectations come from the effective values (merged here the way Helm merges them) and from the
rendered objects themselves (the Service's real name and port, the Secret that really exists),
never from the chart's helpers. Prints one `ok <check>` or `not ok <check>: <why>` line per check.
"""
import argparse
import base64
import hashlib
import json
import re
import sys

import yaml

SERVER_PORT = 4355
TOKEN_DIR = "/var/run/argo"
MAPPINGS_DIR = "/etc/appset-mapper/mappings"
EXTRA_DIR = "/etc/appset-mapper/extra"
ARGOCD_CALLERS = ("argocd-applicationset-controller", "argocd-server")
COMMON_LABELS = ("app.kubernetes.io/name", "app.kubernetes.io/instance",
                 "app.kubernetes.io/managed-by", "helm.sh/chart", "app.kubernetes.io/version")
DNS_LABEL = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")
DNS_SUBDOMAIN = re.compile(r"^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$")


class Checks:
    def __init__(self, scenario):
        self.scenario = scenario
        self.failed = 0

    def check(self, name, fn):
        """Run one named check; an AssertionError (or any error) makes it fail."""
        try:
            fn()
        except Exception as e:  # noqa: BLE001 - a broken check is a failed check
            self.failed += 1
            why = str(e) or type(e).__name__
            print(f"not ok [{self.scenario}] {name}: {why}")
        else:
            print(f"ok [{self.scenario}] {name}")


def merge(base, override):
    """Helm's coalescing: maps merge recursively, null deletes, anything else replaces."""
    out = dict(base)
    for k, v in (override or {}).items():
        if v is None:
            out.pop(k, None)
        elif isinstance(v, dict) and isinstance(out.get(k), dict):
            out[k] = merge(out[k], v)
        else:
            out[k] = v
    return out


def expect(cond, msg):
    if not cond:
        raise AssertionError(msg)


def eq(actual, expected, what):
    expect(actual == expected, f"{what}: expected {expected!r}, got {actual!r}")


def selector_matches(selector, labels):
    return all(labels.get(k) == v for k, v in (selector or {}).items())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--scenario", required=True)
    ap.add_argument("--release", required=True)
    ap.add_argument("--namespace", required=True)
    ap.add_argument("--values", action="append", required=True)
    ap.add_argument("rendered")
    a = ap.parse_args()

    values = {}
    for path in a.values:
        with open(path) as f:
            values = merge(values, yaml.safe_load(f) or {})
    with open(a.rendered) as f:
        docs = [d for d in yaml.safe_load_all(f) if d]

    c = Checks(a.scenario)
    ns = a.namespace
    argocd = values["argocd"]
    argocd_ns = argocd["namespace"]
    mappings = values.get("mappings") or {}
    extra_cms = values.get("extraMappingConfigMaps") or []
    routes = sorted(list(mappings) + [r for cm in extra_cms for r in cm.get("routes") or []])

    def is_redis(d):
        return (d["metadata"].get("labels") or {}).get("app.kubernetes.io/component") == "redis"

    def of_kind(kind, namespace=None):
        # The chart's own Redis (component redis) is checked on its own, below.
        return [d for d in docs if d["kind"] == kind and not is_redis(d)
                and (namespace is None or d["metadata"].get("namespace") == namespace)]

    def redis_of_kind(kind):
        return [d for d in docs if d["kind"] == kind and is_redis(d)]

    def one(kind, namespace=None):
        found = of_kind(kind, namespace)
        expect(len(found) == 1, f"expected one {kind} in {namespace or 'any namespace'}, got {len(found)}")
        return found[0]

    deployment = one("Deployment", ns)
    pod = deployment["spec"]["template"]
    pod_spec = pod["spec"]
    pod_labels = pod["metadata"]["labels"]
    container = next(x for x in pod_spec["containers"] if x["name"] == "appset-mapper")
    args = container["args"]
    volumes = {v["name"]: v for v in pod_spec["volumes"]}
    mounts = {m["mountPath"]: m for m in container["volumeMounts"]}
    service = one("Service", ns)
    hooks = [d for d in docs if d["kind"] == "Pod"
             and d["metadata"].get("annotations", {}).get("helm.sh/hook") == "test"]
    release_secrets = of_kind("Secret", ns)
    token_secret_name = values["token"]["existingSecret"] or None

    def arg_pairs():
        return [(args[i], args[i + 1]) for i in range(len(args) - 1)]

    def container_port(port):
        if isinstance(port, int):
            return port
        named = {p["name"]: p["containerPort"] for p in container["ports"]}
        expect(port in named, f"named port {port!r} not declared by the container")
        return named[port]

    # ---------------------------------------------------------------- objects and labels
    def objects_valid():
        seen = set()
        for d in docs:
            md = d["metadata"]
            key = (d["kind"], md.get("namespace"), md["name"])
            expect(key not in seen, f"duplicate object {key}")
            seen.add(key)
            expect(md.get("namespace"), f"{d['kind']}/{md['name']} has no namespace")
            expect(DNS_SUBDOMAIN.match(md["name"]) and len(md["name"]) <= 253,
                   f"{d['kind']} name {md['name']!r} is not a DNS subdomain")
            if d["kind"] in ("Service", "Deployment"):
                expect(DNS_LABEL.match(md["name"]) and len(md["name"]) <= 63,
                       f"{d['kind']} name {md['name']!r} is not a DNS label")
    c.check("objects: unique, namespaced, valid names", objects_valid)

    def labels_consistent():
        for d in docs:
            labels = d["metadata"].get("labels") or {}
            where = f"{d['kind']}/{d['metadata']['name']}"
            for k in COMMON_LABELS:
                expect(k in labels, f"{where} lacks label {k}")
            eq(labels["app.kubernetes.io/instance"], a.release, f"{where} instance label")
            eq(labels["app.kubernetes.io/managed-by"], "Helm", f"{where} managed-by label")
            for k, v in labels.items():
                expect(isinstance(v, str) and len(v) <= 63, f"{where} label {k}={v!r} is not a label value")
            for k, v in (values.get("commonLabels") or {}).items():
                expect(k in labels, f"{where} lacks common label {k}")
        sel = deployment["spec"]["selector"]["matchLabels"]
        expect(selector_matches(sel, pod_labels), f"Deployment selector {sel} does not match pod labels")
        eq(service["spec"]["selector"], sel, "Service selector vs Deployment selector")
        for k, v in (values.get("podLabels") or {}).items():
            eq(pod_labels.get(k), v, f"pod label {k}")
        for h in hooks:
            expect(not selector_matches(service["spec"]["selector"], h["metadata"]["labels"]),
                   "the helm test pod would be selected by the Service")
    c.check("labels: common labels everywhere, selectors match the pods", labels_consistent)

    # ---------------------------------------------------------------- server container
    def args_ok():
        pairs = arg_pairs()
        eq(args[0], "serve", "first argument")
        expect(("--mappings", MAPPINGS_DIR) in pairs, f"no --mappings {MAPPINGS_DIR} in {args}")
        expect(("--token-file", f"{TOKEN_DIR}/token") in pairs, f"no --token-file in {args}")
        expect(("--port", str(SERVER_PORT)) in pairs, f"no --port {SERVER_PORT} in {args}")
        for cm in extra_cms:
            expect(("--mappings", f"{EXTRA_DIR}/{cm['name']}") in pairs, f"no --mappings for {cm['name']}")
        for k, v in (values.get("vars") or {}).items():
            expect(("--var", f"{k}={v}") in pairs, f"no --var {k}={v} in {args}")
        for mapping, mapping_vars in (values.get("mappingVars") or {}).items():
            for k, v in (mapping_vars or {}).items():
                expect(("--var", f"{mapping}.{k}={v}") in pairs, f"no --var {mapping}.{k}={v} in {args}")
        server = values.get("server") or {}
        for flag, key in (("--idle-timeout", "idleTimeout"), ("--read-timeout", "readTimeout"),
                          ("--webhook-max-body-bytes", "webhookMaxBodyBytes")):
            expect((flag, str(server.get(key))) in pairs, f"no {flag} {server.get(key)} in {args}")
        for x in values.get("extraArgs") or []:
            expect(x in args, f"extra arg {x!r} missing")
        eq(container["image"], f"{values['image']['repository']}:{values['image']['tag'] or '0.1.0'}", "image")
    c.check("server args: serve, mapping dirs, token file, port, timeouts, vars, mappingVars", args_ok)

    def token_mount():
        m = mounts.get(TOKEN_DIR)
        expect(m, f"nothing mounted at {TOKEN_DIR}")
        expect("subPath" not in m and "subPathExpr" not in m, "token mounted with subPath (never updates)")
        expect(m.get("readOnly"), "token mount is not readOnly")
        vol = volumes[m["name"]]
        expect("secret" in vol, f"{TOKEN_DIR} is not a Secret volume")
        secret_name = vol["secret"]["secretName"]
        key = values["token"]["secretKey"]
        items = vol["secret"].get("items")
        if items:
            expect({"key": key, "path": "token"} in items, f"items {items} do not map key {key} to file token")
        else:
            eq(key, "token", "secret key (no items: the key is the file name)")
        if token_secret_name:
            eq(secret_name, token_secret_name, "token volume Secret (existingSecret)")
            expect(not of_kind("Secret"), "a Secret was rendered although token.existingSecret is set")
        else:
            s = [x for x in release_secrets if x["metadata"]["name"] == secret_name]
            expect(s, f"token volume Secret {secret_name} is not rendered in {ns}")
            expect(key in s[0]["data"], f"Secret {secret_name} has no key {key}")
    c.check(f"token Secret mounted as a directory at {TOKEN_DIR}", token_mount)

    def mappings_mount():
        m = mounts.get(MAPPINGS_DIR)
        expect(m, f"nothing mounted at {MAPPINGS_DIR}")
        expect("subPath" not in m and "subPathExpr" not in m, "mappings mounted with subPath")
        vol = volumes[m["name"]]
        expect("configMap" in vol and "items" not in vol["configMap"], "mappings volume is not a whole ConfigMap")
        cms = [x for x in of_kind("ConfigMap", ns) if x["metadata"]["name"] == vol["configMap"]["name"]]
        expect(cms, f"mappings ConfigMap {vol['configMap']['name']} is not rendered")
        data = cms[0].get("data") or {}
        eq(sorted(data), sorted(f"{n}.yaml" for n in mappings), "mapping ConfigMap keys")
        for n, text in data.items():
            doc = yaml.safe_load(text)
            expect(isinstance(doc, dict), f"{n} is not a YAML map")
            eq(doc.get("name"), n[: -len(".yaml")], f"{n} name field")
            original = mappings[doc["name"]]
            if isinstance(original, str):
                expect(original in text, f"{n}: the string mapping was not kept verbatim")
            else:
                eq({k: v for k, v in doc.items() if k != "name"},
                   {k: v for k, v in original.items() if k != "name"}, f"{n} structured content")
        for cm in extra_cms:
            path = f"{EXTRA_DIR}/{cm['name']}"
            em = mounts.get(path)
            expect(em and "subPath" not in em, f"extra mappings {cm['name']} not mounted at {path}")
            eq(volumes[em["name"]]["configMap"]["name"], cm["name"], f"volume of {path}")
            eq(bool(volumes[em["name"]]["configMap"].get("optional")), bool(cm.get("optional")), f"optional of {path}")
    c.check(f"mappings ConfigMap mounted at {MAPPINGS_DIR} without subPath; one <name>.yaml per mapping",
            mappings_mount)

    def secret_mounts():
        for sm in values.get("extraSecretMounts") or []:
            m = mounts.get(sm["mountPath"])
            expect(m and "subPath" not in m, f"{sm['mountPath']} not mounted as a directory")
            eq(volumes[m["name"]]["secret"]["secretName"], sm["secretName"], f"Secret at {sm['mountPath']}")
        for m in container["volumeMounts"]:
            expect("subPath" not in m, f"{m['mountPath']} uses subPath")
        tmp = mounts.get("/tmp")
        expect(tmp and "emptyDir" in volumes[tmp["name"]], "/tmp is not an emptyDir (JVM needs it)")
    c.check("extraSecretMounts, no subPath anywhere, writable /tmp", secret_mounts)

    def probes():
        for probe, path in (("livenessProbe", "/healthz"), ("readinessProbe", "/readyz"),
                            ("startupProbe", "/healthz")):
            p = container.get(probe)
            expect(p, f"no {probe}")
            eq(p["httpGet"]["path"], path, f"{probe} path")
            eq(container_port(p["httpGet"]["port"]), SERVER_PORT, f"{probe} port")
            expect(p["httpGet"].get("scheme", "HTTP") == "HTTP", f"{probe} scheme")
    c.check("probes: /healthz (liveness, startup) and /readyz (readiness) on 4355", probes)

    def service_ok():
        port = service["spec"]["ports"][0]
        eq(port["port"], values["service"]["port"], "Service port")
        eq(container_port(port["targetPort"]), SERVER_PORT, "Service targetPort")
    c.check("Service port and targetPort", service_ok)

    def security():
        sc = container["securityContext"]
        psc = pod_spec.get("securityContext") or {}
        eq(sc.get("readOnlyRootFilesystem"), True, "readOnlyRootFilesystem")
        eq(sc.get("allowPrivilegeEscalation"), False, "allowPrivilegeEscalation")
        eq(sc.get("capabilities", {}).get("drop"), ["ALL"], "capabilities.drop")
        expect(sc.get("runAsNonRoot") or psc.get("runAsNonRoot"), "runAsNonRoot")
        expect((sc.get("seccompProfile") or psc.get("seccompProfile") or {}).get("type") == "RuntimeDefault",
               "seccompProfile RuntimeDefault")
        expect(sc.get("privileged") is not True, "privileged")
        eq(pod_spec.get("automountServiceAccountToken"), False, "automountServiceAccountToken")
        env = {e["name"]: e.get("value") for e in container.get("env", [])}
        # The image's entry point sizes the heap; JAVA_TOOL_OPTIONS (and the JVM's "Picked up"
        # line on stderr) only when jvmOptions adds flags.
        eq(env.get("JAVA_TOOL_OPTIONS"), values.get("jvmOptions") or None, "JAVA_TOOL_OPTIONS is jvmOptions, or absent")
        expect(container.get("resources", {}).get("limits", {}).get("memory"), "no memory limit for the JVM")
    c.check("securityContext hardened, JVM sized by the memory limit", security)

    def replicas_pdb_hpa():
        hpa = of_kind("HorizontalPodAutoscaler")
        if values["autoscaling"]["enabled"]:
            expect("replicas" not in deployment["spec"], "replicas set although the HPA scales")
            expect(len(hpa) == 1, "no HPA")
            ref = hpa[0]["spec"]["scaleTargetRef"]
            eq((ref["kind"], ref["name"]), ("Deployment", deployment["metadata"]["name"]), "HPA target")
            eq(hpa[0]["spec"]["minReplicas"], values["autoscaling"]["minReplicas"], "HPA minReplicas")
        else:
            eq(deployment["spec"].get("replicas"), values["replicaCount"], "replicas")
            expect(not hpa, "HPA rendered although disabled")
        pdb = of_kind("PodDisruptionBudget")
        if values["podDisruptionBudget"]["enabled"]:
            expect(len(pdb) == 1, "no PodDisruptionBudget")
            spec = pdb[0]["spec"]
            expect(("minAvailable" in spec) != ("maxUnavailable" in spec), f"PDB sets both or none: {spec}")
            expect(selector_matches(spec["selector"]["matchLabels"], pod_labels), "PDB selector")
        else:
            expect(not pdb, "PDB rendered although disabled")
        ann = pod["metadata"].get("annotations") or {}
        eq("checksum/config" in ann, bool(values.get("rollOnMappingChange")), "checksum/config annotation present")
    c.check("replicas / HPA / PDB / checksum annotation", replicas_pdb_hpa)

    def service_monitor():
        sms = of_kind("ServiceMonitor")
        if not values["metrics"]["serviceMonitor"]["enabled"]:
            expect(not sms, "ServiceMonitor rendered although disabled")
            return
        expect(len(sms) == 1, "no ServiceMonitor")
        sm = sms[0]["spec"]
        expect(selector_matches(sm["selector"]["matchLabels"], service["metadata"]["labels"]),
               "ServiceMonitor selector does not match the Service")
        expect(ns in sm["namespaceSelector"]["matchNames"], "ServiceMonitor does not look in the release namespace")
        ep = sm["endpoints"][0]
        eq(ep["path"], "/metrics", "ServiceMonitor path")
        expect(ep["port"] in [p["name"] for p in service["spec"]["ports"]], "ServiceMonitor port not in Service")
        for k, v in values["metrics"]["serviceMonitor"]["labels"].items():
            eq(sms[0]["metadata"]["labels"].get(k), v, f"ServiceMonitor label {k}")
    c.check("ServiceMonitor scrapes /metrics of the Service", service_monitor)

    def prometheus_rule():
        rules = of_kind("PrometheusRule")
        wanted = values["metrics"]["prometheusRule"]
        if not wanted["enabled"]:
            expect(not rules, "PrometheusRule rendered although disabled")
            return
        expect(len(rules) == 1, "no PrometheusRule")
        # The rules are chart/files/alerts.yaml itself (one source), the runbook base replaced.
        import os
        published = "https://github.com/appset-mapper/appset-mapper/blob/main/docs/operations.md"
        source = open(os.path.join(os.path.dirname(__file__), "..", "files", "alerts.yaml")).read()
        expected = yaml.safe_load(source.replace(published, wanted["runbookBaseUrl"]))
        eq(rules[0]["spec"]["groups"], expected["groups"], "PrometheusRule groups vs files/alerts.yaml")
        for group in rules[0]["spec"]["groups"]:
            for rule in group["rules"]:
                url = rule.get("annotations", {}).get("runbook_url", "")
                expect(url.startswith(wanted["runbookBaseUrl"] + "#alert-"),
                       f"{rule.get('alert')}: runbook_url {url!r}")
        for k, v in wanted["labels"].items():
            eq(rules[0]["metadata"]["labels"].get(k), v, f"PrometheusRule label {k}")
    c.check("PrometheusRule holds files/alerts.yaml, each alert linking its runbook", prometheus_rule)

    def grafana_dashboard():
        wanted = values["metrics"]["grafanaDashboard"]
        cms = [d for d in docs if d["kind"] == "ConfigMap"
               and (d["metadata"].get("labels") or {}).get("grafana_dashboard") == "1"]
        if not wanted["enabled"]:
            expect(not cms, "dashboard ConfigMap rendered although disabled")
            return
        expect(len(cms) == 1, "no ConfigMap labelled grafana_dashboard: \"1\"")
        cm = cms[0]
        eq(cm["metadata"]["namespace"], wanted["namespace"] or ns, "dashboard ConfigMap namespace")
        dashboard = json.loads(cm["data"]["appset-mapper.json"])
        eq(dashboard["uid"], "appset-mapper", "dashboard uid")
        expect(len(dashboard["panels"]) > 10, "dashboard has its panels")
    c.check("Grafana dashboard ConfigMap for the sidecar", grafana_dashboard)

    # ---------------------------------------------------------------- Argo CD side
    def argocd_side():
        in_argocd = [d for d in docs if d["metadata"].get("namespace") == argocd_ns and argocd_ns != ns]
        if not argocd["enabled"]:
            expect(not in_argocd, f"objects rendered in {argocd_ns} although argocd.enabled is false")
            return
        cms = of_kind("ConfigMap", argocd_ns)
        plugin_cms = [x for x in cms if "baseUrl" in (x.get("data") or {})]
        eq(len(plugin_cms), len(routes), "number of plugin ConfigMaps")
        svc_host = f"{service['metadata']['name']}.{service['metadata']['namespace']}.svc.{values['clusterDomain']}"
        svc_port = service["spec"]["ports"][0]["port"]
        by_route = {}
        for cm in plugin_cms:
            m = re.fullmatch(r"http://([^/:]+):(\d+)/mappings/([a-z0-9-]+)", cm["data"]["baseUrl"])
            expect(m, f"baseUrl {cm['data']['baseUrl']!r} is not http://<host>:<port>/mappings/<name>")
            eq(m.group(1), svc_host, "baseUrl host (the Service's DNS name)")
            eq(int(m.group(2)), svc_port, "baseUrl port (the Service's port)")
            by_route[m.group(3)] = cm
        eq(sorted(by_route), routes, "routes with a plugin ConfigMap")
        for route, cm in by_route.items():
            prefix = argocd.get("configMapPrefix") or f"{deployment['metadata']['name']}-"
            eq(cm["metadata"]["name"], prefix + route, "plugin ConfigMap name")
            eq(cm["data"]["requestTimeout"], str(argocd["requestTimeout"]), "requestTimeout")
            tok = re.fullmatch(r"\$([a-z0-9][-a-z0-9.]*):([-._a-zA-Z0-9]+)", cm["data"]["token"])
            expect(tok, f"token {cm['data']['token']!r} is not $<secret>:<key>")
            secret_name, key = tok.groups()
            if token_secret_name:
                eq(secret_name, argocd["tokenSecret"]["name"] or token_secret_name, "token Secret (existingSecret)")
                eq(key, argocd["tokenSecret"]["key"] or values["token"]["secretKey"], "token key (existingSecret)")
                continue
            secrets = [s for s in of_kind("Secret", argocd_ns) if s["metadata"]["name"] == secret_name]
            expect(secrets, f"Secret {secret_name} is not rendered in {argocd_ns}")
            s = secrets[0]
            eq(s["metadata"]["labels"].get("app.kubernetes.io/part-of"), "argocd", "part-of label of the Secret")
            expect(key in s["data"], f"Secret {secret_name} has no key {key}")
            # The value Argo CD sends is the value the server reads.
            vol = volumes[mounts[TOKEN_DIR]["name"]]["secret"]
            served = next(x for x in release_secrets if x["metadata"]["name"] == vol["secretName"])
            eq(s["data"][key], served["data"][values["token"]["secretKey"]], "token in Argo CD's Secret vs mounted Secret")
    c.check("Argo CD plugin ConfigMaps: baseUrl = Service DNS:port/mappings/<name>, token = existing $secret:key",
            argocd_side)

    def network_policy():
        nps = of_kind("NetworkPolicy", ns)
        if not values["networkPolicy"]["enabled"]:
            expect(not nps, "NetworkPolicy rendered although disabled")
            return
        expect(len(nps) == 1, "no NetworkPolicy")
        spec = nps[0]["spec"]
        expect(selector_matches(spec["podSelector"]["matchLabels"], pod_labels), "NetworkPolicy selects other pods")
        eq(spec["policyTypes"], ["Ingress"], "policyTypes")
        peers = []
        for rule in spec["ingress"]:
            ports = [container_port(p["port"]) for p in rule.get("ports", [])]
            expect(SERVER_PORT in ports, f"rule does not open {SERVER_PORT}: {rule.get('ports')}")
            peers += rule["from"]
        for caller in ARGOCD_CALLERS:
            expect(any(p.get("namespaceSelector", {}).get("matchLabels") == {"kubernetes.io/metadata.name": argocd_ns}
                       and p.get("podSelector", {}).get("matchLabels") == {"app.kubernetes.io/name": caller}
                       for p in peers), f"{caller} in {argocd_ns} is not admitted")
        for extra in values["networkPolicy"]["extraFrom"]:
            expect(extra in peers, f"extraFrom {extra} missing")
        for h in hooks:
            expect(any("namespaceSelector" not in p and selector_matches(p.get("podSelector", {}).get("matchLabels"),
                                                                          h["metadata"]["labels"]) for p in peers),
                   "the helm test pod is not admitted")
    c.check("NetworkPolicy admits argocd-applicationset-controller, argocd-server, test pod, extraFrom",
            network_policy)

    # ---------------------------------------------------------------- Redis
    def redis():
        r = values.get("redis") or {}
        enabled = r.get("enabled", "auto")
        if enabled == "auto":
            enabled = values["autoscaling"]["enabled"] or int(values["replicaCount"]) > 1
        pairs = dict(arg_pairs())
        own = enabled and not r.get("url")
        if not enabled:
            expect("--redis" not in args, "--redis passed although redis is off")
            expect(not [d for d in docs if is_redis(d)], "Redis objects rendered although redis is off")
            return
        name = f"{deployment['metadata']['name']}-redis"
        url = r.get("url") or f"redis://{name}.{ns}.svc.{values['clusterDomain']}:6379"
        eq(pairs.get("--redis"), url, "--redis URL")
        # Two releases on one Redis never share keys: the default prefix names the release.
        prefix = r.get("keyPrefix") or f"appset-mapper:{ns}.{a.release}:"
        if not r.get("keyPrefix") and len(prefix) > 64:
            prefix = "appset-mapper:" + hashlib.sha256(f"{ns}.{a.release}".encode()).hexdigest()[:16] + ":"
        eq(pairs.get("--redis-key-prefix"), prefix, "--redis-key-prefix")
        eq(pairs.get("--redis-timeout"), r["timeout"], "--redis-timeout")
        expect(not any("@" in a for a in args if a.startswith("redis")), "credentials in the Redis URL")

        def secret_file(flag, secret, key):
            path = pairs.get(flag)
            expect(path, f"no {flag}")
            directory, file = path.rsplit("/", 1)
            m = mounts.get(directory)
            expect(m and m.get("readOnly") and "subPath" not in m, f"{directory} not mounted read-only as a directory")
            vol = volumes[m["name"]]["secret"]
            eq(vol["secretName"], secret, f"{flag} Secret")
            expect({"key": key, "path": file} in vol["items"], f"{flag}: key {key} not mounted as {file}")

        integrity = r["integrity"]["existingSecret"] or f"{name}-integrity"
        secret_file("--redis-integrity-keys-file", integrity, r["integrity"]["secretKey"])
        if not r["integrity"]["existingSecret"]:
            s = [x for x in redis_of_kind("Secret") if x["metadata"]["name"] == integrity]
            expect(s, "integrity keys Secret not rendered")
            keys = base64.b64decode(s[0]["data"][r["integrity"]["secretKey"]]).decode()
            expect(re.fullmatch(r"k1=[A-Za-z0-9]{48}\n", keys), "generated integrity key is not k1=<48 characters>")
        else:
            expect(not [x for x in redis_of_kind("Secret") if x["metadata"]["name"] == integrity],
                   "integrity Secret rendered although existingSecret is set")
        auth = r["auth"]["existingSecret"] or (f"{name}-auth" if own else None)
        if auth:
            secret_file("--redis-password-file", auth, r["auth"]["passwordKey"])
        else:
            expect("--redis-password-file" not in pairs, "a password file without a password Secret")
        if r["auth"]["usernameKey"] and auth:
            secret_file("--redis-username-file", auth, r["auth"]["usernameKey"])
        if r["tls"]["caSecret"]:
            secret_file("--redis-ca-file", r["tls"]["caSecret"], r["tls"]["caKey"])
        deployments = redis_of_kind("Deployment")
        if not own:
            expect(not deployments and not redis_of_kind("Service"), "own Redis rendered with an external url")
            return
        expect(len(deployments) == 1, "no Redis Deployment")
        d = deployments[0]
        eq(d["metadata"]["name"], name, "Redis Deployment name")
        eq(d["spec"]["replicas"], 1, "Redis replicas")
        eq(d["spec"]["strategy"]["type"], "Recreate", "Redis strategy")
        rpod = d["spec"]["template"]
        rc = rpod["spec"]["containers"][0]
        command = " ".join(rc["command"])
        expect("--maxmemory-policy volatile-lru" in command, "Redis without maxmemory-policy volatile-lru")
        expect(f"--maxmemory {r['server']['maxmemory']}" in command, "Redis maxmemory")
        expect("requirepass" in command and "$REDIS_PASSWORD" in command, "Redis without a password")
        env = {e["name"]: e for e in rc["env"]}
        eq(env["REDIS_PASSWORD"]["valueFrom"]["secretKeyRef"],
           {"name": auth, "key": r["auth"]["passwordKey"]}, "Redis password Secret")
        sc = rc["securityContext"]
        eq(sc.get("readOnlyRootFilesystem"), True, "Redis readOnlyRootFilesystem")
        eq(sc.get("allowPrivilegeEscalation"), False, "Redis allowPrivilegeEscalation")
        eq(sc.get("capabilities", {}).get("drop"), ["ALL"], "Redis capabilities.drop")
        expect(rpod["spec"]["securityContext"].get("runAsNonRoot"), "Redis runAsNonRoot")
        eq(rpod["spec"].get("automountServiceAccountToken"), False, "Redis automountServiceAccountToken")
        svc = redis_of_kind("Service")
        expect(len(svc) == 1 and svc[0]["metadata"]["name"] == name, "Redis Service")
        expect(selector_matches(svc[0]["spec"]["selector"], rpod["metadata"]["labels"]), "Redis Service selector")
        expect(not selector_matches(service["spec"]["selector"], rpod["metadata"]["labels"]),
               "the server Service selects the Redis pod")
        eq(svc[0]["spec"]["ports"][0]["port"], 6379, "Redis Service port")
        nps = redis_of_kind("NetworkPolicy")
        if not values["networkPolicy"]["enabled"]:
            expect(not nps, "Redis NetworkPolicy rendered although networkPolicy is off")
            return
        expect(len(nps) == 1, "no Redis NetworkPolicy")
        spec = nps[0]["spec"]
        expect(selector_matches(spec["podSelector"]["matchLabels"], rpod["metadata"]["labels"]),
               "Redis NetworkPolicy does not select the Redis pod")
        eq(spec["policyTypes"], ["Ingress"], "Redis NetworkPolicy policyTypes")
        peers = [p for rule in spec["ingress"] for p in rule["from"]]
        expect(peers and all("namespaceSelector" not in p
                             and selector_matches(p["podSelector"]["matchLabels"], pod_labels)
                             and not selector_matches(p["podSelector"]["matchLabels"], rpod["metadata"]["labels"])
                             for p in peers),
               f"Redis admits more than the server pods: {peers}")
    c.check("Redis: --redis flags and Secrets mounted; own Redis with a password, volatile-lru,"
            " hardened, reached only by the server pods", redis)

    # ---------------------------------------------------------------- helm test hook
    def test_hook():
        if not values["tests"]["enabled"]:
            expect(not hooks, "test pod rendered although tests.enabled is false")
            return
        expect(len(hooks) == 1, "no helm test pod")
        h = hooks[0]["spec"]
        tc = h["containers"][0]
        env = {e["name"]: e["value"] for e in tc["env"]}
        svc_port = service["spec"]["ports"][0]["port"]
        eq(env["BASE"], f"http://{service['metadata']['name']}.{ns}.svc.{values['clusterDomain']}:{svc_port}", "BASE")
        mapping = values["tests"]["mapping"]
        if mapping:
            expect(mapping in routes, f"tests.mapping {mapping} is not a declared mapping")
        eq(env["ROUTE"], f"/mappings/{mapping or 'helm-test-no-such-mapping'}/api/v1/getparams.execute", "ROUTE")
        body = json.loads(env["BODY"])
        eq(body["applicationSetName"], "helm-test", "body applicationSetName")
        eq(body["input"].get("parameters", {}), values["tests"]["parameters"], "body parameters")
        tm = next(m for m in tc["volumeMounts"] if m["mountPath"] == TOKEN_DIR)
        tvol = next(v for v in h["volumes"] if v["name"] == tm["name"])
        dvol = volumes[mounts[TOKEN_DIR]["name"]]
        eq(tvol["secret"], dvol["secret"], "test pod token volume vs server token volume")
        eq(tc["securityContext"].get("readOnlyRootFilesystem"), True, "test pod readOnlyRootFilesystem")
        eq(tc["securityContext"].get("allowPrivilegeEscalation"), False, "test pod allowPrivilegeEscalation")
    c.check("helm test pod calls the Service with the mounted token", test_hook)

    # ---------------------------------------------------------------- shadow mode
    def shadow():
        sh = values.get("shadow") or {}
        inline, existing = sh.get("mappings") or {}, sh.get("existingConfigMap") or ""
        pairs = dict(arg_pairs())
        fullname = deployment["metadata"]["name"]
        shadow_cms = [d for d in of_kind("ConfigMap", ns) if d["metadata"]["name"] == f"{fullname}-shadow"]
        annotations = pod["metadata"].get("annotations") or {}
        if not inline and not existing:
            expect("--shadow" not in args, "--shadow passed without candidates")
            expect(not shadow_cms, "shadow ConfigMap rendered without candidates")
            expect("checksum/shadow" not in annotations, "checksum/shadow without candidates")
            return
        eq(pairs.get("--shadow"), "/etc/appset-mapper/shadow", "--shadow")
        eq(pairs.get("--shadow-memory-budget"), str(sh["memoryBudget"]), "--shadow-memory-budget")
        eq(pairs.get("--shadow-threads"), str(sh["threads"]), "--shadow-threads")
        eq(pairs.get("--shadow-keep"), str(sh["keep"]), "--shadow-keep")
        eq(pairs.get("--shadow-min-headroom"), str(sh["minHeadroom"]), "--shadow-min-headroom")
        m = mounts.get("/etc/appset-mapper/shadow")
        expect(m and m.get("readOnly") and "subPath" not in m, "candidates not mounted read-only as a directory")
        cm_name = existing or f"{fullname}-shadow"
        eq(volumes[m["name"]]["configMap"]["name"], cm_name, "candidates volume ConfigMap")
        if existing:
            expect(not shadow_cms, "shadow ConfigMap rendered although shadow.existingConfigMap is set")
            return
        expect(len(shadow_cms) == 1, "no shadow ConfigMap")
        data = shadow_cms[0]["data"]
        eq(sorted(data), sorted(f"{n}.yaml" for n in inline), "candidate files")
        for n in inline:
            eq(str(yaml.safe_load(data[f"{n}.yaml"]).get("name")), n, f"candidate {n} name")
        expect("checksum/shadow" in annotations, "no checksum/shadow: a candidate change would not roll the pods")
    c.check("shadow mode: --shadow flags, candidates ConfigMap, mount and checksum", shadow)

    return 1 if c.failed else 0


if __name__ == "__main__":
    sys.exit(main())
