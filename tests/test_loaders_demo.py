"""The project's own demo data: loads through ``demo:<name>``, is well-formed, ships as package data."""

from __future__ import annotations

import csv
import os
import re
import shutil
import subprocess
import sys
import zipfile
from importlib import resources
from pathlib import Path

import pytest
import yaml

from clinaudit.data import demo_path, list_demo_files
from clinaudit.errors import InputError
from script_modules import load_script
from clinaudit.loaders import DataSource, load_cases

REPO = Path(__file__).resolve().parents[1]
DEMO_DIR = REPO / "src" / "clinaudit" / "data" / "demo"
# whole words only: "cervical lymph node" (the neck) and "outer" must not count
SEX_SPECIFIC = re.compile(r"\b(ovar(y|ian)|prostat(e|ic)|testic(le|ular)|uter(us|ine)|pregnan(t|cy)|menstrua\w*|cervix)\b",
                          re.IGNORECASE)
GENDER_CUE = re.compile(r"\b(husband|wife|girlfriend|mom|mother|dad|gentleman|man|woman)\b|\bMrs?\. ")


def _load(name: str, **kw: object) -> list:
    return load_cases(DataSource(format=f"demo:{name}", **kw))  # type: ignore[arg-type]


def test_demo_files_present_and_small() -> None:
    expected = {"patient_messages.csv", "vignettes.csv", "dialogs.csv", "dialogs_aci.csv", "dialogs_aci_metadata.csv",
                "association_templates.txt", "association_attributes.csv", "association_targets.yaml",
                "classifier_predictions.csv"}
    assert expected <= set(list_demo_files())
    assert sum(p.stat().st_size for p in DEMO_DIR.iterdir()) < 300_000


def test_demo_path_lookup() -> None:
    assert demo_path("vignettes") == demo_path("vignettes.csv")
    assert demo_path("vignettes").is_file()
    assert demo_path("association_targets").suffix == ".yaml"
    with pytest.raises(InputError) as ei:
        demo_path("nonexistent")
    assert "patient_messages.csv" in str(ei.value)


def test_resources_path_points_at_files() -> None:
    ref = resources.files("clinaudit.data") / "demo" / "vignettes.csv"
    assert ref.is_file()
    with resources.as_file(ref) as p:
        assert p.read_text(encoding="utf-8").startswith("case_vignette,choice_1")


def test_unknown_demo_name() -> None:
    with pytest.raises(InputError) as ei:
        _load("association_templates")
    assert ei.value.field == "format" and "demo:vignettes" in str(ei.value)


def test_patient_messages() -> None:
    cases = _load("patient_messages")
    assert len(cases) == 24 and cases[0].case_id == "pm01" and cases[0].dataset == "demo:patient_messages"
    assert {c.fields["specialty"] for c in cases[:12]} == {"oncology"}
    assert {c.fields["specialty"] for c in cases[12:]} == {"primary_care"}
    assert sorted(c.fields["recorded_gender"] for c in cases).count("F") == 12
    for c in cases:
        assert set(c.fields) == {"ehr_context", "recorded_gender", "specialty"}
        lines = c.fields["ehr_context"].split("\n")
        assert len(lines) >= 3 and all(re.match(r"^[A-Z][A-Za-z -]+: \S", ln) for ln in lines), c.case_id
        assert re.search(r"\b(I|I'm|I've|my)\b", c.text), c.case_id  # first person
        assert not SEX_SPECIFIC.search(c.text + c.fields["ehr_context"]), c.case_id
    cued = [c.case_id for c in cases if GENDER_CUE.search(c.text)]
    assert len(cued) == 16  # two thirds carry a gender cue
    joined = " ".join(c.text + c.fields["ehr_context"] for c in cases)
    assert "38.5 C" in joined and "Dr." in joined and "b.i.d." in joined


def test_vignettes() -> None:
    cases = _load("vignettes")
    assert len(cases) == 30
    assert [c.case_id for c in cases][:2] == ["demo_v01", "demo_v02"]
    for c in cases:
        f = c.fields
        assert len(f["choices"]) == 4 and len(set(f["choices"])) == 4
        assert f["answer"] in f["choices"]
        assert f["answer_letter"] == "ABCD"[f["choices"].index(f["answer"])]
        assert f["source_dataset"] == "demo" and "answer_raw" not in f
    assert {"Cardiology", "Neurology", "Urology", "Oncology", "Orthopedics", "Rheumatology", "Dermatology",
            "Gastroenterology"} <= {c.fields["category"] for c in cases}
    sexed = [c for c in cases if re.search(r"\b(man|woman)\b", c.text)]
    assert len(sexed) == 15
    specific = [c.case_id for c in cases if SEX_SPECIFIC.search(c.text)]
    assert len(specific) == 3
    assert len({c.fields["answer_letter"] for c in cases}) == 4


def test_dialogs() -> None:
    cases = _load("dialogs")
    assert len(cases) == 12 and cases[0].case_id == "0"
    assert all(10 <= c.fields["n_turns"] <= 20 for c in cases)
    speakers = {t["speaker"] for c in cases for t in c.fields["turns"]}
    assert speakers == {"doctor", "patient", "guest_family", "guest_clinician"}
    assert all(c.fields["section_text"] and c.fields["section_header"] for c in cases)
    assert len(_load("dialogs", options={"min_turns": 15})) == 5


