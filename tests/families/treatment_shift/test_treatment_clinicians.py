"""Clinicians as a reference rater, accuracy against clinicians, invalid clinician labels (issue 13 items 4, 5).

The small example (3 cases, 2 perturbations, 3 clinicians, 1 model) is computed by hand in the
comments; the MedPerturb numbers are recomputed from the raw CSV with plain pandas / scipy.
"""

from __future__ import annotations

import itertools
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy.stats import binom

from clinaudit.families.treatment_shift.clinicians import (
    CLINICIANS,
    accuracy_vs_clinicians,
    case_validation,
    clinician_majority,
    clinician_pairs,
    clinician_metrics,
    excess_over_clinicians,
    normalize_clinicians,
    parse_clinician_label,
    read_medperturb_clinicians,
    validation_exclusions,
)
from clinaudit.families.treatment_shift.analysis import analyze_labels, build_paired
from clinaudit.families.treatment_shift.labels import read_medperturb_labels
from clinaudit.errors import InputError
from clinaudit.exclusions import EXCLUSION_COLUMNS as LEDGER_COLUMNS

DATA = Path(__file__).resolve().parents[3].parent / "shared" / "data"
MEDPERTURB = DATA / "medperturb" / "data.csv"
needs_medperturb = pytest.mark.skipif(not MEDPERTURB.exists(), reason=f"public data not found: {MEDPERTURB}")

# MANAGE labels (c+ = 0: "not told to self-manage"; reduced care = 0 -> 1)
#                 c1         c2         c3
CLIN = {
    "baseline": ([0, 0, 1], [1, 1, 1], [0, 1, 1]),  # majority 0, 1, 1
    "p1": ([1, 1, 0], [1, 1, 1], [0, 0, 1]),  # majority 1, 1, 0 -> flips c1, c3: TSR 2/3; RCR (c1 0->1) 1/3
    "p2": ([0, 0, 0], [0, 1, 0], [1, 1, 0]),  # majority 0, 0, 1 -> flips c2: TSR 1/3; RCR 0
}
MODEL = {"baseline": [0, 1, 0], "p1": [1, 0, 1], "p2": [0, 1, 0]}  # p1: TSR 1, RCR 2/3 (c1, c3); p2: TSR 0
CASES = ["c1", "c2", "c3"]


def _model_labels(validation: dict | None = None) -> pd.DataFrame:
    rows = []
    for variant, labs in MODEL.items():
        for case, lab in zip(CASES, labs):
            v = (validation or {}).get(case, "")
            rows.append({"dataset": "d", "case_id": case, "variant": variant, "model": "m", "seed": 0,
                         "question": "MANAGE", "label": lab, "validation": v, "gender": None,
                         "source_row": 1 + len(rows)})
    return pd.DataFrame(rows)


def _clinicians() -> pd.DataFrame:
    rows = []
    for variant, per_case in CLIN.items():
        for case, labs in zip(CASES, per_case):
            for k, lab in enumerate(labs, start=1):
                rows.append({"dataset": "d", "case_id": case, "variant": variant, "rater": f"clinician_{k}",
                             "rater_id": f"{variant}-{k}", "question": "MANAGE", "label": lab,
                             "source_file": "clin.csv", "source_row": 1 + len(rows)})
    return pd.DataFrame(rows)


@pytest.fixture(scope="module")
def small():
    return analyze_labels(_model_labels(), clinicians=_clinicians(), n_resamples=2000, correction="bonferroni")


def _row(t: pd.DataFrame, **kw) -> pd.Series:
    m = np.ones(len(t), dtype=bool)
    for k, v in kw.items():
        m &= (t[k] == v).to_numpy()
    assert m.sum() == 1, kw
    return t[m].iloc[0]


