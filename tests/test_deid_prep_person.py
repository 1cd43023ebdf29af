"""Persons in lower-case speech after an article before a relative clause only a person heads, after prepositions
and in lists (issue 50, sixth session: ``benchmarks/deid_dev_prep.py`` and ``deid_dev_prep2.py``). Hand-written
examples (not the by-origin benchmark's held-out forms or names)."""

from __future__ import annotations

import pytest

from clinaudit.perturb.deid import deidentify_text


@pytest.mark.parametrize("text, expected", [
    # a relative clause only a person heads: "who", "whose", a pronoun and a verb of knowing a person
    ("patient: the mckenna i told you about , mckenna drives me on tuesdays .",
     "patient: the [NAME] i told you about , [NAME] drives me on tuesdays ."),
    ("doctor: is that the tamsin who brought you in last month ?",
     "doctor: is that the [NAME] who brought you in last month ?"),
    ("patient: the dunstan that you met at the desk is my landlord .",
     "patient: the [NAME] that you met at the desk is my landlord ."),
    ("patient: a rutendo whose mom works here said it was fine .",
     "patient: a [NAME] whose mom works here said it was fine ."),
    ("patient: the okafor we were talking about , okafor is my neighbour .",
     "patient: the [NAME] we were talking about , [NAME] is my neighbour ."),
    ("patient: the saoirse i work with gave me some of that cream .",
     "patient: the [NAME] i work with gave me some of that cream ."),
    ("patient: the lupe that i mentioned last week , lupe has the same cough .",
     "patient: the [NAME] that i mentioned last week , [NAME] has the same cough ."),
])
def test_a_person_after_an_article_before_a_relative_clause_only_a_person_heads(text, expected):
    assert deidentify_text(text)[0] == expected


@pytest.mark.parametrize("text", [
    "doctor: and that is the wixela that you're not taking .",  # a thing one takes, recommends, uses
    "patient: i looked at the eucrisa that you recommended in my notes .",
    "doctor: okay alright well i have a peloton who is your favorite instructor",  # "who is": a question
    "patient: the cream i told you about did not help .",  # a common word
    "patient: the nurse who came in this morning was nice .",
    "patient: i ordered the alfredo you mentioned and the stomach ache started .",  # mentioned: no other mention
    "patient: the wixela i told you about is cheaper . i switched to wixela in may .",  # no subject elsewhere
])
def test_a_thing_after_an_article_stays(text):
    assert deidentify_text(text)[0] == text


@pytest.mark.parametrize("text, expected", [
    # a word in no list that looks like a word ("mircea", "costel", "cosmin": one edit from a word) where a person
    # stands in lower-case speech
    ("patient: my brother is older than mircea now .", "patient: my brother is older than [NAME] now ."),
    ("patient: it sounds just like costel when it rings .", "patient: it sounds just like [NAME] when it rings ."),
    ("patient: i was glaring at cosmin and then i got dizzy .",
     "patient: i was glaring at [NAME] and then i got dizzy ."),
    ("doctor: was that the mircea who drove you here ?", "doctor: was that the [NAME] who drove you here ?"),
    ("patient: a costel from the pharmacy called me .", "patient: a [NAME] from the pharmacy called me ."),
    ("patient: my partner and cosmin take turns with the pills .",
     "patient: my partner and [NAME] take turns with the pills ."),
    ("patient: i sat between mircea and my daughter .", "patient: i sat between [NAME] and my daughter ."),
    ("patient: the therapist , costel , gave me these exercises .",
     "patient: the therapist , [NAME] , gave me these exercises ."),
    ("patient: a person named cosmin at work had the same rash .",
     "patient: a person named [NAME] at work had the same rash ."),
    ("patient: someone called mircea left a message .", "patient: someone called [NAME] left a message ."),
])
def test_a_word_in_no_list_where_a_person_stands_in_lower_case(text, expected):
    assert deidentify_text(text)[0] == expected


@pytest.mark.parametrize("text", [
    # the dialog writes the word after a determiner elsewhere: a thing
    "doctor: and that is the wixela that you're not taking . we treat people with inhalers like wixela or alvesco .",
    "doctor: you can put the wixela off to the side . we can get you something lower than wixela .",
    "patient: we stayed at kennesaw .",  # "at" after no verb aimed at someone: a place
    "patient: it feels like pins and needles when i wake up .",  # words the lists know
    "patient: my son and i both had the flu .",
    "patient: a drug called xyzal helped a bit .",  # a thing named so
])
def test_a_person_position_keeps_things(text):
    assert deidentify_text(text)[0] == text


