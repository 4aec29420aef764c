"""Structure figures: import cycles (module and package level; TYPE_CHECKING imports excluded),
function-local imports, the longest functions. Usage: python3 .ci/structure.py [PROJECT_ROOT]
"""

import ast, pathlib, sys

root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".") / "python"
mods = {}
for p in (root / "graphveil").rglob("*.py"):
    rel = p.relative_to(root).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    mods[".".join(parts)] = p


def resolve(name):
    while name and name not in mods:
        name = name.rpartition(".")[0]
    return name


edges = {m: set() for m in mods}
local = 0
funcs = []
for m, p in mods.items():
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
# SCCs (Tarjan)
idx = {}
low = {}
st = []
on = set()
sccs = []
c = [0]
sys.setrecursionlimit(10000)


def sc(v):
    idx[v] = low[v] = c[0]
    c[0] += 1
    st.append(v)
    on.add(v)
    for w in edges[v]:
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
            sccs.append(sorted(comp))


for v in mods:
    if v not in idx:
        sc(v)
pairs = sorted({(a, b) for a in edges for b in edges[a] if a in edges[b] and a < b})
pk = lambda x: ".".join(x.split(".")[:2])
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
