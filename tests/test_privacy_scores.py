"""The privacy-score table is the one list of privacy scores: the registry's attack columns reach
it without an edit, and every reader (reports, the study, evaluate, the CLI) agrees with it."""

from __future__ import annotations

import ast
import csv
import dataclasses
import json
from pathlib import Path

import networkx as nx
import pytest

import graphveil as gv
from graphveil import evaluate, scores
from graphveil import experiments as ex
from graphveil._json import dumps
from graphveil.attack import attack_scores
from graphveil.attack import registry as attacks
from graphveil.cli import main
from graphveil.measure.scores import EPS, MODEL_SCORES, PrivacyScore, sample_score_names
from graphveil.measure.scoring import SCORINGS

PACKAGE = Path(gv.__file__).parent


@pytest.fixture(scope="module")
def karate() -> gv.Graph:
    return gv.Graph.from_networkx(nx.karate_club_graph())


def _attack_rows() -> list[tuple[attacks.Attack, attacks.Column]]:
    return [(a, c) for a in attacks.REGISTRY.values() for c in a.columns]


def test_every_attack_column_is_a_score_with_the_registrys_facts():
    table = {s.name: s for s in scores.PRIVACY_SCORE_TABLE}
    for attack, column in _attack_rows():
        score = table[column.name]
        assert score.on == "attack" and score.attack == attack.name
        assert (score.title, score.meaning) == (column.title, column.meaning)
        assert (score.low, score.high, score.table) == (column.low, column.high, column.table)
        assert score.more_private == column.more_private
        assert score.deterministic == (attack.deterministic and column.deterministic)
        assert score.directed == (attack.directed is not None)
        assert score.target == (column.name if column.more_private else "")
    # and nothing else comes from an attack but the strongest re-identification and edge_eps
    columns = {c.name for _, c in _attack_rows()}
    assert [s.name for s in scores.attack_rows()] == [c.name for _, c in _attack_rows()]
    derived = [s for s in scores.PRIVACY_SCORE_TABLE if s.on == "attack" and not s.attack]
    heads = tuple(a.headline for a in attacks.REGISTRY.values() if a.reidentifies)
    assert [s.strongest for s in derived] == [heads, ("edge_loss", "edge_eps_lower")]
    assert derived[1].value({"edge_loss": 1.5, "edge_eps_lower": 2.5}) == 2.5
    assert all(s.name not in columns for s in derived)


def test_the_table_is_the_model_scores_then_the_attacks(karate):
    names = [s.name for s in scores.PRIVACY_SCORE_TABLE]
    assert names[: len(MODEL_SCORES)] == [s.name for s in MODEL_SCORES]
    assert len(names) == len(set(names))
    targets = [s.target for s in scores.PRIVACY_SCORE_TABLE if s.target]
    assert len(targets) == len(set(targets))
    for score in scores.PRIVACY_SCORE_TABLE:
        assert score.title and score.meaning and score.on in ("sample", "release", "attack")
        assert all(f.format(0.5) for f in score.formats)
        if score.scoring:  # the scoring registry decides it: authors' in some scoring, not all
            ways = {bool(getattr(s, score.scoring)) for s in SCORINGS.values()}
            assert ways == {True, False}, score.name


def test_a_new_attack_column_reaches_the_table_without_an_edit(monkeypatch):
    fake = attacks.Attack(
        name="fake",
        title="Fake",
        function=lambda g0, published: None,
        score=lambda g0, published, request: {"fake_rate": 0.9, "fake_spread": 0.1},
        columns=(
            attacks.Column("fake_rate", "faked", "a fake rate", table=True),
            attacks.Column("fake_spread", "spread", "its spread", more_private=""),
        ),
        headline="fake_rate",
        reidentifies=True,
        help="a fake attack",
        description="A fake attack.",
    )
    monkeypatch.setattr(attacks, "REGISTRY", {**attacks.REGISTRY, "fake": fake})
    monkeypatch.setattr(scores, "REGISTRY", attacks.REGISTRY)
    table = {s.name: s for s in scores._table()}
    assert table["fake_rate"].attack == "fake" and table["fake_rate"].target == "fake_rate"
    assert table["fake_spread"].target == "" and not table["fake_spread"].more_private
    strongest = table["reid"]
    assert "fake_rate" in strongest.strongest
    row = {"reid_rate": 0.2, "fake_rate": 0.7}
    assert strongest.value(row) == 0.7
    assert strongest.value({"reid_rate": None, "fake_rate": float("nan")}) is None


def test_targets_name_their_scores():
    for score in scores.PRIVACY_SCORE_TABLE:
        if not score.target:
            with pytest.raises(ValueError, match="no level of privacy"):
                score.meets(0.1, 0.2)
            continue
        name = score.target_name(50)
        found, k = scores.target_score(name.upper())
        assert found is score and (k == 50 if score.parameter else k is None)
        assert found.key(k) == (f"{score.name}_k50" if score.parameter else score.name)
        assert score.meets(0.1, 0.2) == (score.more_private == "lower")
    assert scores.target_score("eps_k50") == (EPS, 50)
    with pytest.raises(ValueError, match="no privacy score is targeted as 'eps'; one of h1, "):
        scores.target_score("eps")  # eps needs its k
    with pytest.raises(ValueError, match="eps_k<k>"):
        scores.target_score("reid_rate_std")  # a spread is no target


