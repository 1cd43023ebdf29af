"""The benchmark's sixteenth development set (benchmarks/deid_dev16.py, issue 50, eleventh session): a person after
an article or a determiner, with the second development set's names, beside things in the same places."""

from __future__ import annotations

import re

from script_modules import FORM_LISTS, forms_of, load_script, table_parts


def _dev16():
    return load_script("benchmarks/deid_dev16.py", "clinaudit_deid_dev16")


def test_dev16_forms_shape():
    dev16 = _dev16()
    forms = dev16.DEV16_FORMS
    assert len(forms) >= 40 and len({f.lower() for _, f in forms}) == len(forms)  # no repeated form
    slots = re.compile(r"\{(\w+)\}")
    assert all(who in ("D", "P") and slots.search(f) for who, f in forms)
    assert all(set(slots.findall(f)) <= {"g", "s"} for _, f in forms)
    assert dev16.DEV16_REPEAT >= 1
    uses = dev16.DEV16_WORD_USES
    assert len(uses) >= 60 and len({s.lower() for _, s in uses}) == len(uses)


def test_dev16_forms_are_new():
    others = {f.lower() for f in forms_of(*FORM_LISTS)}
    others |= {f.lower() for _, f in load_script("benchmarks/deid_dev13.py", "clinaudit_deid_dev13").DEV13_FORMS}
    others |= {f.lower() for _, f in load_script("benchmarks/deid_dev15.py", "clinaudit_deid_dev15").DEV15_FORMS}
    others |= {f.lower() for _, f in load_script("benchmarks/deid_dev17.py", "clinaudit_deid_dev17").DEV17_FORMS}
    assert not {f.lower() for _, f in _dev16().DEV16_FORMS} & others


def test_dev16_holds_no_name_word():
    """No word of a form or of a thing's sentence is a part of the names put in (dev2's)."""
    dev16 = _dev16()
    dev2 = load_script("benchmarks/deid_dev2.py", "clinaudit_deid_dev2")
    words = {w for _, f in (*dev16.DEV16_FORMS, *dev16.DEV16_WORD_USES) for w in re.findall(r"[a-z]+", f.lower())}
    assert not words & {p.lower() for p in table_parts(dev2.DEV2_NAMES)} - {"s", "es"}


def test_dev16_kinds():
    """Every determiner shape it was written for, in the forms and in the things' sentences."""
    dev16 = _dev16()
    forms = [f for _, f in dev16.DEV16_FORMS]
    kinds = [r"the \{s\}s ", r"the \{s\}es'", r"the \{s\}s'", r"the \{s\}'s", r"a \{s\} by marriage",
             r"was a \{s\} before", r"the \{s\} way", r"the \{g\} thing", r"the \{s\} family", r"the \{s\} kids",
             r"the \{s\} boy", r"the \{s\} twins", r"the \{s\} side", r"the \{g\} I know", r"A \{g\} called",
             r"That \{s\} woman", r"Some \{s\} from the insurance", r"The other \{g\}", r"Our \{g\}",
             r"Every \{s\} in the family", r"One of the \{s\} kids", r"two \{g\}s in the family"]
    assert all(any(re.search(k, f, re.I) for f in forms) for k in kinds), [
        k for k in kinds if not any(re.search(k, f, re.I) for f in forms)]
    uses = " ".join(s.lower() for _, s in dev16.DEV16_WORD_USES)
    assert all(k in uses for k in ("the walgreens on main", "a honda", "the keppra made me dizzy", "a costco thing",
                                   "the fitbit says", "the kroger's parking lot", "the tylenols", "the mayo clinic"))


def test_dev16_counts_plurals(monkeypatch):
    """The set counts a plural name left ("the kowalczyks") as left; no other set does."""
    sets = load_script("benchmarks/deid_sets.py", "clinaudit_deid_sets")
    assert sets.SETS["dev16"].plurals and not any(r.plurals for k, r in sets.SETS.items() if k != "dev16")
    bench = load_script("benchmarks/bench_deid_origin.py", "clinaudit_bench_deid_origin")
    assert bench.present("the kowalczyks came", "Kowalczyk", True) == 1
    assert bench.present("the kowalczyks came", "Kowalczyk") == 0
    assert bench.present("the kowalczyk's dog", "Kowalczyk") == 1
