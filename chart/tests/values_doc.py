#!/usr/bin/env python3
"""The `# --` documentation of values.yaml (helm-docs conventions) and the README's values table.

  values_doc.py check  values.yaml README.md   every value documented, README table up to date
  values_doc.py write  values.yaml README.md   rewrite the table between the README's markers

A value is documented by a comment block starting with `# --` directly above its key; a
documented key covers the keys nested in it (they are its default). Every other leaf must carry
its own `# --` comment. Keys are camelCase.
"""
import json
import re
import sys

import yaml

START, END = "<!-- values:start -->", "<!-- values:end -->"
KEY = re.compile(r"^(\s*)([A-Za-z0-9_.-]+):(?:\s+(.*))?$")
CAMEL = re.compile(r"^[a-z][A-Za-z0-9]*$")


def parse(path):
    """[(dotted key, description or None, is_leaf)] in file order, plus problems found."""
    lines = open(path).read().splitlines()
    entries, problems, stack, comment = [], [], [], None
    skip_deeper_than = None
    for n, line in enumerate(lines):
        stripped = line.strip()
        indent = len(line) - len(line.lstrip())
        if skip_deeper_than is not None:
            if not stripped or indent > skip_deeper_than or (stripped.startswith("#") and indent > skip_deeper_than):
                continue
            skip_deeper_than = None
        if not stripped:
            comment = None
            continue
        if stripped.startswith("# --"):
            comment = [stripped[4:].strip()]
            continue
        if stripped.startswith("#"):
            if comment is not None:
                comment.append(stripped[1:].strip())
            continue
        m = KEY.match(line)
        if not m:
            problems.append(f"{path}:{n + 1}: cannot read this line as a key")
            comment = None
            continue
        key, rest = m.group(2), (m.group(3) or "").split(" #")[0].strip()
        while stack and stack[-1][0] >= indent:
            stack.pop()
        dotted = ".".join([s[1] for s in stack] + [key])
        covered = any(s[2] for s in stack)
        doc = " ".join(comment).strip() if comment else None
        nxt = next((x for x in lines[n + 1:] if x.strip() and not x.strip().startswith("#")), "")
        nxt_indent = len(nxt) - len(nxt.lstrip())
        is_leaf = bool(rest) or nxt_indent <= indent or nxt.strip().startswith("- ")
        if not CAMEL.match(key) and not covered:
            problems.append(f"{path}:{n + 1}: key {dotted} is not camelCase")
        if doc is not None and not doc:
            problems.append(f"{path}:{n + 1}: empty `# --` comment on {dotted}")
        if is_leaf and not doc and not covered:
            problems.append(f"{path}:{n + 1}: {dotted} has no `# --` comment")
        if not covered:
            entries.append((dotted, doc, is_leaf))
        if is_leaf:
            if rest in ("|", ">", "|-", ">-") or not rest:
                skip_deeper_than = indent
        else:
            stack.append((indent, key, bool(doc)))
        comment = None
    return entries, problems


def table(path):
    values = yaml.safe_load(open(path))
    rows = ["| Key | Type | Default | Description |", "|-----|------|---------|-------------|"]
    entries, _ = parse(path)
    for dotted, doc, is_leaf in entries:
        if not doc:
            continue
        v = values
        for part in dotted.split("."):
            v = v[part]
        kind = {bool: "bool", int: "int", float: "float", str: "string", list: "list",
                dict: "object", type(None): "int or null"}[type(v)]
        default = json.dumps(v, separators=(",", ":"))
        text = doc.replace("|", "\\|")
        rows.append(f"| {dotted} | {kind} | `{default}` | {text} |")
    return "\n".join(rows)


def main(mode, values_path, readme_path):
    entries, problems = parse(values_path)
    readme = open(readme_path).read()
    if START not in readme or END not in readme:
        problems.append(f"{readme_path}: no {START} ... {END} markers")
        current = ""
    else:
        current = readme.split(START, 1)[1].split(END, 1)[0].strip()
    wanted = table(values_path)
    if mode == "write":
        head, tail = readme.split(START, 1)[0], readme.split(END, 1)[1]
        open(readme_path, "w").write(f"{head}{START}\n{wanted}\n{END}{tail}")
        print(f"wrote the values table of {readme_path} ({len(wanted.splitlines()) - 2} values)")
        return 0
    ok = True
    documented = sum(1 for e in entries if e[1])
    if problems:
        ok = False
        print("not ok [values.yaml] every value documented with `# --`, camelCase: " + "; ".join(problems))
    else:
        print(f"ok [values.yaml] every value documented with `# --`, camelCase ({documented} documented keys)")
    if current != wanted:
        ok = False
        print(f"not ok [README.md] values table matches values.yaml: run `python3 tests/values_doc.py write "
              f"values.yaml README.md`")
    else:
        print("ok [README.md] values table matches values.yaml")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:4]))
