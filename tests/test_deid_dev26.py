"""The benchmark's twenty-sixth development set (benchmarks/deid_dev26.py, issue 50, fourteenth session): Irish and
Scottish Gaelic surnames of a particle and a stem, and Gaelic given names with and without accents, beside the
particles and the names' words as words; none of another set's names (compared without printing them)."""

from __future__ import annotations

import pytest
from script_modules import NAME_TABLES, check_dev_set, dev_forms, dev_parts_shared, dev_set, parts_shared


@pytest.fixture(scope="module")
def dev26():
    return dev_set(26)


def test_dev26_names_are_new(dev26):
    shared = parts_shared(dev26.DEV26_NAMES, *NAME_TABLES)
    assert shared == dict.fromkeys(shared, 0)  # counts, never the parts: no held-out name printed
    assert dev_parts_shared(dev26.DEV26_NAMES, 19, 20, 22, 23, 24, 27, 28) == dict.fromkeys(
        (19, 20, 22, 23, 24, 27, 28), 0)


def test_dev26_shape(dev26):
    check_dev_set(dev26, 26, origins={"Irish", "Scottish"}, min_parts=20, min_forms=40, min_uses=60, own_words=2)


def test_dev26_forms_are_new(dev26):
    assert not {f.lower() for _, f in dev26.DEV26_FORMS} & dev_forms(13, 14, 15, 16, 17, 19, 20, 22, 23, 24, 27, 28)


def test_dev26_surnames_have_particles_in_every_writing(dev26):
    """What the set is for: surnames of a particle written apart, with an apostrophe (straight and curly) and
    joined; given names with and without their accents."""
    import re

    sur = [s for _, ss in dev26.DEV26_NAMES.values() for s in ss]
    assert sum(bool(re.match(r"(?i)(ó|o|ní|nic|ua|mac|mc|fitz|de) \w", s)) for s in sur) >= 25
    assert any("'" in s for s in sur) and any("’" in s for s in sur) and any(re.match(r"Mac\w", s) for s in sur)
    given = [g for gg, _ in dev26.DEV26_NAMES.values() for g in gg]
    assert sum(not g.isascii() for g in given) >= 14 and sum(g.isascii() for g in given) >= 8
