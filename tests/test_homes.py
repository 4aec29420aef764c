"""The one homes of seeds, threads, argument checks and JSON (issue 26), and their old names."""

from __future__ import annotations

import argparse
import hashlib
import json
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from graphveil import _checks, _json, _seeds, _threads


# ---------------------------------------------------------------------------- seeds
def test_derivations_match_their_formulas():
    # Written out independently: a change here changes every published file of a seeded run.
    ss = np.random.SeedSequence
    assert _seeds.derived_seed(1, "a") == int.from_bytes(
        hashlib.sha256(b"1:a").digest()[:8], "little"
    )
    assert _seeds.part_seed(7, 3) == int(
        np.random.default_rng(ss([7, 3])).integers(0, 2**64, dtype=np.uint64)
    )
    assert _seeds.permutation_seed(3) == int(ss([3, 0x9E17]).generate_state(1, np.uint64)[0])
    assert _seeds.permutation_seed(None) is None
    a = _seeds.keyed_rng(5, 1, 2).random(3)
    assert np.array_equal(a, np.random.default_rng(ss([5, 1, 2])).random(3))
    rng = np.random.default_rng(9)
    assert _seeds.evaluation_seeds(9, None) == (
        9,
        int(rng.integers(0, 2**63)),
        int(rng.integers(0, 2**63)),
    )
    assert _seeds.evaluation_seeds(9, 4)[2] == 4
    assert _seeds.metis_seed(2**40 + 7) == (2**40 + 7) % 2**31
    assert 0 <= _seeds.metis_seed(np.random.default_rng(1)) < 2**31


def test_old_seed_names_are_the_home():
    from graphveil.anonymize.parts import part_seed
    from graphveil.anonymize.registry import derived_seed
    from graphveil.experiments import point_seed

    assert derived_seed is _seeds.derived_seed is point_seed
    assert part_seed is _seeds.part_seed


def test_seed_errors_say_what_to_pass():
    with pytest.raises(ValueError, match=r"seed must lie in \[0, 2\*\*64\).*pass an integer"):
        _seeds.seed_to_u64(-1)
    with pytest.raises(TypeError, match="seed must be an int"):
        _seeds.seed_to_u64(1.5)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------- threads
def _slow_square(x: int) -> int:
    time.sleep(0.001 * ((7 * x) % 5))  # finish out of order
    return x * x


@pytest.mark.parametrize("threads", [1, 2, 4, 0, None])
def test_map_ordered_keeps_input_order(threads):
    assert _threads.map_ordered(None, threads, _slow_square, range(12)) == [
        x * x for x in range(12)
    ]


def test_map_ordered_runs_inline_on_one_thread():
    seen: list[threading.Thread] = []
    _threads.map_ordered(None, 1, lambda _x: seen.append(threading.current_thread()), range(3))
    assert seen == [threading.current_thread()] * 3


def test_map_ordered_on_an_executor_star_and_done():
    done: list[int] = []
    with ThreadPoolExecutor(2, thread_name_prefix="mine") as pool:
        names: list[str] = []

        def f(a: int, b: int) -> int:
            names.append(threading.current_thread().name)
            return a - b

        out = _threads.map_ordered(
            pool, 99, f, [(5, 1), (9, 2), (1, 1)], star=True, on_done=lambda: done.append(1)
        )
    assert out == [4, 7, 0]
    assert len(done) == 3
    assert all(name.startswith("mine") for name in names)


def test_map_ordered_raises_the_first_failure_and_cancels_the_rest():
    started: list[int] = []

    def f(x: int) -> int:
        started.append(x)
        if x == 0:
            raise ValueError("boom")
        time.sleep(0.01)
        return x

    with pytest.raises(ValueError, match="boom"):
        _threads.map_ordered(None, 2, f, range(50))
    assert len(started) < 50


def test_iter_ordered_holds_at_most_threads():
    started: list[int] = []
    lock = threading.Lock()

    def f(x: int) -> int:
        with lock:
            started.append(x)
        return x

    out = []
    for value in _threads.iter_ordered(2, f, range(10)):
        time.sleep(0.005)
        assert len(started) <= value + 3  # the one taken, one running, one submitted
        out.append(value)
    assert out == list(range(10))


