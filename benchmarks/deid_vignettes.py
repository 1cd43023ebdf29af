"""What de-identification changes in the vignettes and patient messages the other audits send (issue 50, Build 4).

Since issue 50 every audit de-identifies its cases before a model reads them (``clinaudit.pipeline.identifiers``):
the treatment-shift and CARE audits' multiple-choice vignettes (CRAFT-MD, the MIM perturbed files) and patient
messages (MedPerturb), which hold no patient's name. Whatever the detector replaces there is a false replacement
that changes the clinical question, and where it differs between two arms of one case it is a difference the
audit then measures as the perturbation's. This reads every shared file of those formats with the project's own
loaders, de-identifies the cases as a run does (:func:`clinaudit.pipeline.identifiers.remove_listed_names`) and
reports, per file and arm:

* cases changed (text or any field: the options, the answer) and ``[NAME]`` replacements, per 100 cases;
* multiple-choice questions with an option changed, and with two options made the same;
* paired arms (MedPerturb's arms of one context, the MIM files' rows of one case id): pairs whose replacements
  differ, i.e. where de-identification itself makes the two arms differ;
* by the patient's sex (MedPerturb's ``original_patient_gender``, baseline arm): cases changed, Fisher's exact test.

CRAFT-MD's rows are split by position: the even rows were read while writing the notation rules
(:mod:`clinaudit.perturb.name_notation`), the odd rows were not (their counts only). ``--src`` runs another tree's
code (a ``git archive`` of it), for a before/after table side by side::

    python benchmarks/deid_vignettes.py [--src /tmp/before/src] [--show N]
"""

from __future__ import annotations

import argparse
import collections
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DATA = next((d for d in (ROOT.parent / "shared" / "data", ROOT.parent.parent / "shared" / "data") if d.exists()),
            ROOT.parent / "shared" / "data")
MIM = ("baseline", "gender", "no_gender", "lowercase.first50", "uppercase.first50", "typo.first50",
       "exclamation.first50", "whitespace.first50")
_MASK = re.compile(r"\[NAME\]")


# The [NAME]s are counted here, not with clinaudit.deid_groups (which counts them the same way for a run), so that
# ``--src`` can measure a tree older than that module.
def _strings(v: Any) -> list[str]:
    if isinstance(v, str):
        return [v]
    if isinstance(v, list):
        return [s for x in v for s in _strings(x)]
    if isinstance(v, dict):
        return [s for x in v.values() for s in _strings(x)]
    return []


def _masks(case: Any) -> int:
    return sum(len(_MASK.findall(s)) for s in [case.text, *_strings(case.fields)])


def load(fmt: str, path: Path, **options: Any) -> list[Any]:
    from clinaudit.loaders.base import DataSource, load_sources

    return load_sources([DataSource(format=fmt, path=str(path), options=options)])


def measure(cases: list[Any]) -> dict[str, Any]:
    """Each case de-identified as a run does; counts, and per case what was replaced."""
    from clinaudit.pipeline.identifiers import remove_listed_names

    out = remove_listed_names(cases, detect=True)
    rows = []
    for before, after in zip(cases, out):
        n = _masks(after) - _masks(before)
        changed = after.text != before.text or after.fields != before.fields
        choices = before.fields.get("choices")
        new_choices = after.fields.get("choices")
        rows.append({"id": before.case_id, "masks": n, "changed": changed, "fields": before.fields,
                     "option_changed": bool(choices) and choices != new_choices,
                     "options_merged": bool(choices) and len(set(new_choices)) < len(set(choices)),
                     "before": before.text, "after": after.text})
    return _summary(rows)


def _line(label: str, m: dict[str, Any]) -> str:
    n = max(m["cases"], 1)
    mcq = f" | {m['option_changed']} | {m['options_merged']}" if m["option_changed"] or m["options_merged"] \
        or any(r["fields"].get("choices") for r in m["rows"]) else " | – | –"
    return (f"| {label} | {m['cases']} | {m['changed']} ({100 * m['changed'] / n:.1f}) | {m['masks']} "
            f"({100 * m['masks'] / n:.1f}){mcq} |")


