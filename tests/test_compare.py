"""``clinaudit compare``: per-metric paired differences of two runs, pooled and per stratum, their CIs,
tests, verdicts, refusals and files.

Hand-built run directories (treatment-shift paired layout) give hand-computed rates and an exact
sign-flip p recomputed here by enumerating every sign pattern in plain numpy; two real mock runs
(a planted treatment shift) check the acceptance: *worse* with a CI excluding 0, and an identical
pair as no change (*inconclusive* with 8 cases: the CI of "no case of 8 moved" is too wide)."""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from clinaudit.cli.main import main
from clinaudit.errors import NotComparableError
from clinaudit.report.compare import compare_runs, verdict
from clinaudit.report.compare_metrics import DIRECTIONS, declared_compare_metrics
from clinaudit.rundir import RunDir


def _paired(shift: list[int], model: str = "m") -> pd.DataFrame:
    """Treatment-shift pairs: per case, one MANAGE pair (c+ = 0) with T_b = 0 and T_p = shift[c]."""
    rows = []
    for i, s in enumerate(shift):
        rows.append(dict(case_id=f"c{i:02d}", dataset="d", model=model, perturbation="typo", question="MANAGE",
                         seed=0, seed_b=1, T_b=0, T_p=s))
        # a noise-floor row: never compared (TSR of the pairs under perturbation only)
        rows.append(dict(case_id=f"c{i:02d}", dataset="d", model=model, perturbation="noise_floor",
                         question="MANAGE", seed=0, seed_b=1, T_b=0, T_p=1))
    return pd.DataFrame(rows)


def _run(base: Path, name: str, shift: list[int], *, model: str = "m", params: dict | None = None,
         audit: str = "treatment_shift", texts: dict[str, str] | None = None,
         paired: pd.DataFrame | None = None, status: str | None = "complete") -> Path:
    rd = RunDir(base / name)
    spec = {"audit": audit, "name": name, "models": {"target": model}, "params": params or {"seeds": [0, 1]}}
    rd.start(spec=spec, models=[{"spec": model}], seeds=[0], command="test")
    n = len(shift)
    rd.write_table("cases", pd.DataFrame({"case_id": [f"c{i:02d}" for i in range(n)], "dataset": "d",
                                          "text": [f"case {i}" for i in range(n)]}))
    rd.write_table("paired", paired if paired is not None else _paired(shift, model))
    texts = texts or {}
    rd.write_table("responses", pd.DataFrame({
        "request_key": [f"k{i}" for i in range(n)], "stage": "target", "model": model,
        "case_id": [f"c{i:02d}" for i in range(n)], "variant_id": [f"c{i:02d}::typo" for i in range(n)],
        "seed": 0, "text": [texts.get(f"c{i:02d}", f"{model} says: come to the clinic") for i in range(n)]}))
    if status is not None:
        rd.finish(usage={}, audit=audit, status=status, summary={})
    rd.close()
    return rd.path


def exact_sign_flip_p(d: np.ndarray) -> float:
    """Two-sided exact sign-flip p of mean(d), by enumerating all 2^n sign patterns (independent of scipy)."""
    obs = abs(d.mean())
    stats = [abs((d * np.array(s)).mean()) for s in itertools.product((1, -1), repeat=len(d))]
    return float(np.mean(np.array(stats) >= obs - 1e-12))


