"""Structure of the package: its floors (layers), the imports between them, cycles, local imports.

Prints the figures (import cycles at module and package level, TYPE_CHECKING imports excluded;
function-local imports; the longest functions), then checks the layering of LAYERS: every
import of a module (module level or function-local) must go to its own layer or one its layer
may import, unless ESCAPES declares it with a reason. Exits 1 on a violation, on a runtime
import cycle (module-level imports; a declared lazy escape does not count), or on an escape
that no longer exists or is declared lazy but imported at module level, and on a module over 900
lines or a function over 80 lines of code (docstring, blank and comment lines excluded).
docs/architecture.rst describes the layers. Usage: python3 .ci/structure.py [PROJECT_ROOT]
"""

import ast
import pathlib
import sys

# Floors of the house, bottom up: name -> (module prefixes, the floors it may import). A module
# belongs to the floor of its longest matching prefix; a floor may always import itself.
LAYERS = {
    "core": (("graphveil._core",), ()),
    "common": (
        (
            "graphveil._common",
            "graphveil._seeds",
            "graphveil._threads",
            "graphveil._checks",
            "graphveil._json",
        ),
        ("core",),
    ),
    "cluster": (("graphveil.cluster",), ("common",)),
    "model": (
        (
            "graphveil.graph",
            "graphveil.multigraph",
            "graphveil.uncertain",
            "graphveil._pairs",
            "graphveil.record",
            "graphveil.interop",
            "graphveil.generators",
        ),
        ("core", "common"),
    ),
    "io": (("graphveil.io", "graphveil.datasets"), ("core", "common", "model")),
    "measure": (("graphveil.measure",), ("core", "common", "model", "io")),
    "anonymize": (("graphveil.anonymize",), ("core", "common", "model", "io", "measure")),
    "attack": (("graphveil.attack",), ("core", "common", "model", "io")),
    "evaluation": (
        ("graphveil.evaluation", "graphveil.scores"),
        ("core", "common", "model", "io", "measure", "attack", "cluster"),
    ),
    "experiments": (
        ("graphveil.experiments",),
        ("core", "common", "model", "io", "measure", "anonymize", "attack", "evaluation", "cluster"),
    ),
    "publishing": (
        ("graphveil.publishing",),  # a release at a privacy target: runs schemes, evaluates
        (
            "core", "common", "model", "io", "measure", "anonymize", "attack", "evaluation",
            "cluster", "experiments",
        ),
    ),
    "package": (
        ("graphveil",),  # graphveil/__init__.py: the top-level names (subpackages loaded lazily)
        (
            "core", "common", "model", "io", "measure", "anonymize", "attack", "evaluation",
            "publishing",
        ),
    ),
    "cli": (
        ("graphveil.cli", "graphveil.__main__"),
        (
            "core", "common", "cluster", "model", "io", "measure", "anonymize", "attack",
            "evaluation", "experiments", "publishing", "package",
        ),
    ),
}  # fmt: skip

# Imports across the floors that are deliberate: (importer prefix, imported prefix, lazy, reason).
# A lazy escape must be function-local (it then makes no import-time cycle).
ESCAPES = [
    (
        "graphveil.uncertain",
        "graphveil.io.releases",
        True,
        "UncertainGraph's file methods (save, to_graphml, load) are the io floor's write_release "
        "and read_uncertain, imported when called: the model imports no format at import time",
    ),
]

root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".") / "python"
mods = {}
for p in sorted((root / "graphveil").rglob("*.py")):
    rel = p.relative_to(root).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    mods[".".join(parts)] = p
mods["graphveil._core"] = None  # the compiled core (its stub _core.pyi); imports nothing


def resolve(name):
    while name and name not in mods:
        name = name.rpartition(".")[0]
    return name


def layer_of(module):
    best = max((p for _, (ps, _) in LAYERS.items() for p in ps if _under(module, p)), key=len)
    return next(name for name, (ps, _) in LAYERS.items() if best in ps)


def _under(module, prefix):
    return module == prefix or module.startswith(prefix + ".")


