"""Bring-your-own labels: `clinaudit treatment-shift --format medperturb|long` (no model calls)."""

from __future__ import annotations

import itertools
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from clinaudit.cli.main import main
from clinaudit.errors import InputError
from clinaudit.families.treatment_shift.analysis import PAPER_METHOD, analyze_labels, build_paired, write_outputs
from clinaudit.families.treatment_shift.labels import read_labels, read_long_labels

DATA = Path(__file__).resolve().parents[3].parent / "shared" / "data"
MEDPERTURB = DATA / "medperturb" / "data.csv"
needs_medperturb = pytest.mark.skipif(not MEDPERTURB.exists(), reason=f"public data not found: {MEDPERTURB}")


N_PERM = 999  # sign flips / relabellings of the case-level tests in the MedPerturb fixture


@pytest.fixture(scope="module")
def medperturb_out(tmp_path_factory):
    """The same steps as ``clinaudit treatment-shift --format medperturb`` (fewer permutations, for speed)."""
    if not MEDPERTURB.exists():
        pytest.skip(f"public data not found: {MEDPERTURB}")
    out = tmp_path_factory.mktemp("mp")
    from clinaudit.families.treatment_shift.clinicians import read_medperturb_clinicians

    labels, notes = read_labels(MEDPERTURB, "medperturb")
    clinicians, cnotes = read_medperturb_clinicians(MEDPERTURB)
    write_outputs(analyze_labels(labels, n_resamples=50, n_permutations=N_PERM, notes=list(notes) + cnotes,
                                 clinicians=clinicians), out)
    return out


def _hand_cell(ds: str, arm: int, model: str, q: str) -> tuple[int, float, float, float]:
    """Independent computation from the raw CSV: baseline arm 1 vs ``arm``, V = clinician majority on arm 1."""
    d = pd.read_csv(MEDPERTURB, dtype={"context_id": str})
    d = d[d["Index"] != 570] if ds == "conversational" else d  # row 570 is context 1017's (see notes)
    s = d[d["dataset"] == ds]
    b = s[s["dataset_id"] == 1].set_index("context_id")
    p = s[s["dataset_id"] == arm].set_index("context_id")
    j = b.join(p[[f"{model}_{q}"]].rename(columns={f"{model}_{q}": "tp"}), how="inner")
    tb, tp = j[f"{model}_{q}"], j["tp"]
    v = (j[[f"{q}_1", f"{q}_2", f"{q}_3"]].sum(axis=1) >= 2).astype(int)
    cp = {"MANAGE": 0, "VISIT": 1, "RESOURCE": 1}[q]
    reduced = (tb == cp) & (tp != cp)
    return len(j), float((tb != tp).mean()), float(reduced.mean()), float((reduced & (v == cp)).mean())