def test_planted_shift_is_worse_with_a_ci_excluding_zero(tmp_path):
    shift = [1] * 7 + [0] * 3  # run B changes its answer in 7 of 10 cases; run A never does
    a = _run(tmp_path, "a", [0] * 10, model="old")
    b = _run(tmp_path, "b", shift, model="new")
    comp = compare_runs(a, b, tmp_path / "cmp", n_resamples=500)
    tsr = comp.table.set_index("metric").loc["TSR"]
    assert tsr["value_a"] == 0.0 and tsr["value_b"] == pytest.approx(0.7) and tsr["difference"] == pytest.approx(0.7)
    assert tsr["n_cases"] == 10 and tsr["n_pairs_a"] == 10 and tsr["n_pairs_b"] == 10  # noise-floor rows left out
    p = exact_sign_flip_p(np.array(shift, dtype=float))
    assert p == pytest.approx(2 / 2 ** 7)  # only the all-positive and all-negative flips of the 7 ones
    assert tsr["p"] == pytest.approx(p)
    # Holm over TSR and RCR (both p = 1/64): p_adj = 2 * p
    assert tsr["p_adj"] == pytest.approx(min(1.0, 2 * p))
    assert 0 < tsr["ci_low"] <= 0.7 <= tsr["ci_high"] <= 1.0
    assert tsr["verdict"] == "worse" and tsr["direction"] == "lower"
    assert comp.verdicts() == {"TSR": "worse", "RCR": "worse"}  # MANAGE: 0 -> 1 is a reduction of care
    # per-case differences: one row per metric and case, B − A
    pc = comp.per_case[comp.per_case["metric"] == "TSR"].set_index("case_id")["difference"]
    assert pc.to_dict() == {f"c{i:02d}": float(s) for i, s in enumerate(shift)}
    # files
    csv = pd.read_csv(comp.files["csv"], keep_default_na=False)
    # one perturbation and one question: no stratum with two levels, so the pooled rows only
    assert list(csv["metric"]) == ["TSR", "RCR"] and list(csv["verdict"]) == ["worse", "worse"]
    assert list(csv["stratum"]) == ["pooled", "pooled"]
    doc = json.loads(comp.files["json"].read_text(encoding="utf-8"))
    assert doc["schema"] == "clinaudit.comparison/2" and doc["comparability"]["differences"] == []
    assert [f["metric"] for f in doc["findings"]] == ["TSR", "RCR"]
    assert len(doc["examples"]["TSR"]) == 3  # three side-by-side examples of cases that changed
    html = comp.files["html"].read_text(encoding="utf-8")
    assert "B is WORSE on TSR" in html and 'id="findings"' in html.split('id="comparability"')[0]


def test_identical_runs_are_within_margin_only_with_enough_cases(tmp_path):
    """Identical runs: every per-case difference is 0 and the bootstrap CI is [0, 0]. That zero width says
    nothing about precision: the exact bound for "no case of n moved" is 1 − 0.025^(1/n), inside the 5 pp
    margin from n = 72 on (0.0500 at 71.9). 8 cases: inconclusive; 80 cases: within_margin."""
    small = [1, 0, 1, 1, 0, 0, 1, 0]
    comp = compare_runs(_run(tmp_path, "a", small), _run(tmp_path, "b", small), tmp_path / "cmp", n_resamples=200)
    for rec in comp.table.to_dict("records"):
        assert rec["difference"] == 0.0 and rec["ci_low"] == 0.0 and rec["ci_high"] == 0.0
        assert rec["p"] == 1.0 and rec["verdict"] == "inconclusive" and rec["margin"] == 0.05
    assert comp.findings == [] and len(comp.inconclusive) == 2
    assert 1 - 0.025 ** (1 / 8) > 0.05 and 1 - 0.025 ** (1 / 80) < 0.05
    assert "No change shown" in comp.files["html"].read_text(encoding="utf-8")
    big = [i % 2 for i in range(80)]
    comp = compare_runs(_run(tmp_path, "a80", big), _run(tmp_path, "b80", big), n_resamples=200)
    assert set(comp.table["verdict"]) == {"within_margin"} and comp.findings == [] and comp.inconclusive == []