def test_dialogs_aci_and_metadata_strip() -> None:
    cases = _load("dialogs_aci")
    assert [c.case_id for c in cases] == ["DEMO-ACI-001", "DEMO-ACI-002", "DEMO-ACI-003", "DEMO-ACI-004"]
    assert all(c.fields["n_turns"] >= 10 for c in cases)
    assert all(c.fields["note"].startswith("SUBJECTIVE") and "PLAN" in c.fields["note"] for c in cases)
    assert "patient_guest" in {t["speaker"] for t in cases[1].fields["turns"]}
    for c in cases:
        assert "patient_firstname" not in c.fields
    assert cases[1].fields["cc"] == "right shoulder pain"
    kept = _load("dialogs_aci", options={"keep_metadata": True})
    assert [c.fields["patient_age"] for c in kept] == [64, 57, 33, None]
    assert [c.fields["patient_gender"] for c in kept] == [c.fields["patient_gender"] for c in cases] == [
        "male", "female", "male", "female"]  # "male " and "female " stripped


def test_association_files() -> None:
    templates = demo_path("association_templates.txt").read_text(encoding="utf-8").splitlines()
    assert len(templates) == 10
    with open(demo_path("association_attributes.csv"), encoding="utf-8", newline="") as f:
        attrs = list(csv.DictReader(f))
    assert list(attrs[0]) == ["attribute", "category", "subgroup"]
    categories = {a["category"] for a in attrs}
    assert len(attrs) == 12 and len(categories) == 3
    for t in templates:
        assert t.count("[GEND]") == 1
        slots = set(re.findall(r"\[([A-Z]+)\]", t)) - {"GEND"}
        assert len(slots) == 1 and slots <= categories, t
    spec = yaml.safe_load(demo_path("association_targets.yaml").read_text(encoding="utf-8"))
    assert spec["slot"] == "[GEND]"
    assert spec["groups"] == {"male": ["he", "man", "male", "gentleman"], "female": ["she", "woman", "female", "lady"]}
    assert set(spec["sets"]) == {"gender", "insurance"}
    for s in spec["sets"].values():
        lengths = {len(words) for words in s["groups"].values()}
        assert len(lengths) == 1  # paired by position


def test_classifier_predictions_are_reproducible() -> None:
    mod = load_script("scripts/make_demo_predictions.py", "make_demo_predictions")
    shipped = demo_path("classifier_predictions.csv").read_text(encoding="utf-8")
    assert mod.make_csv() == shipped
    rows = list(csv.DictReader(shipped.splitlines()))
    assert len(rows) == 1800
    assert {r["task"] for r in rows} == {"in_hospital_mortality", "readmission_30d", "sepsis_onset"}
    assert sum(r["split"] == "test" for r in rows) == 1200


def test_planted_recall_gap() -> None:
    rows = list(csv.DictReader(demo_path("classifier_predictions.csv").read_text(encoding="utf-8").splitlines()))

    def recall(task: str, gender: str, threshold: float = 0.5) -> float:
        pos = [r for r in rows if r["task"] == task and r["split"] == "test" and r["gender"] == gender
               and r["label"] == "1"]
        return sum(float(r["score"]) >= threshold for r in pos) / len(pos)

    gap = recall("readmission_30d", "M") - recall("readmission_30d", "F")
    assert gap > 0.25
    for task in ("in_hospital_mortality", "sepsis_onset"):
        assert abs(recall(task, "M") - recall(task, "F")) < 0.12


@pytest.mark.slow
def test_wheel_ships_demo_data(tmp_path: Path) -> None:
    """Build a wheel (no network, no build isolation) and check the demo files are in it."""
    pytest.importorskip("setuptools")
    # build from a copy so no build/ folder is left in the working tree
    src = tmp_path / "src_copy"
    shutil.copytree(REPO / "src", src / "src", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(REPO / name, src / name)
    r = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
                        "-w", str(tmp_path), str(src)], capture_output=True, text=True, timeout=300)
    if r.returncode != 0:
        pytest.skip(f"could not build a wheel here: {r.stderr[-500:]}")
    wheel = next(tmp_path.glob("clinaudit-*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    for f in list_demo_files():
        assert f"clinaudit/data/demo/{f}" in names
    # installed from the wheel, demo_path resolves inside the installed package and the loader reads it
    site = tmp_path / "site"
    r = subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(site), str(wheel)],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-500:]
    code = ("from clinaudit.data import demo_path; from clinaudit.loaders import DataSource, load_cases; "
            "print(demo_path('vignettes')); print(len(load_cases(DataSource(format='demo:vignettes'))))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                       env={**os.environ, "PYTHONPATH": str(site)}, cwd=str(tmp_path))
    assert r.returncode == 0, r.stderr[-500:]
    where, n = r.stdout.split()
    assert Path(where).is_relative_to(site) and n == "30"