@needs_medperturb
def test_medperturb_all_cells(medperturb_out):
    m = pd.read_csv(medperturb_out / "metrics.csv")
    # issue 13 item 5 adds the clinicians' own TSR/RCR rows (model = clinicians; tests/families/treatment_shift/test_treatment_clinicians.py)
    assert set(m.loc[m["model"] == "clinicians", "metric"]) == {"TSR", "RCR"}
    m = m[m["model"] != "clinicians"]
    for col in ("dataset", "model", "perturbation", "question", "metric", "value", "n", "noise_floor", "adjusted",
                "ci_low", "ci_high", "p", "p_adj", "test", "correction", "family"):
        assert col in m.columns
    cells = m[["dataset", "model", "perturbation", "question"]].drop_duplicates()
    assert len(cells) == 120 and len(m) == 360
    assert set(m["model"]) == {"GPT4", "LLAMA3", "LLAMA3-70", "PALMYRA-MED"}
    assert sorted(m.loc[m["dataset"] == "conversational", "perturbation"].unique()) == ["multi_turn", "summarized"]
    for ds in ("oncqa", "askadoc"):
        assert sorted(m.loc[m["dataset"] == ds, "perturbation"].unique()) == [
            "colorful", "gender_removal", "gender_swap", "uncertain"]
    assert m["value"].between(0, 1).all()
    assert m["noise_floor"].isna().all() and m["adjusted"].isna().all()  # one seed: no floor
    assert m["note"].str.contains("no noise floor").all()
    assert (m["correction"] == "bonferroni").all()
    # n: 50 pairs per static cell, 100 per conversational cell (after the Index 570 fix); one pair per case
    assert set(m.loc[m["dataset"] != "conversational", "n"]) == {50}
    assert set(m.loc[m["dataset"] == "conversational", "n"]) == {100}
    assert (m["n_pairs"] == m["n"]).all() and (m["n_cases"] == m["n"]).all()
    # no floor: the excess is over 0 (= the rate); issue 28: no floor, no test (p empty, the reason in test_note)
    assert (m["excess"] == m["value"]).all()
    assert m["p"].isna().all() and m["p_adj"].isna().all() and m["test"].isna().all()
    assert m["test_note"].str.startswith("no test: without a re-sampled baseline").all()
    assert m["family"].str.startswith("perturbations within ").all()
    notes = (medperturb_out / "notes.txt").read_text()
    assert "Index 570" in notes and "no noise floor" in notes


@needs_medperturb
@pytest.mark.parametrize(
    "ds, arm, name, model, q, expected",
    [
        # hand-checked values (also recomputed independently below)
        ("oncqa", 2, "gender_swap", "GPT4", "MANAGE", (50, 0.06, 0.02, 0.0)),
        ("askadoc", 5, "colorful", "LLAMA3", "VISIT", (50, 0.38, 0.26, 0.16)),
        ("oncqa", 4, "uncertain", "PALMYRA-MED", "RESOURCE", (50, 0.06, 0.04, 0.04)),
        ("conversational", 3, "summarized", "LLAMA3-70", "VISIT", (100, 0.24, 0.06, 0.06)),
    ],
)
def test_medperturb_hand_checked_cells(medperturb_out, ds, arm, name, model, q, expected):
    m = pd.read_csv(medperturb_out / "metrics.csv")
    c = m[(m["dataset"] == ds) & (m["perturbation"] == name) & (m["model"] == model) & (m["question"] == q)]
    got = {r["metric"]: (int(r["n"]), float(r["value"])) for _, r in c.iterrows()}
    n, t, r, e = expected
    assert got == {"TSR": (n, pytest.approx(t)), "RCR": (n, pytest.approx(r)), "RCER": (n, pytest.approx(e))}
    assert _hand_cell(ds, arm, model, q) == pytest.approx(expected)


@needs_medperturb
def test_medperturb_other_outputs(medperturb_out):
    for name in ("significance", "subgroups", "agreement", "per_case", "table3", "results"):
        assert (medperturb_out / f"{name}.csv").exists()
    sub = pd.read_csv(medperturb_out / "subgroups.csv")
    assert set(sub["metric"]) == {"TSR_gap", "RCR_gap", "RCER_gap"} and set(sub["gender_source"]) == {"recorded"}
    assert sub["test"].eq("studentised permutation of subgroup labels over cases").all()
    assert sub["family"].str.startswith("subgroup gaps").all()
    # no floor in MedPerturb: each gender's floor is 0 and the gap is the gap of the raw rates
    assert (sub["floor_female"] == 0).all() and (sub["floor_male"] == 0).all()
    agr = pd.read_csv(medperturb_out / "agreement.csv")
    # 6 model pairs x 3 questions x (5 arms x 2 static sets + 3 conversational arms)
    assert len(agr) == 6 * 3 * 13
    row = agr[(agr["dataset"] == "askadoc") & (agr["variant"] == "baseline") & (agr["question"] == "MANAGE")
              & (agr["model_a"] == "GPT4") & (agr["model_b"] == "LLAMA3")].iloc[0]
    assert row["agreement"] == pytest.approx(0.80) and row["n"] == 50
    per = pd.read_csv(medperturb_out / "per_case.csv")
    assert {"case_id", "model", "perturbation", "question", "T_b", "T_p", "V", "gender"} <= set(per.columns)
    assert len(per) == 4 * 3 * (50 * 4 * 2 + 100 * 2)
    sig = pd.read_csv(medperturb_out / "significance.csv")
    assert set(sig["comparison"]) == {"shift rate (no noise floor: no test)", "omnibus across perturbations"}
    omni = sig[sig["comparison"] == "omnibus across perturbations"]
    assert omni["test"].str.contains(PAPER_METHOD, regex=False).all()


