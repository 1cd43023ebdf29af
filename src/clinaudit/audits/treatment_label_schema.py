"""The label table of the treatment-shift analysis: canonical columns and published-file fixes.

Shared by :mod:`.treatment_labels` (the analysis) and :mod:`.treatment_clinicians`
(clinicians as a reference rater), so neither imports the other's internals.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

__all__ = ["MEDPERTURB_FIXES", "GENDER_NAMES", "norm_gender", "normalize_labels"]

#: Known slips in the published MedPerturb file, fixed by default:
#: Index -> (dataset, published context_id, corrected context_id, why).
MEDPERTURB_FIXES: dict[int, tuple[str, str, str, str]] = {
    570: (
        "conversational", "211", "1017",
        "row Index 570 is published with context_id 211 (which then has two multi-turn rows) but its dialogue "
        "is the multi-turn version of context 1017 (fatigue, weight loss and abdominal pain for 6 months), "
        "which otherwise has no multi-turn row",
    ),
}

#: Spellings of a recorded or inferred gender -> its canonical name.
GENDER_NAMES = {"f": "female", "female": "female", "woman": "female", "w": "female",
                "m": "male", "male": "male", "man": "male"}


def norm_gender(value: Any) -> str | None:
    """A gender value in canonical form (female / male / as written), None when empty or unknown."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    v = str(value).strip().lower()
    if not v or v in {"nan", "none", "unknown", "na"}:
        return None
    return GENDER_NAMES.get(v, v)


def normalize_labels(df: pd.DataFrame) -> pd.DataFrame:
    """Give a label table its canonical columns and dtypes (labels as float 0/1/NaN)."""
    d = df.copy()
    for col in ("dataset", "case_id", "variant", "model", "question"):
        if col not in d.columns:
            if col == "dataset":
                d[col] = "data"
            else:
                raise KeyError(f"label table lacks column {col!r}")
        d[col] = d[col].astype(str)
    d["question"] = d["question"].str.upper()
    d["seed"] = pd.to_numeric(d["seed"], errors="coerce").fillna(0).astype(int) if "seed" in d.columns else 0
    for col in ("label", "validation"):
        d[col] = pd.to_numeric(d[col], errors="coerce").astype(float) if col in d.columns else np.nan
    for col in ("gender", "inferred_gender"):
        d[col] = d[col].map(norm_gender).astype(object) if col in d.columns else None
    return d
