"""De-identification by name origin (issues 38 and 50): does it protect every patient alike, on sentence forms
it was not written for?

Builds its own test from real dialogs of the shared ACI-Bench and MTS-Dialog files, with no name metadata given
(the way a user's own CSV arrives). Into each dialog three sentence forms are put, each naming another person:

* the forms are in two halves written apart: the **held-out** half (``deid_heldout.py``, written and committed
  before any rule of issue 50, not looked at while writing rules) and the **development** half
  (``deid_dev.py``); each half is measured with its own names (``deid_names.py``: 46 origins, hand-written,
  8 given names and 8 surnames an origin; the odd positions are held out, the even ones development), so neither
  the held-out forms nor the held-out names were tuned on;
* each dialog is in one style, the same for every origin: **cased** (an MTS-Dialog dialog as written) or
  **lower case** (an ACI-Bench dialog, lower case with a space before punctuation, or an MTS-Dialog dialog written
  in lower case), the names **with their diacritics** (Nguyễn, Özdemir) or **without** (Nguyen, Ozdemir);
* every origin gets the same dialogs, turns and forms; only the names differ;
* ``--dev2`` (or ``dev2`` in ``--halves``) adds a second development set (``deid_dev2.py``: 16 other forms and
  new names of 52 origins, written for issue 50's cased rules), reported as the ``dev2`` half;
* ``--dev3`` (or ``dev3`` in ``--halves``) adds a third (``deid_dev3_names.py``: the 15 + 15 most frequent names of
  45 countries in names-dataset 3.3.1, none of the other sets'), put into the development forms and into dev2's
  (each dialog twice, once with each), reported as the ``dev3`` half by country beside the origin it stands for;
* ``--prep`` (or ``prep`` in ``--halves``) adds persons named after a preposition or an article
  (``deid_dev_prep.py``: 26 forms, dev2's names), reported as the ``prep`` half; ``--prep2`` the same kind of
  position in other wordings (``deid_dev_prep2.py``: 18 forms, dev2's names), the ``prep2`` half;
* ``--dev4`` (or ``dev4`` in ``--halves``) adds names set apart by how they are written (``deid_dev4.py``: 24 forms
  and names of 15 origins, the ʻokina, háček, macrons, feminine forms; ``{G}``/``{S}`` put a name in upper case),
  reported as the ``dev4`` half;
* ``--dev5`` (or ``dev5`` in ``--halves``) adds everyday forms no other set has (``deid_dev5.py``: 50 forms, dev2's
  names: a person as the object of an ordinary verb, a vocative at the end, after "this is"/"i'm", after
  "per"/"via"/"cc", in a time phrase, in run-on speech), reported as the ``dev5`` half.
* ``--dev6`` (or ``dev6`` in ``--halves``) adds names that are short or English words, and names written once with
  their diacritics and again without (``deid_dev6.py``: 24 forms and names of 11 origins; ``{gf}``/``{sf}`` put the
  name without its diacritics, ``{GF}``/``{SF}`` so in upper case), reported as the ``dev6`` half.
* ``--dev9`` (or ``dev9`` in ``--halves``) adds names that are English words where the dialog says they are names
  (``deid_dev9.py``: 28 forms, names of 8 origins), and in the same dialogs the same words used as words: each of
  those replaced is a false replacement, counted beside the ``dev9`` half's names. ``--dev12``: the same for UK and
  Irish names (``deid_dev12.py``: word names, clinical words, Irish particles; 24 forms of UK and Irish speech).
* ``--dev7`` (or ``dev7`` in ``--halves``) adds forms taken from real speech (``deid_dev7.py``: ~250 sentences of the
  shared dialogs that host no form here, ACI-Bench train and taskC test2, MTS-Dialog's training file, built at run
  time, a name put where the sentence refers to a person; dev2's names), reported as the ``dev7`` half; the dialogs
  are run as many times as it takes to put every form in once (``--dev10``: what stands right beside a name and how
  text is laid out, ``deid_dev10.py``: 175 forms, dev2's names, each put in about twice; the ``dev10`` half).
* ``--dev8`` (or ``dev8`` in ``--halves``) adds many more names of 11 origins the held-out half still loses, of every
  kind (``deid_dev8.py``: 32 forms; the ʻokina, very long and very short names, names that are English words),
  reported as the ``dev8`` half; ``--dev11`` more of Samoan, Tongan, Haitian, Korean, Punjabi (``deid_dev11.py``);
  ``--dev14`` more lower-case names of Samoan, Haitian, Korean, Punjabi (``deid_dev14.py``).

"Removed": no part of the name (a particle such as "van", "de", "Ó" aside) is still in the output as a whole
word (case-insensitive, NFC) more often than in the dialog before the name was put in. Reported per origin, per
half and per style, with the lowest origin, the overall rate and the spread (highest - lowest origin).

Then every real dialog of the seven files (no injection, no metadata): words replaced as names per 100 dialogs,
dialogs with such a replacement per 100 dialogs (for ACI-Bench, the dialog's own metadata names — true names —
left out of both counts), clinical eponyms replaced (``vocab.EPONYMS`` and the words issue 38 listed,
"Marie" of Charcot-Marie-Tooth), speaker labels changed; and the metadata-name result: ACI-Bench dialogs that
keep their patient's metadata name when it is given, and the metadata names the dialogs say that are left when it is
not (``deid_real_names.py``: mentions left by kind, first and family, per 100, and the words). *before*: the code of ``--before`` (default cd90499, main
before issue 50) in a subprocess from a ``git archive``; *after*: this tree. ``--write-reach PATH``: the *after*
held-out table as the measurement every run's report states (``src/clinaudit/data/deid_reach.json``,
``deid_reach_write.py``).

    python benchmarks/bench_deid_origin.py [--quick] [--before REV] [--no-before] [--halves development,held-out,dev2|none]
                                           [--dev2] [--dev3] [--prep] [--prep2] [--dev4] [--dev5] [--dev6] [--dev7]
                                           [--dev8] [--dev9] [--dev10] [--dev11] [--dev12] [--dev14]
                                           [--no-real] [--show-words]
                                           [--show-left] [--write-reach PATH]
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
import unicodedata
from collections import Counter, defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DATA = next((d for d in (ROOT.parent / "shared" / "data", ROOT.parent.parent / "shared" / "data") if d.exists()),
            ROOT.parent / "shared" / "data")  # a clone next to shared/, or a worktree one level deeper
sys.path.insert(0, str(HERE))
from deid_dev import DEV_FORMS  # noqa: E402
from deid_dev2 import DEV2_FORMS  # noqa: E402
from deid_dev3_names import DEV3_COUNTRIES  # noqa: E402
from deid_dev7 import build as dev7_forms  # noqa: E402
from deid_false_kinds import classify  # noqa: E402
from deid_heldout import HELD_OUT_FORMS  # noqa: E402
from deid_names import ORIGINS, half  # noqa: E402
from deid_real_names import kept_line, merge, metadata_kept, real_names_left, real_names_line  # noqa: E402
from deid_sets import SETS, Forms, word_uses_for  # noqa: E402

BEFORE = "cd90499"  # main before issue 50
#: each set's own names (origin -> given names, surnames); the development and held-out halves use deid_names.py's
NAME_TABLES = {k: v.names for k, v in SETS.items() if v.names is not None}
ACI = ["train", "valid", "clinicalnlp_taskB_test1", "clinicalnlp_taskC_test2"]
MTS = ["MTS-Dialog-TrainingSet", "MTS-Dialog-ValidationSet", "MTS-Dialog-TestSet-1-MEDIQA-Chat-2023"]
#: clinical eponyms and the words issue 38 found replaced on main
EPONYM_WORDS = ("polio", "achilles", "gleason", "lachman", "mcmurray", "huntington", "metro", "persa", "peed",
                "parkinson", "crohn", "charcot", "marie", "tooth", "hashimoto", "addison", "cushing", "graves",
                "bell", "alzheimer", "hodgkin", "tourette", "raynaud", "sjogren", "barrett", "baker", "morton",
                "osgood", "schlatter", "dupuytren", "epley", "phalen", "tinel", "finkelstein", "homan", "murphy")
PARTICLES = frozenset("van den der de da di del la le du von ó o' ní nic mac mc al el bin ben bint saint".split())
FORMS_PER_DIALOG = 3


def fold(name: str) -> str:
    """The name without diacritics ("Özdemir" -> "Ozdemir", "Łukasz" -> "Lukasz", "Yılmaz" -> "Yilmaz")."""
    s = name.translate(str.maketrans({"ł": "l", "Ł": "L", "ı": "i", "ß": "ss", "ø": "o", "Ø": "O", "đ": "d",
                                      "Đ": "D"}))
    return "".join(ch for ch in unicodedata.normalize("NFKD", s) if not unicodedata.combining(ch))


# ---------------------------------------------------------------- dialogs and injection

#: a speaker's label at a line's start (read by ``train_name_context.py`` too)
LABEL = re.compile(r"^(\s*(?:\[[^\]\n]+\]|[A-Za-z_ ]{1,30}:))")


def _turns(text: str) -> list[int]:
    return [i for i, line in enumerate(text.split("\n")) if LABEL.match(line)]


def _speaker(line: str) -> str:
    m = LABEL.match(line)
    return m.group(1).strip().lower() if m else ""


def load_dialogs(quick: bool) -> list[tuple[str, str, str, bool]]:
    """``(file, id, text, lower)``: every 4th ACI-Bench dialog of valid and test1 (lower case), every 5th MTS-Dialog
    test-set dialog with at least 6 turns, alternately cased and written in lower case (fewer with ``--quick``)."""
    out = []
    for split in ("valid", "clinicalnlp_taskB_test1"):
        with (DATA / "aci-bench" / f"{split}.csv").open(encoding="utf-8") as fh:
            rows = list(csv.DictReader(fh))
        out += [(split, r["encounter_id"], r["dialogue"], True) for r in rows[:: 4 * (3 if quick else 1)]]
    with (DATA / "mts-dialog" / "MTS-Dialog-TestSet-1-MEDIQA-Chat-2023.csv").open(encoding="utf-8") as fh:
        rows = [r for r in csv.DictReader(fh) if len(_turns(r["dialogue"])) >= 6]
    mts = rows[:: 4 * (3 if quick else 1)]
    out += [("mts-test", r["ID"], r["dialogue"], bool(i % 3 == 2)) for i, r in enumerate(mts)]
    return out


def _style(sentence: str, lower: bool) -> str:
    if not lower:
        return sentence
    # ACI-Bench's transcripts: lower case, a space before punctuation
    return re.sub(r"(?<=\w)([.,?!])(?=\s|$)", r" \1", sentence.lower())


def name_parts(name: str) -> list[str]:
    """The parts of ``name`` but its particles, also written without diacritics ("O" of "O Ceallaigh" is "Ó")."""
    return [p for p in re.split(r"[\s]+", name) if p and p.lower() not in PARTICLES and fold(p).lower() not in
            _FOLDED_PARTICLES]


_FOLDED_PARTICLES = frozenset(fold(p).lower() for p in PARTICLES)


def present(text: str, name: str, plurals: bool = False) -> int:
    """How often ``name`` (any of its parts but particles) is in ``text`` as a whole word (case-insensitive). A
    possessive ("sipho's", "Sipho’s") is the name, still there: before the seventh session of issue 50 the
    look-ahead took any apostrophe and a letter as part of a longer word, so a name left in a possessive counted as
    removed. With ``plurals`` (dev16) the name with "s" or "es" after it is the name too ("the kowalczyks")."""
    text = unicodedata.normalize("NFC", text)
    tail = "(?:e?s)?" if plurals else ""
    return max((len(re.findall(rf"(?i)(?<![\w\u0300-\u036f'’-]){re.escape(unicodedata.normalize('NFC', p))}{tail}"
                               rf"(?![\w\u0300-\u036f]|-\w|['’](?!s(?![\w\u0300-\u036f]))\w)", text))
                for p in name_parts(name)), default=0)


def inject(text: str, lower: bool, origin: str, index: int, forms: tuple[tuple[str, str], ...], held_out: bool,
           folded: bool, names: tuple[list[str], list[str]] | None = None,
           used: list[tuple[str, list[str]]] | None = None) -> tuple[str, list[str]] | None:
    """The dialog with three forms of ``forms`` put in (each with another person of this origin's half, or of
    ``names``: the second development set's); the name occurrences put in (as written). None when the dialog lacks a
    doctor or patient turn. ``used``, when given, gets each form put in with its names (for ``--show-left``)."""
    given, sur = names or half(origin, held_out)
    lines = text.split("\n")
    if lower:
        lines = [ln.lower() for ln in lines]
    turns = _turns(text)
    doc = [i for i in turns if "doctor" in _speaker(lines[i])]
    pat = [i for i in turns if "patient" in _speaker(lines[i])]
    if not doc or not pat:
        return None
    names: list[str] = []
    base = "\n".join(lines)
    for j in range(FORMS_PER_DIALOG):
        who, form = forms[(index * FORMS_PER_DIALOG + j) % len(forms)]
        g, s = given[(index + j) % len(given)], sur[(index + 2 * j + 1) % len(sur)]
        if folded:
            g, s = fold(g), fold(s)
        gf, sf = fold(g), fold(s)  # dev6: the name again without its diacritics
        # dev10: the origin's other given names ({g2}, {g3}), checked only where the form has them
        more = [fold(x) if folded else x for x in (given[(index + j + k) % len(given)] for k in (1, 2))]
        if present(base, g) or present(base, s) or present(base, gf) or present(base, sf) or any(
                present(base, x) for x, slot in zip(more, ("{g2}", "{g3}"), strict=True) if slot in form):
            return None
        # dev10: {GC}/{SC} stay in capitals in lower case too (a word-character stand-in through _style)
        sentence = _style(form.format(g=g, s=s, G=g.upper(), S=s.upper(), gf=gf, sf=sf, GF=gf.upper(), SF=sf.upper(),
                                      g2=more[0], g3=more[1], GC="qqgcqq", SC="qqscqq"), lower)
        sentence = sentence.replace("qqgcqq", g.upper()).replace("qqscqq", s.upper())
        names += [g] * (form.count("{g}") + form.count("{G}") + form.count("{GC}"))
        names += [s] * (form.count("{s}") + form.count("{S}") + form.count("{SC}"))
        names += [more[0]] * form.count("{g2}") + [more[1]] * form.count("{g3}")
        names += [gf] * (form.count("{gf}") + form.count("{GF}")) + [sf] * (form.count("{sf}") + form.count("{SF}"))
        if used is not None:
            used.append((form, [n for n, slot in ((g, "{g}"), (s, "{s}"), (gf, "{gf}"), (sf, "{sf}"), (more[0], "{g2}"),
                                                  (more[1], "{g3}"), (g, "{gc}"), (s, "{sc}"))
                                if slot in form.lower()]))
        pool = doc if who == "D" else pat
        i = pool[(index + j * 5) % len(pool)]
        m = LABEL.match(lines[i])
        assert m
        head, body = lines[i][: m.end()], lines[i][m.end():].strip()
        lines[i] = f"{head} {sentence} {body}" if j % 2 == 0 else f"{head} {body} {sentence}"
    return "\n".join(lines), names


def inject_word_uses(text: str, lower: bool, index: int, avoid: set[str],
                     uses: Forms) -> tuple[str, list[tuple[int, int]]]:
    """dev9, dev12, dev15: two sentences that use name-like words as words (of ``uses``, the set's ``word_uses``) put at
    the end of a doctor's or a patient's turn; the text and each sentence's span in it."""
    lines = text.split("\n")
    turns = _turns(text)
    doc = [i for i in turns if "doctor" in _speaker(lines[i])]
    pat = [i for i in turns if "patient" in _speaker(lines[i])]
    sentences = []
    for j, (who, form) in enumerate(word_uses_for(uses, index, avoid)):
        sentence = _style(form, lower)
        pool = doc if who == "D" else pat
        i = pool[(index + 3 + j * 7) % len(pool)]
        lines[i] = f"{lines[i].rstrip()} {sentence}"
        sentences.append(sentence)
    out = "\n".join(lines)
    starts = [out.find(sentence) for sentence in sentences]
    return out, [(s, s + len(sentence)) for s, sentence in zip(starts, sentences, strict=True) if s >= 0]


def word_uses_replaced(part: dict[str, list[tuple[int, int]]], res: dict,
                       persons: frozenset[str] = frozenset()) -> tuple[int, int, Counter[str]]:
    """dev9: the words-as-words sentences put in, and the words replaced as names inside them (``persons``: the
    words that are persons' names in those sentences, dev24's "I gave Oskar rice", not counted)."""
    n, words = 0, Counter()
    for key, spans_per_row in part.items():
        for spans, r in zip(spans_per_row, res[key]["rows"], strict=True):
            n += len(spans)
            for w, (s, e) in zip(r["replaced"], r["spans"], strict=True):
                word = " ".join(p for p in _key(w).split() if p not in persons)
                if word and any(a <= s and e <= b for a, b in spans):
                    words[word] += 1
    return n, sum(words.values()), words


# ---------------------------------------------------------------- one code version (runs in either tree)


def run_version(texts: list[str], names: list[list[str]] | None = None) -> dict:
    """De-identify each text (with ``names[i]`` as metadata when given): output text and replaced words."""
    from clinaudit.perturb import deid

    out = []
    t0 = time.perf_counter()
    for i, text in enumerate(texts):
        new, rep = deid.deidentify_text(text, names=names[i] if names else ())
        names_rep = [r for r in rep.removed if r["kind"] == "name"]
        out.append({"text": new, "replaced": [r["old"] for r in names_rep],
                    "spans": [[r.get("start", -1), r.get("end", -1)] for r in names_rep]})
    return {"seconds": time.perf_counter() - t0, "rows": out}


def read_word_lists() -> None:
    """Every word list the tree's detector reads (``name_detect.load_word_lists``; a tree older than it, the four
    vocabulary lists), so that no timed dialog pays for reading one."""
    try:
        from clinaudit.perturb.name_detect import load_word_lists
    except ImportError:
        from clinaudit.perturb.vocab import clinical_terms, common_words, first_names, surnames

        clinical_terms(), common_words(), first_names(), surnames()
        return
    load_word_lists()


def child(path: str) -> None:
    job = json.loads(Path(path).read_text(encoding="utf-8"))
    read_word_lists()  # before the clock starts, as for "after"
    json.dump({k: run_version(v, job["names"].get(k)) for k, v in job["texts"].items()}, sys.stdout)


def before_run(rev: str, texts: dict[str, list[str]], names: dict[str, list[list[str]]]) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        arch = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "src"], check=True, capture_output=True)
        subprocess.run(["tar", "-x", "-C", tmp], input=arch.stdout, check=True)
        inp = Path(tmp) / "texts.json"
        inp.write_text(json.dumps({"texts": texts, "names": names}), encoding="utf-8")
        env = {**os.environ, "PYTHONPATH": str(Path(tmp) / "src")}
        proc = subprocess.run([sys.executable, __file__, "--child", str(inp)], env=env, capture_output=True,
                              text=True, check=True)
        return json.loads(proc.stdout)


