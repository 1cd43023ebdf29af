"""The benchmark's tenth development set (benchmarks/deid_dev10.py, issue 50, ninth session): what stands right
beside a name and how text is laid out, with the second development set's names."""

from __future__ import annotations

import re

from script_modules import load_script


def test_dev10_forms_shape():
    dev10 = load_script("benchmarks/deid_dev10.py", "clinaudit_deid_dev10")
    forms = dev10.DEV10_FORMS
    assert 120 <= len(forms) <= 250 and len(set(forms)) == len(forms)
    slots = re.compile(r"\{(\w+)\}")
    assert all(who in ("D", "P") and slots.search(f) for who, f in forms)
    assert all(set(slots.findall(f)) <= {"g", "s", "g2", "g3", "GC", "SC"} for _, f in forms)
    others: set[tuple[str, str]] = set()
    for path, name, attr in (("benchmarks/deid_dev.py", "clinaudit_deid_dev", "DEV_FORMS"),
                             ("benchmarks/deid_dev2.py", "clinaudit_deid_dev2", "DEV2_FORMS"),
                             ("benchmarks/deid_dev4.py", "clinaudit_deid_dev4", "DEV4_FORMS"),
                             ("benchmarks/deid_dev5.py", "clinaudit_deid_dev5", "DEV5_FORMS"),
                             ("benchmarks/deid_dev_prep.py", "clinaudit_deid_dev_prep", "PREP_FORMS"),
                             ("benchmarks/deid_dev_prep2.py", "clinaudit_deid_dev_prep2", "PREP2_FORMS")):
        others |= set(getattr(load_script(path, name), attr))
    assert not {f.lower() for _, f in forms} & {f.lower() for _, f in others}  # no form of another set
    # the surroundings it was written for: punctuation touching the name on either side, no space after the
    # punctuation before it, a digit touching it, a newline, a tab, a speaker label, markup, e-mail, a CSV row,
    # an inverted name, a list, capitals, the apostrophe written apart
    kinds = [r"\{g\}[,.?!:;]", r"[(\[\"'“‘]\{g\}", r"[,.]\{g\}", r"\d\{g\}|\{g\}\d", r"\n\{g\}", r"\t\{g\}",
             r"\[patient\]\{g\}", r"doctor:\{g\}", r"\n\{g\}: ", r"\*\*\{g\}\*\*", r"<b>\{g\}</b>", r"@\{g\}",
             r"\{g\}\.\{s\}@", r"^\{s\},\{g\},", r"\{s\}, \{g\}", r"\{g\}, \{g2\} and \{g3\}", r"\{GC\}",
             r"\{g\} 's", r"\{g\}/\{g2\}"]
    assert all(any(re.search(k, f) for _, f in forms) for k in kinds), [
        k for k in kinds if not any(re.search(k, f) for _, f in forms)]


def test_dev10_slots_in_the_benchmark():
    """{g2}/{g3} are the origin's other given names; {GC}/{SC} stay in capitals in a lower-case dialog."""
    bench = load_script("benchmarks/bench_deid_origin.py", "clinaudit_bench_deid_origin_dev10")
    text = "[doctor] how are you ?\n[patient] fine .\n[doctor] good .\n[patient] yes ."
    names = (["Ana", "Bea", "Cyd", "Dot"], ["Roe", "Sax", "Tam", "Uhl"])
    forms = (("P", "{g}, {g2} and {g3} came."),) * 2 + (("D", "I told {GC} {SC}."),)
    got = bench.inject(text, True, "x", 0, forms, False, False, names)
    assert got is not None
    out, put = got
    assert "ana , bea and cyd came ." in out and "bea , cyd and dot came ." in out
    assert "i told CYD SAX ." in out  # the rest of the sentence in lower case, the name in capitals
    assert put == ["Ana", "Bea", "Cyd", "Bea", "Cyd", "Dot", "Cyd", "Sax"]
