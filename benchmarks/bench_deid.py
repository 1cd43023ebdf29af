"""De-identification before and after issue 31, over every ACI-Bench split and the MTS-Dialog files.

For each file: dialogs, dialogs excluded for residual identifiers (by kind), gendered forms of address removed
and first-person ages replaced by [AGE] (de-identification's replacements instead of exclusions), ACI patient
names (metadata first / family name) left in the de-identified dialogs (all dialogs, and the audited ones: not excluded),
the same with the detector alone (no metadata given), clinical-vocabulary words flagged (a residual possible
name or a replaced name that is a drug, condition or specialty), and the time per dialog.

*before*: the code of ``--before`` (default: main just before issue 31), run in a subprocess from a
``git archive`` of that commit; *after*: this tree. Both see the same files. Prints one ``RATIO`` line
(time per dialog, after / before). ``--gazetteers`` also compares name gazetteers for the detector (the
built-in first names, philter-ucsf, and, when importable — e.g. from ``--extra-site`` — gender-guesser
and names-dataset): detector-only recall on the ACI metadata names, clinical words flagged, load time.

    python benchmarks/bench_deid.py [--quick] [--before REV] [--gazetteers] [--extra-site DIR]

Needs ``../shared/data/aci-bench`` and ``../shared/data/mts-dialog`` (skipped with a message otherwise).
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"
ACI = ["train", "valid", "clinicalnlp_taskB_test1", "clinicalnlp_taskC_test2"]
MTS = ["MTS-Dialog-TrainingSet", "MTS-Dialog-ValidationSet", "MTS-Dialog-TestSet-1-MEDIQA-Chat-2023"]
BEFORE = "f72338d"  # main just before issue 31
CLINICAL = ("drug", "condition", "specialty")


def files(quick: bool) -> list[tuple[str, str, Path]]:
    out = [("aci", s, DATA / "aci-bench" / f"{s}.csv") for s in ACI]
    out += [("mts", s, DATA / "mts-dialog" / f"{s}.csv") for s in MTS]
    if quick:
        out = [f for f in out if f[1] in ("valid", "MTS-Dialog-TestSet-1-MEDIQA-Chat-2023")]
    return out


# ---------------------------------------------------------------- one code version (runs in either tree)


def deid_file(fmt: str, path: Path, metadata: bool, detector: bool = True) -> dict:
    """De-identify every dialog of ``path``; the residual items that count, the replaced words (public data)."""
    from clinaudit.loaders import DataSource, load_cases
    from clinaudit.perturb import deid

    cases = load_cases(DataSource(format=fmt, path=str(path)))
    new = hasattr(deid, "deidentify_case_report")
    rows = []
    t0 = time.perf_counter()
    for c in cases:
        if new:
            if not metadata:
                c = c.model_copy(update={"fields": {k: v for k, v in c.fields.items() if k != "identifiers"}})
            v, rep = deid.deidentify_case_report(c, detector=detector)
            text = v.text
        else:
            text, rep = deid.deidentify_text(c.text)
        found = deid.residual_identifiers(rep.remaining)
        rows.append({"case_id": c.case_id, "text": text,
                     "residual": [(r["kind"], r["text"]) for r in found],
                     "replaced": [(r["old"], r.get("source", "rule")) for r in rep.removed if r["kind"] == "name"],
                     "address": sum(r["kind"] == "address" for r in rep.removed),
                     "age_tag": sum(r["new"] == "[AGE]" for r in rep.removed)})
    return {"seconds": time.perf_counter() - t0, "rows": rows}


def names_only(fmt: str, path: Path) -> dict:
    """The detector alone (names only, no metadata, no other category): for comparing gazetteers."""
    from clinaudit.loaders import DataSource, load_cases
    from clinaudit.perturb import deid

    rows = []
    t0 = time.perf_counter()
    for c in load_cases(DataSource(format=fmt, path=str(path))):
        text, rep = deid.deidentify_text(c.text, gender=False, ages=False, life_stage=False, origin=False)
        rows.append({"case_id": c.case_id, "text": text, "residual": [],
                     "replaced": [(r["old"], r["source"]) for r in rep.removed if r["kind"] == "name"]})
    return {"seconds": time.perf_counter() - t0, "rows": rows}


def child(paths: list[str]) -> None:
    out = {}
    for spec in paths:
        fmt, name, path = spec.split("|")
        out[name] = deid_file(fmt, Path(path), metadata=False)
    json.dump(out, sys.stdout)


# ---------------------------------------------------------------- measures


def metadata_names(split: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    with (DATA / "aci-bench" / f"{split}_metadata.csv").open(encoding="utf-8") as fh:
        for r in csv.DictReader(fh):
            out[r["encounter_id"]] = [r[k].strip() for k in ("patient_firstname", "patient_familyname")
                                      if r.get(k, "").strip()]
    return out


def has_name(text: str, names: list[str]) -> bool:
    return any(re.search(rf"(?i)(?<![A-Za-z]){re.escape(n)}(?![A-Za-z])", text) for n in names)


def measure(fmt: str, split: str, res: dict) -> dict:
    from clinaudit.perturb.vocab import clinical_category

    rows = res["rows"]
    excluded = [r for r in rows if r["residual"]]
    kinds = Counter(k for r in excluded for k in {k for k, _ in r["residual"]})
    clin_resid = [r for r in rows if any(k == "possible_name" and clinical_category(t) in CLINICAL
                                         for k, t in r["residual"])]
    clin_repl = sum(1 for r in rows for w, _ in r["replaced"] if clinical_category(w) in CLINICAL)
    out = {"file": split, "dialogs": len(rows), "excluded": len(excluded), "excluded_by_kind": dict(kinds),
           "excluded_clinical_word": len(clin_resid), "clinical_words_replaced": clin_repl,
           "address": sum(r.get("address", 0) for r in rows), "age_tag": sum(r.get("age_tag", 0) for r in rows),
           "ms_per_dialog": 1000 * res["seconds"] / max(1, len(rows))}
    if fmt == "aci":
        meta = metadata_names(split)
        with_names = [r for r in rows if meta.get(r["case_id"])]
        left = [r for r in with_names if has_name(r["text"], meta[r["case_id"]])]
        out.update({"with_names": len(with_names), "names_left": len(left),
                    "names_left_audited": sum(1 for r in left if not r["residual"])})
    return out


def before_run(rev: str, todo: list[tuple[str, str, Path]]) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        arch = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "src"], check=True, capture_output=True)
        subprocess.run(["tar", "-x", "-C", tmp], input=arch.stdout, check=True)
        env = {**os.environ, "PYTHONPATH": str(Path(tmp) / "src")}
        proc = subprocess.run([sys.executable, __file__, "--child"] + [f"{f}|{s}|{p}" for f, s, p in todo],
                              env=env, capture_output=True, text=True, check=True)
        return json.loads(proc.stdout)


def table(title: str, rows: list[dict]) -> None:
    print(f"\n{title}")
    print("| file | dialogs | excluded (residual) | by kind | excluded for a clinical word | clinical words "
          "replaced | forms of address removed | ages → [AGE] | ACI dialogs with names | names left (all) | "
          "names left (audited) | ms/dialog |")
    print("|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        kinds = ", ".join(f"{k} {v}" for k, v in sorted(r["excluded_by_kind"].items())) or "–"
        pct = f"{r['excluded']} ({100 * r['excluded'] / max(1, r['dialogs']):.0f} %)"
        print(f"| {r['file']} | {r['dialogs']} | {pct} | {kinds} | {r['excluded_clinical_word']} | "
              f"{r['clinical_words_replaced']} | {r['address']} | {r['age_tag']} | {r.get('with_names', '–')} | "
              f"{r.get('names_left', '–')} | "
              f"{r.get('names_left_audited', '–')} | {r['ms_per_dialog']:.1f} |")


# ---------------------------------------------------------------- gazetteers


def gazetteers(extra_site: str | None) -> dict[str, tuple[frozenset[str], frozenset[str], float]]:
    from clinaudit.perturb import vocab
    from clinaudit.perturb.names import FIRST_NAMES

    if extra_site:
        sys.path.append(extra_site)
    out = {"built-in first names (names.py)": (FIRST_NAMES, frozenset(), 0.0)}
    t = time.perf_counter()
    out["philter-ucsf 1.0.3"] = (vocab.first_names(), vocab.surnames(), time.perf_counter() - t)
    try:
        import gender_guesser.detector as gg

        t = time.perf_counter()
        d = gg.Detector()
        out["gender-guesser 0.4.0"] = (frozenset(n.lower() for n in d.names), frozenset(), time.perf_counter() - t)
    except ImportError:
        print("gender-guesser not importable: skipped")
    try:
        from names_dataset import NameDataset

        t = time.perf_counter()
        nd = NameDataset()
        out["names-dataset 3.3.1"] = (frozenset(k.lower() for k in nd.first_names),
                                      frozenset(k.lower() for k in nd.last_names), time.perf_counter() - t)
    except ImportError:
        print("names-dataset not importable: skipped")
    return out


def compare_gazetteers(todo: list[tuple[str, str, Path]], extra_site: str | None) -> None:
    from clinaudit.perturb import vocab

    print("\n| gazetteer | first names | surnames | load s | detector-only: ACI dialogs with their patient's name "
          "left | clinical words replaced (all files) | names replaced (all files) |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    saved = vocab.first_names, vocab.surnames
    try:
        for label, (firsts, lasts, load) in gazetteers(extra_site).items():
            vocab.first_names, vocab.surnames = (lambda f=firsts: f), (lambda s=lasts: s)
            left = with_names = clin = replaced = 0
            for fmt, split, path in todo:
                res = names_only(fmt, path)
                r = measure(fmt, split, res)
                left += r.get("names_left", 0)
                with_names += r.get("with_names", 0)
                clin += r["clinical_words_replaced"]
                replaced += sum(len(x["replaced"]) for x in res["rows"])
            print(f"| {label} | {len(firsts)} | {len(lasts)} | {load:.1f} | {left} / {with_names} | {clin} | "
                  f"{replaced} |")
    finally:
        vocab.first_names, vocab.surnames = saved


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--before", default=BEFORE)
    ap.add_argument("--gazetteers", action="store_true")
    ap.add_argument("--only-gazetteers", action="store_true", help="skip the before/after tables")
    ap.add_argument("--extra-site", default=None)
    ap.add_argument("--child", nargs="*")
    a = ap.parse_args()
    if a.child is not None:
        child(a.child)
        return
    todo = [f for f in files(a.quick) if f[2].exists()]
    if not todo:
        print(f"data not found under {DATA}: skipped")
        return
    sys.path.insert(0, str(ROOT / "src"))
    from clinaudit.perturb.vocab import clinical_terms, common_words, first_names, surnames

    t = time.perf_counter()
    clinical_terms(), common_words(), first_names(), surnames()
    print(f"word lists loaded in {time.perf_counter() - t:.1f} s (once per process)")
    if a.only_gazetteers:
        compare_gazetteers(todo, a.extra_site)
        return
    before = before_run(a.before, todo)
    table(f"before ({a.before})", [measure(f, s, before[s]) for f, s, _ in todo])
    after = [measure(f, s, deid_file(f, p, metadata=True)) for f, s, p in todo]
    table("after (metadata names + detector + clinical vocabulary)", after)
    alone = [measure(f, s, deid_file(f, p, metadata=False)) for f, s, p in todo if f == "aci"]
    table("after, detector alone (ACI metadata not given)", alone)
    tb = sum(before[s]["seconds"] for _, s, _ in todo)
    ta = sum(r["ms_per_dialog"] * r["dialogs"] / 1000 for r in after)
    print(f"\nRATIO bench_deid: time per dialog after / before = {ta / tb:.2f} (after {ta:.1f} s, before {tb:.1f} s)")
    if a.gazetteers:
        compare_gazetteers(todo, a.extra_site)


if __name__ == "__main__":
    main()