# ---------------------------------------------------------------- measures


def by_origin(injected: dict[str, list[tuple[str, list[str], bool]]], res: dict, show_left: bool,
              used: dict[str, list[list[tuple[str, list[str]]]]] | None = None) -> tuple[dict, list[str]]:
    """origin -> {"cased": [names, left], "lower": [...]}, and with ``show_left`` the lines that list the names left
    and, with ``used`` (the forms put in each dialog), the forms that lose a name of the most origins (printed under
    the set's table by the caller; until the twenty-third session of issue 50 they were printed before the set's
    title, so that they read as the previous set's)."""
    table: dict[str, dict[str, list[int]]] = {}
    left_words: Counter[str] = Counter()
    form_losers: dict[tuple[str, str], set[str]] = defaultdict(set)
    for key, items in injected.items():
        origin = key.split("|")[1]
        plurals = key.split("|")[0] in SETS and SETS[key.split("|")[0]].plurals
        cell = table.setdefault(origin, {"cased": [0, 0], "lower": [0, 0]})
        for n_item, ((_t, names, lower), r) in enumerate(zip(items, res[key]["rows"], strict=True)):
            style = "lower" if lower else "cased"
            for form, form_names in (used or {}).get(key, [[]] * len(items))[n_item]:
                if any(present(r["text"], n, plurals) for n in form_names):  # (not in the dialog before: inject)
                    form_losers[style, form].add(origin)
            for n in set(names):
                k = names.count(n)
                miss = min(k, present(r["text"], n, plurals))
                cell[style][0] += k
                cell[style][1] += miss
                if miss:
                    left_words[f"{origin}:{n}"] += miss
    lines: list[str] = []
    if show_left:
        lines.append("  names left: " + ", ".join(f"{w} {n}" for w, n in left_words.most_common(80)))
        lines += [f"  form losing a name of {len(origins)} origins ({style}): {form}"
                  for (style, form), origins in sorted(form_losers.items(), key=lambda x: (-len(x[1]), x[0]))[:40]]
    return table, lines


