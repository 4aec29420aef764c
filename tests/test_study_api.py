"""The study's internal API (issue 36): StudyConfig checked when made, StudyState owning resume,
``reproduce(graph, config)`` with the old keywords accepted for one release."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest
from graph_zoo import karate_graph

import graphveil as gv
from graphveil._common import PACKAGE_VERSION
from graphveil.experiments import GridPoint, StudyConfig, graph_digest, reproduce
from graphveil.experiments.config import MAX_COUNT, MAX_KS
from graphveil.experiments.state import StudyState, fingerprint

#: One bad value of every field of StudyConfig and what its one-line message starts with.
BAD = {
    "samples": (0, "samples must be >= 1"),
    "seed": (-1, "seed must lie in [0, 2**64)"),
    "k": ([30, 30], "k has 30 more than once"),
    "obf_k": (MAX_COUNT + 1, "obf_k must lie in 1.."),
    "obf_eps": (1.5, "obf_eps must lie in [0, 1]"),
    "maxvar_parts": (0, "maxvar_parts must be >= 1"),
    "partitioner": ("nope", "unknown partitioner 'nope'"),
    "mixture_t": (10**6, "mixture_t must lie in 1..1,000"),
    "threads": (-1, "threads must be an integer in 0..1024"),
    "attacks": ("yes", "attacks must be True or False"),
    "distance_sources": (0, "distance_sources must be >= 1"),
    "directed": (1, "directed must be True or False"),
    "scoring": ("paper", "scoring must be one of"),
    "allow_identity": (None, "allow_identity must be True or False"),
    "analyst": ("no", "analyst must be True or False"),
}


@pytest.fixture(scope="module")
def karate() -> gv.Graph:
    return karate_graph()


def test_every_field_has_a_bad_value_here():
    # a new setting needs its bound (and a line in BAD)
    assert set(BAD) == {f.name for f in dataclasses.fields(StudyConfig)}


@pytest.mark.parametrize("name", sorted(BAD))
def test_a_bad_field_fails_in_one_line_naming_it(name):
    value, message = BAD[name]
    with pytest.raises((TypeError, ValueError)) as err:
        StudyConfig(**{name: value})
    text = str(err.value)
    assert text.startswith(message) and "\n" not in text
    # replace() re-checks: a config cannot be made bad after the fact
    with pytest.raises((TypeError, ValueError)):
        dataclasses.replace(StudyConfig(), **{name: value})


@pytest.mark.parametrize(
    ("k", "message"),
    [([], "non-empty"), ([0], ">= 1"), (list(range(1, MAX_KS + 2)), f"at most {MAX_KS}"),
     ([2.5], "integer"), ([MAX_COUNT + 1], "1..")],
)  # fmt: skip
def test_k_is_bounded(k, message):
    with pytest.raises((TypeError, ValueError), match=message):
        StudyConfig(k=k)


def test_fields_are_brought_to_one_form():
    config = StudyConfig(k=[30, np.int64(5)], seed=np.uint64(7), threads=None, obf_eps=1)
    assert config.k == (30, 5) and all(type(k) is int for k in config.k)
    assert type(config.seed) is int and config.seed == 7
    assert config.threads == 0 and type(config.obf_eps) is float
    drawn = [StudyConfig(seed=np.random.default_rng(3)).seed for _ in range(2)]
    assert drawn[0] == drawn[1]  # a generator gives one reproducible 64-bit seed
    assert StudyConfig() == StudyConfig(k=[30, 50, 100])  # equal configs, one fingerprint


def test_for_graph_checks_the_graph_and_sets_its_kind(karate):
    assert StudyConfig().for_graph(karate).directed is False
    arcs = gv.Graph.from_edges([0, 1, 2], [1, 2, 0], 3, directed=True)
    assert StudyConfig(directed=False).for_graph(arcs).directed is True
    with pytest.raises(TypeError, match="graphveil.Graph"):
        StudyConfig().for_graph("edges.txt")
    with pytest.raises(ValueError, match="no edges"):
        StudyConfig().for_graph(gv.Graph.from_edges([], [], 3))
    with pytest.raises(ValueError, match="analyst statistics are measured on undirected"):
        StudyConfig(analyst=True).for_graph(arcs)
    with pytest.raises(ValueError, match="for undirected graphs"):
        StudyConfig(scoring="authors").for_graph(arcs)


def _untimed(value):
    """``value`` without its timings (``time_*`` and ``timings`` keys, at any depth)."""
    if isinstance(value, dict):
        return {k: _untimed(v) for k, v in value.items() if not k.startswith(("time", "timings"))}
    return [_untimed(v) for v in value] if isinstance(value, list) else value


def test_the_old_keywords_warn_and_give_the_same_study(karate):
    grid = {"randwalk": [2]}
    new = reproduce(karate, StudyConfig(samples=1, k=(5,), seed=3), schemes=grid, grid=grid,
                    figures=False)  # fmt: skip
    with pytest.warns(DeprecationWarning, match=r"StudyConfig\(samples=\.\.\., k=\.\.\., seed"):
        old = reproduce(karate, samples=1, k=(5,), seed=3, schemes=grid, grid=grid, figures=False)
    assert old.config == new.config
    assert json.dumps(_untimed(old.rows)) == json.dumps(_untimed(new.rows))  # NaN: equal text
    with pytest.raises(TypeError, match="got config and samples="):
        reproduce(karate, StudyConfig(), samples=1)
    with pytest.raises(TypeError, match="unexpected keyword argument 'sample'"):
        reproduce(karate, sample=1)
    with pytest.raises(ValueError, match="samples must be >= 1"), pytest.warns(DeprecationWarning):
        reproduce(karate, samples=0)


def test_the_study_state_owns_resume(tmp_path, karate):
    config = StudyConfig(samples=1).for_graph(karate)
    points = [GridPoint("randwalk", 2.0), GridPoint("maxvar", 0.19)]
    state = StudyState(karate, config, tmp_path)
    assert state.digest == graph_digest(karate)
    assert state.fingerprint == fingerprint(karate, config, PACKAGE_VERSION)
    assert state.pending(points, print) == [(1, points[0]), (2, points[1])]
    state.record(points[0], {"scheme": "randwalk", "H1": 1.5})
    assert state.original(lambda: {"H1": 2.0}) == {"H1": 2.0}
    state.record_preparations({"maxvar": {"seed": 9, "time_s": 0.1}})

    said: list[str] = []
    again = StudyState(karate, config, tmp_path)
    assert again.pending(points, said.append) == [(2, points[1])]
    assert again.rows == {"randwalk=2": {"scheme": "randwalk", "H1": 1.5}}
    assert again.preparations == {"maxvar": {"seed": 9, "time_s": 0.1}}
    assert again.original(lambda: {"H1": -1.0}) == {"H1": 2.0}  # recorded: not measured again
    assert said == ["[1/2] randwalk=2: recorded, reused"]
    # another config, no resume, no folder: nothing reused
    other = StudyState(karate, dataclasses.replace(config, samples=2), tmp_path)
    fresh = StudyState(karate, config, tmp_path, resume=False)
    for state in (other, fresh, StudyState(karate, config)):
        assert len(state.pending(points, print)) == 2 and state.original(dict) == {}
    assert StudyState(karate, config).folder is None
    # a folder holding another graph's study is refused before any work
    (tmp_path / "study.json").write_text(json.dumps({"graph": "x", "graph_digest": "0" * 64}))
    with pytest.raises(ValueError, match="holds the study of another graph"):
        StudyState(karate, config, tmp_path)
    StudyState(karate, config, tmp_path, overwrite=True)
    assert not list((tmp_path / "points").iterdir())  # the other study's points removed