def _paired(a: list[dict[str, Any]], b: list[dict[str, Any]], key: Any) -> tuple[int, int]:
    """Pairs (a row of ``a``, its row of ``b`` by ``key``) and those whose ``[NAME]`` counts differ."""
    bk = {key(r): r for r in b}
    pairs = [(r, bk[key(r)]) for r in a if key(r) in bk]
    return len(pairs), sum(x["masks"] != y["masks"] for x, y in pairs)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--src", help="the src/ folder of the code to measure (default: this tree's)")
    ap.add_argument("--show", type=int, default=0, help="print N replaced words of CRAFT-MD's development rows")
    args = ap.parse_args(argv)
    sys.path.insert(0, args.src or str(ROOT / "src"))
    if not (DATA / "craft-md").exists():
        print(f"no shared data at {DATA}", file=sys.stderr)
        return 77
    print("| file, arm | cases | changed (per 100) | [NAME] (per 100) | MCQ option changed | options made the same |")
    print("|---|---:|---:|---:|---:|---:|")
    craft = measure(load("craftmd", DATA / "craft-md" / "usmle_and_derm_dataset.csv"))
    for half, keep in (("development rows (even)", 0), ("held-out rows (odd)", 1)):
        rows = [r for i, r in enumerate(craft["rows"]) if i % 2 == keep]
        print(_line(f"CRAFT-MD, {half}", _summary(rows)))
    mim = {}
    for name in MIM:
        mim[name] = measure(load("craftmd", DATA / "mim-craftmd-perturbed" / f"{name}.csv"))
        print(_line(f"MIM {name}", mim[name]))
    med = measure(load("medperturb", DATA / "medperturb" / "data.csv"))
    arms: dict[tuple[str, int], list[dict[str, Any]]] = collections.defaultdict(list)
    for r in med["rows"]:
        arms[(r["fields"]["dataset"], r["fields"]["dataset_id"])].append(r)
    for (ds, arm), rows in sorted(arms.items()):
        print(_line(f"MedPerturb {ds}, arm {arm}", _summary(rows)))
    print("\npaired arms whose [NAME] counts differ (de-identification makes the arms differ):")
    for name in MIM[1:]:
        n, d = _paired(mim["baseline"]["rows"], mim[name]["rows"], lambda r: r["id"])
        print(f"  MIM baseline vs {name}: {d} of {n} cases")
    for (ds, arm), rows in sorted(arms.items()):
        if arm != 1:
            n, d = _paired(arms[(ds, 1)], rows, lambda r: r["fields"]["context_id"])
            print(f"  MedPerturb {ds} arm 1 vs arm {arm}: {d} of {n} contexts")
    _by_sex([r for (ds, arm), rows in arms.items() if arm == 1 for r in rows])
    if args.show:
        words = collections.Counter(w for i, r in enumerate(craft["rows"]) if i % 2 == 0
                                    for w in _replaced(r["before"], r["after"]))
        print("\nCRAFT-MD development rows, words replaced:", words.most_common(args.show))
    return 0


def _summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    return {"rows": rows, "cases": len(rows), "changed": sum(r["changed"] for r in rows),
            "masks": sum(r["masks"] for r in rows), "option_changed": sum(r["option_changed"] for r in rows),
            "options_merged": sum(r["options_merged"] for r in rows)}


def _by_sex(rows: list[dict[str, Any]]) -> None:
    from scipy.stats import fisher_exact

    by: dict[str, list[int]] = collections.defaultdict(lambda: [0, 0])
    for r in rows:
        g = str(r["fields"].get("original_patient_gender") or r["fields"].get("gender") or "?").strip()[:1].upper()
        by[g][0] += r["changed"]
        by[g][1] += 1
    if "F" in by and "M" in by:
        (cf, nf), (cm, nm) = by["F"], by["M"]
        p = fisher_exact([[cf, nf - cf], [cm, nm - cm]]).pvalue
        print(f"\nMedPerturb baseline arm by patient sex: F {cf} of {nf} changed, M {cm} of {nm}; "
              f"Fisher's exact test (H0: the same share), p = {p:.3f}")


def _replaced(before: str, after: str) -> list[str]:
    """The words of ``before`` that ``after`` lacks (the replaced ones, roughly)."""
    a = collections.Counter(re.findall(r"[^\W_][\w'’\-+]*", before))
    b = collections.Counter(re.findall(r"[^\W_][\w'’\-+]*", after))
    return list((a - b).elements())


if __name__ == "__main__":
    raise SystemExit(main())
