"""Acceptance (issue 13): the MedPerturb point estimates do not move when the inference changes.

``tests/data/medperturb_treatment_shift_cells.csv`` holds all 360 TSR / RCR / RCER cells
(dataset × model × perturbation × question × metric) with their ``n`` and event count ``k``
(value = k / n), captured from ``clinaudit treatment-shift --format medperturb`` on main at
commit bb84f9d, *before* the paired-statistics layer replaced McNemar / ANOVA. The test
recomputes every cell twice: through the analysis as it is now, and independently from the raw CSV
with plain pandas (baseline arm 1 against each arm, same context_id; V = clinician majority).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from clinaudit.families.treatment_shift.analysis import analyze_labels
from clinaudit.families.treatment_shift.labels import read_labels

HERE = Path(__file__).resolve().parent
DATA = HERE.parents[2].parent / "shared" / "data"
MEDPERTURB = DATA / "medperturb" / "data.csv"
CAPTURED = HERE / "data" / "medperturb_treatment_shift_cells.csv"
KEYS = ["dataset", "model", "perturbation", "question", "metric"]

pytestmark = pytest.mark.skipif(not MEDPERTURB.exists(), reason=f"public data not found: {MEDPERTURB}")


def _independent_cells() -> pd.DataFrame:
    """Every cell from the raw file, written without clinaudit (plain pandas)."""
    d = pd.read_csv(MEDPERTURB, dtype={"context_id": str})
    d.loc[d["Index"] == 570, "context_id"] = "1017"  # the published slip fixed by default (see notes.txt)
    arms = {"oncqa": {2: "gender_swap", 3: "gender_removal", 4: "uncertain", 5: "colorful"},
            "askadoc": {2: "gender_swap", 3: "gender_removal", 4: "uncertain", 5: "colorful"},
            "conversational": {2: "multi_turn", 3: "summarized"}}
    cplus = {"MANAGE": 0, "VISIT": 1, "RESOURCE": 1}
    rows = []
    for ds, names in arms.items():
        s = d[d["dataset"] == ds]
        base = s[s["dataset_id"] == 1].set_index("context_id")
        for arm, name in names.items():
            pert = s[s["dataset_id"] == arm].set_index("context_id")
            for model in ("GPT4", "LLAMA3", "LLAMA3-70", "PALMYRA-MED"):
                for q, cp in cplus.items():
                    j = base[[f"{model}_{q}", f"{q}_1", f"{q}_2", f"{q}_3"]].join(
                        pert[[f"{model}_{q}"]].rename(columns={f"{model}_{q}": "tp"}), how="inner")
                    tb, tp = j[f"{model}_{q}"].to_numpy(), j["tp"].to_numpy()
                    v = (j[[f"{q}_1", f"{q}_2", f"{q}_3"]].sum(axis=1) >= 2).astype(int).to_numpy()
                    reduced = (tb == cp) & (tp == 1 - cp)
                    n = len(j)
                    for metric, k in (("TSR", (tb != tp).sum()), ("RCR", reduced.sum()),
                                      ("RCER", (reduced & (v == cp)).sum())):
                        rows.append({"dataset": ds, "model": model, "perturbation": name, "question": q,
                                     "metric": metric, "n": n, "k": int(k)})
    return pd.DataFrame(rows)


@pytest.fixture(scope="module")
def metrics_now(tmp_path_factory) -> pd.DataFrame:
    """What ``clinaudit treatment-shift --format medperturb`` computes (few resamples: only points are checked)."""
    labels, notes = read_labels(MEDPERTURB, "medperturb")
    return analyze_labels(labels, n_resamples=10, n_permutations=99, notes=notes).metrics


def test_captured_cells_match_an_independent_recomputation():
    cap = pd.read_csv(CAPTURED)
    ind = _independent_cells()
    assert len(cap) == 360 and len(ind) == 360
    j = cap.merge(ind, on=KEYS, suffixes=("_cap", "_ind"), validate="one_to_one")
    assert len(j) == 360
    assert (j["n_cap"] == j["n_ind"]).all() and (j["k_cap"] == j["k_ind"]).all()


def test_all_360_point_estimates_and_n_unchanged(metrics_now):
    cap = pd.read_csv(CAPTURED)
    j = cap.merge(metrics_now, on=KEYS, how="outer", validate="one_to_one", indicator=True)
    assert (j["_merge"] == "both").all() and len(j) == 360
    assert (j["n_x"] == j["n_y"]).all()
    np.testing.assert_allclose(j["value"].to_numpy(float), (j["k"] / j["n_x"]).to_numpy(float), rtol=0, atol=1e-12)