def test_noisy_small_difference_is_inconclusive_not_a_verdict(tmp_path):
    a = _run(tmp_path, "a", [0, 1, 0, 1, 0, 1])
    b = _run(tmp_path, "b", [1, 0, 1, 1, 0, 1])  # +1 pair of 6 on balance: not detectable with 6 cases
    comp = compare_runs(a, b, n_resamples=300)
    tsr = comp.table.set_index("metric").loc["TSR"]
    assert tsr["difference"] == pytest.approx(1 / 6)
    d = np.array([1, -1, 1, 0, 0, 0], dtype=float)
    assert tsr["p"] == pytest.approx(exact_sign_flip_p(d))
    assert tsr["verdict"] == "inconclusive"
    unsure = {e["metric"]: e for e in comp.inconclusive}
    half = (tsr["ci_high"] - tsr["ci_low"]) / 2
    assert unsure["TSR"]["n_needed"] == math.ceil(6 * (half / 0.05) ** 2)


@pytest.mark.parametrize("direction,diff,expected", [
    ("lower", 0.2, "worse"), ("lower", -0.2, "better"), ("higher", 0.2, "better"), ("higher", -0.2, "worse"),
    ("", 0.2, "higher"), ("", -0.2, "lower"),
])
def test_verdict_signs_by_direction(direction, diff, expected):
    lo, hi = (0.1, 0.3) if diff > 0 else (-0.3, -0.1)
    assert verdict(direction, diff, lo, hi, 0.01) == expected
    assert verdict(direction, diff, lo, hi, 0.2) == "inconclusive"  # not significant after Holm
    assert verdict(direction, diff, -0.05, 0.3, 0.01) == "inconclusive"  # CI includes 0
    # inside the margin: within_margin; reaching it or without a margin: inconclusive
    assert verdict(direction, 0.01, -0.03, 0.04, 0.5, margin=0.05) == "within_margin"
    assert verdict(direction, 0.01, -0.03, 0.05, 0.5, margin=0.05) == "inconclusive"
    assert verdict(direction, 0.01, -0.03, 0.04, 0.5, margin=None) == "inconclusive"


def test_every_declared_metric_has_a_direction():
    audits = ("treatment_shift", "note_generation", "reasoning_care", "association", "classifier_gaps")
    found = {a: declared_compare_metrics(a) for a in audits}
    assert all(found.values()) and all(m.direction in DIRECTIONS for ms in found.values() for m in ms)


def test_runs_of_two_audits_are_refused(tmp_path):
    a = _run(tmp_path, "a", [0, 1])
    b = _run(tmp_path, "b", [0, 1], audit="other_audit")
    with pytest.raises(NotComparableError, match="different audits"):
        compare_runs(a, b)


def test_differences_beyond_the_model_are_listed(tmp_path, capsys):
    a = _run(tmp_path, "a", [0] * 6, params={"seeds": [0, 1]})
    b = _run(tmp_path, "b", [0] * 5, params={"seeds": [0, 1, 2]}, model="other")
    comp = compare_runs(a, b)
    diffs = comp.info["differences"]
    assert any("params.seeds" in d for d in diffs)
    assert any("1 only in A, 0 only in B" in d for d in diffs)
    assert not any("models" in d or "name" in d.split(":")[0] for d in diffs)  # the model and name may differ
    assert comp.table["n_cases"].tolist() == [5, 5]
    assert main(["compare", str(a), str(b), "--out", str(tmp_path / "cmp")]) == 0
    err = capsys.readouterr().err
    assert "differ beyond the model" in err and "params.seeds" in err


