"""End to end: the paper's study on a small real graph, tables and figures, resume."""

from __future__ import annotations

import csv
import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

import graphveil as gv
from graphveil import experiments as ex
from graphveil.anonymize import registry
from graphveil.experiments import rows as ex_rows
from graphveil.experiments import run as ex_run
from graphveil.experiments import schedule as ex_schedule
from graphveil.experiments import state as ex_state
from graphveil.experiments import tasks as ex_tasks
from graphveil.measure import STATISTICS

#: One point of every scheme of the study (the paper's family): the first of its grid, or one
#: that runs fast on karate.
SMALL_GRID = {
    **{name: [registry.scheme(name).default_grid[0]] for name in registry.names("uncertainty")},
    "obfuscation": [0.01],
    "mixture": [0.5],
}


@pytest.fixture(scope="module")
def karate() -> gv.Graph:
    import networkx as nx

    return gv.Graph.from_networkx(nx.karate_club_graph())


@pytest.fixture(scope="module")
def study_dir(tmp_path_factory, karate):
    out = tmp_path_factory.mktemp("study")
    study = ex.reproduce(
        karate,
        ex.StudyConfig(samples=2, seed=7, k=(2, 5)),
        graph_name="karate",
        grid=SMALL_GRID,
        out_dir=out,
    )
    return out, study


def test_every_file_is_written_and_parses(study_dir):
    out, study = study_dir
    names = {p.name for p in out.iterdir()}
    for table in [*registry.names(family="uncertainty"), "comparison"]:
        assert f"table_{table}.csv" in names and f"table_{table}.md" in names
        with open(out / f"table_{table}.csv", newline="") as fh:
            rows = list(csv.DictReader(fh))
        expected = (
            len(study.scheme_rows(table)) + 1 if table != "comparison" else len(study.rows) + 1
        )
        assert len(rows) == expected
        md = (out / f"table_{table}.md").read_text().splitlines()
        assert len(md) == expected + 2 and all(line.startswith("|") for line in md)
    data = json.loads((out / "study.json").read_text())
    assert data["graph"] == "karate" and data["n"] == 34 and data["m"] == 78
    assert len(data["rows"]) == sum(len(v) for v in SMALL_GRID.values())
    for fig in ("maxvar.png", "tradeoff.png", "attack.png", "total_variance.png"):
        assert (out / fig).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_rows_are_consistent_with_the_paper_definitions(study_dir):
    _, study = study_dir
    assert study.original["S_NE"] == 78
    for row in study.rows:
        terms = [
            abs(row[s] - study.original[s]) / study.original[s]
            for s in STATISTICS
            if study.original[s]
        ]
        assert row["rel_err"] == pytest.approx(np.mean(terms))
        assert row["tradeoff"] == pytest.approx(np.sqrt(row["H2_open"]) * row["rel_err"])
        assert 0 <= row["eps_k2"] <= 1
    switch = study.scheme_rows("edge_switch")[0]
    assert switch["S_NE"] == 78 and switch["S_MD"] == study.original["S_MD"]  # degrees kept exactly
    assert switch["tv"] == 0.0  # deterministic output


def test_resume_reuses_points_and_gives_identical_results(tmp_path, karate):
    grid = {"randwalk_mod": [2, 3], "edge_switch": [0.2]}
    full = ex.reproduce(
        karate,
        ex.StudyConfig(samples=2, seed=3),
        schemes=grid,
        grid=grid,
        out_dir=tmp_path / "a",
        figures=False,
    )
    # Interrupt after the first point: record only it, then resume.
    part = tmp_path / "b"
    ex.reproduce(
        karate,
        ex.StudyConfig(samples=2, seed=3),
        schemes=["randwalk_mod"],
        grid={"randwalk_mod": [2]},
        out_dir=part,
        figures=False,
    )
    messages: list[str] = []
    resumed = ex.reproduce(
        karate,
        ex.StudyConfig(samples=2, seed=3),
        schemes=grid,
        grid=grid,
        out_dir=part,
        figures=False,
        progress=messages.append,
    )
    assert any("reused" in m for m in messages)
    assert sum("reused" in m for m in messages) == 1

    def numbers(row):  # everything but wall-clock timings
        kept = {k: v for k, v in row.items() if not k.startswith("time") and k != "scheme_report"}
        kept["scheme_params"] = row["scheme_report"].get("params")
        return kept

    assert [numbers(r) for r in full.rows] == [numbers(r) for r in resumed.rows]


def test_same_seed_same_numbers_without_out_dir(karate):
    grid = {"randwalk": [3]}
    a = ex.reproduce(
        karate, ex.StudyConfig(samples=2, seed=11), schemes=grid, grid=grid, figures=False
    )
    b = ex.reproduce(
        karate,
        ex.StudyConfig(samples=2, seed=11, threads=1),
        schemes=grid,
        grid=grid,
        figures=False,
    )
    assert (
        a.rows[0]["H2_open"] == b.rows[0]["H2_open"]
        and a.rows[0]["rel_err"] == b.rows[0]["rel_err"]
    )


@pytest.mark.parametrize(
    ("kwargs", "msg"),
    [
        ({"schemes": ["nope"]}, "unknown scheme"),
        ({"grid": {"mixture": [1.5]}}, "p must lie in"),
        ({"grid": {"randwalk": [0]}}, "t must be an integer"),
        ({"grid": {"maxvar": []}}, "empty"),
        ({"samples": 0}, "samples must be"),
        ({"k": [0]}, "k must be"),
        ({"distance_sources": 0}, "distance_sources"),
    ],
)
def test_invalid_options(karate, kwargs, msg):
    settings = {key: value for key, value in kwargs.items() if key in ex_run.OLD_KEYWORDS}
    with pytest.raises(ValueError, match=msg):
        ex.reproduce(karate, ex.StudyConfig(**settings), schemes=kwargs.get("schemes"),
                     grid=kwargs.get("grid"))  # fmt: skip


