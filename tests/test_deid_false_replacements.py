"""Words that are not names stay (issue 50, Build 1: false replacements): inflected everyday words that are also
surnames, a clinical eponym's parts, words cut off in speech, places and organisations. Hand-written examples."""

from __future__ import annotations

import pytest

from clinaudit.perturb.deid import deidentify_text


def _deid(text: str) -> str:
    return deidentify_text(text, gender=False, ages=False, life_stage=False, origin=False)[0]


@pytest.mark.parametrize("text", [
    "[doctor] we put two pins in the ankle .",  # "pins": plural of "pin", also a surname
    "[patient] i was charging my phone and the fries were cold .",
    "[doctor] the incision looks wider and the skin is darker than last week .",
    "[patient] it hurts less when it is warmer and i feel safer .",
])
def test_inflected_everyday_words_are_not_names(text):
    assert _deid(text) == text


@pytest.mark.parametrize("text", [
    "Patient: I have a history of, um, Charcot Marie tooth disease.",
    "[patient] my cousin has charcot-marie-tooth .",
    "Doctor: Guillain Barre can follow an infection.",
    "[doctor] positive hawkins-kennedy and neer's test on the left .",
    "[doctor] gait testing using the tinetti assessment tool .",
    "[doctor] breslow thickness 0.7 millimeters .",
    "Doctor: It was a Schatzker four tibial plateau fracture.",
])
def test_clinical_eponyms_are_not_names(text):
    assert _deid(text) == text


@pytest.mark.parametrize("text", [
    "[patient] it was minor but noth- nothing major .",
    "[doctor] a bmi over 27 would quali- uh , qualify you .",
    "[doctor] no radi- radicular pain .",
])
def test_words_cut_off_in_speech_are_not_names(text):
    assert _deid(text) == text


@pytest.mark.parametrize("text", [
    "Patient: We live on Temple Street now.",
    "Patient: I went to Gig Harbor Urgent Care first.",
    "Patient: I used to work at Champion Automotive downtown.",
    "Patient: I was raised in North Carolina.",
])
def test_places_and_organisations_are_not_people(text):
    assert _deid(text) == text


@pytest.mark.parametrize("text, expected", [
    # the same words are still names where they name a person
    ("Doctor: Marie will see you now.", "Doctor: [NAME] will see you now."),
    ("Patient: Dr. Pins did my surgery.", "Patient: Dr. [NAME] did my surgery."),
    ("[patient] my neighbor sikhumbuzo drove me .", "[patient] my neighbor [NAME] drove me ."),
    ("Patient: I talked to Collins about it.", "Patient: I talked to [NAME] about it."),
    ("[patient] my husband lars drove me .", "[patient] my husband [NAME] drove me ."),
    # a given name is never taken for an inflection ("aisling", "rashed", "shaked" would be)
    ("[patient] aisling came with me .", "[patient] [NAME] came with me ."),
    # nor a surname whose stem is a short word or a -y word ("visser", "mercier": French and Dutch names)
    ("[patient] i see visser and mercier on fridays .", "[patient] i see [NAME] and [NAME] on fridays ."),
])
def test_names_next_to_these_rules_are_still_found(text, expected):
    assert _deid(text) == expected


def test_a_things_name_is_no_self_introduction():
    text = "[doctor] another name is farmer's lung , and you are a farmer ."
    assert _deid(text) == text


@pytest.mark.parametrize("text, expected", [
    # a name after a title or "my name is" is a name in its other mentions of the dialog, also where it is a word of
    # the dictionary (issue 50, Build 2: the dialog's other mentions of the same person)
    ("[doctor] dr. baker will call . [patient] okay , baker is nice .",
     "[doctor] dr. [NAME] will call . [patient] okay , [NAME] is nice ."),
    ("[patient] my name is harry . [doctor] harry , sit here .", "[patient] my name is [NAME] . [doctor] [NAME] , sit here ."),
    # not an everyday word ("green" of "dr. green" stays in "green tea")
    ("[doctor] dr. green will call . [patient] i drink green tea .",
     "[doctor] dr. [NAME] will call . [patient] i drink green tea ."),
])
def test_a_name_after_a_title_is_a_name_in_its_other_mentions(text, expected):
    assert _deid(text) == expected


@pytest.mark.parametrize("text, expected", [
    # a capitalised word right next to a name found is part of it (cased text), also a dictionary word
    ("Doctor: I'll ask Katrin Gross to call you back.", "Doctor: I'll ask [NAME] to call you back."),
    ("Patient: Is Sander Visser here?", "Patient: Is [NAME] here?"),
    # not a function word, a drug or a clinical word that is no name
    ("Patient: Hello Dr. Okafor Thank you for coming.", "Patient: Hello Dr. [NAME] Thank you for coming."),
    ("Patient: I gave Zanele Tylenol yesterday.", "Patient: I gave [NAME] Tylenol yesterday."),
])
def test_a_capitalised_word_next_to_a_name_is_part_of_it(text, expected):
    assert _deid(text) == expected