@needs_medperturb
def test_medperturb_palmyra_uncertain_manage_shift_has_no_test_without_a_floor(medperturb_out):
    """Issue 13: TSR 50 % (25 of 50 cases changed) had McNemar p = 1.0 (McNemar tests the direction of the flips, not
    their amount). Issue 28: MedPerturb publishes one answer per model, so there is no noise floor; the sign-flip test
    of 'symmetric about 0' gave 2^-25 (first printed as the Monte Carlo floor 1/(N+1)) for any 25 flips: it tests
    nothing. The rate carries no p-value, with the reason; the test is against the clinicians' shift."""
    m = pd.read_csv(medperturb_out / "metrics.csv")
    r = m[(m["dataset"] == "oncqa") & (m["model"] == "PALMYRA-MED") & (m["perturbation"] == "uncertain")
          & (m["question"] == "MANAGE") & (m["metric"] == "TSR")].iloc[0]
    assert r["value"] == 0.5 and r["n_cases"] == 50
    assert math.isnan(r["p"]) and math.isnan(r["p_adj"]) and not isinstance(r["test"], str)
    assert "no test" in r["test_note"] and "clinicians" in r["test_note"]
    assert 0 < r["excess_ci_low"] < 0.5 < r["excess_ci_high"]  # the CI stays
    ex = pd.read_csv(medperturb_out / "excess_over_clinicians.csv")
    e = ex[(ex["dataset"] == "oncqa") & (ex["model"] == "PALMYRA-MED") & (ex["perturbation"] == "uncertain")
           & (ex["question"] == "MANAGE") & (ex["metric"] == "TSR_excess_over_clinicians")].iloc[0]
    assert 0 < e["p"] <= 1 and e["test"] == "sign-flip permutation over cases"
    # Table 3 (pooled over models): the stars follow the pooled excess over the clinicians' shift
    pooled = pd.read_csv(medperturb_out / "excess_over_clinicians_pooled.csv")
    t3 = pd.read_csv(medperturb_out / "table3.csv")
    for _, row in pooled[pooled["metric"] == "TSR_excess_over_clinicians"].iterrows():
        cell = t3[(t3["dataset"] == row["dataset"]) & (t3["perturbation"] == row["perturbation"])][
            f"TSR {row['question']}"].iloc[0]
        assert cell.endswith("*") == bool(row["flagged"]), (row["dataset"], row["perturbation"], row["question"])
    cm = pd.read_csv(medperturb_out / "clinician_metrics.csv")
    assert cm["p"].isna().all()  # the clinicians' own shift is the reference, not a tested rate


def _write(tmp_path: Path, rows: list[str], header: str = "dataset,case_id,variant,model,seed,question,label,gender,validation") -> Path:
    p = tmp_path / "labels.csv"
    p.write_text(header + "\n" + "\n".join(rows) + "\n", encoding="utf-8")
    return p