def test_cli_reproduce_writes_tables_and_resumes(tmp_path, capsys):
    from graphveil.cli import main

    args = [
        "reproduce",
        "--dataset",
        "karate_club",
        "-o",
        str(tmp_path),
        "--samples",
        "2",
        "--schemes",
        "randwalk",
        "edge_switch",
        "--grid",
        "randwalk=2",
        "--grid",
        "edge_switch=0.1",
        "--no-figures",
        "-q",
    ]
    assert main(args) == 0
    first = (tmp_path / "table_comparison.csv").read_text()
    assert "RandWalk t=2" in first and "EdgeSwitch s/m=0.1" in first
    assert main(args) == 0  # everything recorded: resumed, same tables
    assert (tmp_path / "table_comparison.csv").read_text() == first
    assert "| karate_club |" in capsys.readouterr().out
    assert "reid_rate" in first.splitlines()[0]  # attacked by default
    assert "reid_accuracy,reid_coverage,reid_twin_share" in first.splitlines()[0]
    assert main([*args, "--no-attacks", "-o", str(tmp_path / "plain")]) == 0
    header = (tmp_path / "plain" / "table_comparison.csv").read_text().splitlines()[0]
    assert "reid_rate" not in header and "link_auc" not in header


def test_attack_columns_of_the_comparison_table(study_dir):
    _, study = study_dir
    table = study.comparison_table()
    control = table[0]
    assert control["link_auc"] is None and control["reid_rate"] > 0  # G0 published as is
    for row, line in zip(study.rows, table[1:]):
        assert line["reid_rate"] == row["reid_rate"] and 0 <= row["reid_rate"] <= 1
        assert row["reid_rate"] <= line["reid_coverage"] == row["reid_coverage"] <= 1
        assert line["reid_twin_share"] == row["reid_twin_share"] and 0 <= row["reid_twin_share"] < 1
        if row["reid_coverage"] > 0:
            assert line["reid_accuracy"] == pytest.approx(row["reid_rate"] / row["reid_coverage"])
        else:
            assert line["reid_accuracy"] is None
        assert row["attack_samples"] == 2  # min(samples, ATTACK_SAMPLES)
        uncertain = not registry.scheme(row["scheme"]).deterministic
        assert (line["link_auc"] is not None) == uncertain
        assert line["precision_at_m"] is not None  # a graph's pairs tie: defined on every row
        assert line["edge_auc"] is not None and line["edge_loss"] is not None  # every row