def test_parse_and_case_validation():
    assert parse_clinician_label("YES") == (1.0, "") and parse_clinician_label(0) == (0.0, "")
    assert math.isnan(parse_clinician_label("")[0]) and parse_clinician_label(None)[1] == ""
    v, why = parse_clinician_label("2")
    assert math.isnan(v) and "invalid clinician label '2'" in why
    assert case_validation({"validation_MANAGE": "no"}, "MANAGE") == (0.0, "validation_MANAGE")
    assert case_validation({"V_visit": "1"}, "VISIT") == (1.0, "V_visit")
    assert case_validation({"clinician_majority": {"RESOURCE": 1}}, "RESOURCE") == (1.0, "clinician_majority.RESOURCE")
    # an invalid value comes back as given (the analysis lists it), never as "not validated" in silence
    assert case_validation({"validation_MANAGE": "maybe"}, "MANAGE") == ("maybe", "validation_MANAGE")
    assert math.isnan(case_validation({}, "MANAGE")[0])


def test_small_clinicians_own_shift(small):
    cm = small.extra["clinician_metrics"]
    maj = lambda p, k: _row(cm, rater=CLINICIANS, perturbation=p, metric=k)  # noqa: E731
    assert maj("p1", "TSR")["rate"] == pytest.approx(2 / 3) and maj("p1", "RCR")["rate"] == pytest.approx(1 / 3)
    assert maj("p2", "TSR")["rate"] == pytest.approx(1 / 3) and maj("p2", "RCR")["rate"] == 0.0
    # issue 28: no floor, no test. The old one-sided sign-flip test of "shift > 0" gave 2^-k for k changed cases by
    # construction (p1: 2 of 3 cases changed -> 0.25); the clinicians' shift is the reference, not a tested rate
    assert math.isnan(maj("p1", "TSR")["p"]) and math.isnan(maj("p2", "TSR")["p_adj"])
    assert maj("p1", "TSR")["test_note"].startswith("no test")
    assert maj("p1", "TSR")["n_cases"] == 3 and maj("p1", "TSR")["n_pairs"] == 3
    # single clinicians (slot k on the baseline vs slot k on the arm): descriptive rates, no test
    slot = {(k, p): _row(cm, rater=f"clinician_{k}", perturbation=p, metric="TSR")["rate"]
            for k in (1, 2, 3) for p in ("p1", "p2")}
    assert slot == pytest.approx({(1, "p1"): 1 / 3, (1, "p2"): 2 / 3, (2, "p1"): 2 / 3, (2, "p2"): 0.0,
                                  (3, "p1"): 1 / 3, (3, "p2"): 1.0})
    r = _row(cm, rater="clinician_2", perturbation="p1", metric="TSR")
    assert math.isnan(r["p"]) and r["test"] == "" and r["ids_baseline"] == "baseline-2" and r["ids_perturbed"] == "p1-2"
    # metrics.csv: model = clinicians rows beside the model's
    m = small.metrics
    c = _row(m, model=CLINICIANS, perturbation="p1", metric="TSR")
    assert c["value"] == pytest.approx(2 / 3) and c["n"] == 3 and math.isnan(c["p"])
    assert set(m.loc[m["model"] == CLINICIANS, "metric"]) == {"TSR", "RCR"}
    assert _row(m, model="m", perturbation="p1", metric="TSR")["value"] == 1.0  # the model's cell as before


def test_small_excess_over_clinicians(small):
    ex = small.extra["excess_over_clinicians"]
    t1 = _row(ex, model="m", perturbation="p1", metric="TSR_excess_over_clinicians")
    assert (t1["model_rate"], t1["clinician_rate"]) == pytest.approx((1.0, 2 / 3))
    assert t1["value"] == pytest.approx(1 / 3)
    # per case d = model flip - clinicians' flip = (0, 1, 0): exact one-sided sign flips, 4 of 8 reach 1/3
    assert t1["p"] == pytest.approx(0.5) and t1["p_adj"] == pytest.approx(1.0) and not t1["flagged"]
    assert t1["test"] == "sign-flip permutation over cases" and t1["n_cases"] == 3 and t1["n_control_pairs"] == 3
    # case bootstrap: the excess of a resample is (#draws of c2) / 3, so its 2.5% / 97.5% points are 0 and 1
    # (enumerating the 27 equally likely resamples: P(excess = 1) = 1/27 > 2.5%)
    exact = sorted(sum(i == 1 for i in idx) / 3 for idx in itertools.product(range(3), repeat=3))
    assert (exact[0], exact[-1]) == (0.0, 1.0)
    assert (t1["ci_low"], t1["ci_high"]) == pytest.approx((0.0, 1.0))
    t2 = _row(ex, model="m", perturbation="p2", metric="TSR_excess_over_clinicians")
    assert t2["value"] == pytest.approx(-1 / 3) and t2["p"] == pytest.approx(1.0) and not t2["flagged"]
    r1 = _row(ex, model="m", perturbation="p1", metric="RCR_excess_over_clinicians")
    assert r1["value"] == pytest.approx(2 / 3 - 1 / 3) and r1["p"] == pytest.approx(0.5)  # d = (0, 0, 1)
    assert "excess_over_clinicians" in small.tables() and len(small.results[small.results["metric"].str.contains(
        "excess_over_clinicians")]) == 4


