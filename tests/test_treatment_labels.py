"""Bring-your-own labels: `clinaudit treatment-shift --format medperturb|long` (no model calls)."""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd
import pytest

from clinaudit.audits.treatment_labels import analyze_labels, build_paired, read_long_labels
from clinaudit.cli.main import main
from clinaudit.errors import InputError

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"
MEDPERTURB = DATA / "medperturb" / "data.csv"
needs_medperturb = pytest.mark.skipif(not MEDPERTURB.exists(), reason=f"public data not found: {MEDPERTURB}")


@pytest.fixture(scope="module")
def medperturb_out(tmp_path_factory):
    if not MEDPERTURB.exists():
        pytest.skip(f"public data not found: {MEDPERTURB}")
    out = tmp_path_factory.mktemp("mp")
    rc = main(["treatment-shift", "--labels", str(MEDPERTURB), "--format", "medperturb", "--out", str(out),
               "--resamples", "50"])
    assert rc == 0
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
    # issue 13 item 5 adds the clinicians' own TSR/RCR rows (model = clinicians; tests/test_treatment_clinicians.py)
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
    # n: 50 pairs per static cell, 100 per conversational cell (after the Index 570 fix)
    assert set(m.loc[m["dataset"] != "conversational", "n"]) == {50}
    assert set(m.loc[m["dataset"] == "conversational", "n"]) == {100}
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
    assert sub["test"].eq("fisher_exact").all() and sub["family"].str.startswith("subgroup gaps").all()
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
    assert set(sig["comparison"]) == {"baseline vs perturbed labels (McNemar)", "omnibus across perturbations"}


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
    # upper vs baseline (same seed): flips c1 s0, c4 s0, c1 s1, c3 s1 -> TSR 4/8; care reduced (0 -> 1) in 3
    assert m.loc["TSR", "value"] == pytest.approx(0.5) and m.loc["TSR", "n"] == 8
    assert m.loc["RCR", "value"] == pytest.approx(0.375)
    assert m.loc["RCER", "value"] == pytest.approx(0.375)  # V = 0 = c+ for every case
    # floor: baseline s0 vs s1 and s1 vs s0 -> c2 flips both ways (one of them reduces care)
    assert m.loc["TSR", "noise_floor"] == pytest.approx(0.25) and m.loc["TSR", "n_floor"] == 8
    assert m.loc["RCR", "noise_floor"] == pytest.approx(0.125)
    assert m.loc["TSR", "adjusted"] == pytest.approx(0.25) and m.loc["RCR", "adjusted"] == pytest.approx(0.25)
    assert m.loc["TSR", "test"] == "anova_oneway vs noise floor" and m.loc["TSR", "correction"] == "bonferroni"
    assert m.loc["TSR", "adjusted_ci_low"] <= 0.25 <= m.loc["TSR", "adjusted_ci_high"]
    # gender gap (female - male): female c1, c3 flip 3 of 4; male c2, c4 flip 1 of 4
    g = a.subgroups[(a.subgroups["metric"] == "TSR_gap")].iloc[0]
    assert g["value"] == pytest.approx(0.5) and g["value_female"] == pytest.approx(0.75) and g["n"] == 8
    paired = build_paired(labels)
    assert (paired["perturbation"] == "noise_floor").sum() == 8
    assert set(paired.columns) >= {"T_b", "T_p", "V", "gender", "seed", "seed_b"}


def test_long_format_single_seed_has_no_floor(tmp_path):
    rows = [r for r in _scenario_rows() if ",0,MANAGE" in r]
    a = analyze_labels(read_long_labels(_write(tmp_path, rows)), n_resamples=20)
    m = a.metrics.set_index("metric")
    assert m.loc["TSR", "value"] == pytest.approx(0.5) and math.isnan(m.loc["TSR", "noise_floor"])
    assert m.loc["TSR", "test"].startswith("mcnemar")
    assert any("no noise floor" in n for n in a.notes)
    z = analyze_labels(read_long_labels(_write(tmp_path, rows)), n_resamples=20, floor_zero=True)
    assert z.metrics.set_index("metric").loc["TSR", "adjusted"] == pytest.approx(0.5)


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
    assert len(m) == 3 and m.set_index("metric").loc["TSR", "adjusted"] == pytest.approx(0.25)
    assert "1 cells x 3 metrics" in capsys.readouterr().out
    bad = _write(tmp_path, ["d,c1,baseline,m,0,MANAGE,2,F,0"])
    assert main(["treatment-shift", "--labels", str(bad), "--format", "long", "--out", str(out)]) == 2
    assert "row 1" in capsys.readouterr().err
