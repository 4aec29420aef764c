"""Safe release (issue 9): a published file carries nothing but the anonymized graph.

The attacker test at the top uses only what every graphveil version has (``obfuscation`` and
``UncertainGraph.save`` with their defaults, ``numpy.load``), so it also runs against the code
before the change, where it fails: the old file stored the scheme's seed.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

import graphveil as gv
from graphveil import datasets
from graphveil.anonymize import edge_switch, maxvar, obfuscation, partition, randwalk, randwalk_mod
from graphveil.cli import main
from graphveil.io import FORMATS, RELEASE_FORMATS

# ---------------------------------------------------------------------- the attacker

#: Search steps and attempts per step the attacker replays for every candidate seed.
_STEPS, _ATTEMPTS = 24, 5


def _candidate_seeds(value):
    """Every integer found anywhere in a release field (JSON text included)."""
    if isinstance(value, bool):
        return
    if isinstance(value, int):
        yield value
    elif isinstance(value, float) and value.is_integer() and 0 <= value < 2**64:
        yield int(value)
    elif isinstance(value, str):
        try:
            yield from _candidate_seeds(json.loads(value))
        except (json.JSONDecodeError, RecursionError):
            return
    elif isinstance(value, dict):
        for item in value.values():
            yield from _candidate_seeds(item)
    elif isinstance(value, list):
        for item in value:
            yield from _candidate_seeds(item)


def _white_noise(seed: int, step: int, attempt: int, pairs: int, q: float) -> np.ndarray:
    """The white-noise values r of one obfuscation attempt, replayed from its seed.

    The scheme's stream for (seed, step, attempt) draws: one integer (the candidate loop's
    seed), the white-noise coins (one per pair), one uniform per pair (the truncated normal),
    then one uniform r per white-noise pair; a pair with p == r is a non-edge, p == 1 - r an edge.
    """
    rng = np.random.default_rng(np.random.SeedSequence([seed, step, attempt]))
    rng.integers(0, 2**63)
    noise = rng.random(pairs) < q
    rng.random(pairs)
    return rng.random(int(noise.sum()))


def _regenerate(seeds, p: np.ndarray, q: float) -> dict[float, bool]:
    """Published p value -> is-an-edge, for every pair whose white-noise draw was replayed."""
    values = set(p.tolist())
    found: dict[float, bool] = {}
    for seed in seeds:
        if not 0 <= seed < 2**64:
            continue
        for step in range(_STEPS):
            for attempt in range(_ATTEMPTS):
                r = _white_noise(seed, step, attempt, p.size, q)
                hits = {x: False for x in r.tolist() if x in values}
                hits.update({1.0 - x: True for x in r.tolist() if 1.0 - x in values})
                if len(hits) >= max(3, r.size // 2):  # this stream made the published graph
                    found.update(hits)
    return found


def test_attacker_cannot_regenerate_the_white_noise_of_a_default_release(tmp_path):
    # q raised from 0.01 so that karate's 156 candidate pairs hold a few dozen white-noise pairs
    q = 0.25
    g0 = datasets.load("karate_club")
    ug, report = obfuscation(g0, k=5, eps=0.3, q=q)  # the defaults: fresh entropy, sigma searched
    path = tmp_path / "published.npz"
    ug.save(path)  # the default release
    with np.load(path, allow_pickle=False) as data:
        fields = {name: data[name] for name in data.files}
    p = fields["p"]
    # The attacker's seeds: every integer of every field; not the pair arrays themselves.
    seeds = set()
    for arr in fields.values():
        if arr.ndim == 0:
            seeds.update(_candidate_seeds(arr.item()))
    attacked = _regenerate(seeds, p, q)

    # Ground truth, from the secret seed only the run's author holds: the replay is exact.
    truth = _regenerate([report["seed"]], p, q)
    assert len(truth) >= 20, "the replay must find the white-noise set when the seed is known"
    # the attacker's labels: replayed ones where he has them, else the best guess from p
    labels = [attacked.get(x, x > 0.5) for x in truth]
    right = sum(label == truth[x] for label, x in zip(labels, truth))
    chance = 0.5 * len(truth) + 3.0 * math.sqrt(0.25 * len(truth))
    assert not attacked, f"the release let the attacker replay {len(attacked)} white-noise draws"
    assert right <= chance, f"{right} of {len(truth)} white-noise pairs classified"


# ---------------------------------------------------------------------- the release file

#: The release whitelist, written out: a change to the published layout must change this test.
WHITELIST = (
    "format",
    "format_version",
    "graphveil_version",
    "n",
    "relaxed",
    "directed",
    "ids_permuted",
    "scheme",
    "params",
    "u",
    "v",
    "p",
)
#: What an undirected release holds: the whitelist but ``directed`` (only a directed one says it).
UNDIRECTED = tuple(k for k in WHITELIST if k != "directed")


def _schemes(g0, seed, threads=None):
    return {
        "maxvar": lambda: maxvar(g0, n_potential=60, parts=2, seed=seed, threads=threads),
        "obfuscation": lambda: obfuscation(g0, k=3, eps=0.3, sigma=0.5, seed=seed, threads=threads),
        "randwalk": lambda: randwalk(g0, t=3, seed=seed, threads=threads),
        "randwalk_mod": lambda: randwalk_mod(g0, t=3, seed=seed, threads=threads),
        "edge_switch": lambda: edge_switch(g0, switches=100, seed=seed),
        "partition": lambda: partition(g0, scheme="randwalk", parts=2, t=3, seed=seed),
    }


SCHEMES = tuple(_schemes(None, None))


def test_release_keys_are_the_whitelist(tmp_path):
    from graphveil.io import RELEASE_KEYS

    assert RELEASE_KEYS == WHITELIST
    ug, _ = obfuscation(datasets.load("karate_club"), k=3, eps=0.3, sigma=0.5)
    ug.save(tmp_path / "a.npz")
    with np.load(tmp_path / "a.npz") as data:
        assert tuple(data.files) == UNDIRECTED
    ug.save(tmp_path / "a.tsv")
    assert not any(line.startswith("#") for line in (tmp_path / "a.tsv").read_text().splitlines())
    header = json.loads((tmp_path / "a.tsv.json").read_text())  # the TSV's sidecar
    assert tuple(header) == UNDIRECTED[:-3]  # the arrays are the u v p lines


def _scalars(path):
    with np.load(path) as data:
        return {k: data[k].item() for k in data.files if data[k].ndim == 0}


@pytest.mark.parametrize("scheme", SCHEMES)
def test_seeds_leave_no_trace_in_the_non_array_fields(tmp_path, scheme):
    g0 = datasets.load("karate_club")
    a, report_a = _schemes(g0, 1)[scheme]()
    b, report_b = _schemes(g0, 2)[scheme]()
    assert report_a["seed"] != report_b["seed"]  # the reports keep it, in memory
    a.save(tmp_path / "a.npz")
    b.save(tmp_path / "b.npz")
    fa, fb = _scalars(tmp_path / "a.npz"), _scalars(tmp_path / "b.npz")
    assert fa == fb
    assert set(fa) == set(UNDIRECTED) - {"u", "v", "p"}
    assert json.loads(fa["scheme"]) == report_a["scheme"]
    assert "seed" not in fa["params"] and "timings" not in fa["params"]


@pytest.mark.parametrize("scheme", SCHEMES)
def test_without_a_seed_every_scheme_draws_fresh_entropy(scheme):
    g0 = datasets.load("karate_club")
    first, second = (_schemes(g0, None)[scheme]()[1]["seed"] for _ in range(2))
    assert first != second


@pytest.mark.parametrize("scheme", SCHEMES)
def test_same_inputs_and_seed_give_the_same_bytes_for_any_thread_count(tmp_path, scheme):
    g0 = datasets.load("karate_club")
    digests = set()
    for threads in (1, 3):
        ug, _ = _schemes(g0, 5, threads)[scheme]()
        for name in ("r.npz", "r.tsv.gz"):
            ug.save(tmp_path / name, seed=9)
        time.sleep(1.1)  # a wall-clock stamp anywhere in a file would now differ
        digests.add(
            tuple(
                hashlib.sha256((tmp_path / name).read_bytes()).hexdigest()
                for name in ("r.npz", "r.tsv.gz")
            )
        )
    assert len(digests) == 1


def test_the_record_keeps_what_the_release_must_not(tmp_path):
    g0 = datasets.load("karate_club")
    ug, report = obfuscation(g0, k=3, eps=0.3, seed=4)
    rec = ug.save(tmp_path / "pub.npz", record=tmp_path / "private.json")
    back = gv.load_record(tmp_path / "private.json")
    assert back.report["seed"] == report["seed"] == 4
    assert back.report["history"] == report["history"] and "timings" in back.report
    assert back.report["eps_hat"] == report["eps_hat"]
    assert np.array_equal(back.permutation, rec.permutation)
    text = (tmp_path / "private.json").read_text()
    assert "never publish" in text.lower() and "never publish" in gv.RunRecord.__doc__.lower()
    # and none of it is in the release
    raw = (tmp_path / "pub.npz").read_bytes()
    assert b"history" not in raw and b"timings" not in raw and b"eps_hat" not in raw
    # no record file unless asked
    ug.save(tmp_path / "other.npz")
    assert sorted(os.listdir(tmp_path)) == ["other.npz", "private.json", "pub.npz"]


def test_secret_parameters_are_refused():
    ug = gv.UncertainGraph(
        3, [0], [1], [0.5], meta={"scheme": "x", "params": {"inner": {"seed": 1}}}
    )
    with pytest.raises(ValueError, match="'seed'.*never be published"):
        ug.save("never-written.npz")
    assert not os.path.exists("never-written.npz")


@pytest.mark.parametrize(
    ("umask", "release", "record"), [(0o022, 0o644, 0o600), (0o077, 0o600, 0o600)]
)
def test_modes_follow_the_umask_and_the_record_is_private(tmp_path, umask, release, record):
    ug = gv.UncertainGraph(3, [0], [1], [0.5])
    old = os.umask(umask)
    try:
        ug.save(tmp_path / "pub.npz", record=tmp_path / "rec.json")
        ug.save(tmp_path / "pub.tsv")
        gv.write_edgelist(ug.sample(seed=1), tmp_path / "w.txt")
    finally:
        os.umask(old)
    mode = {name: os.stat(tmp_path / name).st_mode & 0o777 for name in os.listdir(tmp_path)}
    assert mode == {
        "pub.npz": release,
        "pub.tsv": release,
        "pub.tsv.json": release,
        "w.txt": release,
        "rec.json": record,
    }


# ---------------------------------------------------------------------- ids


def test_evaluate_refuses_a_permuted_release_and_maps_it_back_exactly(tmp_path):
    g0 = datasets.load("karate_club")
    ug, _ = maxvar(g0, n_potential=60, parts=2, seed=3)
    rec = ug.save(tmp_path / "pub.npz", record=tmp_path / "private.json")
    published = gv.load_uncertain(tmp_path / "pub.npz")
    assert published.ids_permuted
    from graphveil import evaluate

    with pytest.raises(ValueError, match="permuted node ids.*record"):
        evaluate(g0, published, samples=2, seed=1, k=3)
    direct = evaluate(g0, ug, samples=2, seed=1, k=3)
    for record in (gv.load_record(tmp_path / "private.json"), rec.permutation):
        mapped = evaluate(g0, published, samples=2, seed=1, k=3, record=record)
        assert mapped.per_sample == direct.per_sample and mapped.eps == direct.eps
    # the wrong record is refused, never used
    other = ug.save(tmp_path / "other.npz")
    with pytest.raises(ValueError, match="another release"):
        evaluate(g0, published, samples=2, seed=1, k=3, record=other)
    # an unpermuted graph with a record would be scrambled: refused
    with pytest.raises(ValueError, match="not permuted"):
        evaluate(g0, ug, samples=2, seed=1, k=3, record=rec)


def test_worlds_of_a_permuted_release_keep_its_ids(tmp_path):
    g0 = datasets.load("karate_club")
    ug, _ = maxvar(g0, n_potential=60, parts=2, seed=3)
    rec = ug.save(tmp_path / "pub.npz")
    published = gv.load_uncertain(tmp_path / "pub.npz")
    world = published.sample(seed=5)
    assert gv.write_edgelist(world, tmp_path / "w.txt").permutation is None  # no second one
    back = gv.read_edgelist(tmp_path / "w.txt")
    assert back == world and back.labels.tolist() == list(range(g0.n))
    # the release's record maps the world back onto the true ids: it is the mapped graph's world
    original = gv.UncertainGraph(
        ug.n, rec.to_original(published.u), rec.to_original(published.v), published.p
    )
    assert original == ug
    u, v = (rec.to_original(x) for x in back.edges())
    pairs = set(zip(ug.u.tolist(), ug.v.tolist()))
    certain = set(zip(ug.u[ug.p == 1].tolist(), ug.v[ug.p == 1].tolist()))
    kept = {(min(a, b), max(a, b)) for a, b in zip(u.tolist(), v.tolist())}
    assert certain <= kept <= pairs
    # a world of the in-memory graph (true order) is permuted when written
    assert gv.write_edgelist(ug.sample(seed=5), tmp_path / "x.txt").permutation is not None


# ---------------------------------------------------------------------- the command line


def _run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_release_and_record(capsys, tmp_path):
    pub, rec = tmp_path / "pub.npz", tmp_path / "private.json"
    argv = (
        "anonymize",
        "obfuscation",
        "--dataset",
        "karate_club",
        "-k",
        3,
        "--eps",
        0.3,
        "--quiet",
    )
    code, out, err = _run(capsys, *argv, "-o", pub, "--record", rec)
    assert code == 0, err
    assert "seed" not in out  # the seed never reaches the terminal
    record = gv.load_record(rec)
    assert isinstance(record.report["seed"], int) and record.permutation is not None
    assert oct(os.stat(rec).st_mode & 0o777) == "0o600"
    # the same command and seed give the same bytes, for any thread count
    for threads, name in ((1, "s1.npz"), (2, "s2.npz")):
        assert _run(capsys, *argv, "--seed", 8, "--threads", threads, "-o", tmp_path / name)[0] == 0
    assert (tmp_path / "s1.npz").read_bytes() == (tmp_path / "s2.npz").read_bytes()
    # evaluate: refused without the record, exact with it
    code, _, err = _run(
        capsys, "evaluate", "--dataset", "karate_club", pub, "--samples", 1, "--k", 3
    )
    assert code == 2 and "--record FILE" in err
    code, out, err = _run(
        capsys,
        "evaluate",
        "--dataset",
        "karate_club",
        pub,
        "--samples",
        1,
        "--k",
        3,
        "--record",
        rec,
    )
    assert code == 0, err


def test_cli_help_warns_about_seeds(capsys):
    for argv in (("anonymize", "maxvar"), ("anonymize", "obfuscation"), ("sample",)):
        with pytest.raises(SystemExit):
            main([*argv, "--help"])
        out = " ".join(capsys.readouterr().out.split())
        assert "undo the anonymization" in out and "NEVER publish" in out


def test_cli_sample(capsys, tmp_path):
    g0 = datasets.load("karate_club")
    ug, _ = maxvar(g0, n_potential=60, parts=2, seed=3)
    rec = ug.save(tmp_path / "pub.npz")
    ug.save(tmp_path / "kept.npz", keep_ids=True)
    # a permuted release: worlds in its ids, all of them
    code, _, err = _run(
        capsys, "sample", tmp_path / "pub.npz", "-n", 3, "-o", tmp_path / "w", "--seed", 4
    )
    assert code == 0, err
    worlds = [gv.read_edgelist(tmp_path / "w" / f"world-{i}.txt") for i in range(3)]
    expected = gv.load_uncertain(tmp_path / "pub.npz").sample(3, seed=4)
    assert worlds == expected
    assert rec.permutation is not None
    # a file with the true ids: its worlds are permuted, one permutation for all, in --record
    code, _, err = _run(
        capsys,
        "sample",
        tmp_path / "kept.npz",
        "-n",
        2,
        "-o",
        tmp_path / "k",
        "--record",
        tmp_path / "k.json",
    )
    assert code == 0, err
    perm = gv.load_record(tmp_path / "k.json").permutation
    assert perm is not None and not np.array_equal(perm, np.arange(g0.n))
    for i in range(2):
        world = gv.read_edgelist(tmp_path / "k" / f"world-{i}.txt")
        u, v = world.edges()
        mapped = gv.Graph.from_edges(perm.argsort()[u], perm.argsort()[v], g0.n)
        # every kept pair is a pair of the true-id graph
        keys = set(zip(ug.u.tolist(), ug.v.tolist()))
        assert all(
            (min(a, b), max(a, b)) in keys for a, b in zip(*[x.tolist() for x in mapped.edges()])
        )
    # --keep-ids keeps them
    code, _, err = _run(
        capsys, "sample", tmp_path / "kept.npz", "-o", tmp_path / "kk", "--keep-ids", "--seed", 4
    )
    assert code == 0, err
    assert gv.read_edgelist(tmp_path / "kk" / "world-0.txt") == ug.sample(seed=4)


def test_cli_outputs_are_checked_before_any_work(capsys, tmp_path):
    # the graph does not exist either: the output is what the error must name
    code, _, err = _run(
        capsys,
        "anonymize",
        "randwalk",
        tmp_path / "absent.txt",
        "-t",
        2,
        "-o",
        tmp_path / "no" / "pub.npz",
    )
    assert code == 2 and "no/pub.npz" in err and "absent" not in err
    code, _, err = _run(
        capsys,
        "anonymize",
        "randwalk",
        tmp_path / "absent.txt",
        "-t",
        2,
        "-o",
        tmp_path / "pub.dat",
    )
    assert code == 2 and "pub.dat" in err
    code, _, err = _run(
        capsys,
        "anonymize",
        "randwalk",
        "--dataset",
        "karate_club",
        "-t",
        2,
        "-o",
        tmp_path / "p.npz",
        "--record",
        tmp_path / "p.npz",
    )
    assert code == 2 and "same file" in err


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes anywhere")
def test_a_permission_error_names_the_target(tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        with pytest.raises(PermissionError) as info:
            gv.UncertainGraph(2, [0], [1], [0.5]).save(locked / "pub.npz")
        assert "locked/pub.npz" in str(info.value) and ".graphveil-tmp" not in str(info.value)
    finally:
        locked.chmod(0o700)


def test_permission_errors_name_the_target_even_as_root(tmp_path, monkeypatch, capsys):
    import graphveil._common as common

    target = tmp_path / "pub.npz"
    ug = gv.UncertainGraph(2, [0], [1], [0.5])

    def refuse(src, dst):
        raise PermissionError(13, "Permission denied", str(src))

    monkeypatch.setattr(common.os, "replace", refuse)
    with pytest.raises(PermissionError) as info:
        ug.save(target)
    assert str(target) in str(info.value) and ".graphveil-tmp" not in str(info.value)
    assert os.listdir(tmp_path) == []  # and the temporary is gone
    monkeypatch.undo()
    monkeypatch.setattr(common.os, "access", lambda path, mode: False)
    code, _, err = _run(
        capsys, "anonymize", "randwalk", "--dataset", "karate_club", "-t", 2, "-o", target
    )
    assert code == 2 and str(target) in err and "permission denied" in err


def test_a_temporary_is_never_left_readable_and_stale_ones_are_removed(tmp_path):
    from graphveil._common import TMP_DIR_NAME, atomic_path

    target = tmp_path / "pub.npz"
    with pytest.raises(RuntimeError), atomic_path(target) as tmp:
        assert tmp.parent.name == TMP_DIR_NAME and tmp.parent.stat().st_mode & 0o777 == 0o700
        tmp.write_bytes(b"half")
        raise RuntimeError
    assert os.listdir(tmp_path) == []
    # a temporary a killed process left (its pid is gone) is removed by the next write
    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
    )
    stale_dir = tmp_path / TMP_DIR_NAME
    stale_dir.mkdir(mode=0o700)
    (stale_dir / f"{dead.stdout.strip()}.abc.pub.npz").write_bytes(b"real ids")
    gv.UncertainGraph(2, [0], [1], [0.5]).save(target)
    assert os.listdir(tmp_path) == ["pub.npz"]


# ---------------------------------------------------------------------- reproduce


def test_reproduce_records_points_that_cannot_run(capsys, tmp_path):
    edges = tmp_path / "two.txt"
    edges.write_text("1 2\n")
    out = tmp_path / "out"
    code, stdout, err = _run(
        capsys,
        "reproduce",
        edges,
        "-o",
        out,
        "--samples",
        1,
        "--no-figures",
        "--schemes",
        "obfuscation",
        "maxvar",
    )
    assert code == 0, err
    assert "not applicable" in err and "(k,eps)-obf" in err
    study = json.loads((out / "study.json").read_text())
    # MaxVar finds no potential edge on one edge: its release is G0 itself (issue 31)
    reasons = {r["scheme"]: r["reason"] for r in study["not_applicable"]}
    assert set(reasons) == {"obfuscation", "maxvar"} and all(reasons.values())
    assert reasons["maxvar"].startswith("the release is the input graph G0")
    assert "## Not applicable" in stdout
    assert not study["rows"]


def test_maxvar_message_names_the_cli_option(capsys):
    code, _, err = _run(
        capsys,
        "anonymize",
        "maxvar",
        "--dataset",
        "karate_club",
        "--n-potential",
        10**5,
        "--parts",
        2,
    )
    assert code == 2 and "MaxVar" in err and "--allow-fewer" in err and "allow_fewer" not in err


def _reproduce(out, *extra):
    cmd = [sys.executable, "-m", "graphveil", "reproduce", "--dataset", "ca-GrQc", "-o", str(out)]
    # nine points, so that the signal sent after the second lands while points remain (four
    # points of two samples could all finish between the poll and the signal on a loaded machine)
    cmd += [
        "--samples",
        "3",
        "--no-figures",
        "--schemes",
        "randwalk",
        "edge_switch",
        "--threads",
        "1",
        *extra,
    ]
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _wait_for_points(out, count, proc):
    points = out / "points"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if points.is_dir() and len([p for p in points.iterdir() if p.suffix == ".json"]) >= count:
            return
        time.sleep(0.05)
    raise AssertionError("the study finished or stalled before it could be interrupted")


@pytest.mark.parametrize(
    ("sig", "status"), [(signal.SIGINT, 130), (signal.SIGTERM, 143), (signal.SIGKILL, -9)]
)
def test_reproduce_stops_cleanly_and_resumes(tmp_path, sig, status):
    out = tmp_path / "out"
    proc = _reproduce(out)
    _wait_for_points(out, 2, proc)
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == status, err
    if sig != signal.SIGKILL:
        assert "Traceback" not in err
        assert err.strip().splitlines()[-1] in (
            "graphveil: interrupted; no partial output was left",
            "graphveil: terminated; no partial output was left",
        )
        assert not (out / "points" / ".graphveil-tmp").exists()
    done = {p.name for p in (out / "points").glob("*.json")}
    resumed = _reproduce(out)
    _, err = resumed.communicate(timeout=300)
    assert resumed.returncode == 0, err
    assert (
        sum("recorded, reused" in line for line in err.splitlines()) == len(done) - 1
    )  # + original
    assert (
        not (out / "points" / ".graphveil-tmp").exists() and not (out / ".graphveil-tmp").exists()
    )
    assert (out / "study.json").exists()


# ---------------------------------------------------------------------- one path, four formats
def _header_of(path, fmt):
    """A release's header, read by another library than graphveil."""
    if fmt == "npz":
        with np.load(path) as data:
            return {k: data[k].item() for k in data.files if data[k].ndim == 0}
    if fmt == "tsv":
        return json.loads((path.parent / (path.name + ".json")).read_text())
    if fmt == "parquet":
        import pyarrow.parquet as pq

        meta = pq.read_schema(path).metadata
        assert set(meta) == {b"graphveil"}
        return json.loads(meta[b"graphveil"])
    import networkx as nx

    return json.loads(nx.read_graphml(path, node_type=int).graph["graphveil"])


