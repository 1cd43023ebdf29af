"""Corpus prevalence per category and group (P4 Table 3 "Gender Ratio")."""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd
import pytest

from clinaudit.families.hurtful_words.prevalence import attribute_pattern, category_prevalence, load_notes, prevalence_results
from clinaudit.errors import InputError

ATTRS = {"CVD": ["chf", "heart failure"], "HIV": ["hiv", "aids"]}


def _wilson(k: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    centre = (k + z * z / 2) / (n + z * z)
    half = z / (n + z * z) * math.sqrt(k * (n - k) / n + z * z / 4)
    return centre - half, centre + half


def _notes() -> pd.DataFrame:
    rows = [
        ("p1", "M", "Hx of CHF, on lasix."),  # CVD
        ("p1", "M", "heart\nfailure exacerbation"),  # CVD (same patient), whitespace inside the phrase
        ("p2", "F", "no chf-like symptoms; HIV negative"),  # CVD (punctuation is a boundary) and HIV
        ("p3", "M", "patient chfx unrelated; raids"),  # none: no whole-word match
        ("p4", "F", "Known AIDS."),  # HIV
        ("p5", "", "chf"),  # CVD, missing group
        ("p6", "M", "CHF"),  # CVD
    ]
    return pd.DataFrame(rows, columns=["patient", "group", "text"])


def test_pattern_is_case_insensitive_whole_word() -> None:
    pat = attribute_pattern(["heart failure", "chf"])
    assert pat.search("HEART   FAILURE") and pat.search("(chf)") and pat.search("chf.")
    assert not pat.search("chfx") and not pat.search("xchf") and not pat.search("heart_failure")
    with pytest.raises(ValueError):
        attribute_pattern(["  "])


def test_note_level_shares_hand_computed() -> None:
    prev = category_prevalence(_notes(), ATTRS, groups=["M", "F"]).set_index(["category", "group"])
    cvd_m, cvd_f = prev.loc[("CVD", "M")], prev.loc[("CVD", "F")]
    # CVD notes with a known group: p1 x2 (M), p2 (F), p6 (M) -> 3 M of 4; one CVD note has no group
    assert (cvd_m["n_group"], cvd_m["n_mentioning"], cvd_m["n_missing_group"]) == (3, 4, 1)
    assert cvd_m["share"] == 0.75 and cvd_f["share"] == 0.25
    lo, hi = _wilson(3, 4)
    assert cvd_m["ci_low"] == pytest.approx(lo, abs=1e-12) and cvd_m["ci_high"] == pytest.approx(hi, abs=1e-12)
    assert cvd_m["unit"] == "notes" and cvd_m["n_total"] == 7 and cvd_m["ci_method"] == "wilson 95%"
    hiv_f = prev.loc[("HIV", "F")]
    assert (hiv_f["n_group"], hiv_f["n_mentioning"], hiv_f["share"]) == (2, 2, 1.0)
    assert prev.loc[("HIV", "M"), "share"] == 0.0


def test_patient_level_counts_each_patient_once() -> None:
    prev = category_prevalence(_notes(), ATTRS, patient_col="patient", groups=["M", "F"]).set_index(
        ["category", "group"])
    cvd_m = prev.loc[("CVD", "M")]
    assert (cvd_m["n_group"], cvd_m["n_mentioning"], cvd_m["n_missing_group"]) == (2, 3, 1)  # p1, p6 | p2 | p5
    assert cvd_m["share"] == pytest.approx(2 / 3) and cvd_m["unit"] == "patients" and cvd_m["n_total"] == 6
    clash = _notes()
    clash.loc[1, "group"] = "F"
    with pytest.raises(InputError, match="p1"):
        category_prevalence(clash, ATTRS, patient_col="patient")


def test_results_rows_and_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from clinaudit.cli.main import main

    _notes().to_csv(tmp_path / "notes.csv", index=False)
    (tmp_path / "a.csv").write_text("attribute,category,subgroup\nchf,CVD,-\nheart failure,CVD,-\nhiv,HIV,-\n"
                                    "aids,HIV,-\n", encoding="utf-8")
    out = tmp_path / "out"
    rc = main(["prevalence", "--notes", str(tmp_path / "notes.csv"), "--text-column", "text", "--group-column", "group",
               "--attributes", str(tmp_path / "a.csv"), "--groups", "M,F", "--out", str(out)])
    assert rc == 0
    prev = pd.read_csv(out / "prevalence.csv")
    assert list(prev["category"]) == ["CVD", "CVD", "HIV", "HIV"] and list(prev["share"]) == [0.75, 0.25, 0.0, 1.0]
    res = pd.read_csv(out / "results.csv")
    assert list(res["metric"].unique()) == ["share_of_mentions"] and list(res["n"]) == [4, 4, 2, 2]
    assert res["ci_method"].iloc[0] == "wilson 95%"
    assert len(prevalence_results(prev)) == 4
    assert "CVD" in capsys.readouterr().out
    rc = main(["prevalence", "--notes", str(tmp_path / "notes.csv"), "--text-column", "body", "--group-column", "group",
               "--attributes", str(tmp_path / "a.csv"), "--out", str(out)])
    assert rc == 2 and "field 'body'" in capsys.readouterr().err


def test_load_notes_jsonl_errors(tmp_path: Path) -> None:
    p = tmp_path / "n.jsonl"
    p.write_text('{"t": "chf", "g": "M"}\n\n{"t": 3, "g": "F"}\n', encoding="utf-8")
    with pytest.raises(InputError) as e:
        load_notes(p, "t", "g")
    assert (e.value.row, e.value.field, e.value.file) == (3, "t", str(p))
    p.write_text('{"t": "chf", "g": "M"}\n{"t": "aids"}\n', encoding="utf-8")
    with pytest.raises(InputError) as e:
        load_notes(p, "t", "g")
    assert (e.value.row, e.value.field) == (2, "g")
    p.write_text('{"t": "chf", "g": "M"}\n{"t": "aids", "g": null}\n', encoding="utf-8")
    notes = load_notes(p, "t", "g")
    assert list(notes["group"]) == ["M", None] and list(notes["row"]) == [1, 2]
    with pytest.raises(InputError, match="not found"):
        load_notes(tmp_path / "missing.csv", "t", "g")


def test_association_summary_gets_prevalence_columns(tmp_path: Path) -> None:
    from clinaudit.spec import parse_spec_dict
    from clinaudit.pipeline import run_spec

    (tmp_path / "t.txt").write_text("[GEND] has a hx of [CVD]\n[GEND] has [HIV]\n", encoding="utf-8")
    (tmp_path / "a.csv").write_text("attribute,category,subgroup\nchf,CVD,-\nheart failure,CVD,-\nhiv,HIV,-\n"
                                    "aids,HIV,-\n", encoding="utf-8")
    notes = _notes().assign(group=lambda d: d["group"].map({"M": "male", "F": "female", "": ""}))
    notes.to_csv(tmp_path / "notes.csv", index=False)
    spec, p = parse_spec_dict({"audit": "association", "models": {"target": "mock"}, "params": {
        "templates": str(tmp_path / "t.txt"), "attributes": str(tmp_path / "a.csv"), "n_bootstrap": 0,
        "prevalence": {"notes": str(tmp_path / "notes.csv"), "text_column": "text", "group_column": "group"}}})
    run = run_spec(spec, tmp_path / "run", params=p, progress=False)
    summary = run.read_table("summary").set_index("category")
    assert summary.loc["CVD", "share_male"] == 0.75 and summary.loc["CVD", "share_female"] == 0.25
    assert summary.loc["HIV", "share_female"] == 1.0 and summary.loc["CVD", "n_mentioning"] == 4
    results = run.read_table("results")
    assert (results["metric"] == "share_of_mentions").sum() == 4
