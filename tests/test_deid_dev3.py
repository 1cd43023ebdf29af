"""The benchmark's third development set (benchmarks/deid_dev3_names.py, issue 50): names-dataset's most frequent
names of 45 countries, none of deid_names.py's (either half) or deid_dev2.py's (compared without printing them)."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest
from script_modules import load_script


@pytest.fixture(scope="module")
def dev3():
    return load_script("benchmarks/deid_dev3_names.py", "clinaudit_deid_dev3_names")


_PARTICLES = frozenset("o mc mac de da di del la le van von den der dos das ben bin ibn nic ni al el".split())


def _parts(name: str) -> set[str]:
    s = name.lower().translate(str.maketrans({"ł": "l", "ı": "i", "ß": "ss", "ø": "o", "đ": "d", "æ": "ae", "ð": "d",
                                              "þ": "th"}))
    folded = "".join(c for c in unicodedata.normalize("NFKD", s) if not unicodedata.combining(c))
    return {p for p in re.split(r"[\s\-'’ʻ]+", folded) if len(p) >= 2} - _PARTICLES


def test_dev3_names_are_new(dev3):
    names = load_script("benchmarks/deid_names.py", "clinaudit_deid_names")
    dev2 = load_script("benchmarks/deid_dev2.py", "clinaudit_deid_dev2")
    new = {p for given, sur in dev3.DEV3_NAMES.values() for n in given + sur for p in _parts(n)}
    for table in (names.ORIGINS, dev2.DEV2_NAMES):
        old = {p for given, sur in table.values() for n in given + sur for p in _parts(n)}
        shared = len(old & new)  # a count: pytest's report of a failed `assert not old & new` prints the sets
        assert shared == 0, f"{shared} name parts shared"  # not printed: the held-out names


def test_dev3_shape(dev3):
    assert len(dev3.DEV3_NAMES) == len(dev3.DEV3_COUNTRIES) == 45
    assert all(len(g) == 15 and len(s) == 15 for g, s in dev3.DEV3_NAMES.values())
    # Latin letters only, one spelling of a name a country
    for given, sur in dev3.DEV3_NAMES.values():
        for names in (given, sur):
            assert all(all(c in " -'" or "LATIN" in unicodedata.name(c, "") for c in n) for n in names)
            assert len({" ".join(sorted(_parts(n))) for n in names}) == len(names)


def test_dev3_made_without_faker():
    """The issue forbids Faker's name lists as a resource (independent tests use names of that kind)."""
    text = (Path(__file__).resolve().parents[1] / "benchmarks" / "deid_dev3_make.py").read_text(encoding="utf-8")
    assert not re.search(r"(?im)^\s*(import|from)\s+faker", text)
