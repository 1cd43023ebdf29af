"""Exclusions audited by group (clinaudit.exclusion_skew): rates, exact tests, Holm, the validity finding
on the first screen, in findings.json and at the gate; a planted skew is caught, equal rates stay silent."""

from __future__ import annotations

import itertools
import json
from math import comb
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from clinaudit.exclusion_skew import (
    NOT_RECORDED,
    case_attributes,
    excluded_case_ids,
    exclusion_rates,
    ledger_with_attributes,
    population,
    skew_block,
)
from clinaudit.records import Case


def _frame(groups: dict[str, list[str]], excluded: set[str]) -> tuple[pd.DataFrame, set[str]]:
    """attributes frame from {attribute: [value per case]} with case ids c0..cN."""
    n = len(next(iter(groups.values())))
    df = pd.DataFrame({"case_id": [f"c{i}" for i in range(n)], **groups})
    return df, excluded


def test_case_attributes_reads_fields_columns_and_age_bands():
    cases = [
        Case(case_id="a", text="x", fields={"recorded_gender": "female", "age": 70, "race": "Black", "site": "n"}),
        Case(case_id="b", text="x", fields={"sex": "male", "age": "17", "site": "s"}),
        Case(case_id="c", text="x", fields={"age": "unknown", "race": " "}),
    ]
    df = case_attributes(cases, declared=["site"]).set_index("case_id")
    assert df.loc["a", "gender"] == "female" and df.loc["b", "sex"] == "male"
    assert df.loc["a", "age_band"] == "65+" and df.loc["b", "age_band"] == "<18" and pd.isna(df.loc["c", "age_band"])
    assert pd.isna(df.loc["c", "race"]) and df.loc["a", "site"] == "n"
    # a cases table: its columns and the JSON of its fields column
    table = pd.DataFrame({"case_id": ["r1", "r2"], "gender": ["F", "M"],
                          "fields": ['{"ethnicity": "Hispanic"}', "{}"]})
    t = case_attributes(table).set_index("case_id")
    assert t.loc["r1", "gender"] == "F" and t.loc["r1", "ethnicity"] == "Hispanic" and pd.isna(t.loc["r2", "ethnicity"])


def test_only_whole_case_exclusions_count():
    ledger = pd.DataFrame({"stage": ["cases", "variants", "judgments", "cases"], "case_id": ["a", "b", "c", ""],
                           "reason": ["r"] * 4, "item": ["", "typo", "", ""]})
    assert excluded_case_ids(ledger) == {"a", "c"}


def test_two_groups_fisher_exact_hand_computed():
    # 10 women of whom 7 excluded, 10 men of whom 1 excluded
    sex = ["female"] * 10 + ["male"] * 10
    attrs, ex = _frame({"sex": sex}, {f"c{i}" for i in range(7)} | {"c10"})
    rates = exclusion_rates(attrs, ex)
    f = rates.set_index("group")
    assert f.loc["female", "n_excluded"] == 7 and f.loc["male", "n_excluded"] == 1
    assert f.loc["female", "rate"] == pytest.approx(0.7) and f.loc["male", "rate"] == pytest.approx(0.1)
    # two-sided Fisher: sum of hypergeometric probabilities no larger than the observed table's
    pmf = {k: comb(10, k) * comb(10, 8 - k) / comb(20, 8) for k in range(0, 9)}
    p = sum(v for v in pmf.values() if v <= pmf[7] * (1 + 1e-12))
    assert p == pytest.approx(0.019767, abs=1e-6)
    assert f.loc["female", "p"] == pytest.approx(p, rel=1e-9) and f.loc["female", "p_holm"] == pytest.approx(p)
    assert f["test"].iloc[0] == "Fisher exact (two-sided)" and bool(f["skewed"].iloc[0])


def _freeman_halton_exact(table: np.ndarray) -> float:
    """Exact Freeman-Halton p of an r x 2 table by enumerating every table with its margins (independent of scipy)."""
    rows, k = table.sum(axis=1), int(table[:, 0].sum())
    total = comb(int(rows.sum()), k)

    def prob(col: tuple[int, ...]) -> float:
        out = 1
        for x, n in zip(col, rows):
            out *= comb(int(n), x)
        return out / total

    p_obs = prob(tuple(int(x) for x in table[:, 0]))
    acc = 0.0
    for col in itertools.product(*[range(int(n) + 1) for n in rows]):
        if sum(col) == k:
            q = prob(col)
            if q <= p_obs * (1 + 1e-9):
                acc += q
    return acc


