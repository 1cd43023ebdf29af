"""Three gaps in how a name that is also a word is read, found by putting the common given names and surnames of four
origins (UK, Irish, Punjabi, Samoan; written from memory, not from the benchmark's name lists) into the development
forms one by one (issue 50, twenty-fifth session):

* a given name that a dictionary of older English lists as a headword ("sam", "dan", "ben", "rory", "barry",
  "oliver", "manu", "param") but that a modern English lexicon (lemminflect's, built from the SPECIALIST lexicon
  and AGID) holds no reading of at all, is rare as a word (:func:`clinaudit.perturb.name_word.word_facts`): such a
  name was left in about 55 to 72 of 203 sampled development forms, as many as "mark" or "rose";
* a title, a middle initial and a surname that is a word ("it was dr . j . brown .", "Mrs. K. Wood"):
  :mod:`clinaudit.perturb.name_initials` read the initial only after a given name;
* a name right after "named" or "called" after a person's word ("a friend named dean", "a nurse called rose"):
  no rule read it when the name is a word.

Hand-written sentences, not the benchmark's forms; each positive case was checked to leave the name on the code
before (5755321). The negatives: the same words as words, and the words around the new places."""

from __future__ import annotations

import re

import pytest

from clinaudit.perturb.deid import deidentify_text
from clinaudit.perturb.name_word import word_facts
from clinaudit.perturb.word_pos import unread


def _left(sentence: str, word: str) -> int:
    """How often ``word`` is left, as a whole word, after de-identification of a short dialog around ``sentence``."""
    text = f"[doctor] okay , tell me more .\n[patient] {sentence}\n[doctor] i see ."
    return len(re.findall(rf"(?<![\w'-]){word}(?![\w])", deidentify_text(text)[0], flags=re.IGNORECASE))


@pytest.mark.parametrize("key", ["sam", "dan", "ben", "rory", "barry", "oliver", "manu", "param", "mick"])
def test_a_given_name_the_lexicon_does_not_read_is_rare_as_a_word(key):
    w = word_facts(key)
    assert unread(key) and w.first and w.rare and not w.common


@pytest.mark.parametrize("key", [
    "mark", "rose", "hope", "will", "grace", "jack",  # the lexicon reads them: words
    "joe", "max", "tim",  # philter-ucsf's whitelist of everyday words holds them
    "ana",  # no gazetteer given name
])
def test_a_name_the_lexicon_reads_or_the_whitelist_holds_stays_a_word(key):
    assert not word_facts(key).rare


@pytest.mark.parametrize("sentence, name", [
    ("was anybody next to sam when it happened ?", "sam"),
    ("i was sitting beside rory on the bus .", "rory"),
    ("nobody besides barry knows i take these pills .", "barry"),
    ("i stayed with oliver over the holidays .", "oliver"),
    ("i grew up with manu , we were neighbours .", "manu"),
    ("i pick up the refills for param too .", "param"),
])
def test_an_unread_given_name_is_removed_where_it_stands(sentence, name):
    assert _left(sentence, name) == 0


@pytest.mark.parametrize("sentence, name", [
    ("it was dr . j . brown .", "brown"),
    ("i saw mrs . k . wood today .", "wood"),
    ("It was Dr. J. Brown who called.", "brown"),
    ("it was dr j . smith .", "smith"),
    ("mr . b . white came to see me .", "white"),
])
def test_a_title_and_an_initial_before_a_surname(sentence, name):
    assert _left(sentence, name) == 0


@pytest.mark.parametrize("sentence, initial", [
    ("it was dr . j . brown .", "j"),
    ("i saw mrs . k . wood today .", "k"),
])
def test_the_initial_after_a_title_goes_with_the_surname(sentence, initial):
    assert _left(sentence, initial) == 0


@pytest.mark.parametrize("sentence, name", [
    ("a friend named dean told me about this clinic .", "dean"),
    ("a friend called mark told me about this clinic .", "mark"),
    ("my neighbour named rose helps me with the shopping .", "rose"),
    ("the nurse called hope was lovely .", "hope"),
    ("a guy named brown came round .", "brown"),
])
def test_a_name_after_named_or_called_after_a_person(sentence, name):
    assert _left(sentence, name) == 0


@pytest.mark.parametrize("sentence, word", [
    # the same words as words
    ("my black belt is first dan , believe it or not .", "belt"),
    ("i can't find my pen , the mark is still on the table .", "mark"),
    ("the rose in the garden is dying .", "rose"),
    # after "named" or "called", no person before it, or no name after it
    ("they prescribed a drug called humira .", "humira"),
    ("a town called hope , in the hills .", "hope"),
    ("my son called back an hour later .", "back"),
    ("the nurse called ahead to the ward .", "ahead"),
    ("my doctor called in a prescription .", "in"),
    # a letter and a dot after a title that is no initial: "vitamin d", "plan b"
    ("take vitamin d . smith said it helps .", "vitamin"),
    ("we went with plan b . brown said it was fine .", "plan"),
])
def test_words_around_the_new_places_stay(sentence, word):
    assert _left(sentence, word) == sentence.count(word)


def test_an_unread_given_name_in_capitals_is_an_acronym():
    assert word_facts("jak").headword
    assert deidentify_text("Clonal marrow plasma cells are not seen. JAK-2 is positive.")[0].count("JAK-2") == 1


@pytest.mark.parametrize("text", ["Stevens Johnson syndrome", "The rash was Stevens Johnson syndrome."])
def test_two_capitalised_eponyms_before_the_disease_word(text):
    assert deidentify_text(text)[0] == text
