"""The benchmark's fifth development set (benchmarks/deid_dev5.py, issue 50, seventh session): everyday forms of
naming a person that no other development set has, with the second development set's names."""

from __future__ import annotations

import re

from script_modules import load_script


def test_dev5_forms_shape():
    dev5 = load_script("benchmarks/deid_dev5.py", "clinaudit_deid_dev5")
    forms = dev5.DEV5_FORMS
    assert len(forms) >= 30 and len(set(forms)) == len(forms)
    assert all(who in ("D", "P") and ("{g}" in f or "{s}" in f) for who, f in forms)
    others: set[tuple[str, str]] = set()
    for path, name, attr in (("benchmarks/deid_dev.py", "clinaudit_deid_dev", "DEV_FORMS"),
                             ("benchmarks/deid_dev2.py", "clinaudit_deid_dev2", "DEV2_FORMS"),
                             ("benchmarks/deid_dev4.py", "clinaudit_deid_dev4", "DEV4_FORMS"),
                             ("benchmarks/deid_dev_prep.py", "clinaudit_deid_dev_prep", "PREP_FORMS"),
                             ("benchmarks/deid_dev_prep2.py", "clinaudit_deid_dev_prep2", "PREP2_FORMS")):
        others |= set(getattr(load_script(path, name), attr))
    assert not set(forms) & others  # no form of another development set
    lowered = {f.lower() for _, f in forms}
    assert not lowered & {f.lower() for _, f in others}
    # the positions it was written for: an object of an ordinary verb, a vocative at the end, after "this is" /
    # "i'm", after "per" / "via" / "cc", in a time phrase, two persons in one sentence
    kinds = [r"\b(?:took|called|drove|helped|text|give|get) \{g\}", r"(?:care|okay) \{g\}[.?]$",
             r"\b(?:this is|I'm|name's|must be) \{g\}", r"\b(?:Per|via|cc) \{[gs]\}", r"\b(?:Since|since|before) \{g\}",
             r"\{g\}.*\{s\}"]
    assert all(any(re.search(k, f) for _, f in forms) for k in kinds)