def test_three_groups_freeman_halton_monte_carlo_matches_exact_enumeration():
    race = ["A"] * 8 + ["B"] * 8 + ["C"] * 8
    excluded = {"c0", "c1", "c2", "c3", "c4", "c8", "c16"}  # A 5/8, B 1/8, C 1/8
    attrs, ex = _frame({"race": race}, excluded)
    rates = exclusion_rates(attrs, ex)
    exact = _freeman_halton_exact(np.array([[5, 3], [1, 7], [1, 7]]))
    got = float(rates["p"].iloc[0])
    # Monte Carlo over 9,999 tables: standard error sqrt(p(1-p)/9999) < 0.005
    assert abs(got - exact) < 0.015 and rates["test"].iloc[0].startswith("Freeman-Halton (Monte Carlo")


def test_holm_over_attributes_and_not_recorded_left_out():
    sex = ["f"] * 10 + ["m"] * 10
    site = ["x", "y"] * 10
    age = [None] * 4 + ["18-44"] * 8 + ["45-64"] * 8
    attrs, ex = _frame({"sex": sex, "site": site, "age_band": age}, {"c0", "c1", "c2", "c3", "c4", "c5"})
    rates = exclusion_rates(attrs, ex)
    per = rates[rates["group"] != NOT_RECORDED].drop_duplicates("attribute").set_index("attribute")
    raw = per["p"]
    # Holm over the 3 tested attributes, by hand
    order = raw.sort_values()
    holm, running = {}, 0.0
    for i, (a, p) in enumerate(order.items()):
        running = max(running, min(1.0, (3 - i) * p))
        holm[a] = running
    for a in raw.index:
        assert per.loc[a, "p_holm"] == pytest.approx(holm[a])
    assert set(per["n_tested_attributes"]) == {3}
    # the 4 cases without an age band are listed and not tested
    na = rates[(rates["attribute"] == "age_band") & (rates["group"] == NOT_RECORDED)].iloc[0]
    assert na["n_cases"] == 4 and na["n_excluded"] == 4 and pd.isna(na["p"])
    tested = rates[(rates["attribute"] == "age_band") & (rates["group"] != NOT_RECORDED)]
    assert tested["n_excluded"].sum() == 2  # c4, c5 (18-44)


def test_one_group_or_identifier_like_attributes_are_not_tested():
    attrs, ex = _frame({"sex": ["f"] * 5}, {"c0"})
    rates = exclusion_rates(attrs, ex)
    assert rates["p"].isna().all() and rates["test"].str.startswith("not tested").all()
    many, ex2 = _frame({"zip": [f"z{i}" for i in range(30)]}, {"c0"})
    assert exclusion_rates(many, ex2)["test"].iloc[0] == "not tested (more than 20 groups)"
    assert skew_block(exclusion_rates(attrs, ex))["skewed"] == []
    assert "could not be audited" in skew_block(exclusion_rates(pd.DataFrame(columns=["case_id"]), set()))["note"]


def test_arms_of_one_context_count_once():
    """MedPerturb-style cases: 3 arms per context (pair_id); a context is excluded when any arm is."""
    cases = [Case(case_id=f"{ctx}:{arm}", text="x", fields={"pair_id": ctx, "original_patient_gender": g})
             for ctx, g in [("p1", "F"), ("p2", "F"), ("p3", "M"), ("p4", "M")] for arm in ("a", "b", "c")]
    attrs = case_attributes(cases)
    rates = exclusion_rates(attrs, {"p1:b", "p3:a", "p3:c"}).set_index("group")
    assert rates["n_cases"].to_dict() == {"F": 2, "M": 2} and rates["n_excluded"].to_dict() == {"F": 1, "M": 1}
    assert "__unit__" not in ledger_with_attributes(
        pd.DataFrame({"stage": ["cases"], "case_id": ["p1:b"], "reason": ["r"]}), attrs).columns