@pytest.mark.parametrize("text, expected", [
    # issue 50: "My neighbour Åsa Nyström came." was "My [NAME]." ("neighbour", a gazetteer surname, joined the name
    # as a lower-case neighbour, and "came", a gazetteer surname ending its clause, as its next word)
    ("Patient: My neighbour Ingeborg Lindgren came.", "Patient: My neighbour [NAME] came."),
    ("Patient: My neighbor John Smith came.", "Patient: My neighbor [NAME] came."),
    ("Patient: My coworker Priya Raman came by.", "Patient: My coworker [NAME] came by."),
])
def test_lower_case_words_do_not_join_a_capitalised_name(text, expected):
    assert deidentify_text(text, gender=False, ages=False, life_stage=False, origin=False)[0] == expected


# ---- issue 50, false replacements on the real dialogs (perturb/not_a_name.py): hand-written examples


@pytest.mark.parametrize("text", [
    # a word in no list that ends like a clinical word: misspelt or run together, not a name
    "[doctor] she takes hydroklorotiazide and the patient is not emmancipated .",
    "[patient] she had a lipomyelomeningocele repair as a baby .",
    # a surname that is an inflected form of a word English uses often
    "[patient] it keeps messing with my sleep and it gets hotter at night .",
    "[patient] the rash looks redder and we ate burgers .",
    # a lower-case word after an article is a thing, and so are its other lower-case mentions in the dialog
    "[patient] i bought a trekora and the kids love the vantrix .",
    "[doctor] let's stop the zorvala .\n[patient] okay .\n[doctor] zorvala can cause a cough .",
    "[patient] we go to the venti place , and i always get venti drinks .",
    # a word right after "in" or "at", and the capitalised words of a place's name so introduced
    "[doctor] you can see me in kennaway after the scan , or at harwell .",
    "Patient: I work at Dunmore Tavern and live in Ostrava Springs.",
    "[patient] i was at dewey beach .",
])
def test_words_and_places_the_real_dialogs_had_are_not_names(text):
    assert _deid(text) == text


@pytest.mark.parametrize("text, expected", [
    # names no list holds, outside those contexts
    ("[patient] i talked to sipho and nomvula yesterday .", "[patient] i talked to [NAME] and [NAME] yesterday ."),
    # "at" or "in" before a possessive, or after a word that takes a person
    ("[patient] i was at sipho's house .", "[patient] i was at [NAME]'s house ."),
    ("Patient: I was angry at Sipho.", "Patient: I was angry at [NAME]."),
    ("[patient] i confided in thandeka .", "[patient] i confided in [NAME] ."),
    # a capitalised word after "in the" or "at the" and a lower-case word is no place's name
    ("Patient: I was at the pharmacy Sipho said so.", "Patient: I was at the pharmacy [NAME] said so."),
    # "that" and "this" are no articles here, and a line's end is no article's place
    ("[patient] i think that thandeka called .", "[patient] i think that [NAME] called ."),
    ("[doctor] how are you doing with the\n[patient] nkosana said it was fine .",
     "[doctor] how are you doing with the\n[patient] [NAME] said it was fine ."),
    # a capital after an article still names
    ("Patient: The Dlamini family lives next door.", "Patient: The [NAME] family lives next door."),
    ("[patient] the dlamini family lives next door .", "[patient] the [NAME] family lives next door ."),
    # the inflection rule leaves given names and forms English text does not use ("rashed"), a doubled consonant
    # after a stem English does not use often ("visser"), "-es" after a vowel ("nunes"), "-er" of a noun ("pinter")
    ("[patient] rashed came with me .", "[patient] [NAME] came with me ."),
    ("[patient] i see visser , nunes and pinter on fridays .", "[patient] i see [NAME] , [NAME] and [NAME] on fridays ."),
])
def test_names_next_to_the_real_dialogs_rules_are_still_found(text, expected):
    assert _deid(text) == expected


# ---- issue 50, fifth session: a person right after "at"/"in" or an article (benchmarks/deid_dev_prep.py)


@pytest.mark.parametrize("text, expected", [
    # a verb that aims a look, a gesture or a sound at someone, in any inflection, takes a person after "at"
    ("Patient: I waved at Sipho and then I went down.", "Patient: I waved at [NAME] and then I went down."),
    ("[patient] she was glaring at thandeka the whole time .", "[patient] she was glaring at [NAME] the whole time ."),
    ("[patient] he nodded at nomvula and left .", "[patient] he nodded at [NAME] and left ."),
    ("Patient: I was mad at Sipho all week.", "Patient: I was mad at [NAME] all week."),
    ("[patient] i swore at thandeka .", "[patient] i swore at [NAME] ."),
    # after an article, a word that says, asks, calls or thinks (maybe after where it works) is a person
    ("[patient] a sipho from your office called me yesterday .",
     "[patient] a [NAME] from your office called me yesterday ."),
    ("[patient] the thandeka at the front desk said it was fine .",
     "[patient] the [NAME] at the front desk said it was fine ."),
])
def test_a_person_after_at_or_an_article(text, expected):
    assert _deid(text) == expected


@pytest.mark.parametrize("text", [
    # places after "at"/"in" after a verb that takes no person, things after an article that do no saying
    "[patient] i was sitting at harwell when it started .",
    "Patient: We waited at Kennaway for an hour and then drove in Ostrava.",
    "[patient] the vantrix from the pharmacy works fine .",
    "[patient] a trekora helps , and the zorvala is too strong .",
])
def test_places_and_things_stay_after_the_person_rules(text):
    assert _deid(text) == text
