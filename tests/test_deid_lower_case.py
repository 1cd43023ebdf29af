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


# ---- issue 50, lower-case recall: Webster's proper nouns, name-like neighbours, where a person stands
# (perturb/name_frequency.py, perturb/name_slots.py; hand-written names and sentences, not the benchmark's)


def test_webster_lists_proper_nouns_capitalised_only():
    from clinaudit.perturb.name_frequency import dictionary_proper_name, name_like, webster_proper

    assert webster_proper("duncan") and not webster_proper("harry") and not webster_proper("pencil")
    assert dictionary_proper_name("duncan")  # GCIDE's headword only, Webster's "Duncan"
    assert not dictionary_proper_name("irish") and not dictionary_proper_name("miles")  # a nationality, a plural
    assert name_like("wunderlich") and name_like("grauer")  # whitelist words, rare in English and never inflected
    assert not name_like("park") and not name_like("kiss") and not name_like("pencil")  # used inflected, frequent


@pytest.mark.parametrize("text, expected", [
    ("[patient] yeah , duncan picks me up after work .", "[patient] yeah , [NAME] picks me up after work ."),
    ("patient: my cousin said malcolm would know .", "patient: my cousin said [NAME] would know ."),
])
def test_a_dictionary_proper_noun_is_a_name_in_lower_case(text, expected):
    assert deidentify_text(text)[0] == expected


@pytest.mark.parametrize("text", [
    "[patient] i read the bible and we walked two miles .",  # after a determiner; a plural
    "[doctor] a hunter came in today .",
])
def test_a_proper_noun_rule_keeps_words(text):
    assert deidentify_text(text)[0] == text


@pytest.mark.parametrize("text, expected", [
    # a whitelist word rare in English and never inflected next to a given name found
    ("[doctor] we got a letter from oksana wunderlich yesterday .", "[doctor] we got a letter from [NAME] yesterday ."),
    # a word with a diacritic, a word in no list that looks like a word, a surname particle
    ("[patient] my sister ingrid ström came along .", "[patient] my sister [NAME] came along ."),
    ("[patient] i stay with refilwe mokoena most days .", "[patient] i stay with [NAME] most days ."),
    ("[patient] we asked maarten van der grauer about it .", "[patient] we asked [NAME] about it ."),
])
def test_a_name_like_word_next_to_a_name_found_is_part_of_it(text, expected):
    assert deidentify_text(text)[0] == expected


def test_a_word_next_to_a_name_found_stays_when_it_is_a_word():
    # "shopping", "kiss" (used inflected, frequent) next to a name found stay
    assert deidentify_text("[patient] i took oksana shopping .")[0] == "[patient] i took [NAME] shopping ."
    assert deidentify_text("[patient] i asked oksana kiss me .")[0] == "[patient] i asked [NAME] kiss me ."


@pytest.mark.parametrize("text, expected", [
    ("[doctor] okay tom , let's look at that knee .", "[doctor] okay [NAME] , let's look at that knee ."),
    ("[doctor] mike , can you bend it for me ?", "[doctor] [NAME] , can you bend it for me ?"),
    ("[patient] lerato thinks it's the new soap .", "[patient] [NAME] thinks it's the new soap ."),
    ("[patient] i sent the forms to grauer yesterday .", "[patient] i sent the forms to [NAME] yesterday ."),
    ("[doctor] please ask wunderlich about the dose .", "[doctor] please ask [NAME] about the dose ."),
])
def test_a_name_where_a_person_stands_in_lower_case(text, expected):
    assert deidentify_text(text)[0] == expected


@pytest.mark.parametrize("text", [
    "[doctor] so far , so good . okay great , let's go .",  # everyday words addressed
    "[patient] it started to ache . i went to bed .",  # a verb, a bare noun after "to"
    "[patient] we closed it up with gauze and tape .",  # a mass noun after "with"
    "[patient] asprin helps a lot .",  # a drug written wrong is no subject
    "[doctor] you drove to vail and back ?",  # a place after a verb of going
])
def test_a_person_slot_keeps_words(text):
    assert deidentify_text(text)[0] == text


def test_a_rare_word_after_a_determiner_of_another_sentence_is_a_name():
    # the determiner rule reads only its own sentence: "a day. colombo ..." is no "a good cadence"
    assert deidentify_text("patient: twice a day. colombo at the desk said so .")[0] == \
        "patient: twice a day. [NAME] at the desk said so ."


@pytest.mark.parametrize("text, expected", [
    ("patient: the one who came with me ? that's amit .", "patient: the one who came with me ? that's [NAME] ."),
    ("[patient] i came in with my friend (amit). yeah .", "[patient] i came in with my friend ([NAME]). yeah ."),
])
def test_a_rare_word_after_that_s_or_a_relative_is_no_thing(text, expected):
    """Twenty-second session: "amit" is a rare dictionary word; "that's" is no determiner, and "my" determines
    "friend", not the name after it (:func:`.name_detect._determines`)."""
    assert deidentify_text(text, gender=False)[0] == expected


