"""The benchmark's development set of persons after a preposition or an article (benchmarks/deid_dev_prep.py, issue
50, fifth session): its forms put a name after "at", "in", "from", "with", "about", ..., or an article."""

from __future__ import annotations

import re

from script_modules import load_script


def test_prep_forms_shape():
    prep = load_script("benchmarks/deid_dev_prep.py", "clinaudit_deid_dev_prep")
    forms = prep.PREP_FORMS
    assert len(forms) >= 20
    assert all(who in ("D", "P") and ("{g}" in f or "{s}" in f) for who, f in forms)
    after = re.compile(r"(?i)\b(?:at|in|from|with|for|by|about|beside|to|of|the|a|named|nurse,|pharmacist,)\s+\{[gs]\}")
    assert sum(bool(after.search(f)) for _, f in forms) >= 20  # a name right after a preposition or an article


def test_prep2_forms_shape():
    # the second set (benchmarks/deid_dev_prep2.py, sixth session): the same kind of position in other wordings
    prep2 = load_script("benchmarks/deid_dev_prep2.py", "clinaudit_deid_dev_prep2")
    forms = prep2.PREP2_FORMS
    first = load_script("benchmarks/deid_dev_prep.py", "clinaudit_deid_dev_prep").PREP_FORMS
    assert len(forms) >= 15 and not set(forms) & set(first)
    assert all(who in ("D", "P") and ("{g}" in f or "{s}" in f) for who, f in forms)
    after = re.compile(r"(?i)\b(?:at|from|with|by|than|like|besides|between|after|the|and)\s+\{[gs]\}")
    assert sum(bool(after.search(f)) for _, f in forms) >= 15