def _pct(c: list[int]) -> float:
    return 100 * (c[0] - c[1]) / max(1, c[0])


def print_origins(title: str, table: dict) -> dict:
    print(f"\n{title}")
    print("| origin | names (cased / lower) | removed, cased | removed, lower case | removed, all |")
    print("|---|---:|---:|---:|---:|")
    for o, c in table.items():
        both = [c["cased"][0] + c["lower"][0], c["cased"][1] + c["lower"][1]]
        print(f"| {o} | {c['cased'][0]} / {c['lower'][0]} | {_pct(c['cased']):.1f} % | {_pct(c['lower']):.1f} % | "
              f"{_pct(both):.1f} % |")
    summary = {}
    for style in ("cased", "lower"):
        vals = [_pct(c[style]) for c in table.values()]
        tot = [sum(c[style][0] for c in table.values()), sum(c[style][1] for c in table.values())]
        low = min(table, key=lambda o: _pct(table[o][style]))
        summary[style] = (min(vals), _pct(tot), max(vals) - min(vals))
        print(f"{style}: lowest {min(vals):.1f} % ({low}), highest {max(vals):.1f} %, spread "
              f"{max(vals) - min(vals):.1f} pp; overall {_pct(tot):.1f} % of {tot[0]} names")
    return summary