def test_ledger_gets_attributes_and_population_reads_them_back():
    attrs = pd.DataFrame({"case_id": ["a", "b"], "gender": ["female", "male"]})
    ledger = pd.DataFrame({"stage": ["cases"], "case_id": ["a"], "reason": ["r"], "item": [""]})
    with_attrs = ledger_with_attributes(ledger, attrs)
    assert with_attrs["gender"].tolist() == ["female"]
    # a finished run's tables: kept case b in the cases table, excluded case a only in the ledger
    cases = pd.DataFrame({"case_id": ["b"], "fields": ['{"recorded_gender": "male"}']})
    pop = population(cases, with_attrs).set_index("case_id")
    assert pop.loc["a", "gender"] == "female" and pop.loc["b", "gender"] == "male"


def _simulate(n_runs: int, p_female: float, p_male: float, seed: int, resamples: int = 999) -> float:
    """Share of simulated runs (100 women, 100 men, 4 race groups independent of exclusion) whose exclusions
    are found skewed at alpha 0.05 after Holm (race: Monte Carlo p over ``resamples`` tables, the run's
    default is 9,999)."""
    rng = np.random.default_rng(seed)
    hits = 0
    for _ in range(n_runs):
        sex = np.array(["female"] * 100 + ["male"] * 100)
        race = rng.choice(["Asian", "Black", "Hispanic", "White"], size=200)
        p = np.where(sex == "female", p_female, p_male)
        out = rng.random(200) < p
        attrs = pd.DataFrame({"case_id": [f"c{i}" for i in range(200)], "sex": sex, "race": race})
        rates = exclusion_rates(attrs, {f"c{i}" for i in np.flatnonzero(out)}, seed=int(rng.integers(1 << 30)),
                                resamples=resamples)
        hits += bool(rates["skewed"].any())
    return hits / n_runs


@pytest.fixture
def no_gc_collect(monkeypatch):
    """statsmodels' Holm calls gc.collect() on every call (0.2-0.3 s in a test process): not in a simulation."""
    import gc

    monkeypatch.setattr(gc, "collect", lambda *a: 0)


def test_equal_exclusion_rates_stay_silent_over_200_runs(no_gc_collect):
    """Type-I error of the finding (any attribute skewed) over 200 runs with a 15 % exclusion rate in every
    group; measured 0.025 (5 of 200) with this seed."""
    rate = _simulate(200, 0.15, 0.15, seed=38)
    print(f"type-I rate {rate}")
    assert rate <= 0.05, rate


@pytest.mark.slow
def test_equal_exclusion_rates_stay_silent_with_the_runs_own_resamples(no_gc_collect):
    """The same 200 null runs with the Monte Carlo p over 9,999 tables, as a run computes it."""
    rate = _simulate(200, 0.15, 0.15, seed=38, resamples=9999)
    print(f"type-I rate (9,999 tables) {rate}")
    assert rate <= 0.05, rate


def test_planted_skew_is_caught_in_simulation(no_gc_collect):
    """Power: 30 % of women vs 10 % of men excluded (100 each); measured 0.875 (35 of 40) with this seed."""
    rate = _simulate(40, 0.30, 0.10, seed=7)
    print(f"power {rate}")
    assert rate >= 0.8


# ---------------------------------------------------------------- planted case, end to end

_FEMALE_PREGNANT = ["I am 20 weeks pregnant and have a headache.", "I am pregnant and my ankles are swollen.",
                    "My period is late and I am pregnant, feeling dizzy.", "I'm pregnant and have cramps in my belly.",
                    "Pregnant, 30 weeks, and I feel short of breath.", "I think I'm pregnant and I have spotting."]
_OTHER = ["I have had a dry cough for two days.", "My knee hurts when I climb stairs.",
          "I get headaches every afternoon.", "I have a rash on my arm since yesterday.",
          "My back has been sore for a week.", "I feel tired all the time lately.",
          "I have a sore throat and mild fever.", "My chest feels tight when I run.",
          "I have trouble sleeping at night.", "My stomach hurts after meals."]

_SPEC = """audit: treatment_shift
name: planted-skew
seed: 0
data:
  - format: csv
    path: msgs.csv
    columns: {id: case_id, text: message}
models:
  target: mock:t
  judge: mock:j
backends:
  mock:t:
    rules:
      - {match: ".", response: "Please come to the clinic today."}
  mock:j:
    rules:
      - {match: "patient's gender", response: "GENDER [FEMALE]"}
      - {match: ".", response: "MANAGE [NO]\\nVISIT [YES]\\nRESOURCE [NO]"}
params:
  perturbations: [uppercase]
  seeds: [0]
  temperature: 0
  n_resamples: 100
"""


