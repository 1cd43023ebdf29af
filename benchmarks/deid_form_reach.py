"""In how many development forms a given name is left, by what the word lists call it (issue 50, twenty-third
session): where the lower-case gap lies.

Each form of the development sets (``deid_sets.SETS``: the development half, prep, prep2, dev2 ... dev44; never the
held-out half) that holds a given name ``{g}`` is filled with one word, its other slots with plain made-up names,
written in lower case and put alone into a three-turn dialog; the script counts the forms that leave the word as a
whole word after de-identification and says what the lists call the word (a gazetteer given name, a common English
word, both, neither).

    PYTHONPATH=src python benchmarks/deid_form_reach.py faleolo toby tommy peg pip tele uso silky [--limit N]

A word the lists hold in none ("faleolo") is read as a name wherever it stands; a gazetteer given name that is an
English word ("toby") only where the context says so; an English word no name list holds ("peg") almost nowhere.
``--limit`` reads the first N forms only (the test).
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

#: the other slots of a form, filled with made-up names no list holds
_OTHERS = {"s": "qwertz", "S": "QWERTZ", "sf": "qwertz", "SF": "QWERTZ", "SC": "QWERTZ", "g2": "zqxv", "g3": "vqxz"}


def forms_with_given_name(limit: int | None = None) -> list[tuple[str, str]]:
    """``(set, form)``: each distinct development form that holds ``{g}``, in the sets' order."""
    import deid_sets

    out: list[tuple[str, str]] = []
    seen: set[str] = set()
    for set_name, row in deid_sets.SETS.items():
        for _who, form in row.forms or ():
            if "{g}" in form and form not in seen:
                seen.add(form)
                out.append((set_name, form))
    return out[:limit] if limit else out


def left_in(word: str, forms: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The forms (set, sentence) that leave ``word`` (lower case) after de-identification."""
    from clinaudit.perturb.deid import deidentify_text

    whole = re.compile(rf"(?<![\w'-]){re.escape(word)}(?![\w])")
    out = []
    for set_name, form in forms:
        sentence = form.format(g=word, G=word.upper(), gf=word, GF=word.upper(), GC=word.upper(), **_OTHERS).lower()
        text = f"[doctor] okay , tell me more .\n[patient] {sentence}\n[doctor] i see ."
        if whole.search(deidentify_text(text)[0]):
            out.append((set_name, sentence))
    return out


def kind(word: str) -> str:
    """What the word lists call ``word``."""
    from clinaudit.perturb.name_word import word_facts

    w = word_facts(word)
    if w.first and w.common:
        return "gazetteer given name and English word"
    if w.first:
        return "gazetteer given name"
    if w.common:
        return "English word, in no name list"
    return "in no list"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("words", nargs="+", help="given names to put in, lower case")
    ap.add_argument("--limit", type=int, help="read the first N forms only")
    ap.add_argument("--show", type=int, default=0, help="print N sentences that leave each word")
    args = ap.parse_args(argv)
    forms = forms_with_given_name(args.limit)
    print(f"{len(forms)} development forms with a given name (held-out half not read)")
    print("| word | what the lists call it | forms that leave it |")
    print("|---|---|---:|")
    for word in args.words:
        left = left_in(word.lower(), forms)
        print(f"| {word} | {kind(word.lower())} | {len(left)} of {len(forms)} |")
        for set_name, sentence in left[: args.show]:
            print(f"  {set_name}: {sentence}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