def real_files(quick: bool) -> tuple[dict[str, list[str]], dict[str, list[list[str]]], dict[str, list[str]]]:
    """Texts of every file, the ACI-Bench dialogs' metadata names, and the patients' gender."""
    texts, names, sex = {}, {}, {}
    for split in ACI[:2] if quick else ACI:
        with (DATA / "aci-bench" / f"{split}.csv").open(encoding="utf-8") as fh:
            rows = list(csv.DictReader(fh))
        with (DATA / "aci-bench" / f"{split}_metadata.csv").open(encoding="utf-8") as fh:
            meta = {r["encounter_id"]: r for r in csv.DictReader(fh)}
        texts[split] = [r["dialogue"] for r in rows]
        names[split] = [[meta.get(r["encounter_id"], {}).get(k, "") or "" for k in
                         ("patient_firstname", "patient_familyname", "doctor_name")] for r in rows]
        sex[split] = [(meta.get(r["encounter_id"], {}).get("patient_gender", "") or "").strip().lower() for r in rows]
    for split in MTS[1:] if quick else MTS:
        with (DATA / "mts-dialog" / f"{split}.csv").open(encoding="utf-8") as fh:
            texts[split] = [r["dialogue"] for r in csv.DictReader(fh)]
    return texts, names, sex