def test_several_models_are_compared_with_their_namesakes(tmp_path, capsys):
    two_a = pd.concat([_paired([1, 1, 0], "x"), _paired([0, 0, 0], "y"), _paired([0, 0, 0], "z")], ignore_index=True)
    two_b = pd.concat([_paired([1, 1, 0], "x"), _paired([1, 1, 1], "y")], ignore_index=True)
    a = _run(tmp_path, "a", [0, 0, 0], paired=two_a)
    b = _run(tmp_path, "b", [0, 0, 0], paired=two_b)
    comp = compare_runs(a, b, n_resamples=100)
    pooled = comp.table[comp.table["stratum"] == "pooled"].set_index(["model_b", "metric"])
    assert set(pooled.index.get_level_values(0)) == {"x", "y"}
    assert (pooled["model_a"] == pooled.index.get_level_values(0)).all()  # each with its namesake
    assert pooled.loc[("x", "TSR"), "value_a"] == pytest.approx(2 / 3) and pooled.loc[("x", "TSR"), "difference"] == 0
    assert pooled.loc[("y", "TSR"), "value_b"] == 1.0 and pooled.loc[("y", "TSR"), "difference"] == 1.0
    # each model pair is its own Holm family
    assert pooled["family"].nunique() == 2
    assert comp.info["model_pairs"] == [["x", "x"], ["y", "y"]]
    assert comp.info["model_notes"] == ["model 'z' of run A has no namesake in run B (not compared)"]
    assert set(comp.verdicts()) == {"x: TSR", "x: RCR", "y: TSR", "y: RCR"}
    # a namesake whose answers in run B are all unusable: its rows are inconclusive, and the notes say why
    b2 = _run(tmp_path, "b2", [0, 0, 0], paired=two_b.assign(T_p=two_b["T_p"].where(two_b["model"] != "y")))
    comp2 = compare_runs(a, b2, n_resamples=100)
    assert set(comp2.table[comp2.table["model_b"] == "y"]["verdict"]) == {"inconclusive"}
    assert "model 'y' of run B vs 'y' of run A: no case has a usable score in both runs (its rows are " \
           "inconclusive)" in comp2.info["model_notes"]
    # a multi-model run against a one-model run of another name: choose (exit 2); with a choice it compares
    c = _run(tmp_path, "c", [0, 0, 0])
    assert main(["compare", str(a), str(c), "--out", str(tmp_path / "c1")]) == 2
    assert "several models (x, y, z)" in capsys.readouterr().err
    comp = compare_runs(a, c, model_a="x")
    assert comp.table.set_index("metric").loc["TSR", "value_a"] == pytest.approx(2 / 3)
    # two multi-model runs without a common name: not comparable (exit 3)
    d = _run(tmp_path, "d", [0], paired=pd.concat([_paired([0], "p"), _paired([0], "q")], ignore_index=True))
    assert main(["compare", str(a), str(d), "--out", str(tmp_path / "c2")]) == 3
    assert "none has a namesake" in capsys.readouterr().err


@pytest.mark.parametrize("status,words", [(None, "unfinished"), ("running", "unfinished"),
                                          ("failed: every model call failed", "failed")])
def test_unfinished_and_failed_runs_are_refused_with_exit_3(tmp_path, capsys, status, words):
    a = _run(tmp_path, "a", [0, 1, 0])
    b = _run(tmp_path, "b", [0, 1, 0], status=status)
    with pytest.raises(NotComparableError, match=words):
        compare_runs(a, b)
    assert main(["compare", str(a), str(b), "--out", str(tmp_path / "cmp")]) == 3
    err = capsys.readouterr().err
    assert f"run {b}" in err and words in err
    assert not (tmp_path / "cmp").exists()


def test_a_run_without_usable_pairs_is_refused_with_exit_3(tmp_path, capsys):
    a = _run(tmp_path, "a", [0, 1, 0])
    empty = _run(tmp_path, "b", [], paired=pd.DataFrame(columns=["case_id", "model", "perturbation", "T_b", "T_p"]))
    assert main(["compare", str(a), str(empty), "--out", str(tmp_path / "cmp")]) == 3
    assert "no usable pairs" in capsys.readouterr().err
    # pairs whose labels are all missing: no usable score in both runs
    unparsed = _paired([0, 1, 0]).assign(T_p=np.nan)
    b = _run(tmp_path, "c", [0, 1, 0], paired=unparsed)
    with pytest.raises(NotComparableError, match="no usable pairs"):
        compare_runs(a, b)


def _strata_paired(flip_on: str, n: int = 12) -> pd.DataFrame:
    """Every case under two perturbations; the model changes its MANAGE answer under ``flip_on`` only."""
    rows = [dict(case_id=f"c{i:02d}", dataset="d", model="m", perturbation=pert, question="MANAGE", seed=0,
                 seed_b=1, T_b=0, T_p=int(pert == flip_on))
            for i in range(n) for pert in ("exclamation", "uppercase")]
    return pd.DataFrame(rows)


