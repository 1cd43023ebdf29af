"""Names of the origins the held-out half still loses, from the eleventh development set's losses
(benchmarks/deid_dev11.py, issue 50, ninth session), each rule with hand-written examples (not the set's names):
a word as the Polynesian languages write one, rare in English, capitalised in cased text where a person stands, is a
name even where the word lists hold it (:func:`clinaudit.perturb.name_letters.polynesian_word`); where only GCIDE's
headwords hold it and English seldom writes it, it is a name as a word in no list is, in lower case too."""

from __future__ import annotations

import pytest

from clinaudit.perturb.deid import deidentify_text
from clinaudit.perturb.name_letters import polynesian_word


def _deid(text: str) -> str:
    return deidentify_text(text)[0]


@pytest.mark.parametrize("word", ["totara", "manuka", "pakeha", "mahimahi", "malama", "tapa", "wahine"])
def test_polynesian_words(word):
    assert polynesian_word(word)


@pytest.mark.parametrize("word", [
    "banana", "tomato", "manila", "lima", "sake",  # English writes them often (Zipf 3 or more)
    "kimchi", "tempo", "salsa", "ankle", "fiji",  # a closed syllable, a letter Polynesian lacks, or frequent
    "ama", "poi",  # under four letters
])
def test_no_polynesian_words(word):
    assert not polynesian_word(word)


def test_three_letters_when_asked():  # a word capitalised inside a sentence (twenty-eighth session)
    assert polynesian_word("ese", 3) and polynesian_word("eti", 3)
    assert not polynesian_word("ese") and not polynesian_word("ama", 3)  # "ama": Zipf 3.5


@pytest.mark.parametrize("text, expected", [
    ("Patient: Did Eti tell you about the new dose?", "Patient: Did [NAME] tell you about the new dose?"),
    ("Patient: Auntie Ese makes me take my pills.", "Patient: Auntie [NAME] makes me take my pills."),
    ("Patient: I stayed with Ese in Boston.", "Patient: I stayed with [NAME] in Boston."),
])
def test_a_polynesian_word_of_three_letters_capitalised_inside_a_sentence_is_a_name(text, expected):
    assert _deid(text) == expected


@pytest.mark.parametrize("text, expected", [
    ("Patient: Father Totara from our church came by.", "Patient: Father [NAME] from our church came by."),
    ("Doctor: And who's Manuka? Your sister?", "Doctor: And who's [NAME]? Your sister?"),
    ("Patient: Me, Pakeha, and the kids all had the flu.", "Patient: Me, [NAME], and the kids all had the flu."),
    ("Patient: Yeah, Malama was the one who drove.", "Patient: Yeah, [NAME] was the one who drove."),
    # a sentence's first word right before a name found
    ("Patient: Totara Faleafa is my emergency contact.", "Patient: [NAME] is my emergency contact."),
])
def test_a_polynesian_word_capitalised_where_a_person_stands_is_a_name(text, expected):
    assert _deid(text) == expected


@pytest.mark.parametrize("text", [
    "Patient: We flew to Upolu last year.",  # a place after a preposition of place
    "Patient: I grew up in Apia and moved here.",
    "Patient: The Kimono was too tight.",  # a thing after a determiner
    "Patient: The Ahi was fresh.",
    "Patient: Manuka is a tree, the honey is good.",  # a sentence's first word alone: capitalised anyway
    "Patient: we had manuka and pakeha friends at home.",  # lower case: philter-ucsf's whitelist words
    "Doctor: Bananas and Tomato soup are fine.",  # English writes these often
])
def test_such_words_stay_words(text):
    assert _deid(text) == text


@pytest.mark.parametrize("text, expected", [
    ("[patient] my daughter palolo brought me in today .", "[patient] my daughter [NAME] brought me in today ."),
    ("[patient] makomako drove me here this morning .", "[patient] [NAME] drove me here this morning ."),
    ("[doctor] okay kokama , take a deep breath .", "[doctor] okay [NAME] , take a deep breath ."),
])
def test_a_rare_headword_written_as_polynesian_is_a_name_in_lower_case(text, expected):
    # only GCIDE's headwords, English text writes them less than Zipf 2.5: as a word in no list
    assert _deid(text) == expected


@pytest.mark.parametrize("text", [
    "[patient] i drink tisane at night and a legatee called about the will .",  # a silent "e" of English
    "[patient] i put manuka honey on it and paid in peseta .",  # philter-ucsf's whitelist holds them
    "[patient] we had a banana and some salami .",  # English writes them often
])
def test_other_rare_headwords_stay_words_in_lower_case(text):
    assert _deid(text) == text
