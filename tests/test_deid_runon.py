"""A person who opens a clause run on in lower-case speech (issue 50, seventh session: ``benchmarks/deid_dev5.py``
and a sweep of the benchmark's lower-case dialogs). Speech written without punctuation runs one clause into the next,
so a word that opens the next clause may stand right after an article, a drug or "in" that ends the one before; a
verb only a person does right after it says it is the clause's subject, a person (``not_a_name.person_verb_after``).
Hand-written examples (not the by-origin benchmark's held-out forms or names)."""

from __future__ import annotations

import pytest

from clinaudit.perturb.deid import deidentify_text


@pytest.mark.parametrize("text, expected", [
    # after an article or a demonstrative that ends the clause before
    ("[patient] did you ever get one of those tendai drove me here today .",
     "[patient] did you ever get one of those [NAME] drove me here today ."),
    ("[patient] i can show you the ones we bought the other day at the store , okay let me find these mbali thinks "
     "they help .",
     "[patient] i can show you the ones we bought the other day at the store , okay let me find these [NAME] thinks "
     "they help ."),
    # after a drug that ends the clause before
    ("[doctor] and are you still on the lisinopril wanjiru says you stopped it .",
     "[doctor] and are you still on the lisinopril [NAME] says you stopped it ."),
    ("[patient] i'm taking the farxiga and the atorvastatin kgosi told me to ask you about the cramps",
     "[patient] i'm taking the farxiga and the atorvastatin [NAME] told me to ask you about the cramps"),
    # after "in" or "at" that ends the clause before, only before a verb no office does
    ("[patient] it was right when i came in thandiwe drove me over from work .",
     "[patient] it was right when i came in [NAME] drove me over from work ."),
    ("[patient] i sleep better when i stay in nkechi knows how bad it gets .",
     "[patient] i sleep better when i stay in [NAME] knows how bad it gets ."),
])
def test_a_person_who_opens_a_clause_run_on_after_an_article_a_drug_or_in(text, expected):
    assert deidentify_text(text)[0] == expected


@pytest.mark.parametrize("text", [
    "[patient] my doctor at kaiser said it was fine to stop .",  # an office says: a place after "at"
    "[patient] the urgent care in tacoma said it was a sprain .",
    "[patient] my cardiologist in wilmington told me to come here .",
    "[patient] i take the lisinopril daily and the metformin twice",
    "[patient] i was staying in tacoma for a week .",
    "[doctor] the cream works better than the vanicream does .",
])
def test_no_person_where_an_office_or_a_thing_stands(text):
    assert deidentify_text(text)[0] == text


@pytest.mark.parametrize("text, expected", [
    # the subject of a clause opened inside a sentence by "that", "before", "and", ..., before a verb only a person
    # does: words in no list that look like words run together ("man"+"dawe"), which the detector alone leaves
    ("[patient] my sister said that mandawe told her it was contagious .",
     "[patient] my sister said that [NAME] told her it was contagious ."),
    ("[patient] i had the same surgery before kisanga was born , so it's been a while .",
     "[patient] i had the same surgery before [NAME] was born , so it's been a while ."),
    ("[patient] so i sat down and silvermann said i looked pale .",
     "[patient] so i sat down and [NAME] said i looked pale ."),
])
def test_the_subject_of_a_clause_opened_inside_a_sentence(text, expected):
    assert deidentify_text(text)[0].replace("told them", "told her") == expected


@pytest.mark.parametrize("text", [
    "[patient] i went to the pharmacy and the pharmacist said it was fine .",  # a noun the lists know
    "[patient] i think that mom told me about it .",
    "[patient] i called them because insurance said no .",
    "[patient] and then everybody said i looked pale .",
    "[doctor] before surgery was scheduled we talked about it .",  # no verb only a person does
])
def test_no_subject_taken_where_a_word_the_lists_know_opens_the_clause(text):
    assert deidentify_text(text)[0] == text


@pytest.mark.parametrize("text, expected", [
    # "and i" and what two persons do together after the word: the word and the speaker are the clause's subject
    ("[patient] did you end up getting one of those thandeka and i both caught it at work .",
     "[patient] did you end up getting one of those [NAME] and i both caught it at work ."),
    ("[doctor] and are you taking your metformin tendai and i went over your numbers",
     "[doctor] and are you taking your metformin [NAME] and i went over your numbers"),
])
def test_a_person_and_i_run_on_after_an_article_or_a_drug(text, expected):
    assert deidentify_text(text)[0] == expected


@pytest.mark.parametrize("text", [
    "[patient] the wixela and i do not get along .",  # no verb of two persons together
    "[patient] i was in tacoma and i went to the er .",  # after "in": a place
    "[patient] the dog and i went for a walk .",
])
def test_no_person_and_i_where_a_thing_or_a_place_stands(text):
    assert deidentify_text(text)[0] == text
