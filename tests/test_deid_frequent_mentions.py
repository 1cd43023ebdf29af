"""A name English text writes often as a word ("mark", "rose", "hope", "jack", "smith": Zipf 4.5 or more), found once
in a lower-case dialog, said again where only a person stands (issue 50, twenty-fifth session:
:func:`clinaudit.perturb.name_mentions.other_mentions`). Before, a name found once ("hi mark , how are you ?") was read
again elsewhere in the dialog only when rarer in English than Zipf 4.5 ("dean" was, "mark" was not), so the same
person's name stayed in "was anybody next to mark when it happened ?". Now such a word is read again after a
preposition or a verb whose object is a person, or at a clause's start before what a person does, and before the
phrase's end; never after a determiner, after a pronoun ("i hope so", "my blood pressure rose"), or after "to" when the
lexicon reads a verb ("i want to mark it"), nor before a thing ("go to mark the spot"). Hand-written dialogs, each
positive checked to leave the word on the code before."""

from __future__ import annotations

import re

import pytest

from clinaudit.perturb.deid import deidentify_text
from clinaudit.perturb.name_mentions import frequent_word_name


def _left(name: str, sentence: str) -> int:
    text = f"[doctor] hi {name} , how are you ?\n[patient] {sentence}\n[doctor] i see ."
    out = deidentify_text(text)[0]
    assert not out.startswith(f"[doctor] hi {name}")  # the greeting finds the name once
    return len(re.findall(rf"(?<![\w'-]){name}(?![\w])", out.split("\n")[1]))


@pytest.mark.parametrize("key", ["mark", "rose", "hope", "jack", "grace", "smith"])
def test_frequent_word_names(key):
    assert frequent_word_name(key)


@pytest.mark.parametrize("key", ["dean", "will", "brown", "may", "mum", "ok"])
def test_not_frequent_word_names(key):
    assert not frequent_word_name(key)  # rarer ("dean"), a function, demographic, relative's or spoken word


@pytest.mark.parametrize("name, sentence", [
    ("mark", "was anybody next to mark when it happened ?"),
    ("mark", "mark wrote that you were doing better ."),
    ("rose", "i live next door to rose ."),
    ("rose", "the keys are with rose at the front ."),
    ("hope", "i was sitting beside hope on the bus ."),
    ("jack", "i talked to jack yesterday ."),
    ("grace", "nobody except grace knows about it ."),
    ("smith", "i pick up the refills for smith too ."),
])
def test_the_name_found_once_is_found_again_where_a_person_stands(name, sentence):
    assert _left(name, sentence) == 0


@pytest.mark.parametrize("name, sentence", [
    ("mark", "i want to mark it on the calendar ."),
    ("mark", "go to mark the spot on the map ."),
    ("mark", "there's a red mark on my arm ."),
    ("mark", "mark this down on the calendar ."),  # a clause's start, no person's verb after
    ("rose", "my blood pressure rose ."),
    ("rose", "i bought some rose petals ."),
    ("hope", "i hope so ."),
    ("hope", "i have lost all hope ."),
    ("jack", "we used the jack to lift the car ."),
    ("grace", "she moves with grace and poise ."),
])
def test_the_same_word_as_a_word_stays(name, sentence):
    assert _left(name, sentence) == sentence.split().count(name)
