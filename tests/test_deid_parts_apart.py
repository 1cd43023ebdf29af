"""A given name written as two words apart whose joining is a given name, and a one-syllable Korean surname the guards
keep as a word, before a Korean given name or after a title (``name_parts_apart``, issue 50, sixteenth session); the
same words as words stay."""

from __future__ import annotations

import time

import pytest

from clinaudit.perturb.deid import deidentify_text
from clinaudit.perturb.name_parts_apart import KOREAN_SURNAMES, korean_guarded_surnames


def _out(text: str) -> str:
    return deidentify_text(text)[0]


def _kept(out: str, name: str) -> list[str]:
    words = out.replace(",", " ").replace(".", " ").split()
    return [part for part in name.split() if part in words]


@pytest.mark.parametrize("text, name", [
    ("i came in with hem ant today .", "hem ant"),
    ("my brother ash win drove me here .", "ash win"),
    ("nav deep is picking me up later .", "nav deep"),
    ("ask sukh deep , she has the list .", "sukh deep"),
    ("son ye jin came with me .", "son ye jin"),
    ("i talked to oh se ri about the forms .", "oh se ri"),
    ("ask an ji-ho , he knows .", "an ji-ho"),
    ("my wife no mi na is parking .", "no mi na"),
    ("dr an saw me last week .", "an"),
    ("mr ma rang about the results .", "ma"),
    ("i was seen by dr. no , the surgeon .", "no"),
])
def test_the_name_is_taken(text, name):
    out = _out(text)
    assert not _kept(out, name), out


@pytest.mark.parametrize("text, word", [
    ("my son ji-ho came with me .", "son"),
    ("her eldest son min-jun has a cough .", "son"),
    ("oh ji-ho , you're back .", "oh"),
    ("no ji-ho , put that down .", "no"),
    ("do ji-ho and min-ji need to come ?", "do"),
    ("mr and mrs smith came in .", "and"),
])
def test_the_word_beside_a_name_stays(text, word):
    assert word in _out(text).split()


@pytest.mark.parametrize("text", [
    "oh , i see .",
    "do you have any allergies ?",
    "an x-ray showed nothing .",
    "dr , do you think it's serious ?",
    "i didn't want to miss an appointment .",
    "i got ash from the fire in my eye .",
    "we didn't win the quiz .",
    "win some , lose some .",
    "the hem of my skirt caught on the step .",
    "take a deep breath .",
    "thanks honey .",
    "no one came with me .",
    "i have shin pain .",
])
def test_the_words_stay(text):
    assert _out(text) == text


@pytest.mark.parametrize("text, expected", [
    # a word English writes often before a given name of the lists: the name alone (twenty-ninth session; main
    # 7957a5f joined "saw" + "ana" into "sawana" and gave "i [NAME] yesterday .")
    ("i saw ana yesterday .", "i saw [NAME] yesterday ."),
    ("we told ana to come .", "we told [NAME] to come ."),
    ("i came with mark anthony today .", "i came with [NAME] today ."),  # "mark" a given name: the pair stays
])
def test_a_common_word_before_a_given_name_is_no_pair(text, expected):
    assert _out(text) == expected


def test_only_the_guarded_surnames_are_read():
    """The surnames :mod:`.name_syllables_apart` reads beside a given name are not this rule's."""
    got = korean_guarded_surnames(set(KOREAN_SURNAMES))
    assert {"oh", "son", "shin", "do", "an", "no", "ma", "na", "ra"} <= got
    assert not {"song", "moon", "min", "sun"} & got


def test_cased_text_is_not_read():
    assert _out("My son Ji-ho came with me.").startswith("My son ")


def test_linear():
    """A text of the rule's shape, repeated: read in one pass, then only the candidate words' places."""
    unit = "i came in with hem ant and son ye jin , dr an said oh se ri was fine . " * 10
    t0 = time.process_time()
    _out(unit * 50)
    small = time.process_time() - t0
    t0 = time.process_time()
    _out(unit * 200)
    big = time.process_time() - t0
    assert big < 8 * small + 0.5, (small, big)
