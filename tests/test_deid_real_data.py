"""Issue 31's acceptance over the public files in ../shared/data (skipped when they are absent).

* every ACI-Bench split: no dialog keeps its patient's metadata first or family name after
  de-identification, and at most 10 % are excluded for residual identifiers;
* MTS-Dialog test set: dialogs excluded for possible names fall by at least half from the 41 measured
  before issue 31 (benchmarks/bench_deid.py, commit f72338d), and none of the words is a drug,
  condition or specialty;
* every MTS-Dialog file: dialogs excluded for any residual identifier (possible names, first-person ages,
  gendered forms of address) fall by at least half from the counts measured before issue 31.
"""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest

from clinaudit.loaders import DataSource, load_cases
from clinaudit.perturb.deid import deidentify_case_report, residual_identifiers
from clinaudit.perturb.vocab import clinical_category

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"
POSSIBLE_NAME_EXCLUSIONS_BEFORE = 41  # MTS-Dialog test set, main before issue 31 (docs/deidentification.md)
# all residual-identifier exclusions per MTS-Dialog file, main before issue 31 (docs/deidentification.md)
RESIDUAL_EXCLUSIONS_BEFORE = {"MTS-Dialog-TestSet-1-MEDIQA-Chat-2023": 74, "MTS-Dialog-ValidationSet": 39,
                              "MTS-Dialog-TrainingSet": 437}


def _path(rel: str) -> Path:
    p = DATA / rel
    if not p.exists():
        pytest.skip(f"public data file {p} is absent (the tests read ../shared/data relative to the repo root)")
    return p


@pytest.mark.slow
@pytest.mark.parametrize("split", ["train", "valid", "clinicalnlp_taskB_test1", "clinicalnlp_taskC_test2"])
def test_aci_no_metadata_name_left(split):
    path = _path(f"aci-bench/{split}.csv")
    names: dict[str, list[str]] = {}
    with path.with_name(f"{split}_metadata.csv").open(encoding="utf-8") as fh:  # read independently of the loader
        for r in csv.DictReader(fh):
            names[r["encounter_id"]] = [r[k].strip() for k in ("patient_firstname", "patient_familyname")
                                        if r[k].strip()]
    cases = load_cases(DataSource(format="aci", path=str(path)))
    left, excluded = [], 0
    for c in cases:
        v, rep = deidentify_case_report(c)
        excluded += bool(residual_identifiers(rep.remaining))
        if any(re.search(rf"(?i)(?<![a-z]){re.escape(n)}(?![a-z])", v.text) for n in names.get(c.case_id, [])):
            left.append(c.case_id)
    assert sum(bool(names.get(c.case_id)) for c in cases) >= 20
    assert left == []
    assert excluded <= 0.10 * len(cases)


@pytest.mark.slow
def test_mts_possible_name_exclusions_halved_and_never_clinical():
    cases = load_cases(DataSource(format="mts", path=str(_path("mts-dialog/MTS-Dialog-TestSet-1-MEDIQA-Chat-2023.csv"))))
    assert len(cases) == 200
    excluded = 0
    for c in cases:
        _, rep = deidentify_case_report(c)
        found = residual_identifiers(rep.remaining, kinds=["possible_name"])
        excluded += bool(found)
        assert not [r["text"] for r in found if clinical_category(r["text"]) in ("drug", "condition", "specialty")]
        # the examples are explained by the vocabulary wherever they occur
        assert not [r for r in found if r["text"].lower() in {"warfarin", "psoriasis", "neurologist", "germany",
                                                                "care", "center"}]
    assert excluded <= POSSIBLE_NAME_EXCLUSIONS_BEFORE / 2


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(RESIDUAL_EXCLUSIONS_BEFORE))
def test_mts_residual_exclusions_halved(name):
    cases = load_cases(DataSource(format="mts", path=str(_path(f"mts-dialog/{name}.csv"))))
    excluded = []
    for c in cases:
        v, rep = deidentify_case_report(c)
        if residual_identifiers(rep.remaining):
            excluded.append(c.case_id)
        # forms of address are gone from the de-identified text, and no speaker's age is left as a number
        assert not re.search(r"(?i)(?<![\w'-])(?:sir|ma'am|madam)(?![\w'-])", v.text), c.case_id
        assert not re.search(r"(?i)\bI(?:'m| am) (?:forty|fifty|sixty|seventy)\b", v.text), c.case_id
    assert len(excluded) <= RESIDUAL_EXCLUSIONS_BEFORE[name] / 2, (len(excluded), excluded[:20])