def labels_changed(before: str, after: str) -> int:
    a, b = before.split("\n"), after.split("\n")
    if len(a) != len(b):
        return max(1, abs(len(a) - len(b)))
    return sum(1 for x, y in zip(a, b, strict=True) if LABEL.match(x) and _speaker(x) != _speaker(y))


def _key(w: str) -> str:
    return fold(re.sub(r"['’]s$", "", w)).lower()


def _in_a_list(word: str) -> bool:
    """The word (or each word of a span) is in one of the detector's word lists (this tree's)."""
    from clinaudit.perturb.vocab import clinical_category, first_names, is_common, surnames

    keys = [_key(w) for w in re.findall(r"[^\W\d_]+(?:['’-][^\W\d_]+)*", word)]
    return bool(keys) and all(is_common(k) or clinical_category(k) is not None or k in first_names() or k in surnames()
                              for k in keys)


def false_replacements(real: dict[str, list[str]], names: dict[str, list[list[str]]], res: dict,
                       show: bool) -> dict:
    """Words replaced as names in the real dialogs (ACI's own metadata names left out), split into true names and
    non-names by :func:`deid_false_kinds.classify` (its docstring states the rule)."""
    from clinaudit.perturb.vocab import first_names, surnames

    tot: dict[str, float] = defaultdict(float)
    words: Counter[str] = Counter()
    by_kind: dict[str, Counter[str]] = defaultdict(Counter)
    for split, texts in real.items():
        rows = res[split]["rows"]
        tot["dialogs"] += len(texts)
        tot["seconds"] += res[split]["seconds"]
        for i, (t, r) in enumerate(zip(texts, rows, strict=True)):
            listed = {p.lower() for n in (names.get(split) or [[]] * len(texts))[i] for p in re.findall(r"\w+", n)}
            other = [(w, sp) for w, sp in zip(r["replaced"], r.get("spans") or [[-1, -1]] * len(r["replaced"]),
                                              strict=True) if not set(re.findall(r"\w+", _key(w))) <= listed]
            tot["replaced"] += len(other)
            tot["dialogs_with"] += bool(other)
            non_names = 0
            kinds = [classify(t, s, e, first_names(), surnames(), _in_a_list(w)) if s >= 0 else ("", "")
                     for w, (s, e) in other]
            named = {_key(w) for (w, _sp), (g, _k) in zip(other, kinds, strict=True) if g == "name"}
            for (w, (s, _e)), (group, kind) in zip(other, kinds, strict=True):
                if s >= 0:
                    if group == "non-name" and _key(w) in named:
                        group, kind = "name", "other mention"
                    tot[group] += 1
                    tot[f"{group}: {kind}"] += 1
                    by_kind[f"{group}: {kind}"][_key(w)] += 1
                    non_names += group == "non-name"
            tot["dialogs_with_non_name"] += bool(non_names)
            for w, _sp in other:
                words[_key(w)] += 1
                if any(p in EPONYM_WORDS for p in re.split(r"[-\s]", _key(w))) and (
                        re.search(r"(?i)charcot|marie|tooth|disease|syndrome|sign|test|palsy", t)):
                    tot["eponyms"] += 1 if _eponym_use(t, w) else 0
            tot["labels"] += labels_changed(t, r["text"])
    if show:
        print("  most replaced words:", ", ".join(f"{w} {n}" for w, n in words.most_common(80)))
        for kind, c in sorted(by_kind.items()):
            print(f"  {kind} ({sum(c.values())}):", ", ".join(f"{w} {n}" for w, n in c.most_common(40)))
    return dict(tot)


