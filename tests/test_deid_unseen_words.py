"""A gazetteer name English text never writes, nor its inflections, and a plural of a headword rare as a word (issue
50, twenty-sixth session: :func:`clinaudit.perturb.vocab.rare_as_a_word`,
:func:`clinaudit.perturb.name_word.word_facts`). Before, "tupai" (a Samoan surname; GCIDE's headword for a tree
shrew's genus, Zipf 0 and no inflection seen) failed "seldom inflected" because 0 is not below 0 - 0.75, and "bains"
(a Punjabi surname) was the plural of GCIDE's "bain", itself a given name no modern lexicon reads: both stayed common
words and kept in "can you spell bains for me ...". Each sentence checked to leave the name on the code before."""

from __future__ import annotations

import pytest

from clinaudit.perturb.deid import deidentify_text
from clinaudit.perturb.name_word import word_facts
from clinaudit.perturb.vocab import rare_as_a_word


def test_a_word_never_written_is_rare():
    assert rare_as_a_word("tupai")
    assert word_facts("tupai").rare and not word_facts("tupai").common


def test_the_plural_of_a_rare_headword_is_no_common_word():
    assert word_facts("bain").rare
    assert not word_facts("bains").common


@pytest.mark.parametrize("key", ["moats", "hilts", "jeans", "gills", "sheaves"])
def test_plurals_of_words_stay_common(key):
    assert word_facts(key).common


def _patient(sentence: str) -> str:
    return deidentify_text(f"[doctor] okay , tell me more .\n[patient] {sentence}\n[doctor] i see .")[0].split("\n")[1]


@pytest.mark.parametrize("name", ["bains", "tupai"])
@pytest.mark.parametrize("form", [
    "can you spell {} for me so i get it right in the chart ?",
    "i had lunch with zqxv and {} on friday , and both of them got sick .",
    "{} from cardiology wants to see you again next week .",
])
def test_the_names_are_removed(name, form):
    assert name not in _patient(form.format(name))


def test_the_plurals_stay():
    assert _patient("i washed my jeans and hung them by the moats .") == \
        "[patient] i washed my jeans and hung them by the moats ."
