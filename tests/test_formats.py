"""The format table (graphveil.io.FORMATS), formats above the model, and un-permuting on the record."""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import graphveil as gv
from graphveil.io import FORMATS, RELEASE_FORMATS, Format, formats, release_format
from graphveil.io.compression import COMPRESSIONS
from graphveil.io.formats import named, sniffed
from graphveil.record import RunRecord, true_ids

UNCERTAIN = Path(gv.uncertain.__file__)


def toy() -> gv.UncertainGraph:
    return gv.UncertainGraph(
        5, [0, 1, 2, 3], [1, 2, 3, 4], [0.5, 1.0, 0.25, 0.75], meta={"scheme": "toy", "seed": 3}
    )


def test_the_table_names_every_release_format_and_its_layout_version():
    # the four release formats of docs/formats.rst are written (the table may hold more)
    assert {"npz", "tsv", "parquet", "graphml"} <= set(RELEASE_FORMATS)
    assert RELEASE_FORMATS == tuple(n for n, f in FORMATS.items() if f.write_release is not None)
    for name, fmt in FORMATS.items():
        assert isinstance(fmt, Format) and fmt.name == name
        assert fmt.holds and set(fmt.holds) <= {"uncertain", "graph"}
        if "uncertain" in fmt.holds:
            assert fmt.write_release is not None and fmt.version in (1, 2)
        if "graph" in fmt.holds:
            assert fmt.write_graph is not None and fmt.read_graph is not None
        if fmt.compressible:
            assert fmt.gzip_level is not None and fmt.magic is None
    assert FORMATS["parquet"].write_graph is gv.write_parquet
    assert FORMATS["edgelist"].read_graph is gv.read_edgelist


@pytest.mark.parametrize("name", RELEASE_FORMATS)
def test_every_suffix_of_the_table_tells_its_release_format(name):
    for suffix in FORMATS[name].all_suffixes():
        assert release_format("pub" + suffix.upper()) == name
    if not FORMATS[name].compressible:
        with pytest.raises(ValueError, match="cannot tell the format"):
            release_format("pub" + FORMATS[name].suffixes[0] + ".gz")


def test_compressed_suffixes_and_magic_come_from_the_table():
    assert FORMATS["edgelist"].all_suffixes() == (".txt", ".txt.gz", ".txt.bz2", ".txt.xz")
    assert [c.suffix for c in COMPRESSIONS.values()] == [".gz", ".bz2", ".xz"]
    assert sniffed(b"PK\x03\x04rest") is FORMATS["npz"]
    assert sniffed(b"PAR1xxxx") is FORMATS["parquet"]
    assert sniffed(b"0\t1\t0.5\n") is None  # text: told by the suffix
    assert named("g.txt.gz", "graph") is FORMATS["edgelist"]
    assert named("g.txt.gz", "uncertain") is FORMATS["tsv"]


@pytest.mark.parametrize("name", [n for n, f in FORMATS.items() if f.read_release is not None])
def test_a_written_release_is_read_back_by_the_table(tmp_path, name):
    path = tmp_path / f"pub{FORMATS[name].suffixes[0]}"
    record = toy().save(path, seed=1)
    back = gv.load_uncertain(path)
    assert back.meta["file"]["format_version"] == FORMATS[name].version
    assert true_ids(back, record) == toy()


def test_adding_a_format_is_one_module_and_one_table_entry(tmp_path, monkeypatch):
    # A toy release format: its module is the two functions below; its entry the Format.
    def write(target, header, graph, compress):
        pairs = zip(graph.u.tolist(), graph.v.tolist(), graph.p.tolist())
        lines = [json.dumps(header)] + [f"{a} {b} {c!r}" for a, b, c in pairs]
        target.write_text("\n".join(lines) + "\n")

    def read(path):
        head, *rows = path.read_text().splitlines()
        header = json.loads(head)
        u, v, p = (np.array(col) for col in zip(*(r.split() for r in rows)))
        fields = {k: header[k] for k in ("format_version", "graphveil_version", "n", "relaxed")}
        meta = {"scheme": header["scheme"], "params": header["params"]}
        return (
            {**fields, "ids_permuted": header["ids_permuted"], "meta": meta},
            u.astype(np.int64),
            v.astype(np.int64),
            p.astype(float),
        )

    entry = Format(
        "toy", "toy", holds=("uncertain",), suffixes=(".toy",), version=7, write_release=write,
        read_release=read,
    )  # fmt: skip
    monkeypatch.setitem(FORMATS, "toy", entry)
    record = toy().save(tmp_path / "pub.toy", seed=2)
    back = gv.UncertainGraph.load(tmp_path / "pub.toy")
    assert back.meta == {"scheme": "toy", "params": {}, "file": back.meta["file"]}
    assert back.meta["file"]["format_version"] == 7
    assert true_ids(back, record) == toy()
    assert release_format("x.bin", "toy") == "toy"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"holds": ("edges",)}, "holds ('edges',): 'uncertain', 'graph' or both"),
        ({"suffixes": ("toy",)}, "suffixes ('toy',): lower case, each starting with '.'"),
        ({"version": None}, "a release format has a write_release and its layout version"),
        ({"holds": ("graph",)}, "a graph format has a write_graph and a read_graph"),
        ({"write_release": None}, "a release format has a write_release"),
        ({"compressible": True}, "a compressible (text) format has a gzip level and no magic"),
        ({"name": "Toy"}, "it needs a lower-case name (format=) and a title"),
    ],
)
def test_a_format_is_checked_when_defined(change, message):
    fields = {**FORMATS["npz"].__dict__, "name": "toy", **change}
    with pytest.raises(ValueError, match=f"^format {fields['name']!r}: .*{re.escape(message)}"):
        Format(**fields)