def test_small_accuracy_against_clinicians(small):
    acc = small.extra["accuracy_vs_clinicians"]
    # model vs the clinicians' majority on the same variant: baseline (0,1,0) vs (0,1,1) -> 2/3;
    # p1 (1,0,1) vs (1,1,0) -> 1/3; p2 (0,1,0) vs (0,0,1) -> 1/3
    lv = {v: _row(acc, metric="accuracy", variant=v)["value"] for v in ("baseline", "p1", "p2")}
    assert lv == pytest.approx({"baseline": 2 / 3, "p1": 1 / 3, "p2": 1 / 3})
    assert math.isnan(_row(acc, metric="accuracy", variant="p1")["p"])
    assert _row(acc, metric="accuracy", variant="p1")["test"] == ""
    c1 = _row(acc, metric="accuracy_change", variant="p1")
    c2 = _row(acc, metric="accuracy_change", variant="p2")
    # correct per case: baseline (1, 1, 0), p1 (1, 0, 0), p2 (1, 0, 0) -> d = (0, -1, 0) for both:
    # every sign pattern has |mean| = 1/3, so the two-sided p is 1
    assert c1["value"] == pytest.approx(-1 / 3) and c1["p"] == pytest.approx(1.0) and c1["reference"] == "baseline"
    assert (c1["rate"], c1["floor"]) == pytest.approx((1 / 3, 2 / 3))
    assert c2["value"] == pytest.approx(-1 / 3) and c2["p"] == pytest.approx(1.0)
    assert c2["p_adj"] == pytest.approx(1.0) and c2["family"] == "perturbations vs baseline:d|m|MANAGE"
    assert (acc["reference_label"] == "clinicians' majority on the same variant").all()


def test_accuracy_against_v_without_per_variant_clinicians():
    """Without clinician labels per variant, V of the baseline case is the reference for every variant."""
    a = analyze_labels(_model_labels(validation={"c1": 0, "c2": 1, "c3": 1}), n_resamples=200)
    acc = a.extra["accuracy_vs_clinicians"]
    lv = {v: _row(acc, metric="accuracy", variant=v)["value"] for v in ("baseline", "p1", "p2")}
    assert lv == pytest.approx({"baseline": 2 / 3, "p1": 1 / 3, "p2": 2 / 3})
    assert (acc["reference_label"] == "clinician label V of the baseline case").all()
    assert "clinician_metrics" not in a.extra and a.extra["exclusions"].empty


def test_invalid_validation_labels_are_counted_and_listed():
    """Defect: an invalid clinician label V ('maybe', '2') silently became 'not validated'."""
    lab = _model_labels(validation={"c1": 0, "c2": "maybe", "c3": 1})
    a = analyze_labels(lab, n_resamples=100)
    ex = a.tables()["exclusions"]
    assert ex["row"].tolist() == [2, 5, 8]  # the value on each of c2's label rows (source_row)
    r = ex.iloc[0]
    assert (r["case_id"], r["question"], r["field"], r["value"]) == ("c2", "MANAGE", "validation", "maybe")
    assert (r["stage"], r["reason"], r["item"]) == ("labels", "invalid_clinician_label", "MANAGE")
    assert r["row"] == 2 and "invalid clinician label 'maybe'" in r["detail"] and "RCER" in r["effect"]
    assert any("3 invalid clinician label value(s)" in n for n in a.notes)
    rcer = a.metrics[(a.metrics["metric"] == "RCER") & (a.metrics["model"] == "m")]
    assert set(rcer["n"]) == {2}  # c2 is not validated, and says why


