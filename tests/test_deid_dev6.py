"""The benchmark's sixth development set (benchmarks/deid_dev6.py, issue 50, seventh session): names that are short
or English words, and names written with and without their diacritics; none of deid_names.py's (either half),
deid_dev2.py's, deid_dev3_names.py's or deid_dev4.py's (compared without printing them)."""

from __future__ import annotations

import re
import unicodedata

import pytest
from script_modules import load_script


@pytest.fixture(scope="module")
def dev6():
    return load_script("benchmarks/deid_dev6.py", "clinaudit_deid_dev6")


_PARTICLES = frozenset("o mc mac de da di del la le van von den der dos das ben bin ibn nic ni al el te".split())


def _parts(name: str) -> set[str]:
    s = name.lower().translate(str.maketrans({"ł": "l", "ı": "i", "ß": "ss", "ø": "o", "đ": "d"}))
    folded = "".join(c for c in unicodedata.normalize("NFKD", s) if not unicodedata.combining(c))
    return {p for p in re.split(r"[\s\-'’ʻ]+", folded) if len(p) >= 2} - _PARTICLES


def test_dev6_names_are_new(dev6):
    new = {p for given, sur in dev6.DEV6_NAMES.values() for n in given + sur for p in _parts(n)}
    for path, attr in (("deid_names.py", "ORIGINS"), ("deid_dev2.py", "DEV2_NAMES"),
                       ("deid_dev3_names.py", "DEV3_NAMES"), ("deid_dev4.py", "DEV4_NAMES")):
        table = getattr(load_script(f"benchmarks/{path}", "clinaudit_" + path[:-3]), attr)
        old = {p for given, sur in table.values() for n in given + sur for p in _parts(n)}
        assert not old & new, f"{len(old & new)} name parts shared with {path}"  # not printed: the held-out names


def test_dev6_shape(dev6):
    assert len(dev6.DEV6_NAMES) == 11
    assert all(len(g) == 12 and len(s) == 12 for g, s in dev6.DEV6_NAMES.values())
    forms = dev6.DEV6_FORMS
    assert len(forms) >= 20
    assert all(who in ("D", "P") and re.search(r"\{[gsGS]f?\}|\{[GS]F\}", f) for who, f in forms)
    assert sum(bool(re.search(r"\{[gsGS][fF]\}", f)) for _, f in forms) >= 3  # a name again without its diacritics
    short = [n for given, sur in dev6.DEV6_NAMES.values() for n in given + sur if len(n) <= 4]
    assert len(short) >= 40  # short names, of every origin the lists hold as words or abbreviations


def test_dev6_forms_are_new(dev6):
    old = set()
    for path, attr in (("deid_dev.py", "DEV_FORMS"), ("deid_dev2.py", "DEV2_FORMS"), ("deid_dev_prep.py", "PREP_FORMS"),
                       ("deid_dev_prep2.py", "PREP2_FORMS"), ("deid_dev4.py", "DEV4_FORMS"),
                       ("deid_dev5.py", "DEV5_FORMS")):
        old |= {f for _, f in getattr(load_script(f"benchmarks/{path}", "clinaudit_" + path[:-3]), attr)}
    assert not old & {f for _, f in dev6.DEV6_FORMS}