def test_a_change_that_cancels_out_in_the_pool_is_shown_per_stratum(tmp_path, capsys):
    """The acceptance case: A is sensitive to "!" and B to UPPERCASE. Pooled, both flip in half the pairs
    (every per-case difference 0): not a change. Per perturbation: B is worse under uppercase (+100 pp)
    and better under exclamation (−100 pp); exact sign-flip p = 2 / 2^12 each, Holm over the 2 strata
    of TSR: p_adj = 2 · p."""
    a = _run(tmp_path, "a", [0] * 12, paired=_strata_paired("exclamation"))
    b = _run(tmp_path, "b", [0] * 12, paired=_strata_paired("uppercase"))
    comp = compare_runs(a, b, tmp_path / "cmp", n_resamples=200)
    t = comp.table.set_index(["metric", "stratum", "level"])
    pooled = t.loc[("TSR", "pooled", "")]
    assert pooled["value_a"] == 0.5 and pooled["value_b"] == 0.5 and pooled["difference"] == 0
    assert pooled["verdict"] != "no detectable change" and pooled["verdict"] == "inconclusive"
    up, ex = t.loc[("TSR", "perturbation", "uppercase")], t.loc[("TSR", "perturbation", "exclamation")]
    p = exact_sign_flip_p(np.ones(12))
    assert p == pytest.approx(2 / 2 ** 12)
    assert up["p"] == pytest.approx(p) and ex["p"] == pytest.approx(p)
    assert up["p_adj"] == pytest.approx(2 * p) and ex["p_adj"] == pytest.approx(2 * p)
    assert up["family"] == ex["family"] and up["family"] != pooled["family"] and up["correction"] == "holm"
    assert (up["difference"], up["verdict"]) == (1.0, "worse") and (ex["difference"], ex["verdict"]) == (-1.0, "better")
    # question has one level (MANAGE): no per-question rows
    assert "question" not in set(comp.table["stratum"])
    assert comp.findings[0]["verdict"] == "worse" and "under perturbation = uppercase" in comp.findings[0]["sentence"]
    assert comp.verdicts(strata=True)["TSR [perturbation=uppercase]"] == "worse"
    assert "B is WORSE on TSR under perturbation = uppercase" in comp.files["html"].read_text(encoding="utf-8")
    assert main(["compare", str(a), str(b), "--out", str(tmp_path / "cmp2"), "--n-resamples", "100"]) == 0
    out = capsys.readouterr().out
    assert "TSR [perturbation = uppercase]: worse" in out and "TSR: inconclusive" in out


def test_the_notebook_display_shows_verdicts_escaped(tmp_path):
    a = _run(tmp_path, "a", [0] * 12, paired=_strata_paired("exclamation"))
    b = _run(tmp_path, "b", [0] * 12, paired=_strata_paired("uppercase").assign(model="<b>m</b>"))
    comp = compare_runs(a, b, n_resamples=100)
    html = comp._repr_html_()
    assert "worse: 2" in html and "better: 2" in html and "inconclusive: 2" in html  # TSR and RCR
    assert "B is WORSE on TSR under perturbation = uppercase" in html
    assert "<b>m</b>" not in html and "&lt;b&gt;m&lt;/b&gt;" in html


def test_model_text_in_examples_is_escaped(tmp_path):
    bad = "<script>alert(1)</script><img src=x onerror=alert(1)>"
    a = _run(tmp_path, "a", [0] * 8)
    b = _run(tmp_path, "b", [1] * 8, texts={f"c{i:02d}": bad for i in range(8)})
    comp = compare_runs(a, b, tmp_path / "cmp", n_resamples=100)
    html = comp.files["html"].read_text(encoding="utf-8")
    body = html.split("<body", 1)[1]
    assert "<script" not in body and "<img" not in body and "&lt;script&gt;" in body