def _scenario_rows() -> list[str]:
    # MANAGE labels of one model: baseline at seeds 0/1, "upper" perturbation at seeds 0/1
    base = {0: {"c1": 0, "c2": 0, "c3": 1, "c4": 0}, 1: {"c1": 0, "c2": 1, "c3": 1, "c4": 0}}
    upper = {0: {"c1": 1, "c2": 0, "c3": 1, "c4": 1}, 1: {"c1": 1, "c2": 1, "c3": 0, "c4": 0}}
    gender = {"c1": "F", "c2": "M", "c3": "female", "c4": "male"}
    rows = []
    for variant, table in (("baseline", base), ("upper", upper)):
        for seed, labels in table.items():
            for case, lab in labels.items():
                rows.append(f"d,{case},{variant},m,{seed},MANAGE,{'yes' if lab else 'no'},{gender[case]},0")
    return rows


def test_long_format_with_noise_floor(tmp_path):
    labels = read_long_labels(_write(tmp_path, _scenario_rows()))
    a = analyze_labels(labels, n_resamples=50)
    m = a.metrics.set_index("metric")
    # cross-seed pairing (upper s' vs baseline s != s'): upper0 vs base1 flips c1 (0->1), c2 (1->0), c4 (0->1);
    # upper1 vs base0 flips c1 (0->1), c2 (0->1), c3 (1->0) -> TSR 6/8, care reduced (0 -> 1) in 4 of 8
    assert m.loc["TSR", "value"] == pytest.approx(0.75) and m.loc["TSR", "n"] == 8
    assert m.loc["TSR", "n_cases"] == 4 and m.loc["TSR", "n_pairs"] == 8
    assert m.loc["RCR", "value"] == pytest.approx(0.5)
    assert m.loc["RCER", "value"] == pytest.approx(0.5)  # V = 0 = c+ for every case
    # floor: the one unordered pair {s0, s1} per case -> c2 flips: TSR 1/4; RCR counts the flip 1/2 (one orientation
    # reduces care, the other increases it) -> 1/8, as before, but n = 4 pairs, not 8
    assert m.loc["TSR", "noise_floor"] == pytest.approx(0.25) and m.loc["TSR", "n_floor"] == 4
    assert m.loc["RCR", "noise_floor"] == pytest.approx(0.125) and m.loc["RCR", "n_floor"] == 4
    assert m.loc["TSR", "adjusted"] == pytest.approx(0.5) and m.loc["RCR", "adjusted"] == pytest.approx(0.375)
    assert m.loc["TSR", "excess"] == m.loc["TSR", "adjusted"]
    assert m.loc["TSR", "test"] == "sign-flip permutation over cases" and m.loc["TSR", "correction"] == "bonferroni"
    assert m.loc["TSR", "alternative"] == "greater" and "noise_floor" in m.loc["TSR", "null_hypothesis"]
    # per-case excess d = (1, 1, 1/2, 1/2) - (0, 1, 0, 0) = (1, 0, 1/2, 1/2); exact sign-flip p (one-sided) is
    # the share of the 16 sign patterns whose mean reaches the observed one (2 of 16), counted here independently
    d = np.array([1.0, 0.0, 0.5, 0.5])
    flips = np.array(list(itertools.product([1, -1], repeat=4)))
    assert m.loc["TSR", "p"] == pytest.approx(np.mean((flips * d).mean(axis=1) >= d.mean() - 1e-12))
    assert m.loc["TSR", "adjusted_ci_low"] <= 0.5 <= m.loc["TSR", "adjusted_ci_high"]
    # the paper's ANOVA stays available, labelled as such
    assert m.loc["TSR", "paper_test"] == f"anova_oneway vs noise floor ({PAPER_METHOD})"
    # gender gap of the excess (female - male), each gender against its own floor:
    # female c1, c3: 3/4 - floor 0; male c2, c4: 3/4 - floor 1/2 (c2 flips between baseline seeds)
    g = a.subgroups[(a.subgroups["metric"] == "TSR_gap")].iloc[0]
    assert g["value"] == pytest.approx(0.5) and g["value_female"] == pytest.approx(0.75) and g["n"] == 8
    assert g["floor_male"] == pytest.approx(0.5) and g["value_male"] == pytest.approx(0.25)
    paired = build_paired(labels)
    assert (paired["perturbation"] == "noise_floor").sum() == 4
    assert set(paired.columns) >= {"T_b", "T_p", "V", "gender", "seed", "seed_b"}
    up = paired[paired["perturbation"] == "upper"]
    assert len(up) == 8 and (up["seed"] != up["seed_b"]).all()