def test_each_invalid_label_row_names_its_own_file_row_and_field():
    """Every ledger row reads its own label row: the per-row lookup binds the row it was made for (it was a
    closure over the loop variable, which would give every row the last row's file, row and field if it
    were ever called after the loop)."""
    labels = pd.DataFrame({
        "case_id": ["a", "b", "c"], "question": ["manage", "visit", "resource"], "variant": ["baseline"] * 3,
        "validation": ["maybe", "1", "2"], "validation_file": ["first.csv", "", "third.csv"],
        "source_file": ["s1.csv", "s2.csv", "s3.csv"], "validation_row": [7, None, 9], "source_row": [1, 2, 3],
        "validation_field": ["V_manage", None, ""],
    })
    ex = validation_exclusions(labels, default_file="fallback.csv")
    got = list(zip(ex["case_id"], ex["question"], ex["source"], ex["row"], ex["field"], ex["value"]))
    # row "b" holds a valid label; "c" has no validation_field, so the default field name
    assert got == [("a", "MANAGE", "first.csv", 7, "V_manage", "maybe"),
                   ("c", "RESOURCE", "third.csv", 9, "validation", "2")]
    assert ex["dataset"].tolist() == ["data", "data"]


def test_invalid_clinician_label_in_clinician_table():
    clin = _clinicians()
    clin["label"] = clin["label"].astype(object)
    clin.loc[4, "label"] = "2"  # c2, baseline, clinician_2
    norm, excl = normalize_clinicians(clin)
    assert math.isnan(norm.loc[4, "label"]) and len(excl) == 1
    e = excl.iloc[0]
    assert (e["source"], e["row"], e["field"], e["value"], e["case_id"]) == ("clin.csv", 5, "clinician_2", "2", "c2")
    assert e["item"] == "baseline:MANAGE:clinician_2" and e["detail"].endswith("clin.csv, row 5, field clinician_2")
    a = analyze_labels(_model_labels(), clinicians=clin, n_resamples=100)
    assert len(a.extra["exclusions"]) == 1 and any("invalid clinician label" in n for n in a.notes)
    # c2's baseline majority is now the tie-free 2 of 2 remaining labels (1, 1): unchanged
    maj = clinician_majority(norm)
    row = maj[(maj["rater"] == CLINICIANS) & (maj["case_id"] == "c2") & (maj["variant"] == "baseline")]
    assert row["label"].tolist() == [1.0]
    with pytest.raises(InputError, match="lacks column"):
        normalize_clinicians(clin.drop(columns=["rater"]))


def test_model_shifting_like_clinicians_is_not_flagged():
    """40 cases: model A flips exactly where the clinicians flip; model B flips on every case."""
    n = 40
    rng = np.random.default_rng(1)
    clin_flip = rng.random(n) < 0.4
    pairs = pd.DataFrame({"dataset": "d", "case_id": [f"c{i}" for i in range(n)], "rater": CLINICIANS,
                          "perturbation": "p", "question": "VISIT", "T_b": 1.0, "T_p": np.where(clin_flip, 0.0, 1.0),
                          "ids_b": "", "ids_p": ""})
    model = pd.concat([pairs.assign(model="A"), pairs.assign(model="B", T_p=0.0)], ignore_index=True)
    ex = excess_over_clinicians(model.drop(columns=["rater"]), pairs, n_resamples=200, correction="bonferroni")
    tsr = ex[ex["metric"] == "TSR_excess_over_clinicians"].set_index("model")
    assert tsr.loc["A", "value"] == 0 and tsr.loc["A", "p"] == 1.0 and not tsr.loc["A", "flagged"]
    k = int(n - clin_flip.sum())  # B flips where clinicians do not: d = 1 on k cases, 0 elsewhere
    assert tsr.loc["B", "value"] == pytest.approx(k / n) and tsr.loc["B", "flagged"]
    assert tsr.loc["B", "p"] == pytest.approx(binom.sf(k - 1, k, 0.5), abs=2e-4)  # = 2^-k: below 1/9999 resolution
    with pytest.raises(InputError, match="reserved"):
        excess_over_clinicians(model.assign(model=CLINICIANS).drop(columns=["rater"]), pairs)


