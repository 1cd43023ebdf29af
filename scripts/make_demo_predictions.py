#!/usr/bin/env python
"""Write the synthetic classifier predictions used by the classifier-gaps demo.

The output ``src/clinaudit/data/demo/classifier_predictions.csv`` holds, for three
made-up clinical prediction tasks, 600 patients each (200 ``valid`` + 400
``test``) with a binary ``label``, a model ``score`` in (0, 1) and two protected
attributes, ``gender`` (F/M) and ``race`` (five groups). Nothing here comes from
real patients.

One disparity is planted on purpose so the audit has something to find: in the
task ``readmission_30d`` the scores of *positive* female patients are pulled
down by 1 logit, so the recall (true-positive rate) of the F group is clearly
lower than that of the M group (at the best-F1 validation threshold, test recall
is about 0.40 for F vs 0.78 for M). The other two tasks have no planted gap
(their group differences are sampling noise only).

Deterministic: one seeded ``numpy.random.Generator``; scores are rounded to 4
decimals. Run ``python scripts/make_demo_predictions.py`` to rewrite the file;
``--check`` compares it with a fresh generation instead.
"""

from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path

import numpy as np

# Seed picked among 1..14 as the one whose un-planted tasks show the smallest recall gaps at
# the best-F1 threshold, so the demo contrasts one real gap with two null tasks.
SEED = 5
TASKS = {
    # task: (prevalence, separation of the positive class in logit units)
    "in_hospital_mortality": (0.15, 2.4),
    "readmission_30d": (0.30, 1.8),
    "sepsis_onset": (0.22, 2.0),
}
PLANTED_TASK = "readmission_30d"
PLANTED_GROUP = "F"
PLANTED_SHIFT = -1.0  # logit shift of positive F patients' scores in the planted task
N_VALID, N_TEST = 200, 400
RACES = ["White", "Black", "Hispanic", "Asian", "Other"]
RACE_P = [0.55, 0.18, 0.14, 0.08, 0.05]
OUT = Path(__file__).resolve().parents[1] / "src" / "clinaudit" / "data" / "demo" / "classifier_predictions.csv"


def make_csv(seed: int = SEED) -> str:
    """The CSV text (header + 1800 rows), identical for the same seed."""
    rng = np.random.default_rng(seed)
    buf = io.StringIO()
    buf.write("task,split,label,score,gender,race\n")
    n = N_VALID + N_TEST
    for task, (prevalence, separation) in TASKS.items():
        split = np.array(["valid"] * N_VALID + ["test"] * N_TEST)
        label = (rng.random(n) < prevalence).astype(int)
        gender = np.where(rng.random(n) < 0.5, "F", "M")
        race = rng.choice(RACES, size=n, p=RACE_P)
        logit = -1.0 + separation * label + rng.normal(0.0, 1.0, n)
        if task == PLANTED_TASK:
            logit = logit + PLANTED_SHIFT * ((label == 1) & (gender == PLANTED_GROUP))
        score = 1.0 / (1.0 + np.exp(-logit))
        for i in range(n):
            buf.write(f"{task},{split[i]},{label[i]},{score[i]:.4f},{gender[i]},{race[i]}\n")
    return buf.getvalue()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--check", action="store_true", help="exit 1 if the file differs from a fresh generation")
    args = ap.parse_args(argv)
    text = make_csv()
    if args.check:
        same = args.out.exists() and args.out.read_text(encoding="utf-8") == text
        print("up to date" if same else f"{args.out} differs from a fresh generation")
        return 0 if same else 1
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text, encoding="utf-8", newline="\n")
    print(f"wrote {args.out} ({text.count(chr(10)) - 1} rows)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
