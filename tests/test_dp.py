"""TmF and EdgeFlip (issue 27): their release distributions against closed forms, seeds, input."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

import graphveil as gv
from graphveil.anonymize import dgg, edgeflip, registry, tmf
from graphveil.anonymize._dp import (
    EPSILON_GRID,
    EPSILON_MAX,
    EPSILON_MIN,
    laplace_tail,
    release_pairs,
    two_sided_geometric,
)
from graphveil.anonymize._edgeflip import edgeflip_posterior
from graphveil.anonymize._tmf import tmf_threshold
from graphveil.cli.reproduce import _schemes
from graphveil.experiments import paper_grid

#: Every distributional test fails by chance with probability at most this (seeded: never flaky).
ALPHA = 1e-6


def _binomial_ok(k: int, n: int, p: float) -> bool:
    """``k`` lies inside the two-sided ALPHA acceptance region of Binomial(n, p)."""
    return bool(stats.binomtest(k, n, p).pvalue > ALPHA)


@pytest.fixture(scope="module")
def grqc() -> gv.Graph:
    return gv.datasets.load("ca-GrQc")


@pytest.fixture(scope="module")
def karate() -> gv.Graph:
    return gv.datasets.load("karate_club")


def _pairs(g: gv.Graph) -> int:
    return g.n * (g.n - 1) // 2


def _keys(ug: gv.UncertainGraph) -> set[int]:
    return set((ug.u.astype(np.int64) * ug.n + ug.v).tolist())


# ---------------------------------------------------------------------------- EdgeFlip
@pytest.mark.parametrize("epsilon", [5.0, 8.0])
def test_edgeflip_flip_rates(grqc: gv.Graph, epsilon: float) -> None:
    ug, report = edgeflip(grqc, epsilon=epsilon, seed=11)
    rate = 1.0 / (1.0 + math.exp(epsilon))  # s / 2
    edges = _keys(gv.UncertainGraph(grqc.n, *grqc.edges(), np.ones(grqc.m)))
    kept = len(_keys(ug) & edges)
    added = ug.num_pairs - kept
    assert (kept, added) == (report["kept_edges"], report["added_pairs"])
    assert _binomial_ok(kept, grqc.m, 1.0 - rate)
    assert _binomial_ok(added, _pairs(grqc) - grqc.m, rate)


def test_edgeflip_chi_square_over_repeats(karate: gv.Graph) -> None:
    """Over many releases each true edge survives, each non-edge appears, at the closed-form rate."""
    epsilon, runs = 1.0, 400
    rate = 1.0 / (1.0 + math.exp(epsilon))
    edges = _keys(gv.UncertainGraph(karate.n, *karate.edges(), np.ones(karate.m)))
    counts: dict[int, int] = {}
    for r in range(runs):
        ug, _ = edgeflip(karate, epsilon=epsilon, seed=r)
        for key in _keys(ug):
            counts[key] = counts.get(key, 0) + 1
    iu, iv = np.triu_indices(karate.n, 1)
    all_keys = (iu * karate.n + iv).tolist()
    for is_edge, p in ((True, 1.0 - rate), (False, rate)):
        observed = np.array([counts.get(k, 0) for k in all_keys if (k in edges) == is_edge])
        # each pair's count ~ Binomial(runs, p): a chi-square on the pooled pass / fail cells
        expected = runs * p
        chi2 = float((((observed - expected) ** 2) / (runs * p * (1 - p))).sum())
        assert stats.chi2.sf(chi2, observed.size) > ALPHA


def test_edgeflip_uncertain_is_the_posterior(grqc: gv.Graph) -> None:
    graph_form, _ = edgeflip(grqc, epsilon=6.0, seed=3)
    ug, report = edgeflip(grqc, epsilon=6.0, form="uncertain", seed=3)
    assert _keys(ug) == _keys(graph_form)  # the same bits, read as posteriors
    m_hat, p1, p0 = edgeflip_posterior(_pairs(grqc), ug.num_pairs, 6.0)
    assert np.all(ug.p == p1) and report["p0"] == p0 and 0 < p0 < p1 < 1
    # Bayes by brute force on the closed form: Pr[1 | edge] pi / Pr[1]
    r = 1 / (1 + math.exp(6.0))
    pi = m_hat / _pairs(grqc)
    assert p1 == pytest.approx((1 - r) * pi / ((1 - r) * pi + r * (1 - pi)))
    assert abs(m_hat - grqc.m) < 5 * math.sqrt(_pairs(grqc) * r) + 50


def test_edgeflip_refuses_a_dense_release(grqc: gv.Graph) -> None:
    with pytest.raises(ValueError, match="use tmf"):
        edgeflip(grqc, epsilon=0.5, max_pairs=1_000_000)


# ---------------------------------------------------------------------------- TmF
def test_tmf_threshold_closed_forms() -> None:
    n_pairs, m = 1_000_000, 1_000
    # the high-epsilon case: A + Lap passes at the midpoint shifted by ln(N/m - 1) / (2 eps)
    assert tmf_threshold(n_pairs, m, 10.0) == pytest.approx(math.log(999) / 20 + 0.5)
    # the low-epsilon case: the expected number of passing cells is m
    eps = 1.0
    theta = tmf_threshold(n_pairs, m, eps)
    passing = m * laplace_tail(theta - 1, 1 / eps) + (n_pairs - m) * laplace_tail(theta, 1 / eps)
    assert passing == pytest.approx(m, rel=0.01)


@pytest.mark.parametrize("epsilon", [1.0, 10.0])
def test_tmf_counts_against_closed_form(grqc: gv.Graph, epsilon: float) -> None:
    ug, rep = tmf(grqc, epsilon=epsilon, seed=5)
    eps_cells = epsilon * (1 - rep["params"]["count_share"])
    assert rep["theta"] == tmf_threshold(_pairs(grqc), rep["m_noisy"], eps_cells)
    p_keep = 0.5 * math.exp(-(rep["theta"] - 1) * eps_cells) if rep["theta"] >= 1 else None
    if p_keep is None:
        p_keep = 1 - 0.5 * math.exp((rep["theta"] - 1) * eps_cells)
    p_add = 0.5 * math.exp(-rep["theta"] * eps_cells)
    assert rep["p_keep"] == pytest.approx(p_keep) and rep["p_add"] == pytest.approx(p_add)
    assert _binomial_ok(rep["kept_edges"], grqc.m, p_keep)
    assert _binomial_ok(rep["added_pairs"], _pairs(grqc) - grqc.m, p_add)
    assert abs(rep["m_noisy"] - grqc.m) < 20 / (0.01 * epsilon)  # two-sided geometric tail
    assert np.all(ug.p == 1.0)


def test_release_places_non_edges_uniformly(karate: gv.Graph) -> None:
    """The added pairs are distinct non-edges, uniform (chi-square), in both placement paths."""
    edges = _keys(gv.UncertainGraph(karate.n, *karate.edges(), np.ones(karate.m)))
    free = _pairs(karate) - karate.m
    for p_add in (0.05, 0.9):  # rejection path, then the listed non-edges (2 K > N - m)
        rng = np.random.default_rng(7)
        counts: dict[int, int] = {}
        total = 0
        for _ in range(300):
            u, v, kept, added = release_pairs(karate, 0.0, p_add, rng, 1)
            keys = (u * karate.n + v).tolist()
            assert kept == 0 and len(set(keys)) == added == len(keys)
            assert not set(keys) & edges
            for k in keys:
                counts[k] = counts.get(k, 0) + 1
            total += added
        runs = 300
        observed = np.array(list(counts.values()) + [0] * (free - len(counts)))
        expected = total / free
        # every non-edge is in each release with probability p_add
        chi2 = float((((observed - runs * p_add) ** 2) / (runs * p_add * (1 - p_add))).sum())
        assert stats.chi2.sf(chi2, free) > ALPHA
        assert expected == pytest.approx(runs * p_add, rel=0.05)


# ---------------------------------------------------------------------------- seeds, threads
def test_same_seed_same_bytes_on_any_thread_count() -> None:
    rng = np.random.default_rng(0)
    n = 40_000
    u, v = rng.integers(0, n, 200_000), rng.integers(0, n, 200_000)
    g = gv.Graph.from_edges(u, v, n)
    assert g.m > 3 * 65_536  # several blocks of the keep decisions
    for run in (
        lambda t: tmf(g, epsilon=8.0, seed=9, threads=t),
        lambda t: edgeflip(g, epsilon=12.0, seed=9, threads=t),
    ):
        one, _ = run(1)
        two, _ = run(2)
        assert one.u.tobytes() == two.u.tobytes() and one.v.tobytes() == two.v.tobytes()
        assert one.p.tobytes() == two.p.tobytes()
    a, _ = tmf(g, epsilon=8.0, seed=9)
    b, _ = tmf(g, epsilon=8.0, seed=10)
    assert a.u.tobytes() != b.u.tobytes()


# ---------------------------------------------------------------------------- bad input
DP_SCHEMES = [registry.scheme(name).function for name in registry.names(family="dp")]


@pytest.mark.parametrize("scheme", DP_SCHEMES)
@pytest.mark.parametrize(
    "epsilon", [0, -1.0, math.nan, math.inf, -math.inf, 1e-300, 0.99e-6, 1.01e6, 1e300]
)
def test_bad_epsilon_is_a_value_error(karate: gv.Graph, scheme, epsilon: float) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValueError, match=r"epsilon must be a number in \[1e-06, 1e\+06\]"):
        scheme(karate, epsilon=epsilon, seed=1)


@pytest.mark.parametrize("scheme", DP_SCHEMES)
@pytest.mark.parametrize("epsilon", [EPSILON_MIN, 1e-3, 709.9, 710.0, 1e5, EPSILON_MAX])
def test_every_epsilon_in_the_bounds_publishes(karate: gv.Graph, scheme, epsilon: float) -> None:  # type: ignore[no-untyped-def]
    """The bounds' one home (``_dp.EPSILON_MIN``/``MAX``): inside them every scheme publishes.

    EdgeFlip once overflowed at epsilon >= 709.9 (e^epsilon) and divided by zero at 1e-300.
    """
    ug, report = scheme(karate, epsilon=epsilon, seed=1)
    assert ug.n == karate.n and np.all((ug.p > 0) & (ug.p <= 1))
    assert all(math.isfinite(x) for x in report.values() if isinstance(x, float))
    if epsilon >= 709.9 and scheme is not dgg:  # the noiseless limit: the degrees or G0 itself
        assert ug.num_pairs <= karate.m


def test_noise_too_wide_to_draw_is_refused() -> None:
    """Below 1e-13 per unit of sensitivity the geometric draws would wrap around int64."""
    with pytest.raises(ValueError, match="too wide to draw exactly"):
        two_sided_geometric(np.random.default_rng(0), 3, epsilon=1e-9, sensitivity=1e5)
    with pytest.raises(ValueError, match="too wide to draw exactly"):
        tmf(gv.datasets.load("karate_club"), epsilon=1e-6, count_share=1e-9)


@pytest.mark.parametrize("scheme", DP_SCHEMES)
@pytest.mark.parametrize("epsilon", ["1", True, None])
def test_epsilon_of_another_type_is_a_type_error(karate: gv.Graph, scheme, epsilon) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(TypeError, match="epsilon must be a number"):
        scheme(karate, epsilon=epsilon, seed=1)


@pytest.mark.parametrize("scheme", [tmf, edgeflip])
@pytest.mark.parametrize("n", [0, 1])
def test_too_small_graphs(scheme, n: int) -> None:  # type: ignore[no-untyped-def]
    g = gv.Graph.from_edges([], [], n)
    with pytest.raises(ValueError, match="at least 2 nodes"):
        scheme(g, epsilon=1.0, seed=1)


@pytest.mark.parametrize("scheme", [tmf, edgeflip])
def test_tiny_and_edgeless_graphs_release(scheme) -> None:  # type: ignore[no-untyped-def]
    for g in (
        gv.Graph.from_edges([], [], 2),
        gv.Graph.from_edges([0], [1], 2),
        gv.Graph.from_edges([], [], 5),
    ):
        ug, rep = scheme(g, epsilon=1.0, seed=2)
        assert ug.n == g.n and np.all(ug.u < ug.v)


def test_other_bad_parameters(karate: gv.Graph) -> None:
    for share in (0.0, 1.0, -0.5, math.nan):
        with pytest.raises(ValueError, match="count_share"):
            tmf(karate, epsilon=1.0, count_share=share)
    with pytest.raises(ValueError, match="form must be"):
        edgeflip(karate, epsilon=1.0, form="dense")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="max_pairs"):
        edgeflip(karate, epsilon=1.0, max_pairs=0)
    with pytest.raises(TypeError, match="Graph"):
        tmf(karate.to_networkx(), epsilon=1.0)


# ---------------------------------------------------------------------------- registry, study
def test_registry_family_and_records() -> None:
    assert {"tmf", "edgeflip", "dp_dk", "dgg", "privgraph"} <= set(registry.names(family="dp"))
    assert "tmf" not in registry.names(family="uncertainty")
    for name in registry.names(family="dp"):
        record = registry.scheme(name)
        assert record.default_grid == EPSILON_GRID and record.grid_parameter == "epsilon"
        assert record.check_value(0.0) == (
            "epsilon must be a number in [1e-06, 1e+06] (the privacy budget of edge DP)"
        )
        assert record.check_value(2e6) == record.check_value(math.nan) == record.check_value(0.0)
        assert record.check_value(EPSILON_MIN) is None and record.check_value(EPSILON_MAX) is None
    with pytest.raises(ValueError, match="unknown family"):
        registry.names(family="kanon")


def test_the_default_study_is_the_papers() -> None:
    assert {p.scheme for p in paper_grid()} == set(registry.names(family="uncertainty"))
    assert {p.scheme for p in paper_grid(["tmf"])} == {"tmf"}
    assert _schemes(None, None) is None
    assert _schemes(["all"], None) == list(registry.names())
    assert _schemes(["maxvar"], ["dp"]) == ["maxvar", *registry.names(family="dp")]


def test_study_runs_the_dp_schemes(karate: gv.Graph) -> None:
    from graphveil.experiments import StudyConfig, reproduce

    study = reproduce(
        karate,
        StudyConfig(samples=2, k=(5,)),
        schemes=["tmf", "edgeflip"],
        grid={"tmf": [10.0], "edgeflip": [0.5, 5.0]},
        figures=False,
    )
    # karate's N = 561 pairs stay below the study's bound of 20 m: every point runs
    assert [(r["scheme"], r["value"]) for r in study.rows] == [
        ("tmf", 10.0),
        ("edgeflip", 0.5),
        ("edgeflip", 5.0),
    ]
    assert not study.not_applicable
    assert all(r["rel_err"] is not None and r["reid_rate"] is not None for r in study.rows)


@pytest.mark.parametrize("scheme", registry.names(family="dp"))
@pytest.mark.parametrize("epsilon", ["1e-300", "0", "2e6", "nan"])
def test_the_cli_refuses_an_epsilon_out_of_bounds(
    tmp_path, capsys, scheme: str, epsilon: str
) -> None:  # type: ignore[no-untyped-def]
    """One line, exit 2, nothing written: ``anonymize`` and ``reproduce --grid`` alike."""
    from graphveil.cli import main

    out, record = tmp_path / "out.npz", tmp_path / "out.record.npz"
    line = ["anonymize", scheme, "--dataset", "karate_club", "--epsilon", epsilon]
    assert main([*line, "-o", str(out), "--record", str(record), "--seed", "1"]) == 2
    err = capsys.readouterr().err.strip()
    assert "epsilon must be a number in [1e-06, 1e+06]" in err and len(err.splitlines()) == 1
    folder = tmp_path / "study"
    line = ["reproduce", "--dataset", "karate_club", "--schemes", scheme, "-o", str(folder)]
    assert main([*line, "--grid", f"{scheme}={epsilon}", "--no-figures"]) == 2
    err = capsys.readouterr().err.strip()
    assert "epsilon must be a number in [1e-06, 1e+06]" in err and len(err.splitlines()) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cache"] or not any(tmp_path.iterdir())