def _eponym_use(text: str, word: str) -> bool:
    """The word is used as a clinical eponym in this dialog ("charcot-marie-tooth", "bell's palsy")."""
    w = re.escape(re.sub(r"['’]s$", "", word))
    return bool(re.search(rf"(?i)charcot[- ]marie|\b{w}(?:['’]s)?[ -](?:disease|syndrome|palsy|sign|test|"
                          rf"tooth|maneuver|fracture|cyst|score)", text))


#: the other sets' flags (in --help's order) and what each adds
def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--before", default=BEFORE)
    ap.add_argument("--no-before", action="store_true")
    ap.add_argument("--dev-only", action="store_true", help="the development half only (while writing rules)")
    ap.add_argument("--halves", default="development,held-out",
                    help="which halves of forms to measure (comma-separated; 'none' for the real files only)")
    for flag, row in SETS.items():  # the other sets
        ap.add_argument(f"--{flag}", action="store_true", help=row.help)
    ap.add_argument("--no-real", action="store_true", help="skip the real files")
    ap.add_argument("--show-words", action="store_true", help="print the words replaced in the real dialogs")
    ap.add_argument("--show-left", action="store_true", help="print the injected names left")
    ap.add_argument("--write-reach", metavar="PATH", help="write the after held-out table as the packaged "
                    "measurement (src/clinaudit/data/deid_reach.json; deid_reach_write.py)")
    ap.add_argument("--src", default=str(ROOT / "src"),
                    help="the code to measure (default: this tree's src, whatever PYTHONPATH says)")
    ap.add_argument("--child")
    a = ap.parse_args()
    if a.child:
        child(a.child)
        return
    if not (DATA / "aci-bench").exists() or not (DATA / "mts-dialog").exists():
        print(f"data not found under {DATA}: skipped")
        return
    sys.path.insert(0, a.src)  # this tree's code unless --src says, whatever PYTHONPATH says
    import clinaudit

    print(f"after: the code of {Path(clinaudit.__file__).parent.parent}", flush=True)
    dialogs = load_dialogs(a.quick)
    wanted = ["development"] if a.dev_only else [h for h in a.halves.split(",") if h in ("development", "held-out")]
    wanted += [h for h in SETS if getattr(a, h) or h in a.halves.split(",")]  # the other sets, in order
    if a.write_reach and "held-out" not in wanted:
        ap.error("--write-reach needs the held-out half (--halves held-out)")
    halves = {h: {"development": DEV_FORMS, "held-out": HELD_OUT_FORMS}[h] if h not in SETS
              else dev7_forms(DATA) if h == "dev7" else SETS[h].forms for h in wanted}
    injected: dict[str, list[tuple[str, list[str], bool]]] = {}
    forms_used: dict[str, list[list[tuple[str, list[str]]]]] = {}
    word_spans: dict[str, list[list[tuple[int, int]]]] = {}  # dev9: the words-as-words sentences
    for hname, forms in halves.items():
        table = NAME_TABLES.get(hname)
        for origin in table or ORIGINS:
            items, used = [], []
            # dev3: each dialog once with the development forms and once with dev2's (other names the second time)
            passes = ((forms, 0), (DEV2_FORMS, 7)) if hname == "dev3" else ((forms, 0),)
            if hname in SETS and SETS[hname].repeat:  # every form once (dev10: twice): as many runs as it takes
                times = SETS[hname].repeat * len(forms)
                passes = tuple((forms, p * len(dialogs)) for p in range(-(-times // (FORMS_PER_DIALOG * len(dialogs)))))
            for pforms, offset in passes:
                for i, (_f, _id, text, lower) in enumerate(dialogs):
                    folded = (i // 2) % 2 == 1
                    for shift in range(4):  # a name already in the dialog: the next ones of the list
                        forms_in: list[tuple[str, list[str]]] = []
                        got = inject(text, lower, origin, i + offset + shift, pforms, hname == "held-out", folded,
                                     table[origin] if table else None, forms_in)
                        uses = SETS[hname].word_uses if hname in SETS else None
                        if got and uses:
                            avoid = {p.lower() for n in got[1] for p in name_parts(n)}
                            text9, spans9 = inject_word_uses(got[0], lower, i, avoid,
                                                             uses)
                            got = (text9, got[1])
                            word_spans.setdefault(f"{hname}|{origin}", []).append(spans9)
                        if got:
                            items.append((got[0], got[1], lower))
                            used.append(forms_in)
                            break
            label = f"{origin} ({DEV3_COUNTRIES[origin][0]}: {DEV3_COUNTRIES[origin][1] or '-'})" \
                if hname == "dev3" else origin
            injected[f"{hname}|{label}"] = items
            if hname != "held-out":
                forms_used[f"{hname}|{label}"] = used
    texts = {k: [t for t, _, _ in v] for k, v in injected.items()}
    real, names, sex = ({}, {}, {}) if a.no_real else real_files(a.quick)
    jobs = {**texts, **real, **{"meta:" + k: real[k] for k in names}}
    job_names = {"meta:" + k: v for k, v in names.items()}
    n_lower = sum(lo for *_x, lo in dialogs)
    print(f"{len(dialogs)} dialogs ({n_lower} lower case), {FORMS_PER_DIALOG} forms each, {len(ORIGINS)} origins; "
          f"forms: {len(DEV_FORMS)} development, {len(HELD_OUT_FORMS)} held out; real files: "
          f"{', '.join(f'{k} {len(v)}' for k, v in real.items())}; load {os.getloadavg()[0]:.1f}")
    sets: dict[str, dict | None] = {"before": None, "after": None}
    if not a.no_before:
        sets["before"] = before_run(a.before, jobs, job_names)
    t0 = time.perf_counter()
    read_word_lists()
    print(f"word lists loaded in {time.perf_counter() - t0:.1f} s")
    sets["after"] = {k: run_version(v, job_names.get(k)) for k, v in jobs.items()}
    for label in ("before", "after"):
        res = sets[label]
        if res is None:
            continue
        rev = a.before if label == "before" else "this tree"
        for hname in halves:
            part = {k: v for k, v in injected.items() if k.startswith(hname + "|")}
            n_origins = len(NAME_TABLES.get(hname, ORIGINS))
            table, left_lines = by_origin(part, res, a.show_left and label == "after", forms_used)
            print_origins(f"{label} ({rev}), {hname} half: names of {n_origins} "
                          f"{'countries (country: the origin it stands beside)' if hname == 'dev3' else 'origins'} "
                          "put in", table)
            if a.write_reach and label == "after" and hname == "held-out":  # the packaged measurement
                from deid_reach_write import code_revision, reach_document, write_reach

                print("wrote", write_reach(a.write_reach, reach_document(
                    table, code_revision(a.src), time.strftime("%Y-%m-%d", time.gmtime()))))
            if hname in SETS and SETS[hname].word_uses:
                n_uses, n_rep, rep_words = word_uses_replaced(
                    {k: v for k, v in word_spans.items() if k.startswith(hname + "|")}, res, SETS[hname].persons)
                print(f"{hname} words used as words: {n_uses} sentences put in, {n_rep} words replaced as names in them"
                      + (f" ({', '.join(f'{w} {c}' for w, c in rep_words.most_common(40))})" if n_rep else ""))
            for line in left_lines:
                print(line)
        if real:
            fr = false_replacements(real, names, res, a.show_words and label == "after")
            d = fr["dialogs"]
            print(f"\n{label}: real dialogs {d:.0f} (no metadata, nothing injected): words replaced as names "
                  f"(ACI's own metadata names left out) {fr['replaced']:.0f} = {100 * fr['replaced'] / d:.1f} per 100 "
                  f"dialogs; dialogs with one {fr['dialogs_with']:.0f} = {100 * fr['dialogs_with'] / d:.1f} per 100; "
                  f"clinical eponyms replaced {fr['eponyms']:.0f}; speaker labels changed {fr['labels']:.0f}; "
                  f"{1000 * fr['seconds'] / d:.1f} ms a dialog")
            kinds = ", ".join(f"{k.split(': ')[1]} {fr[k]:.0f}" for k in sorted(fr) if k.startswith("name: "))
            other = ", ".join(f"{k.split(': ')[1]} {fr[k]:.0f}" for k in sorted(fr) if k.startswith("non-name: "))
            print(f"{label}: of these, names (deid_false_kinds.py) {fr.get('name', 0):.0f} ({kinds}); non-names "
                  f"(false replacements) {fr.get('non-name', 0):.0f} = {100 * fr.get('non-name', 0) / d:.1f} per 100 dialogs, in "
                  f"{fr.get('dialogs_with_non_name', 0):.0f} dialogs = {100 * fr.get('dialogs_with_non_name', 0) / d:.1f} per 100 "
                  f"({other})")
            mk = metadata_kept(real, names, sex, res)
            print(f"{label}: ACI-Bench dialogs that keep their patient's metadata name (metadata given): "
                  f"{kept_line(mk)}")
            print(real_names_line(label, merge([real_names_left(real[k], names[k], [r["text"] for r in res[k]["rows"]])
                                                for k in names])))
    if sets["before"] is not None and real:  # the same real dialogs, each version in its own process
        tb, ta = (sum(sets[v][k]["seconds"] for k in real) for v in ("before", "after"))
        print(f"\nRATIO bench_deid_origin: real dialogs' time after / before = {ta / tb:.2f} (after {ta:.1f} s, "
              f"before {a.before} {tb:.1f} s)")


if __name__ == "__main__":
    main()