def test_compare_runs_is_in_the_python_api(tmp_path):
    import clinaudit

    a = _run(tmp_path, "a", [0] * 4)
    comp = clinaudit.compare_runs(clinaudit.open_run(a), a)
    assert set(comp.verdicts().values()) == {"inconclusive"}


@pytest.mark.slow
def test_two_mock_runs_planted_difference_and_identical_pair(tmp_path):
    """Acceptance on real mock runs: model 'new' advises staying home whenever the message is in capitals
    (the uppercase perturbation); 'old' never changes its advice."""
    import clinaudit

    judge = {"rules": [{"match": "patient's gender", "response": "GENDER [FEMALE]"},
                       {"match": "manage this at home", "response": "MANAGE [YES]\nVISIT [NO]\nRESOURCE [NO]"},
                       {"match": ".", "response": "MANAGE [NO]\nVISIT [YES]\nRESOURCE [YES]"}]}
    steady = [{"match": ".", "response": "Please come to the clinic today; I will order labs."}]
    planted = [{"match": "[A-Z]{4,} [A-Z]{4,} [A-Z]{4,}",
                "response": "This sounds mild. You can manage this at home with rest."}] + steady

    def spec(model: str, rules: list) -> dict:
        return {"audit": "treatment_shift", "name": "cmp", "data": [{"format": "demo:patient_messages", "limit": 8}],
                "models": {"target": model, "judge": "mock:judge"},
                "backends": {model: {"rules": rules}, "mock:judge": judge},
                "params": {"perturbations": ["uppercase"], "seeds": [0], "n_resamples": 100}}

    old = clinaudit.run_audit(spec("mock:old", steady), tmp_path / "old")
    old2 = clinaudit.run_audit(spec("mock:old", steady), tmp_path / "old2")
    new = clinaudit.run_audit(spec("mock:new", planted), tmp_path / "new")
    assert main(["compare", str(old.path), str(new.path), "--out", str(tmp_path / "cmp")]) == 0
    t = pd.read_csv(tmp_path / "cmp" / "comparison.csv", keep_default_na=False)
    tsr = t[t["stratum"] == "pooled"].set_index("metric").loc["TSR"]
    assert tsr["verdict"] == "worse" and tsr["ci_low"] > 0 and tsr["difference"] > 0 and tsr["n_cases"] == 8
    # per question (MANAGE, VISIT, RESOURCE): every answer flips, so each is worse too
    assert set(t[(t["metric"] == "TSR") & (t["stratum"] == "question")]["level"]) == {"MANAGE", "VISIT", "RESOURCE"}
    same = clinaudit.compare_runs(old, old2, tmp_path / "same")
    assert not set(same.verdicts().values()) & {"better", "worse"}
    assert same.info["differences"] == []


@pytest.mark.slow
def test_sensitivity_moved_from_exclamation_to_uppercase_on_real_mock_runs(tmp_path, capsys):
    """The issue's acceptance case with runs made by the mock backend: model v1 advises staying home when the
    message has exclamation marks, v2 when it is in capitals. Pooled over the perturbations both change
    their advice in half the pairs (no change); per perturbation, v2 is worse under uppercase and better
    under exclamation."""
    import clinaudit

    judge = {"rules": [{"match": "patient's gender", "response": "GENDER [FEMALE]"},
                       {"match": "manage this at home", "response": "MANAGE [YES]\nVISIT [NO]\nRESOURCE [NO]"},
                       {"match": ".", "response": "MANAGE [NO]\nVISIT [YES]\nRESOURCE [YES]"}]}
    home = "This sounds mild. You can manage this at home with rest."
    steady = [{"match": ".", "response": "Please come to the clinic today; I will order labs."}]

    def spec(rule: str) -> dict:
        return {"audit": "treatment_shift", "name": "cmp", "data": [{"format": "demo:patient_messages", "limit": 12}],
                "models": {"target": "mock:m", "judge": "mock:judge"},
                "backends": {"mock:m": {"rules": [{"match": rule, "response": home}] + steady}, "mock:judge": judge},
                "params": {"perturbations": ["exclamation", "uppercase"], "seeds": [0], "n_resamples": 100}}

    v1 = clinaudit.run_audit(spec("!"), tmp_path / "v1")
    v2 = clinaudit.run_audit(spec("[A-Z]{4,} [A-Z]{4,} [A-Z]{4,}"), tmp_path / "v2")
    comp = clinaudit.compare_runs(v1, v2, n_resamples=200)
    t = comp.table.set_index(["metric", "stratum", "level"])
    pooled = t.loc[("TSR", "pooled", "")]
    assert pooled["value_a"] == pooled["value_b"] == 0.5 and pooled["verdict"] == "inconclusive"
    assert t.loc[("TSR", "perturbation", "uppercase"), "verdict"] == "worse"
    assert t.loc[("TSR", "perturbation", "exclamation"), "verdict"] == "better"
    assert main(["compare", str(v1.path), str(v2.path), "--out", str(tmp_path / "cmp"), "--n-resamples", "100"]) == 0
    assert "TSR [perturbation = uppercase]: worse" in capsys.readouterr().out