def _pairs_of(path, fmt):
    """A release's pairs ``{(u, v): p}`` in file ids, read by another library than graphveil."""
    if fmt == "npz":
        with np.load(path) as data:
            u, v, p = data["u"], data["v"], data["p"]
    elif fmt == "tsv":
        u, v, p = np.loadtxt(path, dtype=float, ndmin=2).T
    elif fmt == "parquet":
        import pyarrow.parquet as pq

        t = pq.read_table(path)
        u, v, p = (t[c].to_numpy() for c in "uvp")
    else:
        import networkx as nx

        edges = list(nx.read_graphml(path, node_type=int).edges(data="p"))
        u, v, p = (np.array(x) for x in zip(*edges))
    return {(int(a), int(b)): float(c) for a, b, c in zip(u, v, p)}


#: The release formats this file reads with another library than graphveil (_header_of, _pairs_of).
READ_ELSEWHERE = ("npz", "tsv", "parquet", "graphml")


@pytest.mark.parametrize("fmt", RELEASE_FORMATS)
def test_every_format_is_the_same_release(tmp_path, fmt):
    g0 = datasets.load("karate_club")
    ug, report = obfuscation(g0, k=3, eps=0.3, sigma=0.5, seed=8675309)
    path = tmp_path / f"pub{FORMATS[fmt].suffixes[0]}"
    rec = ug.save(path, seed=9, record=tmp_path / "private.json")
    # the private record: the whole report and the same permutation for every format
    assert isinstance(rec, gv.RunRecord) and rec.report["seed"] == report["seed"] == 8675309
    assert np.array_equal(rec.permutation, ug.save(tmp_path / "other.npz", seed=9).permutation)
    assert np.array_equal(gv.load_record(tmp_path / "private.json").permutation, rec.permutation)
    # the release: no seed, no permutation, no report
    raw = b"".join(part.read_bytes() for part in FORMATS[fmt].files(path))
    for secret in (b"8675309", b"history", b"timings", b"eps_hat", b"permutation"):
        assert secret not in raw
    if fmt not in READ_ELSEWHERE:  # a newer format: its own tests read it with another tool
        return
    # exactly the whitelist
    header = _header_of(path, fmt)
    assert tuple(sorted(header)) == tuple(sorted(UNDIRECTED[:-3]))
    assert header["ids_permuted"] is True and header["n"] == g0.n
    scheme = json.loads(header["scheme"]) if fmt == "npz" else header["scheme"]
    assert scheme == "obfuscation"
    # the record maps the file's ids back to the true pairs exactly
    back = {
        tuple(sorted(rec.to_original(np.array(pair)).tolist())): p
        for pair, p in _pairs_of(path, fmt).items()
    }
    assert back == {(a, b): p for a, b, p in zip(ug.u.tolist(), ug.v.tolist(), ug.p.tolist())}