@pytest.mark.parametrize(
    ("argv", "msg"),
    [
        (["--grid", "maxvar"], "SCHEME=V1,V2"),
        (["--grid", "maxvar=a,b"], "numbers"),
        (["--schemes", "nope"], "unknown scheme"),
        (["--samples", "0"], "samples must be"),
        (["--distance-sources", "0"], "distance_sources"),
        (["--dataset", "no-such-graph"], "no-such-graph"),
    ],
)
def test_cli_reproduce_user_errors_are_one_line(tmp_path, capsys, argv, msg):
    from graphveil.cli import main

    assert main(["reproduce", "-o", str(tmp_path), "-q", *argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("graphveil: error:") and msg in err


def test_randwalk_mod_model_tv_is_its_uncertain_form(study_dir, karate):
    from graphveil.anonymize import randwalk_mod_tv_bound, randwalk_mod_uncertain

    _, study = study_dir
    row = study.scheme_rows("randwalk_mod")[0]
    assert row["tv"] == 0.0  # the published graph is one realisation of the walks
    model, _ = randwalk_mod_uncertain(karate, 2, alpha=0.5)
    assert row["tv_model"] == pytest.approx(model.total_variance())
    assert 0 < row["tv_model"] <= randwalk_mod_tv_bound(karate, 2) + 1e-9  # Proposition 4.4


def test_maxvar_rows_are_labelled_with_the_n_p_found(karate):
    # n_p/m = 5 asks for 390 potential pairs; karate has far fewer friend-of-friend pairs.
    study = ex.reproduce(
        karate,
        ex.StudyConfig(samples=1, seed=2),
        schemes=["maxvar"],
        grid={"maxvar": [0.19, 5.0]},
        figures=False,
    )
    low, high = study.scheme_rows("maxvar")
    for row in (low, high):
        found = (
            row["pairs"] - karate.m
        )  # the release holds G0's edges plus the potential pairs found
        assert row["n_p_found"] == found and row["found"] == found / karate.m
        assert row["label"].startswith(f"n_p/m={found / karate.m:.3g}")
        assert row["parts"] == 1  # scaled as the paper did: max(1, round(34 / 16000))
    assert low["label"] == f"n_p/m={low['found']:.3g}" and low["n_p_found"] == round(0.19 * 78)
    assert high["n_p_found"] < 390 and high["label"].endswith("(found; asked 5)")
    table = study.scheme_table("maxvar")
    assert [r["n_p/m"] for r in table[1:]] == [low["found"], high["found"]]
    assert [r["requested"] for r in table[1:]] == [0.19, 5.0]
    cases = [r["case"] for r in study.comparison_table()[1:]]
    assert cases == [f"MaxVar {low['label']}", f"MaxVar {high['label']}"]


def test_maxvar_parts_scale_with_the_graph_unless_given():
    assert [registry.maxvar_parts(n) for n in (34, 24_000, 317_080, 1_134_890)] == [1, 2, 20, 71]
    assert (
        registry.maxvar_parts(5_242, 20) == 20 and registry.maxvar_parts(500, 20) == 10
    )  # n // 50 caps it


# --------------------------------------------------------------------------- independent runs, executors
DETERMINISTIC_GRID = {"randwalk": [2], "edge_switch": [0.2], "maxvar": [0.19]}


def test_deterministic_schemes_run_independently(karate):
    grid = DETERMINISTIC_GRID
    study = ex.reproduce(
        karate, ex.StudyConfig(samples=4, seed=5, k=(2,)), schemes=grid, grid=grid, figures=False
    )
    for row in study.rows:
        if row["scheme"] in ("randwalk", "edge_switch"):
            assert row["runs"] == 4
            # Four outputs of four seeds: their statistics differ, so the spread is not 0.
            assert row["std"]["H2_open"] > 0 or row["std"]["S_CC"] > 0
        else:
            assert row["runs"] == 1
    # Run 0 uses the point's seed: its measurement is the first per-run row.
    rw = study.scheme_rows("randwalk")[0]
    runs = [
        gv.evaluate(
            karate,
            gv.anonymize.randwalk(
                karate, t=2, seed=rw["seed"] if r == 0 else ex.point_seed(rw["seed"], f"run-{r}")
            )[0],
            samples=1,
            k=(2,),
            statistics_seed=ex.point_seed(5, "statistics"),
        ).mean
        for r in range(4)
    ]
    assert rw["H2_open"] == pytest.approx(np.mean([r["H2_open"] for r in runs]))
    assert rw["std"]["S_NE"] == pytest.approx(np.std([r["S_NE"] for r in runs], ddof=1))


def _tables(out) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(out.glob("table_*"))}


def test_a_thread_pool_gives_the_local_tables(tmp_path, karate):
    from concurrent.futures import ThreadPoolExecutor

    ex.reproduce(
        karate,
        ex.StudyConfig(samples=3, seed=2, k=(2,)),
        grid=SMALL_GRID,
        out_dir=tmp_path / "a",
        figures=False,
    )
    with ThreadPoolExecutor(3) as pool:
        ex.reproduce(
            karate,
            ex.StudyConfig(samples=3, seed=2, k=(2,)),
            grid=SMALL_GRID,
            out_dir=tmp_path / "b",
            figures=False,
            executor=pool,
        )
    assert _tables(tmp_path / "a") == _tables(tmp_path / "b")


@pytest.mark.parametrize("processes", [False, True])
def test_a_two_worker_dask_cluster_gives_the_local_tables(tmp_path, karate, processes, two_workers):
    grid = {"obfuscation": [0.01], "randwalk": [2], "maxvar": [0.19, 0.57]}
    ex.reproduce(
        karate,
        ex.StudyConfig(samples=3, seed=4, k=(2,)),
        schemes=grid,
        grid=grid,
        out_dir=tmp_path / "a",
        figures=False,
    )
    with two_workers(processes) as client:
        ex.reproduce(
            karate,
            ex.StudyConfig(samples=3, seed=4, k=(2,)),
            schemes=grid,
            grid=grid,
            out_dir=tmp_path / "b",
            figures=False,
            executor=client.get_executor(),
        )
    assert _tables(tmp_path / "a") == _tables(tmp_path / "b")


def test_a_dask_cluster_gets_g0_once_and_keeps_each_published_graph(
    karate, monkeypatch, two_workers
):
    """G0 leaves the client once per study (or evaluation), not with every task, and a
    point's published graph stays on the worker that made it: the client never sends one."""
    from graphveil import evaluate
    from graphveil.measure import Original
    from graphveil.uncertain import UncertainGraph

    sent = {Original: 0, gv.Graph: 0, UncertainGraph: 0}

    def count(cls):
        state = cls.__getstate__

        def getstate(self):
            sent[cls] += 1
            return state(self)

        monkeypatch.setattr(cls, "__getstate__", getstate)

    for cls in sent:
        count(cls)
    # per point: 3 samples + eps (obfuscation, maxvar) or 3 independent runs (randwalk)
    grid = {"obfuscation": [0.01], "randwalk": [2], "maxvar": [0.19]}
    ug, _ = gv.anonymize.obfuscation(karate, k=2, eps=0.1, seed=1)
    with two_workers(True) as client:
        ex.reproduce(
            karate,
            ex.StudyConfig(samples=3, seed=4, k=(2,), attacks=False),
            schemes=grid,
            grid=grid,
            figures=False,
            executor=client.get_executor(),  # plain: the study makes it share
        )
        # once: pickled for the cluster's two workers together, never per task (11 tasks)
        assert sent == {Original: 1, gv.Graph: 1, UncertainGraph: 0}
        sent.update(dict.fromkeys(sent, 0))
        from graphveil.cluster import DaskExecutor

        report = evaluate(karate, ug, samples=4, seed=3, k=2, executor=DaskExecutor(client))
        assert sent == {Original: 1, gv.Graph: 1, UncertainGraph: 1}
    assert report.to_dict() == evaluate(karate, ug, samples=4, seed=3, k=2).to_dict()


def _small_study(graph, grid, threads=0, **options):
    """A two-sample study of ``grid`` on ``graph`` at k = 2, seed 8, without figures."""
    return ex.reproduce(
        graph,
        ex.StudyConfig(samples=2, seed=8, k=(2,), threads=threads),
        schemes=grid,
        grid=grid,
        figures=False,
        **options,
    )


def test_a_killed_cluster_run_resumes(tmp_path, karate):
    """Points are recorded as they finish: a run that dies mid-way keeps them for the next one."""
    from concurrent.futures import ThreadPoolExecutor

    grid = {"randwalk": [2], "maxvar": [0.19]}

    def lost(*args, **kwargs):
        raise RuntimeError("cluster lost")

    class Dies(ThreadPoolExecutor):
        def submit(self, fn, /, *args, **kwargs):
            # MaxVar's samples never come back (RandWalk's independent runs do)
            return super().submit(lost if fn.__name__ == "measure_sample" else fn, *args, **kwargs)

    out = tmp_path / "run"
    with Dies(2) as pool, pytest.raises(RuntimeError, match="cluster lost"):
        _small_study(karate, grid, out_dir=out, executor=pool)
    assert (
        out / "points" / "randwalk_2.json"
    ).exists()  # independent runs finished before the loss
    messages: list[str] = []
    resumed = _small_study(karate, grid, out_dir=out, progress=messages.append)
    assert any("randwalk=2: recorded, reused" in m for m in messages)
    fresh = _small_study(karate, grid)
    assert resumed.tables() == fresh.tables()


@pytest.mark.parametrize("on_executor", [True, False])
def test_a_point_is_recorded_while_the_next_is_anonymized(
    tmp_path, karate, on_executor, monkeypatch
):
    """A finished point is written before a later point's anonymization ends: here MaxVar's
    anonymization waits for RandWalk's record, which only an early record lets it see."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    grid = {"randwalk": [2], "maxvar": [0.19]}
    out = tmp_path / "run"
    record = out / "points" / "randwalk_2.json"
    anonymize = ex_tasks.anonymize_task

    def held(reference, point, config, seed, *prepared):
        if point.scheme == "maxvar":
            for _ in range(600):  # up to 60 s
                if record.exists():
                    break
                threading.Event().wait(0.1)
            else:
                raise AssertionError(
                    "RandWalk's point was not recorded before MaxVar's anonymization"
                )
        return anonymize(reference, point, config, seed, *prepared)

    monkeypatch.setattr(ex_tasks, "anonymize_task", held)
    with ThreadPoolExecutor(2) as pool:
        study = _small_study(karate, grid, out_dir=out, executor=pool if on_executor else None)
    assert [row["scheme"] for row in study.rows] == ["randwalk", "maxvar"]


def test_cli_scheduler_errors_are_clear(capsys):
    from graphveil.cli import main

    assert (
        main(["reproduce", "--scheduler", "local:0", "--samples", "1", "--no-figures", "-q"]) != 0
    )
    assert "local:N needs a positive number" in capsys.readouterr().err


def test_a_study_measures_g0_once(karate, monkeypatch):
    # G0's signatures are built once per study (one index per kind), never per sample or
    # point; no sample is scored by recomputing G0's half (the two-graph kernel).
    from graphveil import _core

    calls = {"index": 0, "two_graph": 0}
    build, score = _core.signature_index, _core.reidentification_score

    def counted_index(*args, **kwargs):
        calls["index"] += 1
        return build(*args, **kwargs)

    def counted_score(*args, **kwargs):
        calls["two_graph"] += 1
        return score(*args, **kwargs)

    monkeypatch.setattr(_core, "signature_index", counted_index)
    monkeypatch.setattr(_core, "reidentification_score", counted_score)
    grid = {"randwalk": [2], "maxvar": [0.19, 0.57]}  # independent runs and sampled points
    study = ex.reproduce(
        karate, ex.StudyConfig(samples=3, seed=2), schemes=grid, grid=grid, figures=False
    )
    assert len(study.rows) == 3
    assert calls == {"index": 2, "two_graph": 0}


@pytest.fixture(scope="module")
def bfs_graph() -> gv.Graph:
    """Above the exact threshold (10,000 nodes): distances come from BFS sources."""
    return gv.generators.powerlaw_cluster(10_500, 2, 0.1, seed=3)


def _sourced_study(graph):
    """MaxVar and RandWalk on ``graph`` with 64 BFS sources, seed 4: G0 and four samples or
    runs are measured."""
    grid = {"maxvar": [0.2], "randwalk": [2]}
    return ex.reproduce(
        graph,
        ex.StudyConfig(samples=2, seed=4, attacks=False, distance_sources=64),
        schemes=grid,
        grid=grid,
        figures=False,
    )


def test_the_distance_sources_reach_g0_and_every_sample(bfs_graph, monkeypatch):
    # Above the exact threshold the study's BFS source count is its own setting, used alike
    # for G0's row and every sample (their errors cancel in rel.err only then).
    from graphveil.measure import distances as D
    from graphveil.measure import utility as U

    g = bfs_graph
    seen = []
    histogram = D.distance_histogram

    def counted(graph, sources=None, **kwargs):
        seen.append(len(sources))
        return histogram(graph, sources, **kwargs)

    monkeypatch.setattr(D, "distance_histogram", counted)
    study = _sourced_study(g)
    assert seen == [64] * 5  # G0, two samples of MaxVar, two runs of RandWalk
    assert study.config.distance_sources == 64
    stats = U.utility_statistics(g, sources=64, seed=ex.point_seed(study.config.seed, "statistics"))
    assert study.original["S_APD"] == stats["S_APD"]


def test_the_diameter_method_is_chosen_once_and_recorded(study_dir, bfs_graph, monkeypatch):
    # G0's S_Diam method (iFUB, or the BFS lower bound where iFUB gives up on G0) is used for
    # G0 and every sample, and the study says which: study.json always, study.md when it is
    # the bound (the shipped tables are all exact).
    from graphveil.measure import utility as U

    out, study = study_dir
    assert study.diameter_method == "ifub"
    assert json.loads((out / "study.json").read_text())["diameter_method"] == "ifub"
    assert "S_Diam is the longest distance" not in (out / "study.md").read_text()

    g = bfs_graph
    methods = []
    statistics = U.utility_statistics

    def recorded(graph, **kwargs):
        methods.append(kwargs["diameter_method"])
        return statistics(graph, **kwargs)

    monkeypatch.setattr(ex_run, "diameter_choice", lambda graph: "lower_bound")
    monkeypatch.setattr(ex_rows, "utility_statistics", recorded)
    bound = _sourced_study(g)
    assert methods == ["lower_bound"] * 5  # G0, two samples of MaxVar, two runs of RandWalk
    assert bound.diameter_method == "lower_bound" and bound.to_json()["diameter_method"] == (
        "lower_bound"
    )
    assert "S_Diam is the longest distance from 64 random BFS sources" in bound.to_markdown()
    seed = ex.point_seed(4, "statistics")
    expected = statistics(g, sources=64, seed=seed, diameter_method="lower_bound")["S_Diam"]
    assert bound.original["S_Diam"] == expected
    exact = statistics(g, sources=64, seed=seed, diameter_method="ifub")["S_Diam"]
    assert expected <= exact


def test_fast_anonymizations_do_not_run_ahead_of_slow_samples(karate, monkeypatch):
    """Locally at most three points hold a published graph (one finishing, one with tasks
    queued, the next anonymizing): RandWalk's anonymizations take milliseconds, its (slowed)
    independent runs do not, yet the points are not all anonymized up front."""
    import threading

    lock = threading.Lock()
    live = {"now": 0, "most": 0}
    anonymize, run = ex_tasks.anonymize_task, ex_tasks.independent_run
    save = ex_state.StudyState.save

    started: set[str] = set()

    def counted(reference, point, *args):
        with lock:  # a point's first anonymization (its independent runs make more)
            if point.key not in started:
                started.add(point.key)
                live["now"] += 1
                live["most"] = max(live["most"], live["now"])
        return anonymize(reference, point, *args)

    def slow(*args):
        threading.Event().wait(0.1)
        return run(*args)

    def saved(state, key, row):
        if key != "original":
            with lock:
                live["now"] -= 1
        return save(state, key, row)

    monkeypatch.setattr(ex_tasks, "anonymize_task", counted)
    monkeypatch.setattr(ex_tasks, "independent_run", slow)
    monkeypatch.setattr(ex_state.StudyState, "save", saved)
    grid = {"randwalk": [2, 3, 5, 10, 20]}
    study = _small_study(karate, grid, threads=2)
    assert len(study.rows) == 5 and live["now"] == 0
    assert 2 <= live["most"] <= 3


def test_the_study_waits_for_work_instead_of_spinning(karate, monkeypatch):
    """On an executor the anonymizations finish in any order; one done ahead of the point
    being queued must not wake the study's loop again and again while it waits."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    anonymize, waited = ex_tasks.anonymize_task, ex_schedule.wait
    calls = {"wait": 0}

    def late(reference, point, config, seed, *prepared):
        if point.scheme == "maxvar":  # the first point; RandWalk's is done long before
            threading.Event().wait(0.5)
        return anonymize(reference, point, config, seed, *prepared)

    def counted(*args, **kwargs):
        calls["wait"] += 1
        return waited(*args, **kwargs)

    monkeypatch.setattr(ex_tasks, "anonymize_task", late)
    monkeypatch.setattr(ex_schedule, "wait", counted)
    grid = {"maxvar": [0.19], "randwalk": [2]}
    with ThreadPoolExecutor(2) as pool:
        study = _small_study(karate, grid, executor=pool)
    assert len(study.rows) == 2
    # at most one per task (0 here: the loop blocks on the next anonymization), not thousands
    assert calls["wait"] <= 20


# --------------------------------------------------------------------------- MaxVar's one partition
MAXVAR_GRID = {"maxvar": [0.1, 0.2, 0.3]}


@pytest.fixture(scope="module")
def clustered() -> gv.Graph:
    """300 nodes: room for 3 MaxVar parts (at most n // 50)."""
    import networkx as nx

    return gv.Graph.from_networkx(nx.powerlaw_cluster_graph(300, 3, 0.3, seed=4))


def _maxvar_study(graph, threads=0, **options):
    return ex.reproduce(
        graph,
        ex.StudyConfig(samples=1, seed=6, k=(2,), attacks=False, maxvar_parts=3, threads=threads),
        schemes=MAXVAR_GRID,
        grid=MAXVAR_GRID,
        figures=False,
        **options,
    )


def _counting_metis(monkeypatch) -> list[int]:
    """Count METIS partitions, wherever the study or MaxVar asks for one (the registry's record)."""
    import dataclasses

    from graphveil.anonymize import partitioners

    calls: list[int] = []
    record = partitioners.PARTITIONERS["metis"]

    def counted(graph, k, **kwargs):
        calls.append(k)
        return record.function(graph, k, **kwargs)

    counting = dataclasses.replace(record, function=counted)
    monkeypatch.setitem(partitioners.PARTITIONERS, "metis", counting)
    return calls


def test_maxvar_partitions_g0_once_per_study(clustered, monkeypatch, tmp_path):
    """As the authors' scripts did (one part file per graph for every n_p): one METIS run."""
    from graphveil.anonymize._maxvar import METIS_OPTIONS
    from graphveil.anonymize.parts import metis_parts

    calls = _counting_metis(monkeypatch)
    study = _maxvar_study(clustered, out_dir=tmp_path)
    assert calls == [3]
    prep = study.preparations["maxvar"]
    assert prep["seed"] == ex.point_seed(6, "maxvar.prepare") and prep["time_s"] >= 0
    assert json.loads((tmp_path / "study.json").read_text())["preparations"]["maxvar"] == prep
    # every point ran on those parts: the same as maxvar given them
    labels = metis_parts(clustered, 3, seed=prep["seed"] % 2**31, options=METIS_OPTIONS)
    for row in study.rows:
        ug, report = gv.anonymize.maxvar(
            clustered,
            n_potential=round(row["value"] * clustered.m),
            parts=3,
            seed=row["seed"],
            allow_fewer=True,
            labels=labels,
        )
        assert row["tv"] == ug.total_variance() and row["pairs"] == ug.num_pairs
        assert row["scheme_report"]["cut_edges"] == report["cut_edges"]
    # resumed: nothing to run, no partition, and its record kept
    resumed = _maxvar_study(clustered, out_dir=tmp_path)
    assert calls == [3] and resumed.preparations == study.preparations


def test_no_partition_without_maxvar_points(clustered, monkeypatch):
    calls = _counting_metis(monkeypatch)
    grid = {"randwalk": [2]}
    study = ex.reproduce(
        clustered,
        ex.StudyConfig(samples=1, k=(2,), attacks=False),
        schemes=grid,
        grid=grid,
        figures=False,
    )
    assert calls == [] and study.preparations == {}


def test_maxvar_tables_do_not_depend_on_threads_or_executor(clustered, tmp_path, two_workers):
    from concurrent.futures import ThreadPoolExecutor

    _maxvar_study(clustered, out_dir=tmp_path / "one", threads=1)
    _maxvar_study(clustered, out_dir=tmp_path / "two", threads=2)
    with ThreadPoolExecutor(2) as pool:
        _maxvar_study(clustered, out_dir=tmp_path / "pool", executor=pool)
    with two_workers(False) as client:
        _maxvar_study(clustered, out_dir=tmp_path / "dask", executor=client.get_executor())
    tables = _tables(tmp_path / "one")
    assert tables and all(_tables(tmp_path / d) == tables for d in ("two", "pool", "dask"))


def test_the_paper_datasets_take_the_paper_maxvar_parts(monkeypatch, tmp_path, karate):
    from graphveil import datasets
    from graphveil.cli import main

    assert [datasets.info(d).maxvar_parts for d in ("com-dblp", "com-amazon", "com-youtube")] == [
        20,
        20,
        60,
    ]
    assert datasets.info("synthetic-youtube").maxvar_parts is None  # the rule: 71
    seen: list[int | None] = []
    real = ex.reproduce

    def fake(graph, config, **kwargs):
        seen.append(config.maxvar_parts)
        return real(graph, config, **{**kwargs, "schemes": ["randwalk"], "grid": {"randwalk": [2]}})

    monkeypatch.setattr(datasets, "load", lambda name, data_dir=None: karate)
    monkeypatch.setattr(ex, "reproduce", fake)
    common = ["--samples", "1", "--no-figures", "--no-attacks", "-q", "--k", "2"]
    for argv in (
        ["--dataset", "com-youtube"],
        ["--dataset", "com-youtube", "--maxvar-parts", "7"],
        ["--dataset", "synthetic-youtube"],
    ):
        assert main(["reproduce", *argv, *common, "-o", str(tmp_path / str(len(seen)))]) == 0
    assert seen == [60, 7, None]


def test_study_md_names_the_authors_run_each_table_reproduces(study_dir):
    out, _ = study_dir
    text = (out / "study.md").read_text()
    sections = text.split("\n## ")
    for name in registry.names(family="uncertainty"):
        record = registry.scheme(name)
        (section,) = [s for s in sections if s.startswith(f"{record.title}\n")]
        line = f"The authors' run these rows reproduce: {record.authors_run}."
        assert (line in section) == bool(record.authors_run), name
        assert (f"\n{record.paper_departs}.\n" in section) == bool(record.paper_departs), name
    # the three schemes of the paper's Tables 4 and 6 name their logged runs
    assert "randwalk_keep_<t>_0.5" in registry.scheme("randwalk_mod").authors_run
    assert (
        "randwalk_<t>_10 (graph-dp/src/random_walk_igraph.py"
        in registry.scheme("randwalk").authors_run
    )
    assert "nb_missing" in registry.scheme("maxvar").authors_run
    # only RandWalk-mod's printed rows depart from its logs (divided by 4), and the figures the
    # note cites are the logged and printed cells of benchmarks/paper_logs.csv
    assert [n for n in registry.names() if registry.scheme(n).paper_departs] == ["randwalk_mod"]
    note = registry.scheme("randwalk_mod").paper_departs
    with (Path(__file__).resolve().parents[1] / "benchmarks" / "paper_logs.csv").open() as f:
        cells = {
            (r["table"], r["column"]): r
            for r in csv.DictReader(f)
            if (r["graph"], r["case"]) == ("dblp", "randwalk_mod t=2")
        }
    for key in (("4", "H1"), ("4", "H2_open")):
        assert cells[key]["relation"] == "log / 4"
        assert f"= {cells[key]['log']} " in note and cells[key]["paper"] in note
    for column in ("eps_k30", "eps_k50", "eps_k100", "removed_edges", "added_edges"):
        assert cells["7", column]["relation"] == "rounded"
        assert cells["7", column]["log"][:7] in note.replace(",", ""), column
        assert cells["7", column]["paper"] in note.replace(",", ""), column


def test_study_md_warns_of_an_unstable_powerlaw_fit(karate, monkeypatch, tmp_path):
    # G0's S_PL fit with a rival (soc-Epinions1's S_PL_out, here faked on karate): study.md
    # says so before the tables, with G0's two fits, the row whose samples spread most and the
    # largest share of a row's rel.err the term makes; a stable fit gives no warning.
    from graphveil.measure.report import relative_error
    from graphveil.measure.utility import PowerLawFit

    fits = {"S_PL": (PowerLawFit(2.7, 55.0, 2050, 0.0517), PowerLawFit(1.89, 2.0, 31149, 0.0521))}
    monkeypatch.setattr(ex_rows, "unstable_powerlaw_fits", lambda g: fits)
    grid = {"maxvar": [0.2, 0.4], "randwalk": [2]}
    study = ex.reproduce(
        karate,
        ex.StudyConfig(samples=3, seed=2, attacks=False),
        schemes=grid,
        grid=grid,
        out_dir=tmp_path,
        figures=False,
    )
    md = (tmp_path / "study.md").read_text()
    head = md.split("\n## RandWalk", 1)[0]  # before the first table
    assert "## Warning: an unstable power-law fit" in head
    assert study.original["unstable_fits"]["S_PL"]["rival_xmin"] == 2.0
    spread = max(study.rows, key=lambda r: r["std"]["S_PL"])
    assert (
        "**S_PL is unstable.** G0 fits alpha 2.7 at x_min 55 (KS 0.0517) and, within 2% of that, "
        "alpha 1.89 at x_min 2 (KS 0.0521) to its degrees" in head
    )
    title = registry.scheme(spread["scheme"]).title
    assert f"Its samples spread most in {title} {spread['label']} (standard deviation" in head

    def share(row):
        mean = {k: row[k] for k in STATISTICS}
        _, terms = relative_error(mean, study.original)
        return terms["S_PL"] / sum(t for t in terms.values() if t == t)

    worst = max(study.rows, key=share)
    assert f"its term is up to {share(worst):.0%} of a row's rel.err" in head
    # a G0 row recorded before the check (no unstable_fits) is checked when it is reused
    point = tmp_path / "points" / "original.json"
    recorded = json.loads(point.read_text())
    del recorded["row"]["unstable_fits"]
    point.write_text(json.dumps(recorded))
    again = ex.reproduce(
        karate,
        ex.StudyConfig(samples=3, seed=2, attacks=False),
        schemes=grid,
        grid=grid,
        out_dir=tmp_path,
        figures=False,
    )
    assert again.to_markdown() == study.to_markdown()
    monkeypatch.setattr(ex_rows, "unstable_powerlaw_fits", lambda g: {})
    stable = ex.reproduce(
        karate,
        ex.StudyConfig(samples=3, seed=2, attacks=False),
        schemes=grid,
        grid=grid,
        figures=False,
    )
    assert "unstable" not in stable.to_markdown() and "unstable_fits" not in stable.original


# ------------------------------------------------------- issue 33/34: every axis, the analyst
def _reidentifying():
    from graphveil.attack import registry as attacks

    return [a for a in attacks.REGISTRY.values() if a.reidentifies]


def test_rows_carry_the_strongest_reidentification_and_its_attack(study_dir):
    from graphveil.experiments.config import STRONGEST_COLUMNS

    _, study = study_dir
    heads = {a.headline: a.name for a in _reidentifying()}
    for row in [study.original, *study.rows]:
        rates = {h: row[h] for h in heads if row[h] is not None}
        assert row["reid"] == max(rates.values())  # the largest headline, by hand
        assert rates[next(h for h, a in heads.items() if a == row["reid_attack"])] == row["reid"]
    header = list(study.comparison_table()[0])
    assert header[-len(STRONGEST_COLUMNS) - len(ex.ATTACK_COLUMNS) :] == [
        *STRONGEST_COLUMNS,
        *ex.ATTACK_COLUMNS,
    ]
    for a in _reidentifying():  # every re-identifying attack's rate is shown (its table flag)
        assert a.headline in ex.ATTACK_COLUMNS


def test_a_release_without_node_identity_is_not_scored_as_protected():
    """DP-dK and DGG deal synthetic edges to the nodes: no attack maps them, whatever epsilon.

    The registry says so (node_identity), the attacks of those rows are None (not 0), and the
    claim is true: at epsilon 1000 (no noise to speak of) every attack re-identifies next to
    nothing of ca-GrQc in them, while a scheme with node identity at that epsilon is mapped.
    """
    from graphveil.attack import attack_scores

    g = gv.datasets.load("ca-GrQc")
    without = [s for s in registry.names() if not registry.scheme(s).node_identity]
    assert without  # the study's DP generators
    heads = [a.headline for a in _reidentifying()]
    for name in [*without, "tmf"]:
        ug, _ = registry.scheme(name).function(g, epsilon=1000.0, seed=1)
        identity = registry.scheme(name).node_identity
        measured = attack_scores(g, ug, 1, seed=2)  # the attacks run anyway
        best = max(measured[h] for h in heads)
        assert (best > 0.5) if identity else (best < 0.02), (name, best)
        scored = attack_scores(g, ug, 1, seed=2, node_identity=identity)
        assert all((scored[h] is None) != identity for h in heads)
        assert scored["edge_loss"] is not None  # the edge attack applies to every release


def test_the_study_leaves_no_identity_rows_off_the_reid_axis(karate):
    from graphveil.experiments import families

    without = [s for s in registry.names() if not registry.scheme(s).node_identity]
    schemes = ["maxvar", "tmf", *without]
    grid = {s: [0.19] if s == "maxvar" else [5.0] for s in schemes}
    study = ex.reproduce(
        karate, ex.StudyConfig(samples=1, k=(2,)), schemes=schemes, grid=grid, figures=False
    )
    for row in study.rows:
        off = row["scheme"] in without
        assert (row["reid"] is None) == off and (row["reid_attack"] is None) == off
        assert all((row[a.headline] is None) == off for a in _reidentifying())
    md = study.to_markdown()
    for ax in families.AXES:
        assert f"### {ax.title}" in md
    titles = ", ".join(sorted(registry.scheme(s).title for s in without))
    assert f"{titles}: {families.NO_NODE_IDENTITY}" in md


def _best_by_hand(rows, ax, level, family):
    members = registry.names(family=family)
    best = None
    for r in rows:
        v = ax.value(r)
        if r["scheme"] in members and v is not None and v <= level:
            if best is None or r["rel_err"] < best["rel_err"]:
                best = r
    return best


def test_family_comparison_on_every_axis_against_a_plain_loop():
    from graphveil.experiments import families

    rng = np.random.default_rng(5)
    rows = []
    for scheme in registry.names():
        for i, value in enumerate((0.5, 2.0, 10.0)):
            rows.append(
                {
                    "scheme": scheme,
                    "value": value,
                    "label": f"v={i}",
                    "rel_err": float(rng.random()),
                    "reid": float(rng.random()),
                    "reid_attack": "percolation",
                    "edge_eps_lower": float(rng.normal(6, 4)),
                    "edge_loss": 1.0,
                }
            )
    for ax in families.AXES:
        for c in families.family_comparison(rows, ax):
            for family in registry.FAMILIES:
                assert c["best"][family] is _best_by_hand(rows, ax, c["level"], family)
    eps = families.axis("epsilon")
    assert all(
        (eps.value(r) is None) == (registry.scheme(r["scheme"]).grid_parameter != "epsilon")
        for r in rows
    )


def test_the_analyst_columns_of_the_study(karate):
    from graphveil.experiments import families
    from graphveil.measure.errors import analyst_error
    from graphveil.measure.utility import analyst_names

    pytest.importorskip("igraph")
    grid = {"maxvar": [0.19, 0.5], "randwalk": [2], "tmf": [2.0, 10.0]}
    kw = dict(schemes=grid, grid=grid, figures=False)
    config = ex.StudyConfig(samples=2, seed=4, k=(2,))
    plain = ex.reproduce(karate, config, **kw)
    study = ex.reproduce(karate, replace(config, analyst=True), **kw)
    assert study.config.to_dict()["analyst"] is True and "analyst" not in plain.config.to_dict()
    names = analyst_names()
    for a, b in zip(plain.rows, study.rows):
        assert a["rel_err"] == b["rel_err"] and a["H2_open"] == b["H2_open"]  # paper's unchanged
        assert not set(names) & set(a)
        mean = {n: b[n] for n in names}
        assert b["analyst_err"] == pytest.approx(analyst_error(mean, study.original)[0])
    table = study.tables()["analyst"]
    assert list(table[0]) == ["case", *names, "analyst_err"] and len(table) == len(study.rows) + 1
    assert "analyst_err" in study.comparison_table()[0]
    assert "analyst" not in plain.tables() and "analyst_err" not in plain.comparison_table()[0]
    ax = families.axis("epsilon")
    for level in ax.levels:  # PGB's count against a plain loop
        wins = families.analyst_wins(study.rows, study.original, ax, level)
        entrants = {}
        for r in study.rows:
            v = ax.value(r)
            if v is not None and v <= level:
                if (
                    r["scheme"] not in entrants
                    or r["analyst_err"] < entrants[r["scheme"]]["analyst_err"]
                ):
                    entrants[r["scheme"]] = r
        assert {s: w[1] for s, w in wins.items()} == entrants
        terms = {
            s: analyst_error({n: r[n] for n in names}, study.original)[1]
            for s, r in entrants.items()
        }
        for s in entrants:
            won = sum(
                terms[s][n] == min(t[n] for t in terms.values() if np.isfinite(t[n]))
                for n in names
                if np.isfinite(terms[s][n])
            )
            assert wins[s][0] == won
    md = study.to_markdown()
    assert "communities kept best" in md and "## Analyst statistics" in md


def test_an_older_state_is_recomputed_not_mixed(tmp_path, karate, monkeypatch):
    from graphveil.experiments import state

    grid = {"randwalk": [2]}
    config = ex.StudyConfig(samples=1, k=(2,))
    kw = dict(schemes=grid, grid=grid, figures=False, out_dir=tmp_path)
    monkeypatch.setattr(state, "STATE_VERSION", state.STATE_VERSION - 1)
    ex.reproduce(karate, config, **kw)
    monkeypatch.undo()
    messages: list[str] = []
    study = ex.reproduce(karate, config, progress=messages.append, **kw)
    assert not any("reused" in m for m in messages) and study.rows[0]["reid"] is not None


def test_cli_analyst_flags(tmp_path, capsys):
    from graphveil.cli import main

    pytest.importorskip("igraph")
    args = ["reproduce", "--dataset", "karate_club", "--schemes", "randwalk", "--grid",
            "randwalk=2", "--samples", "1", "--k", "2", "--no-figures", "-q", "--analyst"]  # fmt: skip
    assert main([*args, "-o", str(tmp_path / "s")]) == 0
    assert "analyst_err" in (tmp_path / "s" / "table_analyst.csv").read_text().splitlines()[0]
    assert main(["anonymize", "randwalk", "--dataset", "karate_club", "-t", "2", "--seed", "1",
                 "--keep-ids", "-o", str(tmp_path / "r.npz"), "-q"]) == 0  # fmt: skip
    capsys.readouterr()
    assert main(["evaluate", "--dataset", "karate_club", str(tmp_path / "r.npz"), "--samples",
                 "1", "--seed", "1", "--analyst"]) == 0  # fmt: skip
    assert "analyst.err" in capsys.readouterr().out


def test_the_analyst_study_of_a_directed_graph_is_refused():
    g = gv.Graph.from_edges([0, 1, 2], [1, 2, 0], 3, directed=True)
    with pytest.raises(ValueError, match="undirected"):
        ex.reproduce(g, ex.StudyConfig(analyst=True), figures=False)
