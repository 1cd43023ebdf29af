"""The benchmark's second development set (benchmarks/deid_dev2.py, issue 50): new names, not those of
deid_names.py (compared without printing them), 4 given names and 4 surnames an origin, every origin of the
benchmark and 16 forms that each put in a name."""

from __future__ import annotations

import re
import unicodedata

import pytest
from script_modules import load_script


@pytest.fixture(scope="module")
def dev2():
    return load_script("benchmarks/deid_dev2.py", "clinaudit_deid_dev2")


def _parts(name: str) -> set[str]:
    folded = "".join(c for c in unicodedata.normalize("NFKD", name.lower()) if not unicodedata.combining(c))
    return {p for p in re.split(r"[\s\-'’ʻ]+", folded) if len(p) > 2} - _PARTICLES


_PARTICLES = frozenset("van von den der del dos das ben bin ibn mac nic".split())


def test_dev2_names_are_new(dev2):
    names = load_script("benchmarks/deid_names.py", "clinaudit_deid_names")
    old = {p for given, sur in names.ORIGINS.values() for n in given + sur for p in _parts(n)}
    new = {p for given, sur in dev2.DEV2_NAMES.values() for n in given + sur for p in _parts(n)}
    shared = len(old & new)  # a count: pytest's report of a failed `assert not old & new` prints the sets
    assert shared == 0, f"{shared} name parts of deid_names.py"  # not printed: the held-out names
    assert set(names.ORIGINS) <= set(dev2.DEV2_NAMES)


def test_dev2_shape(dev2):
    assert all(len(g) == 4 and len(s) == 4 for g, s in dev2.DEV2_NAMES.values())
    assert len(dev2.DEV2_FORMS) == 16
    assert all(who in ("D", "P") and ("{g}" in f or "{s}" in f) for who, f in dev2.DEV2_FORMS)
