"""The development sets' table (benchmarks/deid_sets.py): the sentences using names' words as words go two a dialog,
never one holding a word of a name put into the same dialog (moved from the dev9, dev12 and dev15 tests with their
assertions, when the three sets' copies of the picker became one)."""

from __future__ import annotations

import re

import pytest
from script_modules import load_script


@pytest.fixture(scope="module")
def sets():
    return load_script("benchmarks/deid_sets.py", "clinaudit_deid_sets")


@pytest.mark.parametrize(("flag", "avoid"), [("dev9", {"per", "floor", "hope"}), ("dev12", {"head", "kidney", "sweet"}),
                                             ("dev15", {"salt", "kettle", "cotton"}),
                                             ("dev20", {"gold", "steel", "perfect"})])
def test_word_uses_avoid_the_dialogs_names(sets, flag, avoid):
    uses = sets.SETS[flag].word_uses
    for i in range(50):
        got = sets.word_uses_for(uses, i, avoid)
        assert len(got) == 2 and got[0] != got[1]
        assert not any(set(re.findall(r"[a-z]+", s.lower())) & avoid for _, s in got)


def test_every_set_has_its_forms_names_and_help(sets):
    assert [f for f in sets.SETS] == ["dev2", "dev3", "prep", "dev4", "prep2", "dev5", "dev6", "dev7", "dev8", "dev9",
                                      "dev10", "dev11", "dev12", "dev13", "dev14", "dev15", "dev16",
                                      "dev17", "dev18", "dev19", "dev20", "dev21", "dev22", "dev23",
                                      "dev24", "dev25", "dev26", "dev27", "dev28", "dev29", "dev30", "dev31", "dev32",
                                      "dev33", "dev34", "dev35", "dev36", "dev37", "dev38", "dev39", "dev40",
                                      "dev41", "dev42", "dev43", "dev44"]
    assert all(row.help.startswith("also ") and row.names for row in sets.SETS.values())
    assert sets.SETS["dev7"].forms is None and all(row.forms for f, row in sets.SETS.items() if f != "dev7")
