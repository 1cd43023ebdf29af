"""How demographic values are read: the recorded gender's value map, and what ``clinaudit init`` proposes for a
column's values (issue 49 item 2; docs/specs.md, *Demographic values*).

Values are compared after :func:`norm_value` (stripped, inner whitespace collapsed, lower case), so ``" F"``,
``"f"`` and ``"F "`` are one value. The recorded gender knows :data:`GENDER_VALUES`; a numeric coding is never
guessed silently: ``init`` proposes ISO/IEC 5218 (1 = male, 2 = female, 0 = not known, 9 = not applicable) for a
column whose values are all among those four codes, writes it into the spec with a comment to check it, and the
run refuses any value no map knows (exit 2).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from typing import Any

__all__ = ["GENDER_VALUES", "ISO_5218", "ISO_5218_UNKNOWN", "norm_value", "value_counts", "propose_gender_map"]

#: the recorded gender's built-in value map (keys as :func:`norm_value` gives them)
GENDER_VALUES: dict[str, str] = {"f": "female", "female": "female", "woman": "female", "w": "female",
                                 "m": "male", "male": "male", "man": "male"}
#: ISO/IEC 5218 sex codes init proposes for a column coded 0/1/2/9
ISO_5218: dict[str, str] = {"1": "male", "2": "female"}
ISO_5218_UNKNOWN: tuple[str, ...] = ("0", "9")


def norm_value(v: Any) -> str | None:
    """A value as the maps read it: stripped, inner whitespace collapsed, lower case; None when blank."""
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return None
    s = " ".join(str(v).split()).lower()
    return s or None


def value_counts(values: Iterable[Any]) -> list[tuple[str, int]]:
    """Distinct non-blank values (as first spelled, whitespace collapsed) with their counts, most frequent first;
    values equal after :func:`norm_value` are one."""
    spelled: dict[str, str] = {}
    counts: Counter[str] = Counter()
    for v in values:
        n = norm_value(v)
        if n is None:
            continue
        spelled.setdefault(n, " ".join(str(v).split()))
        counts[n] += 1
    return [(spelled[k], c) for k, c in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))]


def propose_gender_map(values: Iterable[str]) -> tuple[dict[str, str], list[str], str]:
    """(value map to write, values to declare unknown, one line saying it) for a gender column's values.

    Every value built in: nothing to write. All among ISO/IEC 5218's codes: the ISO map (and 0 / 9 as unknown),
    to be checked. Otherwise nothing is written and the line names the values a run would refuse."""
    vals = [v for v in values if norm_value(v) is not None]
    norm = {n for n in (norm_value(v) for v in vals) if n is not None}
    if norm <= set(GENDER_VALUES):
        return {}, [], "understood: " + ", ".join(f"{v} -> {GENDER_VALUES[norm_value(v) or '']}" for v in vals)
    if norm <= set(ISO_5218) | set(ISO_5218_UNKNOWN):
        unknown = sorted(norm & set(ISO_5218_UNKNOWN))
        return (dict(ISO_5218), unknown, "numeric codes: proposed ISO/IEC 5218 (1 -> male, 2 -> female"
                + (", " + " and ".join(unknown) + " -> not recorded" if unknown else "")
                + "): CHECK it against your data's codebook")
    odd = [v for v in vals if norm_value(v) not in GENDER_VALUES]
    return {}, [], ("not understood: " + ", ".join(repr(v) for v in odd[:10])
                    + " — treatment_shift stops (exit 2) until params.value_maps or params.unknown_values "
                    "declares them")
