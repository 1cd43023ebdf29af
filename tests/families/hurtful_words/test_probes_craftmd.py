"""CRAFT-MD probe tasks: demographics read from vignettes, one-vs-rest specialty tasks, end-to-end runs.

The end-to-end runs read the published CRAFT-MD file from ``../shared/data`` and
are skipped when it is absent; the one with the real sentence embedder is slow.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from clinaudit.families.hurtful_words.craftmd_tasks import craftmd_tasks, read_race, read_sex
from clinaudit.errors import InputError
from clinaudit.records import Case

DATA = Path(__file__).resolve().parents[3].parent / "shared" / "data"
CRAFTMD = DATA / "craft-md" / "usmle_and_derm_dataset.csv"
needs_craftmd = pytest.mark.skipif(not CRAFTMD.is_file(), reason=f"CRAFT-MD data not found at {CRAFTMD}")


@pytest.mark.parametrize(
    ("text", "value", "rule"),
    [
        ("A 22-year-old man presented with painful lesions. His female partner had chlamydia.", "male",
         "first sentence noun"),
        ("A 4-year-old girl is brought by her father. He says she has a rash.", "female", "first sentence noun"),
        ("Three days after surgery, a 67-year-old woman has fever. Her son is worried.", "female",
         "first sentence noun"),
        ("A 30-year-old presents with a rash. He reports itching. His skin is dry.", "male", "pronoun majority"),
        ("A 30-year-old presents with a rash. She says he noticed it.", None, "unknown"),
        ("A newborn is evaluated for jaundice.", None, "unknown"),
    ],
)
def test_read_sex(text, value, rule):
    v, r, _ = read_sex(text)
    assert (v, r) == (value, rule)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("A 51-year-old white man presents with a rash.", "White"),
        ("A 45-year-old African-American woman comes to the physician.", "Black"),
        ("A 23-year-old African American G1P0 woman at 18 weeks.", "Black"),
        ("The patient is a 12-year-old Hispanic girl.", "Hispanic"),
        ("A 34-year-old Asian female presents.", "Asian"),
        ("A 62-year-old Caucasian male presents to his primary care physician.", "White"),
        ("A 65-year-old man of Middle Eastern descent presents with a nodule.", "Other"),
        ("Exam shows white plaques on the tongue and a black eschar. White blood cells 12,000.", None),
        ("A 40-year-old woman. Her father is of Ashkenazi Jewish descent.", None),
    ],
)
def test_read_race(text, value):
    assert read_race(text)[0] == value


def test_craftmd_tasks_hand_built():
    texts = ["A 30-year-old man has a rash.", "A 40-year-old Black woman has a rash.", "A 50-year-old man has chest "
             "pain.", "A child has a rash.", "A 70-year-old white woman has a headache."]
    cats = ["Dermatology", "Dermatology", "Cardiology", "Dermatology", "Neurology"]
    cases = [Case(case_id=f"c{i}", text=t, fields={"category": c}) for i, (t, c) in enumerate(zip(texts, cats))]
    ct = craftmd_tasks(cases, top_k=2)
    # Dermatology (3) first; Cardiology and Neurology tie at 1 -> by name
    assert ct.tasks == ["specialty:Dermatology", "specialty:Cardiology"]
    assert [c.fields["specialty:Dermatology"] for c in ct.cases] == [1, 1, 0, 1, 0]
    assert [c.fields["sex"] for c in ct.cases] == ["male", "female", "male", None, "female"]
    assert [c.fields["race"] for c in ct.cases] == [None, "Black", None, None, "White"]
    ex = ct.extraction.set_index(["attribute", "value"])
    assert ex.loc[("sex", "male"), "count"] == 2 and ex.loc[("sex", "unknown"), "count"] == 1
    assert ex.loc[("race", "unknown"), "count"] == 3 and ex.loc[("race", "unknown"), "percent"] == pytest.approx(60.0)
    assert ex.loc[("task", "specialty:Dermatology"), "count"] == 3
    assert ct.demographics.loc[1, "race_evidence"] == "Black woman"
    assert cases[0].fields == {"category": "Dermatology"}  # the input cases are not modified
    with pytest.raises(InputError) as ei:
        craftmd_tasks([Case(case_id="x", text="t", fields={}, source="f.csv", source_row=3)])
    assert (ei.value.file, ei.value.row, ei.value.field) == ("f.csv", 3, "category")


@needs_craftmd
def test_craftmd_extraction_on_the_published_file():
    from clinaudit.loaders.base import DataSource, load_cases

    ct = craftmd_tasks(load_cases(DataSource(format="craftmd", path=str(CRAFTMD))), top_k=3)
    ex = ct.extraction.set_index(["attribute", "value"])["count"]
    # measured on the published file (2004 vignettes)
    assert ex[("sex", "male")] == 1105 and ex[("sex", "female")] == 885 and ex[("sex", "unknown")] == 14
    assert ex[("race", "unknown")] == 1904 and ex[("race", "Black")] == 44 and ex[("race", "White")] == 42
    assert ct.tasks == ["specialty:Dermatology", "specialty:Hematology and Oncology", "specialty:Neurology"]


def _probe_spec(encoder: str, sample: int, **probe) -> dict:
    return {
        "audit": "classifier_gaps",
        "name": "craftmd-probe-test",
        "seed": 0,
        "data": [{"format": "craftmd", "path": str(CRAFTMD)}],
        "models": {"encoder": encoder},
        "params": {"n_resamples": 200, "probe": {"preset": "craftmd", "top_k": 3, "sample": sample, **probe}},
    }


@needs_craftmd
def test_craftmd_probe_recipe_with_mock_encoder(tmp_path: Path):
    from clinaudit.report.base import get_section_builder
    from clinaudit.spec import parse_spec_dict
    from clinaudit.pipeline import run_spec

    spec, params = parse_spec_dict(_probe_spec("mock", 200, hidden_sizes=[[32]], alphas=[1e-2]))
    rd = run_spec(spec, tmp_path / "run", params=params, progress=False)
    for name in ("results", "gaps", "summary", "thresholds", "performance", "predictions", "probe_grid", "extraction",
                 "demographics", "probe_cases"):
        assert rd.has_table(name), name
    pred = rd.read_table("predictions")
    assert pred["case_id"].nunique() == 200 and pred["task"].nunique() == 3
    gaps = rd.read_table("gaps")
    assert set(gaps["attribute"]) <= {"sex", "race"} and "sex" in set(gaps["attribute"])
    ex = rd.read_table("extraction")
    assert ex.loc[ex["attribute"] == "sex", "count"].sum() == 200
    sec = get_section_builder("classifier_gaps")(rd)
    kinds = [type(b).__name__ for b in sec.blocks]
    assert "Figure" in kinds and sec.summary["tasks"] == 3
    assert rd.manifest["summary"]["tasks_probed"] == pred["task"].unique().tolist()


@pytest.mark.slow
@needs_craftmd
def test_craftmd_probe_end_to_end_with_embedded_embedder(tmp_path: Path, capsys):
    """Acceptance: the CRAFT-MD probe task runs end to end with `embedded-embedder` (300 vignettes, 3 tasks)."""
    pytest.importorskip("sentence_transformers")
    from clinaudit.cli.main import main

    out = tmp_path / "probe"
    rc = main(["probe", "--input", str(CRAFTMD), "--preset", "craftmd", "--top-k", "3", "--sample", "300",
               "--encoder", "embedded-embedder", "--n-resamples", "200", "--hidden-sizes", "64", "--alphas",
               "0.0001,0.01", "--no-progress", "--out", str(out)])
    assert rc == 0
    for name in ("gaps", "summary", "thresholds", "performance", "predictions", "probe_grid", "extraction"):
        assert (out / f"{name}.csv").is_file(), name
    perf = pd.read_csv(out / "performance.csv")
    auroc = perf[perf["metric"] == "auroc"].set_index("task")["value"]
    assert len(auroc) == 3
    # sentence embeddings separate the specialties well above chance (measured 0.9x; see docs)
    assert (auroc > 0.7).all()
    assert "Significant gaps" in capsys.readouterr().out
