#!/usr/bin/env python3
"""Checks examples/argo-cd-sidecar-values.yaml, the values snippet for argo-helm's argo-cd chart.

It is parsed as YAML and its pieces must agree with each other and with the server's CLI: the
container mounts every volume it names, the mapping and token directories are directory mounts
that the args point at, each plugin ConfigMap's baseUrl is http://localhost:<port>/mappings/<name>
of a mapping that exists, and its token reference names the Secret and key the sidecar reads.
Prints `ok <check>` / `not ok <check>: <why>` lines.
"""
import re
import sys

import yaml

# The keys of argo-helm's argo-cd chart this snippet relies on.
ARGO_CD_CHART_KEYS = {"applicationSet": {"extraContainers", "extraVolumes"}, "extraObjects": None}


def main(path):
    with open(path) as f:
        values = yaml.safe_load(f)
    failed = 0

    def check(name, fn):
        nonlocal failed
        try:
            fn()
        except Exception as e:  # noqa: BLE001
            failed += 1
            print(f"not ok [sidecar] {name}: {e or type(e).__name__}")
        else:
            print(f"ok [sidecar] {name}")

    def expect(cond, msg):
        if not cond:
            raise AssertionError(msg)

    def keys():
        expect(set(values) <= set(ARGO_CD_CHART_KEYS), f"unexpected top-level keys {set(values)}")
        expect(set(values["applicationSet"]) <= ARGO_CD_CHART_KEYS["applicationSet"],
               f"unexpected applicationSet keys {set(values['applicationSet'])}")
    check("only argo-cd chart keys: applicationSet.extraContainers/extraVolumes, extraObjects", keys)

    container = next(c for c in values["applicationSet"]["extraContainers"] if c["name"] == "appset-mapper")
    volumes = {v["name"]: v for v in values["applicationSet"]["extraVolumes"]}
    mounts = {m["mountPath"]: m for m in container["volumeMounts"]}
    args = container["args"]
    pairs = dict(zip(args[1::2], args[2::2])) if args and args[0] == "serve" else {}
    objects = values["extraObjects"]
    configmaps = {o["metadata"]["name"]: o for o in objects if o["kind"] == "ConfigMap"}

    def container_ok():
        expect(args[0] == "serve", f"args must start with serve: {args}")
        for m in container["volumeMounts"]:
            expect(m["name"] in volumes, f"mount {m['name']} has no volume")
            expect("subPath" not in m, f"{m['mountPath']} uses subPath")
        expect("/tmp" in mounts and "emptyDir" in volumes[mounts["/tmp"]["name"]], "no writable /tmp")
        sc = container["securityContext"]
        expect(sc.get("readOnlyRootFilesystem") is True and sc.get("allowPrivilegeEscalation") is False
               and sc.get("runAsNonRoot") is True and sc.get("capabilities", {}).get("drop") == ["ALL"]
               and sc.get("seccompProfile", {}).get("type") == "RuntimeDefault", f"securityContext {sc}")
        port = int(pairs["--port"])
        expect(port in [p["containerPort"] for p in container["ports"]], "--port is not a container port")
        expect(port not in (7000, 8080, 8081), "port collides with the controller's webhook/metrics/probe ports")
        for probe, path in (("livenessProbe", "/healthz"), ("readinessProbe", "/readyz"), ("startupProbe", "/healthz")):
            expect(container[probe]["httpGet"] == {"path": path, "port": port}, f"{probe} {container[probe]}")
    check("sidecar: volumes exist, no subPath, hardened, probes on --port", container_ok)

    def mappings_dir():
        mdir = pairs["--mappings"]
        vol = volumes[mounts[mdir]["name"]]
        expect("configMap" in vol, f"{mdir} is not a ConfigMap volume")
        cm = configmaps.get(vol["configMap"]["name"])
        expect(cm, f"ConfigMap {vol['configMap']['name']} is not in extraObjects")
        for key, text in cm["data"].items():
            expect(key.endswith(".yaml"), f"{key} is not *.yaml")
            expect(yaml.safe_load(text)["name"] == key[:-5], f"{key}: name field differs from the file name")
    check("mappings directory: a ConfigMap from extraObjects, name fields match", mappings_dir)

    def plugin_configmaps():
        mapping_cm = configmaps[volumes[mounts[pairs["--mappings"]]["name"]]["configMap"]["name"]]
        names = {k[:-5] for k in mapping_cm["data"]}
        token_file = pairs["--token-file"]
        token_dir, token_name = token_file.rsplit("/", 1)
        tvol = volumes[mounts[token_dir]["name"]]["secret"]
        item = next((i for i in tvol.get("items", []) if i["path"] == token_name), None)
        secret_key = item["key"] if item else token_name
        plugins = [cm for cm in configmaps.values() if "baseUrl" in cm.get("data", {})]
        expect(plugins, "no plugin ConfigMap")
        for cm in plugins:
            m = re.fullmatch(r"http://localhost:(\d+)/mappings/([a-z0-9-]+)", cm["data"]["baseUrl"])
            expect(m, f"baseUrl {cm['data']['baseUrl']} is not http://localhost:<port>/mappings/<name>")
            expect(m.group(1) == pairs["--port"], "baseUrl port is not the sidecar's --port")
            expect(m.group(2) in names, f"baseUrl names mapping {m.group(2)}, not in {names}")
            expect(cm["data"]["token"] == f"${tvol['secretName']}:{secret_key}",
                   f"token {cm['data']['token']} is not ${tvol['secretName']}:{secret_key}")
            expect(int(cm["data"]["requestTimeout"]) > 0, "requestTimeout")
    check("plugin ConfigMaps: localhost baseUrl of a real mapping, token = the sidecar's Secret and key",
          plugin_configmaps)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