def test_one_flip_of_80_is_not_within_a_5pp_margin():
    """1 case of 80 flips in B, none in A: bootstrap CI [0, 3.75 pp] lay inside ±5 pp (the old rule said
    within_margin); the exact paired upper bound is Clopper–Pearson of 1 of 80 (statsmodels): 6.8 pp."""
    from statsmodels.stats.proportion import proportion_confint

    from clinaudit.report.compare import exact_paired_interval

    lo, hi = exact_paired_interval(1.0, 0.0, 80)
    assert hi == pytest.approx(proportion_confint(1, 80, alpha=0.05, method="beta")[1]) and hi == pytest.approx(
        0.0677, abs=1e-4)
    assert lo == pytest.approx(-(1 - 0.025 ** (1 / 80)))
    args = ("lower", 1 / 80, 0.0, 0.0375, 0.6)
    assert verdict(*args, margin=0.05, n_cases=80) == "within_margin"  # the bootstrap CI alone
    assert verdict(*args, margin=0.05, n_cases=80, exact=(lo, hi), scale="proportion") == "inconclusive"
    # two identical runs: ± 1 − 0.025^(1/n), within from 72 cases on (as before)
    assert verdict("lower", 0.0, 0.0, 0.0, 1.0, margin=0.05, n_cases=80, exact=exact_paired_interval(0, 0, 80),
                   scale="proportion") == "within_margin"


def test_an_excluded_cases_empty_text_reads_back_as_text_in_both_readers(tmp_path, capsys):
    """A run blanks an excluded case's text (an empty CSV cell). Both readers of the run's tables (compare/gate's
    read_run_table and the viewer's read_table, both through rundir.read_store_table) give it back as "" — it was
    NaN, and ``compare`` crashed hashing it (issue 49) — while an empty cell of another column stays missing."""
    from clinaudit.report.compare_metrics import read_run_table
    from clinaudit.viewer.data import read_table

    runs = []
    for name in ("a", "b"):
        run = _run(tmp_path, name, [0] * 8)
        cases = pd.DataFrame({"case_id": [f"c{i:02d}" for i in range(8)], "dataset": "d",
                              "text": ["" if i == 3 else f"case {i}" for i in range(8)],
                              "note": [None if i == 3 else "x" for i in range(8)]})
        RunDir(run).write_table("cases", cases)
        runs.append(run)
    for read in (read_run_table, read_table):
        got = read(runs[0], "cases")
        assert got["text"].tolist() == ["" if i == 3 else f"case {i}" for i in range(8)]
        assert got["note"].isna().tolist() == [i == 3 for i in range(8)]
    rc = main(["compare", str(runs[0]), str(runs[1]), "--out", str(tmp_path / "cmp"), "--n-resamples", "200"])
    out = capsys.readouterr().out
    assert rc == 0 and "different text" not in out, out