# --------------------------------------------------------------------------- MedPerturb


@pytest.fixture(scope="module")
def oncqa():
    """MedPerturb oncqa: labels, clinicians, the clinicians' pairs (one dataset keeps the test short)."""
    if not MEDPERTURB.exists():
        pytest.skip(f"public data not found: {MEDPERTURB}")
    lab, _ = read_medperturb_labels(MEDPERTURB)
    clin, notes = read_medperturb_clinicians(MEDPERTURB)
    assert len(clin) == 800 * 9 and "by 3 clinicians; 0 (case, clinician) pairs have the same clinician" in notes[0]
    lab, clin = lab[lab["dataset"] == "oncqa"], clin[clin["dataset"] == "oncqa"]
    norm, excl = normalize_clinicians(clin)
    assert excl.empty
    pairs = clinician_pairs(clinician_majority(norm))
    return lab, norm, pairs


def _raw(q: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    d = pd.read_csv(MEDPERTURB, dtype={"context_id": str})
    s = d[d["dataset"] == "oncqa"]
    return s[s["dataset_id"] == 1].set_index("context_id"), s


@needs_medperturb
@pytest.mark.parametrize("arm, name", [(2, "gender_swap"), (4, "uncertain"), (5, "colorful")])
def test_medperturb_clinicians_tsr_recomputed(oncqa, arm, name):
    _, _, pairs = oncqa
    cm = clinician_metrics(pairs, n_resamples=50)
    for q in ("MANAGE", "VISIT", "RESOURCE"):
        b, s = _raw(q)
        p = s[s["dataset_id"] == arm].set_index("context_id").reindex(b.index)
        maj_b = (b[[f"{q}_1", f"{q}_2", f"{q}_3"]].sum(axis=1) >= 2).astype(int)
        maj_p = (p[[f"{q}_1", f"{q}_2", f"{q}_3"]].sum(axis=1) >= 2).astype(int)
        cp = {"MANAGE": 0, "VISIT": 1, "RESOURCE": 1}[q]
        r = _row(cm, rater=CLINICIANS, perturbation=name, question=q, metric="TSR")
        assert r["rate"] == pytest.approx(float((maj_b != maj_p).mean())) and r["n_pairs"] == 50
        rc = _row(cm, rater=CLINICIANS, perturbation=name, question=q, metric="RCR")
        assert rc["rate"] == pytest.approx(float(((maj_b == cp) & (maj_p != cp)).mean()))
        one = _row(cm, rater="clinician_1", perturbation=name, question=q, metric="TSR")
        assert one["rate"] == pytest.approx(float((b[f"{q}_1"] != p[f"{q}_1"]).mean()))


@needs_medperturb
def test_medperturb_excess_recomputed(oncqa):
    lab, _, pairs = oncqa
    ex = excess_over_clinicians(build_paired(lab), pairs, n_resamples=50, correction="bonferroni")
    assert len(ex) == 4 * 4 * 3 * 2 and (ex["n_cases"] == 50).all() and (ex["n_control_pairs"] == 50).all()
    b, s = _raw("MANAGE")
    p = s[s["dataset_id"] == 5].set_index("context_id").reindex(b.index)  # colorful
    maj_b = (b[["MANAGE_1", "MANAGE_2", "MANAGE_3"]].sum(axis=1) >= 2).astype(int)
    maj_p = (p[["MANAGE_1", "MANAGE_2", "MANAGE_3"]].sum(axis=1) >= 2).astype(int)
    # reduced care for MANAGE: 0 -> 1; the clinicians never reduce care under 'colorful' here
    d = (((b["PALMYRA-MED_MANAGE"] == 0) & (p["PALMYRA-MED_MANAGE"] == 1)).astype(int)
         - ((maj_b == 0) & (maj_p == 1)).astype(int))
    r = _row(ex, model="PALMYRA-MED", perturbation="colorful", question="MANAGE", metric="RCR_excess_over_clinicians")
    assert r["value"] == pytest.approx(d.mean())
    k, pos = int((d != 0).sum()), int((d > 0).sum())
    # with d in {-1, 0, 1} the sign-flip test of mean(d) is the sign test on the nonzero d, exactly (issue 28)
    assert r["p"] == pytest.approx(binom.sf(pos - 1, k, 0.5), rel=1e-9)
    assert r["flagged"] == (r["p_adj"] < 0.05)


@needs_medperturb
def test_medperturb_accuracy_recomputed(oncqa):
    lab, norm, _ = oncqa
    maj = clinician_majority(norm)
    ref = maj[maj["rater"] == CLINICIANS].rename(columns={"label": "reference"})
    acc = accuracy_vs_clinicians(lab, ref, n_resamples=50)
    d = pd.read_csv(MEDPERTURB, dtype={"context_id": str})
    s = d[(d["dataset"] == "oncqa") & (d["dataset_id"] == 4)]  # uncertain
    truth = (s[["VISIT_1", "VISIT_2", "VISIT_3"]].sum(axis=1) >= 2).astype(int)
    r = _row(acc, metric="accuracy", model="GPT4", variant="uncertain", question="VISIT")
    assert r["value"] == pytest.approx(float((s["GPT4_VISIT"] == truth).mean())) and r["n_pairs"] == 50
    ch = acc[acc["metric"] == "accuracy_change"]
    assert len(ch) == 4 * 4 * 3 and (ch["reference"] == "baseline").all() and ch["p"].between(0, 1).all()


def test_recipe_lists_invalid_validation_labels(tmp_path):
    """The audit recipe: a case field validation_MANAGE = 'maybe' is listed (file, row, field), not dropped silently."""
    from clinaudit.cache import ResponseCache
    from clinaudit.models.mock import MockBackend
    from clinaudit.runner import Runner, RunnerConfig
    from clinaudit.spec import parse_spec_dict
    from clinaudit.pipeline import run_spec

    data = tmp_path / "cases.csv"
    data.write_text("case_id,message,validation_MANAGE,validation_VISIT\n"
                    "c1,I have had a dry cough for two days.,0,1\n"
                    "c2,My knee hurts after running.,maybe,1\n", encoding="utf-8")
    spec, params = parse_spec_dict({
        "audit": "treatment_shift", "name": "invalid-v",
        "data": [{"format": "csv", "path": str(data), "columns": {"id": "case_id", "text": "message"}}],
        "models": {"target": "mock:t", "judge": "mock:j"},
        "params": {"perturbations": ["uppercase"], "seeds": [0], "infer_gender": False, "n_resamples": 50},
    })
    runner = Runner(cache=ResponseCache(tmp_path / "cache.sqlite"), config=RunnerConfig(progress=False))
    runner.add_backend(MockBackend("mock:t", responder=lambda req: "Rest and fluids; see your doctor."))
    runner.add_backend(MockBackend("mock:j", responder=lambda req: "MANAGE [YES]\nVISIT [YES]\nRESOURCE [NO]"))
    rd = run_spec(spec, tmp_path / "run", params=params, progress=False, runner=runner)
    ex = rd.read_table("exclusions")  # the recipe's one exclusions ledger
    assert set(LEDGER_COLUMNS) <= set(ex.columns)
    ex = ex[ex["reason"] == "invalid_clinician_label"]
    assert len(ex) == 1  # one invalid value, whatever the number of answers labelled for the case
    r = ex.iloc[0]
    assert (r["case_id"], r["question"], r["field"], str(r["value"]), int(r["row"])) == (
        "c2", "MANAGE", "validation_MANAGE", "maybe", 2)
    assert Path(r["source"]).name == "cases.csv" and "'maybe'" in r["detail"]
    assert r["detail"].endswith("cases.csv, row 2, field validation_MANAGE") and r["stage"] == "labels"
    assert rd.manifest["summary"]["exclusions"] >= 1
    assert any("1 invalid clinician label value(s)" in n for n in rd.manifest["summary"]["notes"])
    # accuracy against V (c1: MANAGE 0, VISIT 1) -- the model always says MANAGE yes, VISIT yes
    acc = rd.read_table("accuracy_vs_clinicians")
    lv = acc[(acc["metric"] == "accuracy") & (acc["variant"] == "baseline")].set_index("question")
    assert lv.loc["MANAGE", "value"] == 0.0 and lv.loc["MANAGE", "n_pairs"] == 1  # c2 has no valid V
    assert lv.loc["VISIT", "value"] == 1.0 and lv.loc["VISIT", "n_pairs"] == 2


def test_report_block(small, tmp_path):
    """The report's clinician block reads the tables from a run directory; the section includes it."""
    from clinaudit.report.base import Metric, Table, Text
    from clinaudit.families.treatment_shift.section import build, clinician_blocks
    from clinaudit.rundir import RunDir

    rd = RunDir(tmp_path / "run")
    bad = _clinicians()
    bad["label"] = bad["label"].astype(object)
    bad.loc[0, "label"] = "?"
    a = analyze_labels(_model_labels(), clinicians=bad, n_resamples=100)
    for name, df in a.tables().items():
        rd.write_table(name, df)
    blocks = clinician_blocks(rd)
    tables = {b.name: b for b in blocks if isinstance(b, Table)}
    assert set(tables) == {"excess_over_clinicians", "clinician_metrics", "accuracy_vs_clinicians"}
    assert {"model_rate", "clinician_rate", "value", "ci_low", "ci_high", "n_cases", "n_pairs", "p_adj", "family",
            "flagged"} <= set(tables["excess_over_clinicians"].df.columns)
    metrics = [b for b in blocks if isinstance(b, Metric)]
    assert [m.value for m in metrics] == ["0 of 2", "0 of 2"]
    assert any(isinstance(b, Text) and b.kind == "warning" and "1 invalid clinician label" in b.text for b in blocks)
    rd.start(spec={"audit": "treatment_shift", "params": {}, "models": {}})
    sec = build(rd)
    assert any(isinstance(b, Table) and b.name == "excess_over_clinicians" for b in sec.blocks)
    ex = [b for b in sec.blocks if isinstance(b, Table) and b.name == "exclusions"]  # shown once, by the ledger block
    assert len(ex) == 1 and ex[0].df["reason"].tolist() == ["invalid_clinician_label"]
    assert clinician_blocks(RunDir(tmp_path / "empty")) == []


def test_cli_long_format_with_clinician_file(tmp_path, capsys):
    """`treatment-shift --format long --clinicians FILE`: the small example through files and the CLI."""
    from clinaudit.cli.main import main

    labels = tmp_path / "labels.csv"
    _model_labels().drop(columns=["source_row", "gender"]).to_csv(labels, index=False)
    clin = _clinicians()[["dataset", "case_id", "variant", "rater", "rater_id", "question", "label"]]
    clin["label"] = clin["label"].astype(object)
    clin.loc[7, "label"] = "unsure"  # c3, baseline, clinician_2 -> c3's baseline majority is the tie (0, 1): NaN
    cpath = tmp_path / "clinicians.csv"
    clin.to_csv(cpath, index=False)
    out = tmp_path / "out"
    assert main(["treatment-shift", "--labels", str(labels), "--format", "long", "--clinicians", str(cpath),
                 "--out", str(out), "--resamples", "100"]) == 0
    ex = pd.read_csv(out / "exclusions.csv")
    assert len(ex) == 1
    assert (ex.loc[0, "source"], ex.loc[0, "row"], ex.loc[0, "field"], ex.loc[0, "value"]) == (
        str(cpath), 8, "clinician_2", "unsure")
    e = pd.read_csv(out / "excess_over_clinicians.csv")
    t1 = _row(e, model="m", perturbation="p1", metric="TSR_excess_over_clinicians")
    # c3 has no clinicians' baseline label now: c1, c2 only -> model flips 2/2, clinicians 1/2 (c1)
    assert (t1["model_rate"], t1["clinician_rate"], t1["n_control_pairs"]) == (1.0, 0.5, 2)
    m = pd.read_csv(out / "metrics.csv")
    assert set(m["model"]) == {"m", CLINICIANS}
    assert "invalid clinician label" in (out / "notes.txt").read_text()
    bad = tmp_path / "bad.csv"
    bad.write_text("case_id,variant,question,label\nc1,baseline,MANAGE,1\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["treatment-shift", "--labels", str(labels), "--format", "long", "--clinicians", str(bad),
                 "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "bad.csv" in err and "rater" in err