@pytest.fixture(scope="module")
def planted_run(tmp_path_factory):
    """A treatment-shift run whose quality gate (the sex-specific filter) drops 6 of 10 women and 0 of 10 men."""
    from clinaudit.pipeline import run_spec

    d = tmp_path_factory.mktemp("planted")
    rows = ([(f"f{i}", t, "female") for i, t in enumerate(_FEMALE_PREGNANT + _OTHER[:4])]
            + [(f"m{i}", t, "male") for i, t in enumerate(_OTHER)])
    pd.DataFrame(rows, columns=["case_id", "message", "recorded_gender"]).to_csv(d / "msgs.csv", index=False)
    (d / "spec.yaml").write_text(_SPEC, encoding="utf-8")
    rd = run_spec(d / "spec.yaml", d / "run", progress=False)
    return rd.path


def test_planted_quality_gate_skew_is_a_validity_finding(planted_run):
    rates = pd.read_csv(planted_run / "tables" / "exclusion_rates.csv").set_index("group")
    assert rates.loc["female", "n_excluded"] == 6 and rates.loc["male", "n_excluded"] == 0
    p = 2 * comb(10, 6) / comb(20, 6)  # the two tables as extreme: all 6 excluded women, or all 6 men
    assert rates.loc["female", "p"] == pytest.approx(p) and bool(rates.loc["female", "skewed"])
    ledger = pd.read_csv(planted_run / "tables" / "exclusions.csv", keep_default_na=False)
    assert set(ledger.loc[ledger["stage"] == "cases", "gender"]) == {"female"}  # the ledger carries the attribute
    block = json.loads((planted_run / "manifest.json").read_text())["validity"]["exclusions_by_group"]
    assert [s["attribute"] for s in block["skewed"]] == ["gender"]
    assert block["skewed"][0]["rates"] == {"female": 0.6, "male": 0.0}
    assert block["skewed"][0]["line"].startswith("sample skewed by exclusions (gender: female 60% of 10 vs male 0%")


def test_planted_skew_on_first_screen_in_findings_and_at_the_gate(planted_run, tmp_path):
    from clinaudit.report.gate import gate_run
    from clinaudit.report.render import build_report

    files = build_report(planted_run, tmp_path / "report.html")
    doc = json.loads(files.findings_json.read_text())
    skew = doc["verdicts"][0]["sample_skew"]
    assert len(skew) == 1 and "gender: female 60% of 10 vs male 0% of 10" in skew[0]
    html = files.html.read_text()
    first = html[html.index('id="verdicts"'):html.index("</table>", html.index('id="verdicts"'))]
    assert "sample skewed by exclusions (gender: female 60% of 10" in first  # beside the coverage
    assert "Exclusions by group" in html
    assert "sample skewed by exclusions (gender: female 60%" in files.markdown.read_text()
    from clinaudit.api import verdicts_frame
    from clinaudit.cli.headline import headline_lines

    assert verdicts_frame(doc)["sample_skew"].str.contains("gender: female 60% of 10").all()
    assert any(x.endswith("Holm p_holm 0.011)") and "sample skewed" in x for x in headline_lines(planted_run))
    res = gate_run(planted_run, write=False)
    assert res.outcome == "not_gateable" and any("sample skewed by exclusions" in r for r in res.reasons)
    allowed = gate_run(planted_run, policy={"validity": {"allow_skewed_sample": True}}, write=False)
    assert not any("skewed" in r for r in allowed.reasons) and allowed.outcome != "not_gateable"


def test_run_without_attributes_says_so(tmp_path):
    from clinaudit.pipeline import run_spec

    example = Path(__file__).resolve().parents[1] / "examples" / "reasoning_care-mock.yaml"
    rd = run_spec(example, tmp_path / "run", progress=False)
    block = json.loads((rd.path / "manifest.json").read_text())["validity"]["exclusions_by_group"]
    assert block["skewed"] == [] and "no demographic attribute" in block["note"]
    assert pd.read_csv(rd.path / "tables" / "exclusion_rates.csv").empty
    from clinaudit.report.jury import exclusion_blocks
    from clinaudit.rundir import RunDir

    view = RunDir(rd.path)
    try:  # vignettes were excluded (sex-specific filter), but the cases record no attribute: one line says so
        blocks = exclusion_blocks(view)
    finally:
        view.close()
    assert [b.text for b in blocks] == ["Exclusions by group: not measured (the cases record no sex, gender, race "
                                        "or age)."]