@pytest.mark.parametrize("text, names", [
    # a name the word lists call a word, taken once in a naming context: its other lower-case mentions too
    ("patient: my grandson tanner drove me here . tanner waited in the car .", 2),
    ("doctor: hi mason , how are you doing ?\npatient: okay . and this is about the rash that mason saw .", 2),
    ("doctor: hello mr. fletcher .\ndoctor: so i see fletcher was here in may for the knee .", 2),
    # a given name beside a surname, both words of the lists, in lower case
    ("patient: the letter was signed by tanner fletcher .", 1),
    ("patient: i was with penny cooper on friday when it started .", 1),
    ("patient: it started at dale archer's barbecue .", 1),
])
def test_a_name_that_is_a_word_by_its_other_mentions_or_its_surname(text, names):
    out = deidentify_text(text)[0]
    assert out.count("[NAME]") == names, out
    assert not any(w in out.split() for w in ("tanner", "mason", "fletcher", "penny", "cooper", "dale", "archer"))


@pytest.mark.parametrize("text, kept", [
    ("patient: my son mason is a mason and builds walls .", "is a mason and"),  # after an article: the word
    ("doctor: hi will , how are you ?\npatient: i will be fine .", "i will be"),  # a word English uses often
    ("Doctor: Hi Chase.\nPatient: I chase my dog around all day.", "I chase my"),  # lower case in cased text
    ("patient: i use the diary sheets and a halo vest .", "the diary sheets and a halo vest"),
    ("doctor: we will put you in a bremer halo vest for now .", "a bremer halo vest"),
    ("patient: i had cinnamon rolls for breakfast .", "cinnamon rolls"),
    ("patient: the porter wheeled me to the ward .", "the porter wheeled"),
])
def test_a_word_that_is_a_name_elsewhere_stays_where_it_is_a_word(text, kept):
    assert kept in deidentify_text(text)[0]


def test_a_word_in_no_list_taken_once_is_taken_where_the_dialog_writes_it_again():
    out = deidentify_text("patient: the mircea i work with gave me this cream , mircea swears by it .")[0]
    assert out == "patient: the [NAME] i work with gave me this cream , [NAME] swears by it ."


@pytest.mark.parametrize("text, expected", [
    ("patient: the mircea family across the street had it too .",
     "patient: the [NAME] family across the street had it too ."),
    ("patient: i babysit the costel kids on weekends .", "patient: i babysit the [NAME] kids on weekends ."),
    ("patient: we are a big family and the same family doctor sees us all .",
     "patient: we are a big family and the same family doctor sees us all ."),
])
def test_a_family_name_in_no_list_before_a_family_word(text, expected):
    assert deidentify_text(text)[0] == expected


@pytest.mark.parametrize("text, gone", [
    # surnames in no list that look like a word ("wetering", "akker", "broeke"), after their particles
    ("patient: i'm worried about van de wetering , nobody has seen them in days .", "wetering"),
    ("patient: did you get the letter from van den akker or from the clinic ?", "akker"),
    ("patient: i was sitting next to ter broeke when it started .", "broeke"),  # not "ten": "ten klometers"
])
def test_a_surname_after_its_particles_after_a_preposition(text, gone):
    assert gone not in deidentify_text(text)[0].split()


@pytest.mark.parametrize("text, expected", [
    # after an article and a clause of mention, the sentence goes on about a person (issue 50, seventh session)
    ("doctor: and the pemberton you mentioned , is that your landlord ?",
     "doctor: and the [NAME] you mentioned , is that your landlord ?"),
    ("doctor: the mandawe that you talked about last time , was that your neighbor ?",
     "doctor: the [NAME] that you talked about last time , was that your neighbor ?"),
    ("patient: the kisanga i told you about , he works nights at the plant .",
     "patient: the [NAME] i told you about , [PRONOUN] works nights at the plant ."),
])
def test_a_person_after_an_article_and_a_clause_of_mention_the_sentence_goes_on_about(text, expected):
    out = deidentify_text(text)[0]
    assert out.replace("the patient works", "[PRONOUN] works").replace("he works", "[PRONOUN] works") == expected


@pytest.mark.parametrize("text", [
    "doctor: and the wixela you mentioned , is that your inhaler ?",  # a thing, asked about as a thing
    "patient: the wixela you mentioned , it is cheaper at costco .",
    "doctor: the zyrtec you mentioned , is that still working ?",
])
def test_a_thing_after_an_article_and_a_clause_of_mention(text):
    assert deidentify_text(text)[0] == text


@pytest.mark.parametrize(("text", "want"), [
    ("[patient] my friend oystein swears by it .", "[patient] my friend [NAME] swears by it ."),
    ("[patient] my friend oystein texts me every day .", "[patient] my friend [NAME] texts me every day ."),
    # a surname that is a plural of a word, before no object: part of the name
    ("[patient] my friend jo rivers said it was fine .", "[patient] my friend [NAME] said it was fine ."),
])
def test_a_verb_after_a_lower_case_name_is_no_surname(text, want):
    """Twenty-second session: "swears" is a surname of the gazetteer; before an object pronoun or "by" the "-s" form
    of a common word is the name's verb (:func:`.name_capital_neighbours._verb_before_object`)."""
    assert deidentify_text(text, gender=False)[0] == want