@pytest.mark.parametrize("fmt", RELEASE_FORMATS)
def test_every_format_refuses_secret_parameters(tmp_path, fmt):
    ug = gv.UncertainGraph(3, [0], [1], [0.5], meta={"scheme": "x", "params": {"a": {"seed": 1}}})
    with pytest.raises(ValueError, match="'seed'.*never be published"):
        ug.save(tmp_path / f"pub{FORMATS[fmt].suffixes[0]}")
    assert os.listdir(tmp_path) == []


def test_the_format_functions_are_the_release_path(tmp_path):
    # write_parquet and to_graphml write the bytes save writes, and return its permutation
    g0 = datasets.load("karate_club")
    ug, _ = randwalk(g0, t=2, seed=3)
    for fmt, write in (
        ("parquet", lambda path: gv.write_parquet(ug, path, seed=4)),
        ("graphml.gz", lambda path: ug.to_graphml(path, seed=4)),
    ):
        perm = write(tmp_path / f"a.{fmt}").permutation
        rec = ug.save(tmp_path / f"b.{fmt}", seed=4)
        assert np.array_equal(perm, rec.permutation)
        assert (tmp_path / f"a.{fmt}").read_bytes() == (tmp_path / f"b.{fmt}").read_bytes()


def test_a_parquet_release_reads_back_as_a_permuted_release(tmp_path):
    g0 = datasets.load("karate_club")
    ug, _ = maxvar(g0, n_potential=60, parts=2, seed=3)
    rec = ug.save(tmp_path / "pub.parquet", record=tmp_path / "private.json")
    for back in (
        gv.read_parquet(tmp_path / "pub.parquet"),
        gv.load_uncertain(tmp_path / "pub.parquet"),
    ):
        assert back.ids_permuted is True and back.meta["scheme"] == "maxvar"
        assert rec.matches(gv.record.release_digest(back.n, back.u, back.v, back.p))
    # evaluate refuses it without the record (its ids are not the true graph's)
    with pytest.raises(ValueError, match="record"):
        gv.evaluate(g0, gv.read_parquet(tmp_path / "pub.parquet"), samples=1)


def test_graphml_is_written_for_other_tools_only(tmp_path):
    ug = gv.UncertainGraph(3, [0], [1], [0.5])
    ug.save(tmp_path / "pub.graphml")
    with pytest.raises(ValueError, match="GraphML.*not read back"):
        gv.load_uncertain(tmp_path / "pub.graphml")
    with pytest.raises(ValueError, match="format must be one of"):
        ug.save(tmp_path / "pub.npz", format="gml")
