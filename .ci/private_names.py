"""Private names that cross files: a module taking ``_name`` from another module of graphveil.

``from graphveil.x.y import _name`` (relative imports too) and ``y._name`` on an imported
graphveil module. What a sibling module calls is public within its package: a name with an
underscore is its own module's. Prints every crossing and the counts, per package; exits 1 on a
crossing whose home is in CHECKED (every graphveil module). Usage: python3 .ci/private_names.py
[PROJECT_ROOT]
"""

import ast
import pathlib
import sys

#: The packages whose modules take no private name from one another.
#: The packages whose modules take no private name from one another, nor from any other module:
#: every package of graphveil (was graphveil.experiments alone before issue 36's end).
CHECKED = ("graphveil",)

root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".") / "python"
mods = {}
for p in sorted((root / "graphveil").rglob("*.py")):
    parts = list(p.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    mods[".".join(parts)] = p
mods["graphveil._core"] = None  # the compiled core: a module, imported as one


def private(name):
    return name.startswith("_") and not name.startswith("__")


def crossings(module, path):
    """(home module, private name) pairs ``module`` takes from another module."""
    tree = ast.parse(path.read_text())
    aliases, found = {}, set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                pk = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
                pk = pk[: len(pk) - node.level + 1]
                base = ".".join(pk + ([base] if base else []))
            for alias in node.names:
                if f"{base}.{alias.name}" in mods:  # a module
                    aliases[alias.asname or alias.name] = f"{base}.{alias.name}"
                elif base in mods and base != module and private(alias.name):
                    found.add((base, alias.name))
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in mods:
                    aliases[alias.asname or alias.name] = alias.name
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and aliases.get(node.value.id, module) != module
            and private(node.attr)
        ):
            found.add((aliases[node.value.id], node.attr))
    return found


def package(module):
    return ".".join(module.split(".")[:2])


users = {}
for module, path in mods.items():
    if path is not None:
        for home, name in crossings(module, path):
            users.setdefault((home, name), set()).add(module)
counts, violations = {}, []
for (home, name), importers in sorted(users.items()):
    print(f"{home}.{name} <- {', '.join(sorted(importers))}")
    counts[package(home)] = counts.get(package(home), 0) + 1
    checked = any(home == c or home.startswith(c + ".") for c in CHECKED)
    inside = sorted(importers) if checked else []
    if inside:
        violations.append(f"{home}.{name} is private but {', '.join(inside)} import(s) it")
print("private names crossing files, by the package of their home:", counts)
for v in violations:
    print("VIOLATION:", v, "- make it public (no underscore) or move it")
print(f"private names: {len(violations)} violation(s) in {', '.join(CHECKED)}")
sys.exit(1 if violations else 0)
