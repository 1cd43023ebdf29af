"""A digest of de-identification's outputs, to show that a speed change changes no output (issue 50, Build 3).

De-identifies every dialog of the shared ACI-Bench and MTS-Dialog files (as they are, and the ACI-Bench ones again
with their metadata names given) and every dialog of ``bench_deid_origin.py``'s benchmark (both halves of forms,
every origin, names put in), and prints one SHA-256 per set over the output texts and the full reports (every
removal: position, old, new, kind, source; every remaining item). Two trees give the same digests when they give
byte-identical outputs.

    PYTHONPATH=src python benchmarks/deid_digest.py [--quick] [--out FILE]

``--out`` writes the digests as JSON (compare two runs with ``diff``); the seconds per set are printed too (not part
of the digest).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import bench_deid_origin as bench  # noqa: E402


def texts_by_set(quick: bool) -> tuple[dict[str, list[str]], dict[str, list[list[str]]]]:
    """The texts of every set and, for the metadata sets, each text's names."""
    dialogs = bench.load_dialogs(quick)
    sets: dict[str, list[str]] = {}
    for hname, forms in (("development", bench.DEV_FORMS), ("held-out", bench.HELD_OUT_FORMS)):
        items = []
        for origin in bench.ORIGINS:
            for i, (_f, _id, text, lower) in enumerate(dialogs):
                folded = (i // 2) % 2 == 1
                for shift in range(4):
                    got = bench.inject(text, lower, origin, i + shift, forms, hname == "held-out", folded)
                    if got:
                        items.append(got[0])
                        break
        sets[f"injected:{hname}"] = items
    real, names, _sex = bench.real_files(quick)
    sets.update(real)
    meta = {}
    for k, v in names.items():
        sets["meta:" + k] = real[k]
        meta["meta:" + k] = v
    return sets, meta


def digest(texts: list[str], names: list[list[str]] | None) -> str:
    from clinaudit.perturb.deid import deidentify_text

    h = hashlib.sha256()
    for i, text in enumerate(texts):
        out, rep = deidentify_text(text, names=names[i] if names else ())
        h.update(json.dumps([out, rep.to_dict()], ensure_ascii=False, sort_keys=True).encode("utf-8"))
    return h.hexdigest()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--out")
    a = ap.parse_args()
    if not (bench.DATA / "aci-bench").exists():
        print(f"data not found under {bench.DATA}: skipped")
        return
    sets, meta = texts_by_set(a.quick)
    print(f"{sum(map(len, sets.values()))} texts in {len(sets)} sets; load {os.getloadavg()[0]:.1f}")
    result = {}
    for k, v in sets.items():
        t0, c0 = time.perf_counter(), time.process_time()
        result[k] = digest(v, meta.get(k))
        print(f"{k}: {len(v)} texts {result[k][:16]} ({time.perf_counter() - t0:.1f} s wall, "
              f"{time.process_time() - c0:.1f} s CPU)")
    everything = hashlib.sha256(json.dumps(result, sort_keys=True).encode()).hexdigest()
    print(f"ALL {everything}")
    if a.out:
        Path(a.out).write_text(json.dumps({"all": everything, **result}, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
