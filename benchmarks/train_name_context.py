"""Train the lower-case name-context model (issue 50, eighteenth session; ``benchmarks/name_context_model.py``).

Training data, from the development material only (the development half of ``bench_deid_origin.py`` and every set of
``deid_sets.SETS``, the lower-case dialogs, injected as the bench injects them) and the shared real dialogs:

* positives: the injected name words that main leaves (a candidate of the rule with the rule off; a word main
  replaces as anything but a name, "thai" as an origin, is left);
* negatives: the other candidate words of the injected sentences, the candidate words of the sets' sentences of
  words used as words (``word_uses``), and every candidate word of the real dialogs (main's replacements are no
  candidates).

Then leave-one-set-out cross-validation (the real files grouped by file; the threshold chosen on the training folds)
and the final fit on everything, written to ``benchmarks/name_context_model.json``.

    PYTHONPATH=src .venv/bin/python benchmarks/train_name_context.py [--cv] [--step N] [--out PATH]

``--step N`` reads every N-th lower-case dialog of each set (default 2); the fixed seed and the fixed order make the
weights the same on every run."""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from collections.abc import Iterable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_deid_origin as bench  # noqa: E402
import name_context_model as ncm  # noqa: E402

from clinaudit.perturb import deid, name_rules  # noqa: E402
from clinaudit.perturb.deid_rules import normalise  # noqa: E402
from clinaudit.perturb.name_tokens import fold  # noqa: E402

SEED = 0
#: the rule, last in the order as it was measured (``name_rules.RULES`` does not hold it: docs/deidentification.md)
RULE = name_rules.NameRule("context_model_names", ncm.context_model_names)
C = 1.0
OUT = ncm.WEIGHTS
#: a feature read fewer times than this in the training samples is left out (the sets' rare wordings)
MIN_COUNT = 5
#: how much a negative of a words-as-words sentence counts (the gate counts each one replaced)
WORD_USE_WEIGHT = 3.0
#: the training real dialogs' false replacements the threshold allows per 1000 real dialogs read
REAL_FP_PER_1000 = 1.0


def _record(text: str, names: list[str] | None) -> tuple[list, set[tuple[int, int]]]:
    """The rule's candidates of ``text`` (the rule recording, main's behaviour), each with its features and whether
    main leaves it whole, and the spans main replaces as names. ``text``
    is written as de-identification reads it (:func:`_normal`), so the spans of both are the text's."""
    got: list = []
    ncm.RECORDER.append(lambda t, cands: got.append((t, cands)))
    rules = name_rules.RULES
    name_rules.RULES = rules + (RULE,)  # not in the registry (a measured negative result): here only to record
    try:
        _new, rep = deid.deidentify_text(text, names=names or ())
    finally:
        ncm.RECORDER.clear()
        name_rules.RULES = rules
    # a word replaced as anything but a name ("thai" as an origin) is a negative still, never a positive
    removed = {(r["start"], r["end"]) for r in rep.removed if r["kind"] == "name"}
    other = {(r["start"], r["end"]) for r in rep.removed if r["kind"] != "name"}
    cands = [c for t, c in got if t == text]  # not the sentences the rules read again
    return [(t, ctx, _left(t, other)) for t, ctx in (cands[0] if cands else [])], removed


def _normal(text: str) -> str:
    """``text`` as de-identification reads it (``deid_rules.normalise``: no invisible characters, letters and marks
    composed), so that the rule's spans are the text's."""
    norm = normalise(text)
    return norm[0] if norm else text


def _left(t, removed: set[tuple[int, int]]) -> bool:
    return not any(s <= t.start and t.end <= e for s, e in removed)


def _inserted(base: str, new: str) -> list[tuple[int, int]]:
    """The spans of ``new`` that the injection put in: each changed line but its old body."""
    out, pos = [], 0
    for old, line in zip(base.split("\n"), new.split("\n"), strict=False):  # a sentence with a line break: rare
        if old != line:
            m = bench.LABEL.match(old)
            body = old[m.end():].strip() if m else old.strip()
            k = line.find(body, m.end() if m else 0) if body else -1
            if k < 0:
                out.append((pos, pos + len(line)))
            else:
                out += [(pos + (m.end() if m else 0), pos + k), (pos + k + len(body), pos + len(line))]
        pos += len(line) + 1
    return out


def _within(spans: list[tuple[int, int]], t) -> bool:
    return any(s <= t.start and t.end <= e for s, e in spans)


