// Validates Kubernetes objects offline against the schemas of kubernetes-models (Kubernetes),
// @kubernetes-models/argo-cd and @kubernetes-models/prometheus-operator, and refuses every field
// the schema does not define.
//
// Input (stdin): a JSON array of {id, object} (a manifest: its apiVersion and kind pick the
// schema) or {id, object, schema: {module, name}} (a fragment, e.g. a Container).
// Output (stdout): a JSON array of {id, errors: [...]}, one per input, in order.
//
// Unknown fields: these packages compile each schema to an Ajv validator and drop the
// x-kubernetes-* extensions, and JSON Schema accepts undeclared properties, so a typo such as
// imagePullPolcy validates. The compiled validator shows what the schema declares by what it
// reads: it reads every declared property of an object (present or not), enumerates the keys of
// a map (additionalProperties with a schema: labels, ConfigMap data, the plugin's
// input.parameters), and looks into nothing under a free-form value (x-kubernetes-preserve-
// unknown-fields, RawExtension, apiextensions JSON). So each object is validated through a proxy
// that records the reads: an object whose properties were read and whose keys were not
// enumerated is a typed object, and its keys the validator never asked for are unknown fields.
const GROUP_PACKAGES = {
  "argoproj.io": "@kubernetes-models/argo-cd",
  "monitoring.coreos.com": "@kubernetes-models/prometheus-operator",
};

async function modelClass(apiVersion, kind) {
  if (typeof apiVersion !== "string" || typeof kind !== "string") {
    throw new Error("apiVersion and kind must be strings");
  }
  const [group, version] = apiVersion.includes("/") ? apiVersion.split("/") : ["", apiVersion];
  const pkg = GROUP_PACKAGES[group] ?? "kubernetes-models";
  const module = group === "" ? `${pkg}/${version}` : `${pkg}/${group}/${version}`;
  let exports;
  try {
    exports = await import(module);
  } catch {
    throw new Error(`no schema for apiVersion ${apiVersion} (looked in ${module})`);
  }
  const cls = exports[kind];
  if (typeof cls !== "function" || cls.kind !== kind || cls.apiVersion !== apiVersion) {
    throw new Error(`no schema for kind ${kind} in apiVersion ${apiVersion}`);
  }
  return cls;
}

async function fragmentClass({ module, name }) {
  const cls = (await import(module))[name];
  if (typeof cls !== "function") {
    throw new Error(`no schema ${name} in ${module}`);
  }
  return cls;
}

/** Validates `object` with the class's compiled validator through recording proxies. */
function validateStrict(cls, object) {
  const records = new Map();
  const wrap = (value) => {
    if (value === null || typeof value !== "object") {
      return value;
    }
    let entry = records.get(value);
    if (!entry) {
      const record = { reads: new Set(), enumerated: false };
      const proxy = new Proxy(value, {
        get(target, key, receiver) {
          if (typeof key === "string") record.reads.add(key);
          return wrap(Reflect.get(target, key, receiver));
        },
        has(target, key) {
          if (typeof key === "string") record.reads.add(key);
          return Reflect.has(target, key);
        },
        ownKeys(target) {
          record.enumerated = true;
          return Reflect.ownKeys(target);
        },
      });
      entry = { proxy, record };
      records.set(value, entry);
    }
    return entry.proxy;
  };

  const errors = [];
  try {
    // The model's validate() validates `this` as it is: the proxy, not a copy.
    cls.prototype.validate.call(wrap(object));
  } catch (e) {
    const list = Array.isArray(e.errors) ? e.errors : null;
    if (list) {
      for (const err of list) {
        errors.push(`${pathOf(err.instancePath) || "(top)"}: ${err.message}`);
      }
    } else {
      errors.push(String(e.message ?? e));
    }
  }

  const unknown = (value, path) => {
    if (value === null || typeof value !== "object") return;
    if (Array.isArray(value)) {
      value.forEach((item, i) => unknown(item, `${path}[${i}]`));
      return;
    }
    const entry = records.get(value);
    const typed = entry && !entry.record.enumerated && entry.record.reads.size > 0;
    for (const key of Object.keys(value)) {
      const child = path ? `${path}.${key}` : key;
      if (typed && !entry.record.reads.has(key)) {
        errors.push(`${child}: unknown field "${key}" (the schema does not define it)`);
      } else {
        unknown(value[key], child);
      }
    }
  };
  unknown(object, "");
  return errors;
}

function pathOf(pointer) {
  return pointer
    .split("/")
    .slice(1)
    .map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~"))
    .reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path ? `${path}.${part}` : part), "");
}

async function main() {
  let text = "";
  for await (const chunk of process.stdin) text += chunk;
  const inputs = JSON.parse(text);
  const results = [];
  for (const input of inputs) {
    let errors;
    try {
      const cls = input.schema
        ? await fragmentClass(input.schema)
        : await modelClass(input.object?.apiVersion, input.object?.kind);
      errors = validateStrict(cls, input.object);
    } catch (e) {
      errors = [String(e.message ?? e)];
    }
    results.push({ id: input.id, errors });
  }
  process.stdout.write(JSON.stringify(results));
}

await main();