# ---------------------------------------------------------------------------- checks
def test_check_policy_type_then_value():
    with pytest.raises(TypeError, match="parts must be an integer"):
        _checks.check_int(2.0, "parts", low=1)
    with pytest.raises(ValueError, match="parts must be >= 1, got 0"):
        _checks.check_int(0, "parts", low=1)
    assert _checks.check_ints(np.int64(3), "k", 1) == (3,)
    with pytest.raises(TypeError, match="every k must be an integer"):
        _checks.check_ints([30, True], "k", 1)
    with pytest.raises(ValueError, match="non-empty"):
        _checks.check_ints([], "k", 1)
    with pytest.raises(ValueError, match="threads must be an integer in 0..1024"):
        _checks.check_threads(-1)


def test_check_graph():
    import graphveil as gv
    from graphveil.graph import check_graph

    g = gv.Graph.from_edges([0], [1])
    d = gv.Graph.from_edges([0], [1], directed=True)
    assert check_graph(g) is g
    assert check_graph(d, what=None) is d
    with pytest.raises(TypeError, match="g0 must be a graphveil.Graph, not list; build one"):
        check_graph([], "g0")
    with pytest.raises(_checks.NotApplicable, match="maxvar has no directed form yet"):
        check_graph(d, what="maxvar")


def test_each_fact_has_one_import_path():
    # _common's re-exports of the homes' names are gone, and the lint rule keeps them gone
    from pathlib import Path

    import tomllib

    from graphveil import _common
    from graphveil.anonymize import _report

    pyproject = Path(__file__).parents[1] / "pyproject.toml"
    lint = tomllib.loads(pyproject.read_text())["tool"]["ruff"]["lint"]
    banned = lint["flake8-tidy-imports"]["banned-api"]
    for home in (_checks, _json, _seeds, _threads):
        for name in home.__all__ if hasattr(home, "__all__") else vars(home):
            if name.startswith("_") or not callable(getattr(home, name)):
                continue
            if getattr(home, name).__module__ != home.__name__:
                continue  # imported there, not defined
            assert not hasattr(_common, name), f"graphveil._common.{name}"
            assert f"graphveil._common.{name}" in banned, name
    assert not hasattr(_checks, "check_graph") and not hasattr(_report, "check_graph")
    assert "graphveil._checks.check_graph" in banned


# ---------------------------------------------------------------------------- JSON
def test_dumps_numpy_and_nan_policy():
    value = {"b": np.float32(0.5), "a": np.arange(3), "n": float("nan"), "i": np.int64(2)}
    keep = _json.dumps(value, sort_keys=True)
    assert keep == '{"a": [0, 1, 2], "b": 0.5, "i": 2, "n": NaN}'
    assert json.loads(_json.dumps(value, nan="null")) == {
        "b": 0.5,
        "a": [0, 1, 2],
        "n": None,
        "i": 2,
    }
    assert _json.dumps([np.array([np.inf])], nan="null") == "[[null]]"
    with pytest.raises(TypeError, match="object is not JSON-serialisable"):
        _json.dumps(object())
    assert _json.dumps({"x": {1}}, lenient=True) == '{"x": "{1}"}'


# ---------------------------------------------------------------------------- the CLI
def _actions(parser: argparse.ArgumentParser):
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                yield from _actions(sub)
        else:
            yield action


def test_cli_options_come_from_one_helper_each():
    from graphveil.cli import build_parser
    from graphveil.cli._common import seed_value, threads_value

    actions = list(_actions(build_parser()))
    seeds = [a for a in actions if "--seed" in a.option_strings]
    threads = [a for a in actions if "--threads" in a.option_strings]
    assert seeds and threads
    assert all(a.type is seed_value and a.default in (None, 0, 1) for a in seeds)
    assert all("an integer in [0, 2**64)" in (a.help or "") for a in seeds)
    assert all(a.type is threads_value and a.default == 0 for a in threads)
    assert len({a.help for a in threads}) == 1