def set_dialogs(hname: str, step: int) -> Iterable[tuple[str, str, str, list[str], list[tuple[int, int]]]]:
    """``(origin, dialog, injected dialog, names, word-use spans)`` of a set's lower-case dialogs (``hname``: the
    development half or a ``deid_sets.SETS`` set), injected as ``bench_deid_origin`` injects them, every ``step``-th
    dialog of each origin (each origin its own dialogs: every word use is read); both dialogs as de-identification
    reads them (:func:`_normal`). Read by :func:`set_samples` and ``bench_deid_ner.py``."""
    dialogs = bench.load_dialogs(False)
    forms = bench.DEV_FORMS if hname == "development" else bench.dev7_forms(bench.DATA) if hname == "dev7" \
        else bench.SETS[hname].forms
    table = bench.NAME_TABLES.get(hname)
    uses = bench.SETS[hname].word_uses if hname in bench.SETS else None
    passes = ((forms, 0), (bench.DEV2_FORMS, 7)) if hname == "dev3" else ((forms, 0),)
    if hname in bench.SETS and bench.SETS[hname].repeat:
        times = bench.SETS[hname].repeat * len(forms)
        passes = tuple((forms, p * len(dialogs)) for p in range(-(-times // (bench.FORMS_PER_DIALOG * len(dialogs)))))
    for oi, origin in enumerate(table or bench.ORIGINS):
        for pforms, offset in passes:
            for i, (_f, _id, text, lower) in enumerate(dialogs):
                if not lower or (i + oi) % step:
                    continue
                folded = (i // 2) % 2 == 1
                got = None
                for shift in range(4):
                    got = bench.inject(text, True, origin, i + offset + shift, pforms, False, folded,
                                       table[origin] if table else None)
                    if got:
                        break
                if not got:
                    continue
                injected, names = got
                uses_in: list[str] = []
                if uses:
                    avoid = {p.lower() for n in names for p in bench.name_parts(n)}
                    injected, use_spans = bench.inject_word_uses(injected, True, i, avoid, uses)
                    uses_in = [_normal(injected[a:b]) for a, b in use_spans]
                norm = _normal(injected)
                spans = [(k, k + len(u)) for u in uses_in if (k := norm.find(u)) >= 0]
                yield origin, _normal(text.lower()), norm, names, spans


def set_samples(step: int) -> list[tuple[str, list[str], int, float]]:
    """``(group, features, label, weight)`` of the development sets' lower-case dialogs."""
    out = []
    for hname in ["development", *bench.SETS]:
        n0 = len(out)
        for _origin, base, injected, names, use_spans in set_dialogs(hname, step):
            spans = _inserted(base, injected)
            parts = {fold(p).lower() for n in names for p in bench.name_parts(n)} | {
                p.lower() for n in names for p in bench.name_parts(n)}
            cands, removed = _record(injected, None)
            for t, ctx, kept in cands:
                if not _left(t, removed):
                    continue
                if _within(use_spans, t):
                    out.append((hname, list(ncm.word_features(t.key)) + ctx, 0, WORD_USE_WEIGHT))
                elif _within(spans, t) and (kept or t.key not in parts):
                    out.append((hname, list(ncm.word_features(t.key)) + ctx, int(t.key in parts), 1.0))
        print(f"{hname}: {len(out) - n0} samples, {sum(lab for _g, _f, lab, _w in out[n0:])} names left",
              file=sys.stderr, flush=True)
    return out


def real_samples() -> list[tuple[str, list[str], int, float]]:
    """``(file, features, 0, 1)``: every candidate word of the real dialogs that main leaves."""
    real, names, _sex = bench.real_files(False)
    out = []
    for split, texts in real.items():
        for k, text in enumerate(texts):
            cands, removed = _record(_normal(text), (names.get(split) or [[]] * len(texts))[k])
            out += [("real:" + split, list(ncm.word_features(t.key)) + ctx, 0, 1.0) for t, ctx, _kept in cands
                    if _left(t, removed)]
    return out


def fit(samples: list[tuple[str, list[str], int, float]]) -> dict:
    """Logistic regression over the features (samples folded by their features and label, counts as weights)."""
    from sklearn.feature_extraction import DictVectorizer
    from sklearn.linear_model import LogisticRegression

    seen: Counter[str] = Counter(f for _g, feats, _lab, _w in samples for f in feats)
    folded: Counter[tuple[tuple[str, ...], int]] = Counter()
    for _g, feats, lab, w in samples:
        folded[(tuple(sorted(f for f in feats if seen[f] >= MIN_COUNT)), lab)] += w
    keys = sorted(folded)
    vec = DictVectorizer()
    x = vec.fit_transform([dict.fromkeys(f, 1) for f, _lab in keys])
    x.indices, x.indptr = x.indices.astype("int32"), x.indptr.astype("int32")  # liblinear's index type
    y = [lab for _f, lab in keys]
    model = LogisticRegression(C=C, max_iter=2000, solver="liblinear", random_state=SEED)
    model.fit(x, y, sample_weight=[folded[k] for k in keys])
    weights = {f: round(float(w), 4) for f, w in zip(vec.get_feature_names_out(), model.coef_[0], strict=True)
               if abs(w) >= 1e-3}
    return {"bias": round(float(model.intercept_[0]), 4), "weights": weights}


def score(model: dict, feats: list[str]) -> float:
    wt = model["weights"]
    return model["bias"] + sum(wt.get(f, 0.0) for f in feats)


def choose_threshold(model: dict, samples: list[tuple[str, list[str], int, float]]) -> float:
    """The lowest threshold at which the training samples' words used as words lose none and the real dialogs lose
    at most :data:`REAL_FP_PER_1000` a thousand dialogs (1668 dialogs read: 1.7)."""
    neg_use = [score(model, f) for g, f, lab, w in samples if not lab and w > 1.0]
    neg_real = sorted((score(model, f) for g, f, lab, _w in samples if g.startswith("real:")), reverse=True)
    n_real_files = len({g for g, *_ in samples if g.startswith("real:")})
    allowed = int(REAL_FP_PER_1000 * 1668 / 1000 * n_real_files / 7)
    t = max(neg_use, default=0.0) + 1e-3
    if len(neg_real) > allowed:
        t = max(t, neg_real[allowed] + 1e-3)
    return round(t, 4)


def cross_validate(samples: list[tuple[str, list[str], int, float]]) -> None:
    """Leave one group out: recall of the names left in the left-out set, false replacements in a left-out real file
    and in a left-out set's words used as words."""
    groups = sorted({g for g, *_ in samples}, key=lambda g: (g.startswith("real:"), g))
    by = defaultdict(list)
    for s in samples:
        by[s[0]].append(s)
    tot = Counter()
    for g in groups:
        train = [s for s in samples if s[0] != g]
        model = fit(train)
        t = choose_threshold(model, train)
        test = by[g]
        pos = [score(model, f) >= t for _g, f, lab, _w in test if lab]
        uses = [score(model, f) >= t for _g, f, lab, w in test if not lab and w > 1.0]
        other = [score(model, f) >= t for _g, f, lab, w in test if not lab and w == 1.0]
        tot["names"] += len(pos)
        tot["found"] += sum(pos)
        tot["use_fp"] += sum(uses)
        tot["uses"] += len(uses)
        tot["other_fp"] += sum(other) if not g.startswith("real:") else 0
        tot["real_fp"] += sum(other) if g.startswith("real:") else 0
        print(f"{g}: threshold {t:.2f}; names left {len(pos)}, found {sum(pos)}; words as words {len(uses)}, "
              f"replaced {sum(uses)}; other words {len(other)}, replaced {sum(other)}", flush=True)
    print(f"ALL: names left {tot['names']}, found {tot['found']} ({100 * tot['found'] / max(1, tot['names']):.1f} %); "
          f"words as words replaced {tot['use_fp']} of {tot['uses']}; other words of the forms replaced "
          f"{tot['other_fp']}; real-dialog words replaced {tot['real_fp']}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cv", action="store_true", help="leave-one-set-out cross-validation first")
    ap.add_argument("--step", type=int, default=2)
    ap.add_argument("--out", default=str(OUT))
    ap.add_argument("--cache", help="a JSON file of the samples: read when there, written when not")
    a = ap.parse_args()
    ncm.set_model({})
    if a.cache and Path(a.cache).exists():
        samples = [tuple(s) for s in json.loads(Path(a.cache).read_text(encoding="utf-8"))]
    else:
        samples = set_samples(a.step) + real_samples()
        if a.cache:
            Path(a.cache).write_text(json.dumps(samples), encoding="utf-8")
    print(f"{len(samples)} samples, {sum(s[2] for s in samples)} names", flush=True)
    if a.cv:
        cross_validate(samples)  # type: ignore[arg-type]
    model = fit(samples)  # type: ignore[arg-type]
    model["threshold"] = choose_threshold(model, samples)  # type: ignore[arg-type]
    Path(a.out).write_text(json.dumps(model, sort_keys=True, indent=0) + "\n", encoding="utf-8")
    print(f"{len(model['weights'])} weights, threshold {model['threshold']}; {a.out} "
          f"{Path(a.out).stat().st_size} bytes")


if __name__ == "__main__":
    main()