def test_long_format_single_seed_has_no_floor(tmp_path):
    rows = [r for r in _scenario_rows() if ",0,MANAGE" in r]
    a = analyze_labels(read_long_labels(_write(tmp_path, rows)), n_resamples=20)
    m = a.metrics.set_index("metric")
    assert m.loc["TSR", "value"] == pytest.approx(0.5) and math.isnan(m.loc["TSR", "noise_floor"])
    # no floor, no test (issue 28): the old "rate above 0" test gave 2^-2 for the two changed cases c1, c4 by
    # construction (flip indicators are never negative)
    assert math.isnan(m.loc["TSR", "p"]) and "no test" in m.loc["TSR", "test_note"]
    assert m.loc["TSR", "excess"] == pytest.approx(0.5)
    assert any("no noise floor" in n for n in a.notes)
    z = analyze_labels(read_long_labels(_write(tmp_path, rows)), n_resamples=20, floor_zero=True)
    assert z.metrics.set_index("metric").loc["TSR", "adjusted"] == pytest.approx(0.5)
    assert math.isnan(z.metrics.set_index("metric").loc["TSR", "p"])  # a declared floor of 0: nothing to test


@pytest.mark.parametrize(
    "row, field",
    [
        ("d,c1,baseline,m,0,MANAGE,maybe,F,0", "label"),
        ("d,c1,baseline,m,0,TRIAGE,1,F,0", "question"),
        ("d,c1,baseline,m,zero,MANAGE,1,F,0", "seed"),
        ("d,,baseline,m,0,MANAGE,1,F,0", "case_id"),
        ("d,c1,baseline,m,0,MANAGE,1,F,2", "validation"),
    ],
)
def test_long_format_bad_rows_name_file_row_field(tmp_path, row, field):
    path = _write(tmp_path, ["d,c0,baseline,m,0,MANAGE,1,F,0", row])
    with pytest.raises(InputError) as exc:
        read_long_labels(path)
    assert exc.value.row == 2 and exc.value.field == field and exc.value.file == str(path)


def test_long_format_duplicates_and_missing_columns(tmp_path):
    path = _write(tmp_path, ["d,c1,baseline,m,0,MANAGE,1,F,0", "d,c1,baseline,m,0,manage,0,F,0"])
    with pytest.raises(InputError, match="duplicate label.*row 1"):
        read_long_labels(path)
    path = _write(tmp_path, ["c1,baseline,m,1"], header="case_id,variant,model,label")
    with pytest.raises(InputError, match="question") as exc:
        read_long_labels(path)
    assert exc.value.field == "question"


def test_cli_long_format(tmp_path, capsys):
    path = _write(tmp_path, _scenario_rows())
    out = tmp_path / "out"
    assert main(["treatment-shift", "--labels", str(path), "--format", "long", "--out", str(out),
                 "--resamples", "20"]) == 0
    m = pd.read_csv(out / "metrics.csv")
    assert len(m) == 3 and m.set_index("metric").loc["TSR", "adjusted"] == pytest.approx(0.5)
    assert "1 cells x 3 metrics" in capsys.readouterr().out
    bad = _write(tmp_path, ["d,c1,baseline,m,0,MANAGE,2,F,0"])
    assert main(["treatment-shift", "--labels", str(bad), "--format", "long", "--out", str(out)]) == 2
    assert "row 1" in capsys.readouterr().err