def test_the_table_refuses_a_name_magic_or_suffix_two_formats_share():
    toy = {**FORMATS["npz"].__dict__, "name": "toy", "magic": None}
    cases = [
        ({"name": "npz", "suffixes": (".toy",)}, "format 'npz': its name 'npz' is already"),
        ({"suffixes": (".toy",), "magic": FORMATS["npz"].magic}, "its magic bytes"),
        (
            {"suffixes": (".tsv",)},
            "format 'toy': its uncertain suffix '.tsv' is already format 'tsv'",
        ),
    ]
    for change, message in cases:
        with pytest.raises(ValueError, match=re.escape(message)):
            formats._by_name(*FORMATS.values(), Format(**{**toy, **change}))
    # a graph format and a release format may share a suffix (.txt: the edge list and TSV)
    assert (
        named("g.txt", "graph") is FORMATS["edgelist"]
        and named("g.txt", "uncertain") is FORMATS["tsv"]
    )


def test_the_model_imports_no_file_format_but_its_declared_release_path():
    # the file methods import graphveil.io.releases when called (the structure check's escape)
    tree = ast.parse(UNCERTAIN.read_text())
    at_import = [n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))]
    assert not [n for n in at_import if (getattr(n, "module", "") or "").startswith("graphveil.io")]
    lazy = {
        (node.module, alias.name)
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("graphveil.io")
        for alias in node.names
    }
    assert lazy == {
        ("graphveil.io.releases", "write_release"),
        ("graphveil.io.releases", "read_uncertain"),
    }
    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    assert not names & {"read_release", "RELEASE_KEYS", "sidecar_path"}  # the format details


def test_the_file_methods_work_from_a_fresh_interpreter(tmp_path):
    code = (
        "import sys; from graphveil.uncertain import UncertainGraph as U; "
        f"p = {str(tmp_path / 'g.npz')!r}; "
        "U(3, [0], [1], [0.5]).save(p, keep_ids=True); "
        "print(U.load(p) == U(3, [0], [1], [0.5]), 'graphveil.io' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["True", "True"]


def test_unpermuting_lives_on_the_record(tmp_path):
    ug = toy()
    record = ug.save(tmp_path / "pub.npz", seed=5)
    back = gv.load_uncertain(tmp_path / "pub.npz")
    assert back != ug and record.unpermute(back) == ug
    assert RunRecord.of_release(back, record) is record
    record.save(tmp_path / "private.json")
    from_path = RunRecord.of_release(back, tmp_path / "private.json")
    assert from_path is not None and from_path.unpermute(back) == ug
    with pytest.raises(ValueError, match="permuted node ids.*record"):
        RunRecord.of_release(back)
    carried = gv.load_uncertain(tmp_path / "pub.npz", record=record)
    assert true_ids(carried) == ug  # the record it was loaded with
    # a Graph in release ids, through a bare permutation (independent: invert by hand)
    world = gv.Graph.from_edges(record.permutation[[0, 1]], record.permutation[[1, 2]], 5)
    assert true_ids(world, record.permutation) == gv.Graph.from_edges([0, 1], [1, 2], 5)
    ug.save(tmp_path / "kept.npz", keep_ids=True)
    kept = gv.load_uncertain(tmp_path / "kept.npz")
    assert RunRecord.of_release(kept) is None and true_ids(kept) == ug
    with pytest.raises(ValueError, match="not permuted"):
        true_ids(kept, record)