def test_a_record_is_checked_when_defined():
    with pytest.raises(ValueError, match="'x': more_private 'up'"):
        PrivacyScore("x", "x", "x", more_private="up")
    with pytest.raises(ValueError, match="a target needs a direction"):
        PrivacyScore("x", "x", "x", more_private="", target="x")
    with pytest.raises(ValueError, match="no attribute of Scoring"):
        PrivacyScore("x", "x", "x", scoring="nope")
    with pytest.raises(ValueError, match="one column per k"):
        EPS.key()
    with pytest.raises(ValueError, match="'x y': it needs a name"):
        PrivacyScore("x y", "x", "x")
    with pytest.raises(ValueError, match="'x': it needs a name .*, a title and a meaning"):
        PrivacyScore("x", "x", "")
    with pytest.raises(ValueError, match="'x': formats are two"):
        PrivacyScore("x", "x", "x", formats=("{:.0f}",))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="header 'x\\(q=\\{q\\}\\)' do not format"):
        PrivacyScore("x", "x", "x", header="x(q={q})", parameter="k")
    with pytest.raises(ValueError, match="target 'H_X' is not lower case"):
        PrivacyScore("x", "x", "x", target="H_X")
    with pytest.raises(ValueError, match="a score computed by an attack names it"):
        PrivacyScore("x", "x", "x", on="attack")


def test_reports_read_the_model_scores(karate, tmp_path):
    ug = gv.UncertainGraph.from_graph(karate)
    rep = evaluate(karate, ug, samples=2, seed=1, k=(2, 5))
    assert set(sample_score_names()) <= set(rep.per_sample[0]) and rep.original
    for score in MODEL_SCORES:
        if score.on == "sample":
            assert score.in_range(rep.mean[score.name], n=karate.n)
            assert score.in_range(rep.original[score.name], n=karate.n)
    text = rep.table()
    for score in MODEL_SCORES:
        for k in (2, 5) if score.parameter else (None,):
            assert score.column(k) in text
    rep.to_csv(tmp_path / "r.csv")
    with open(tmp_path / "r.csv", newline="") as fh:
        header = next(csv.reader(fh))
    expected = [s.key(k) for s in MODEL_SCORES for k in ((2, 5) if s.parameter else (None,))]
    assert [c for c in header if c in expected] == expected


def test_attacks_and_evaluate_give_every_attack_score(karate):
    published = gv.UncertainGraph.from_graph(karate)
    values = attack_scores(karate, published, samples=1, seed=1, threads=1)
    for score in scores.attack_rows():
        assert score.in_range(values[score.name]), score.name
    rep = evaluate(karate, published, samples=1, seed=1, k=2, attacks=True)
    keys = [k[len("attack_") :] for k in rep.extra if k.startswith("attack_")]
    assert keys[: len(scores.attack_rows())] == [s.name for s in scores.attack_rows()]


def test_the_study_reads_the_table(karate):
    study = ex.reproduce(
        karate,
        ex.StudyConfig(samples=2, seed=3, k=(2, 5)),
        schemes=["maxvar"],
        grid={"maxvar": [0.19]},
        figures=False,
    )
    eps = [EPS.key(k) for k in (2, 5)]
    attack = [s.name for s in scores.attack_rows(table=True)]
    assert ex.ATTACK_COLUMNS == tuple(attack) == attacks.table_columns()
    comparison = study.comparison_table()
    # the scores over several attacks marked table (reid), each with the attack that gave it
    strongest = [c for s in scores.PRIVACY_SCORE_TABLE if s.strongest and s.table
                 for c in (s.name, s.source_key)]  # fmt: skip
    assert strongest[0] == "reid"
    assert list(comparison[0]) == [
        "case", *sample_score_names(), "removed_edges", "added_edges", *eps, "rel_err",
        "tradeoff", *strongest, *attack,
    ]  # fmt: skip
    sampled = list(sample_score_names())
    assert list(study.scheme_table("maxvar")[0])[1 : 1 + len(sampled)] == sampled
    for row in study.rows:
        for score in scores.PRIVACY_SCORE_TABLE:
            for k in (2, 5) if score.parameter else (None,):
                value = score.value(row, k)
                assert score.in_range(value, n=karate.n), (score.name, value)
    lower = [s.name for s in MODEL_SCORES if s.more_private == "lower"]
    assert f"Lower {', '.join(lower)}, rel.err" in study.to_markdown()


def test_the_command_line_lists_and_prints_the_table(capsys, tmp_path):
    assert main(["scores", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [r["name"] for r in listed] == [s.name for s in scores.PRIVACY_SCORE_TABLE]
    for record, score in zip(listed, scores.PRIVACY_SCORE_TABLE, strict=True):
        as_json = json.loads(dumps(dataclasses.asdict(score), nan="null", lenient=True))
        assert {k: v for k, v in record.items() if k != "key"} == as_json  # unbounded: null
    assert main(["scores"]) == 0
    text = capsys.readouterr().out
    for score in scores.PRIVACY_SCORE_TABLE:
        assert score.meaning in text
    g = gv.datasets.load("karate_club")
    gv.UncertainGraph.from_graph(g).save(tmp_path / "g.npz", keep_ids=True)
    argv = ["evaluate", "--dataset", "karate_club", str(tmp_path / "g.npz"), "--samples", "1"]
    assert main([*argv, "--seed", "1", "--k", "2", "--attacks"]) == 0
    out = capsys.readouterr().out
    for score in scores.PRIVACY_SCORE_TABLE:
        if score.on == "attack":
            assert f"\n{score.name} " in out


def _spelled(path: Path) -> set[str]:
    """The string constants "H1" and "H2_open" of a module's code (its docstrings left out)."""
    tree = ast.parse(path.read_text())
    docs = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef))
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return {
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and node.value in ("H1", "H2_open")
        and id(node) not in docs
    }


def test_the_model_scores_are_spelled_in_one_module():
    spelled = sorted(str(p.relative_to(PACKAGE)) for p in PACKAGE.rglob("*.py") if _spelled(p))
    assert spelled == ["measure/scores.py"]
