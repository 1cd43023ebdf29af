"""Names in lower-case dialogs that the dictionary also lists as words (issue 50): a gazetteer name that only the
dictionary's headwords call a word, rare in English text (wordfreq) and seldom inflected, is a name without a naming
context; everyday words stay. Hand-written examples (not the by-origin benchmark's held-out forms or names)."""

from __future__ import annotations

import pytest

from clinaudit.perturb.deid import deidentify_text
from clinaudit.perturb.name_detect import _word
from clinaudit.perturb.vocab import INFLECTED_MARGIN, RARE_ZIPF, english_zipf, inflections_zipf


def test_wordfreq_zipf_read_from_its_data_file():
    # the values wordfreq 3.1.1's zipf_frequency(word, "en") gives (checked by hand against the package)
    assert english_zipf("the") == 7.73
    assert english_zipf("will") == 6.45
    assert english_zipf("jog") == 3.3
    assert english_zipf("qqqzzzx") == 0.0
    assert inflections_zipf("jog") == english_zipf("jogging") == 3.38
    assert inflections_zipf("knob") == english_zipf("knobs")


@pytest.mark.parametrize("text, expected", [
    ("patient: colombo drove me here today .", "patient: [NAME] drove me here today ."),
    ("doctor: is cartwright still your neighbour ?", "doctor: is [NAME] still your neighbour ?"),
    ("patient: egal and musa will pick me up .", "patient: [NAME] and [NAME] will pick me up ."),
])
def test_rare_dictionary_words_that_are_names_are_removed_in_lower_case(text, expected):
    assert deidentify_text(text)[0] == expected


@pytest.mark.parametrize("text", [
    "patient: i jog every morning and the knob on the door is loose .",  # used inflected: jogging, knobs
    "patient: i saw wavy lines and my pinky was numb .",  # "-y" adjectives of common words
    "patient: we found a good cadence on our patio .",  # after a determiner
    "patient: i need a pencil and some pasta .",  # common enough (Zipf >= 3.5)
    "patient: i had tarry stools and used a balm .",  # clinical words
    "patient: most of the time it is tequila or beer .",  # a social history
])
def test_everyday_words_stay(text):
    assert deidentify_text(text)[0] == text


def test_the_rule_reads_frequency_and_inflection():
    # a dictionary headword rare as a word and seldom inflected; a capital inside a sentence after a determiner
    # still names ("the Colombo family")
    assert english_zipf("colombo") < RARE_ZIPF and inflections_zipf("colombo") < english_zipf("colombo") - INFLECTED_MARGIN
    assert _word("colombo").rare and not _word("colombo").common
    assert not _word("jog").rare and _word("jog").common
    assert deidentify_text("Patient: We visited the Colombo family.")[0] == "Patient: We visited the [NAME] family."


@pytest.mark.parametrize("text, expected", [
    # a gazetteer name that the dictionary also lists ("harry", "jung") next to a name found is part of it
    ("patient: harry cartwright told me to stop .", "patient: [NAME] told me to stop ."),
    ("doctor: is egal jung your doctor ?", "doctor: is [NAME] your doctor ?"),
])
def test_a_dictionary_name_next_to_a_name_found_is_part_of_it_in_lower_case(text, expected):
    assert deidentify_text(text)[0] == expected


def test_an_everyday_word_next_to_a_name_found_stays():
    # "will" and "park" are words of philter-ucsf's whitelist: not taken as a neighbour
    assert deidentify_text("patient: colombo will park the car .")[0] == "patient: [NAME] will park the car ."
