"""graphveil.findings: each of the paper's claims on synthetic rows where it holds and where it fails."""

from __future__ import annotations

import pytest

from graphveil.findings import (
    COMPARABLE_REL_ERR,
    RANDWALK_MIN_REL_ERR,
    attack_disagreements,
    comparable,
    paper_claims,
)


def row(scheme, value, h1, h2, err, *, eps=0.01, tv=0.1, reid=None):
    return {
        "scheme": scheme,
        "value": value,
        "label": f"v={value}",
        "H1": h1,
        "H2_open": h2,
        "rel_err": err,
        "tradeoff": h2**0.5 * err,
        "eps_k30": eps,
        "tv_model_normalized": tv,
        "reid_rate": reid,
    }


def paper_like():
    """Rows shaped like the paper's Table 7 on dblp: every claim holds."""
    return [
        row("obfuscation", 0.001, 72.9, 40712.1, 0.018, eps=0.00039, tv=0.01),
        row("obfuscation", 0.01, 41.1, 24618.2, 0.077, eps=0.00051, tv=0.02),
        row("obfuscation", 0.1, 19.7, 7771.4, 0.128, eps=0.00179, tv=0.07),
        row("maxvar", 0.19, 59.7, 3257.2, 0.017, eps=0.00033, tv=0.16),
        row("maxvar", 0.57, 32.1, 325.7, 0.045, eps=0.00017, tv=0.36),
        row("randwalk", 2, 10.0, 4.9, 0.094, eps=0.00318, tv=0.0),
        row("randwalk_mod", 2, 11.8, 4.5, 0.109, eps=0.00073, tv=0.6),
        row("randwalk_mod", 5, 12.0, 5.4, 0.131, eps=0.00057, tv=0.9),
    ]


def verdicts(rows):
    return [c.holds for c in paper_claims(rows, k=(30,))]


def test_every_claim_holds_on_the_papers_numbers():
    assert verdicts(paper_like()) == [True] * 6


def test_maxvar_trend_fails_when_h2_open_rises_and_uses_the_found_ratio():
    rows = paper_like()
    rows[4]["H2_open"] = 4000.0  # H2_open rises with n_p
    assert verdicts(rows)[0] is False
    assert "H2_open 3.26e+03 → 4e+03 (not monotone)" in paper_claims(rows, k=(30,))[0].evidence
    rows = paper_like()
    rows[3]["found"], rows[4]["found"] = 0.6, 0.3  # found ratios order the rows the other way
    assert verdicts(rows)[0] is False


def test_obfuscation_trend_fails_when_rel_err_falls():
    rows = paper_like()
    rows[2]["rel_err"] = 0.05
    assert verdicts(rows)[1] is False


@pytest.mark.parametrize(
    ("field", "value"), [("H2_open", 400.0), ("rel_err", RANDWALK_MIN_REL_ERR - 0.01)]
)
def test_randwalk_claim_fails_on_high_h2_open_or_low_rel_err(field, value):
    rows = paper_like()
    rows[6][field] = value  # above MaxVar's lowest H2_open (325.7), or below the rel.err floor
    rows[6]["tradeoff"] = rows[6]["H2_open"] ** 0.5 * rows[6]["rel_err"]
    assert verdicts(rows)[2] is False


def test_tradeoff_claim_compares_only_comparable_rel_err():
    rows = paper_like()
    # RandWalk (0.094) has a far better tradeoff than MaxVar but is not comparable with 0.045
    assert not comparable(0.045, 0.094) and comparable(0.1, 0.1 * (1 - COMPARABLE_REL_ERR))
    claim = paper_claims(rows, k=(30,))[3]
    assert claim.holds is True and "1 of 1 comparable pairs" in claim.evidence  # obf 0.018 vs 0.017
    rows.append(row("randwalk", 3, 9.0, 1.0, 0.05))  # comparable with MaxVar's 0.045, tradeoff 0.05
    claim = paper_claims(rows, k=(30,))[3]
    assert claim.holds is False and "randwalk v=3" in claim.evidence
    # with no comparable pair the rows cannot decide
    assert (
        paper_claims([r for r in paper_like() if r["scheme"] != "obfuscation"], k=(30,))[3].holds
        is None
    )


def test_eps_claim_is_about_the_rivals_of_table_7():
    rows = paper_like()
    rows.append(row("mixture", 0.5, 12.0, 13.0, 0.03, eps=1e-6))  # not a Table 7 rival
    assert verdicts(rows)[4] is True
    rows[6]["eps_k30"] = rows[7]["eps_k30"] = 1e-5  # RandWalk-mod's mean eps now below MaxVar's
    assert verdicts(rows)[4] is False


def test_tv_ordering_fails_when_a_maxvar_bar_passes_randwalk_mod():
    rows = paper_like()
    rows[4]["tv_model_normalized"] = 0.7
    assert verdicts(rows)[5] is False
    rows[6]["tv_model_normalized"] = rows[7]["tv_model_normalized"] = None  # too large to build
    assert verdicts(rows)[5] is None


def test_claims_without_rows_are_not_measured():
    claims = paper_claims([], k=(30,))
    assert [c.holds for c in claims] == [None] * 6
    assert {c.verdict for c in claims} == {"not measured"}


def test_attack_disagreements_within_and_across_schemes():
    rows = [
        row("maxvar", 0.19, 30, 100, 0.01, reid=0.40),
        row("maxvar", 0.57, 20, 30, 0.06, reid=0.01),
        row("obfuscation", 0.1, 11, 150, 0.13, reid=0.60),
        # obf ranks above EdgeSwitch by both scores; the attack ranks it 0.005 higher: a tie
        row("edge_switch", 0.1, 60, 800, 0.02, reid=0.595),
    ]
    maxvar, obf, switch = attack_disagreements(rows, title=str.upper)
    assert maxvar.startswith(
        "MAXVAR: the attack agrees with H1 and H2_open on the order of its one pair"
    )
    # MaxVar against obf: H1 calls obf more private (11 < 30, 11 < 20), the attack MaxVar
    assert "disagree on 2 of 4 pairs" in maxvar and "MAXVAR v=0.57 → OBFUSCATION v=0.1" in maxvar
    assert obf.startswith("OBFUSCATION: one grid point") and "disagree on 2 of 3 pairs" in obf
    assert switch.endswith("against the other schemes' rows they agree on all 3 pairs.")
    rows[3]["reid_rate"] = 0.55  # now a real gap: EdgeSwitch less re-identified than obf
    assert "disagree on 1 of 3 pairs" in attack_disagreements(rows)[2]
    rows[1]["reid_rate"] = 0.5  # now the attack ranks MaxVar's two points against both scores
    assert "disagree on 1 of its one pair" in attack_disagreements(rows)[0]
    assert attack_disagreements([row("maxvar", 0.19, 30, 100, 0.01)]) == []  # not attacked