@pytest.mark.parametrize("text, expected", [
    # a gazetteer name outside the whitelist before a verb of saying, even when used inflected ("barbers")
    ("[patient] barber thinks it is a sprain .", "[patient] [NAME] thinks it is a sprain ."),
    # where the person works between the subject and its verb
    ("[patient] wunderlich from the lab called me .", "[patient] [NAME] from the lab called me ."),
    # an Arabic or Hebrew particle joined by a hyphen
    ("[doctor] i spoke with al-rashid about the scan .", "[doctor] i spoke with [NAME] about the scan ."),
    ("[doctor] i spoke with ben-ami about the scan .", "[doctor] i spoke with [NAME] about the scan ."),
])
def test_a_subject_and_a_joined_particle_in_lower_case(text, expected):
    assert deidentify_text(text)[0] == expected


@pytest.mark.parametrize("text", [
    "[patient] everyone at the office said hi .",  # a pronoun, not a name
    "[patient] ice at the gym helps .",  # an everyday word
    "[patient] it was a well-known fact .",  # a hyphenated word without a particle
])
def test_a_subject_rule_keeps_words(text):
    assert deidentify_text(text)[0] == text


def test_a_joined_particle_is_read_from_the_word():
    from clinaudit.perturb.name_frequency import particle_compound

    assert particle_compound("al-rashid") and particle_compound("abu-bakr")
    assert not particle_compound("al-") and not particle_compound("well-known") and not particle_compound("al-x")


@pytest.mark.parametrize("text, expected", [
    # issue 50, fifth session (perturb/name_prep.py): a word in no list that looks like a word run together or
    # misspelt is a person after "from", "with", "beside", "about", ... before the clause's end or its next part
    ("[patient] i got a text from korvina this morning .", "[patient] i got a text from [NAME] this morning ."),
    ("[patient] i was sitting beside miravan on the bus .", "[patient] i was sitting beside [NAME] on the bus ."),
    ("[patient] i'm worried about halvina , it has been days .",
     "[patient] i'm worried about [NAME] , it has been days ."),
    ("[doctor] was anybody next to korvina when it happened ?",
     "[doctor] was anybody next to [NAME] when it happened ?"),
])
def test_a_word_in_no_list_after_a_preposition_that_takes_a_person(text, expected):
    assert deidentify_text(text)[0] == expected


@pytest.mark.parametrize("text", [
    "[patient] we closed it up with gauze and tape .",  # words the lists know stay
    "[patient] i take it for pain and for sleep .",
    "[patient] i got it from walgreens and from cvs .",
    "[patient] i came with my friend today .",
    # not after a preposition (the eighth session: "korvina", one letter from the whitelist's "korving" that English
    # never writes, is a name wherever it stands; "miravan" still looks like a word)
    "[doctor] miravan wrap is what we use for sprains .",
])
def test_a_preposition_object_rule_keeps_words(text):
    assert deidentify_text(text)[0] == text


def test_a_preposition_object_rule_keeps_a_word_english_text_uses():
    # "covid" is in no word list but wordfreq knows it well (Zipf 3.86): the real dialogs had "with covid"
    assert deidentify_text("[patient] i was sick with covid last year .")[0] == \
        "[patient] i was sick with covid last year ."


@pytest.mark.parametrize("text, expected", [
    # issue 50, fifth session (perturb/name_elision.py): a surname with an elided particle in lower case
    ("[patient] i've been seeing d'arcangelo for my back .", "[patient] i've been seeing [NAME] for my back ."),
    ("[patient] n'dour says i should rest .", "[patient] [NAME] says i should rest ."),
    ("[doctor] o'hanlon will call you tomorrow .", "[doctor] [NAME] will call you tomorrow ."),
])
def test_a_surname_with_an_elided_particle_in_lower_case(text, expected):
    assert deidentify_text(text, gender=False)[0] == expected


@pytest.mark.parametrize("text", [
    "[patient] it started at ten o'clock last night .",  # the rest is a common word
    "[patient] d'you know what i mean ?",
])
def test_an_elided_particle_rule_keeps_words(text):
    assert deidentify_text(text, gender=False)[0] == text


@pytest.mark.parametrize("text, expected", [
    # a rare word in no list (one edit from a word, so not taken anywhere) as the object of "ask", "told", "to"
    ("[doctor] could you ask bledar to drop off the forms ?", "[doctor] could you ask [NAME] to drop off the forms ?"),
    ("[patient] i already told rudina about the rash .", "[patient] i already told [NAME] about the rash ."),
    ("[patient] i gave my old inhaler to verica last week .", "[patient] i gave my old inhaler to [NAME] last week ."),
])
def test_a_rare_unlisted_object_of_ask_tell_to_is_a_name_in_lower_case(text, expected):
    assert deidentify_text(text)[0] == expected


@pytest.mark.parametrize("text", [
    "[patient] we drove to fresno on friday .",  # a verb of going before "to"
    "[patient] they switched me to xarelto last month .",  # a drug
    "[patient] i had to go to walgreens again .",
    "[doctor] too much aldosterone , which we call hyperaldosterone .",  # "we call": naming a thing
    "[patient] they moved me to wixela . the wixela is easier .",  # the dialog's "the wixela": a thing
])
def test_a_lower_case_object_that_is_no_person_stays(text):
    assert deidentify_text(text)[0] == text
