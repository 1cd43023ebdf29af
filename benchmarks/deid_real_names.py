"""The real patients' names a de-identification leaves (issue 50, nineteenth session), for ``bench_deid_origin.py``.

ACI-Bench's metadata (``*_metadata.csv``: ``patient_firstname``, ``patient_familyname``) names each dialog's patient;
the benchmark de-identifies the dialogs **without** it (``res[split]["rows"]``, the way a user's own CSV arrives).
:func:`real_names_left` counts, by kind (``first``, ``family``), the metadata names' mentions in the dialogs before
and how many are still there after: a name part as a whole word, case-insensitive ("billy", "billy's"; not
"billys"), a name of several parts counted part by part. These are real patients' names of a public data set,
labelled by ACI-Bench, not by this project: the measure of names the dialogs themselves say, in real lower-case
speech. :func:`metadata_kept` is the other metadata measure: dialogs that keep their name when it is given."""

from __future__ import annotations

import re
from collections import Counter

KINDS = ("first", "family")  # the columns patient_firstname, patient_familyname (in that order in the name rows)


def _parts(name: str) -> list[str]:
    return [p for p in re.split(r"\s+", name.strip()) if len(p) >= 2]


def _count(text: str, part: str) -> int:
    return len(re.findall(rf"(?i)(?<![\w']){re.escape(part)}(?![\w]|['’](?!s\b)\w)", text))


def _empty() -> dict[str, dict]:
    return {k: {"mentions": 0, "left": 0, "words": Counter()} for k in KINDS}


def real_names_left(texts: list[str], names: list[list[str]], outputs: list[str]) -> dict[str, dict]:
    """kind -> ``{"mentions": n, "left": m, "words": Counter}`` over the dialogs ``texts`` (before), ``outputs``
    (after) and ``names[i]`` (the dialog's first name, family name, ...): every mention of a name part in the dialog
    before, and how many of them the output still holds (at most as many as before), with the words left."""
    out = _empty()
    for text, row, after in zip(texts, names, outputs, strict=True):
        for kind, name in zip(KINDS, row, strict=False):
            for part in _parts(name or ""):
                n = _count(text, part)
                if not n:
                    continue
                left = min(n, _count(after, part))
                out[kind]["mentions"] += n
                out[kind]["left"] += left
                if left:
                    out[kind]["words"][part.lower()] += left
    return out


def merge(parts: list[dict[str, dict]]) -> dict[str, dict]:
    """The counts of several files together."""
    out = _empty()
    for p in parts:
        for k in KINDS:
            out[k]["mentions"] += p[k]["mentions"]
            out[k]["left"] += p[k]["left"]
            out[k]["words"] += p[k]["words"]
    return out


def real_names_line(label: str, counts: dict[str, dict]) -> str:
    """One line: "after: ACI-Bench patients' metadata names the dialogs say, left (no metadata given): first 11 of
    314 mentions = 3.5 per 100 (billy 2, mark 4), family 1 of 110 = 0.9 per 100 (...)"."""
    def one(k: str) -> str:
        c = counts[k]
        words = ", ".join(f"{w} {n}" for w, n in sorted(c["words"].items(), key=lambda x: (-x[1], x[0])))
        return (f"{k} {c['left']} of {c['mentions']} mentions = {100 * c['left'] / max(1, c['mentions']):.1f} per 100"
                + (f" ({words})" if words else ""))
    return f"{label}: ACI-Bench patients' metadata names the dialogs say, left (no metadata given): " + \
        ", ".join(one(k) for k in KINDS)


def metadata_kept(real: dict[str, list[str]], names: dict[str, list[list[str]]], sex: dict[str, list[str]],
                  res: dict) -> Counter:
    """ACI-Bench dialogs that keep their patient's metadata name (given as metadata), by the patient's gender."""
    c: Counter[str] = Counter()
    for split in names:
        for i, r in enumerate(res["meta:" + split]["rows"]):
            first, last = names[split][i][0], names[split][i][1]
            g = sex[split][i] or "unknown"
            if not (first or last):
                continue
            c[f"{g} dialogs"] += 1
            if any(p and re.search(rf"(?i)\b{re.escape(p)}\b", r["text"]) for p in (first, last)):
                c[f"{g} kept"] += 1
    return c


def kept_line(c: Counter) -> str:
    """:func:`metadata_kept`'s counts as words, every gender with its kept count (0 when none kept): "female 0 of 84,
    male 1 of 77"."""
    groups = sorted(k[: -len(" dialogs")] for k in c if k.endswith(" dialogs"))
    return ", ".join(f"{g} {c.get(g + ' kept', 0)} of {c[g + ' dialogs']}" for g in groups)