edges = {m: set() for m in mods}
sites = {}  # (importer, imported) -> [(line, local)]
local = 0
funcs = []
for m, p in mods.items():
    if p is None:
        continue
    tree = ast.parse(p.read_text())
    tc = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for n in ast.walk(node):
                tc.add(id(n))
    parents = {}
    for node in ast.walk(tree):
        for c in ast.iter_child_nodes(node):
            parents[id(c)] = node
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            funcs.append((node.end_lineno - node.lineno + 1, f"{m}.{node.name}"))
        if isinstance(node, (ast.Import, ast.ImportFrom)) and id(node) not in tc:
            q = node
            inf = False
            while id(q) in parents:
                q = parents[id(q)]
                if isinstance(q, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    inf = True
            if inf:
                local += 1
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                base = node.module or ""
                if node.level:
                    pk = m.split(".") if p.name == "__init__.py" else m.split(".")[:-1]
                    pk = pk[: len(pk) - node.level + 1]
                    base = ".".join(pk + ([base] if base else []))
                names = [base + "." + a.name for a in node.names] + [base]
            for n in names:
                if n.startswith("graphveil"):
                    t = resolve(n)
                    if t and t != m and not m.startswith(t + "."):
                        edges[m].add(t)
                        sites.setdefault((m, t), []).append((node.lineno, inf))


def escape_of(a, b):
    for i, (src, dst, _, _) in enumerate(ESCAPES):
        if _under(a, src) and _under(b, dst):
            return i
    return None


# Runtime (import-time) cycles: module-level imports only; a function-local one runs later.
runtime = {a: {b for b in bs if any(not loc for _, loc in sites[(a, b)])} for a, bs in edges.items()}


def sccs_of(graph):
    idx, low, st, on, out, c = {}, {}, [], set(), [], [0]

    def sc(v):
        idx[v] = low[v] = c[0]
        c[0] += 1
        st.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in idx:
                sc(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], idx[w])
        if low[v] == idx[v]:
            comp = []
            while True:
                w = st.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in graph:
        if v not in idx:
            sc(v)
    return out


sccs = sccs_of(edges)
runtime_sccs = sccs_of(runtime)
pairs = sorted({(a, b) for a in edges for b in edges[a] if a in edges[b] and a < b})


def pk(x):
    return ".".join(x.split(".")[:2])


pe = {}
for a in edges:
    for b in edges[a]:
        if pk(a) != pk(b) and pk(a) != "graphveil":
            pe.setdefault(pk(a), set()).add(pk(b))
ppairs = sorted({(a, b) for a in pe for b in pe[a] if a in pe.get(b, ()) and a < b})
print("package-level mutual pairs:", ppairs)
print("cyclic SCCs (excl. package __init__ -> child):", len(sccs))
for s in sccs:
    print("  ", s)
print("mutual pairs:", pairs)
print("function-local imports:", local)
funcs.sort(reverse=True)
print("longest functions:", funcs[:6])

# Floors and back-arrows.
floors = {}
for m in mods:
    floors.setdefault(layer_of(m), []).append(m)
print("floors (bottom up; each may import itself and the floors listed):")
for name, (_, allowed) in LAYERS.items():
    print(f"  {name:<12} {len(floors.get(name, [])):>3} modules; imports {', '.join(allowed) or '-'}")
violations, used = [], set()
for (a, b), where in sorted(sites.items()):
    la, lb = layer_of(a), layer_of(b)
    if la == lb or lb in LAYERS[la][1]:
        continue
    i = escape_of(a, b)
    lines = ", ".join(f"{line}{' (local)' if loc else ''}" for line, loc in sorted(set(where)))
    if i is None:
        violations.append(f"{a} ({la}) imports {b} ({lb}) at line {lines}")
        continue
    used.add(i)
    if ESCAPES[i][2] and not all(loc for _, loc in where):
        violations.append(f"{a} imports {b} at module level (line {lines}): declared lazy")
    else:
        kind = "lazy escape" if ESCAPES[i][2] else "declared"
        print(f"back-arrow ({kind}): {a} ({la}) -> {b} ({lb}), line {lines}: {ESCAPES[i][3]}")
for i, (src, dst, _, _) in enumerate(ESCAPES):
    if i not in used:
        violations.append(f"escape {src} -> {dst} is declared but no longer imported: drop it")
for s in runtime_sccs:
    violations.append(f"runtime import cycle: {' -> '.join(s)}")

# Sizes: no module over MAX_MODULE_LINES lines, no function over MAX_FUNCTION_CODE lines of code
# (non-blank, non-comment lines, its docstring excluded).
MAX_MODULE_LINES, MAX_FUNCTION_CODE = 900, 80
for m, p in mods.items():
    if p is None:  # the compiled core
        continue
    src = p.read_text()
    lines = src.splitlines()
    if len(lines) > MAX_MODULE_LINES:
        violations.append(f"{m} has {len(lines)} lines (at most {MAX_MODULE_LINES}): split it")
    for node in ast.walk(ast.parse(src)):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        first = node.body[0]
        doc = ast.get_docstring(node, clean=False) is not None
        skip = range(first.lineno, first.end_lineno + 1) if doc else range(0)
        code = sum(
            1
            for i in range(node.lineno, node.end_lineno + 1)
            if i not in skip and lines[i - 1].strip() and not lines[i - 1].strip().startswith("#")
        )
        if code > MAX_FUNCTION_CODE:
            violations.append(
                f"{m}.{node.name} has {code} lines of code (at most {MAX_FUNCTION_CODE}): split it"
            )

for v in violations:
    print("VIOLATION:", v)
print(f"layering: {len(violations)} violation(s), {len(used)} declared back-arrow(s)")
sys.exit(1 if violations else 0)
