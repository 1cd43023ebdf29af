"""Names in cased dialogs that the word lists also call common words (issue 50, cased recall): what the writing
says — a diacritic, a capital at a sentence's start before cased prose, a lower-case surname particle before a
capitalised word. Hand-written examples (no benchmark form, no benchmark name)."""

from __future__ import annotations

import pytest

from clinaudit.perturb.deid import deidentify_text, residual_identifiers
from clinaudit.perturb.name_tokens import tokens
from clinaudit.perturb.name_writing import has_diacritic, particle_names


def _deid(text: str) -> str:
    return deidentify_text(text, gender=False, ages=False, life_stage=False, origin=False)[0]


@pytest.mark.parametrize("text, expected", [
    # "cooper", "mason", "chandler": gazetteer names whose only common use is a dictionary headword (GCIDE)
    ("Patient: Cooper brought the forms over yesterday.", "Patient: [NAME] brought the forms over yesterday."),
    ("Doctor: Good. Mason from radiology will call you.", "Doctor: Good. [NAME] from radiology will call you."),
    ("Patient: Chandler says the rash is gone.", "Patient: [NAME] says the rash is gone."),
])
def test_a_capital_at_a_sentence_start_on_a_rare_headword_is_a_name(text, expected):
    assert _deid(text) == expected


@pytest.mark.parametrize("text, expected", [
    # twenty-first session: a full name at a sentence's start whose given name the lists call a common word and whose
    # surname is one too ("thorn" a condition's word): neither was found, the capital before a capital read nothing
    ("Patient: Gillian Thorn came round last night.", "Patient: [NAME] came round last night."),
    ("Patient: Gillian Thorn, my friend, came round.", "Patient: [NAME], my friend, came round."),
])
def test_a_full_name_at_a_sentence_start_is_a_name(text, expected):
    assert _deid(text) == expected


@pytest.mark.parametrize("text", [
    # "Baker Tires" (was "Cooper Tires": a given name no modern lexicon reads is rare as a word since the
    # twenty-fifth session, and taken at a sentence's start as "Eric Tires" was on main)
    "Patient: Baker Tires, my employer, is big.",  # no name after the capital
    "Patient: Christmas Day was hard.",
    "Patient: Happy Birthday to you.",
    "Patient: Merry Christmas to you too.",  # a feast's word after: no surname
    "Stevens Johnson syndrome",  # a multiple-choice option (CRAFT-MD): an eponym, no person
    "Rocky Mountain spotted fever",  # a clinical word after the pair
    "Patient: Grace Hospital is where I went.",  # a facility
])
def test_two_capitals_at_a_sentence_start_that_are_no_name_stay(text):
    assert _deid(text) == text


@pytest.mark.parametrize("text", [
    "Patient: Guess what, the swelling went down.",  # an imperative with its object
    "Doctor: Lucky you. No prior surgeries?",  # an exclamation
    "Patient: Will you refill it?",  # an everyday word of philter-ucsf's whitelist
    "Patient: Mark the days on the calendar.",
    "Patient: Aw man, that hurts.",  # a spoken form
    "Patient: Baker Tires is where I work.",  # no lower-case word follows: not cased prose going on
])
def test_common_words_at_a_sentence_start_stay(text):
    assert _deid(text) == text


@pytest.mark.parametrize("text, expected", [
    ("Patient: Léon fixed my cane.", "Patient: [NAME] fixed my cane."),  # "leon" is a dictionary headword
    ("[patient] noël is picking me up .", "[patient] [NAME] is picking me up ."),  # lower case too
    ("Doctor: Tell Noël the results are normal.", "Doctor: Tell [NAME] the results are normal."),
])
def test_a_diacritic_marks_a_name(text, expected):
    assert _deid(text) == expected


@pytest.mark.parametrize("text", [
    "Patient: I had a coffee at the café next door.",  # "cafe": an everyday word written with its accent
    "Patient: I sent my résumé to the clinic.",
])
def test_everyday_words_with_accents_stay(text):
    assert _deid(text) == text


def test_has_diacritic():
    assert has_diacritic("Jesús") and has_diacritic("Łukasz") and not has_diacritic("Jesus")
    assert not has_diacritic("O’Brien")  # a curly apostrophe is no letter


@pytest.mark.parametrize("text, expected", [
    ("Patient: I saw Lotte van Dijk last week.", "Patient: I saw [NAME] last week."),
    ("Patient: de Gruyter said the shot was due.", "Patient: [NAME] said the shot was due."),
    # "vries", "gross" are words of philter-ucsf's whitelist: the particle before the capital says otherwise
    ("Doctor: Is Maarten de Vries your neighbor?", "Doctor: Is [NAME] your neighbor?"),
])
def test_a_lower_case_particle_before_a_capital_makes_a_name(text, expected):
    assert _deid(text) == expected


@pytest.mark.parametrize("text", [
    "Patient: He was the de facto leader of the group.",  # no capital after the particle
    "Doctor: We looked at the von Willebrand panel.",  # "von" after a lower-case word, inside a sentence
])
def test_particles_without_a_name_stay(text):
    assert _deid(text) == text


def test_particle_names_need_a_capital_or_a_sentence_start_before():
    text = "Lotte van Dijk and the van Gogh print, Anna de Zorg"
    found = particle_names(text, tokens(text), lambda s, pos: pos == 0, lambda t: t.key != "zorg")
    assert [t.text for t in found] == ["van", "Dijk"]


@pytest.mark.parametrize("text", [
    "Patient: I take Asprin every morning.",  # aspirin, one letter dropped
    "Patient: My friend told me about Chantex for quitting.",  # chantix, one letter changed
])
def test_a_drug_written_wrong_is_no_name(text):
    assert _deid(text) == text


def test_a_drug_written_wrong_is_listed_as_a_drug_by_the_residual_check():
    _new, rep = deidentify_text("Patient: I take Asprin every morning.")
    assert [(r["text"], r["known"]) for r in rep.remaining if r["kind"] == "possible_name"] == [("Asprin", "drug")]


def test_misspelt_drug_needs_one_edit_from_a_drug_name():
    from clinaudit.perturb.name_writing import misspelt_drug

    assert misspelt_drug("asprin") and misspelt_drug("asipirin") and misspelt_drug("aspirni")
    assert not misspelt_drug("nomvula") and not misspelt_drug("aspr") and not misspelt_drug("asprinxx")
    # a name in no list, capitalised inside a sentence, is still replaced
    assert _deid("Patient: I talked to Nomvula yesterday.") == "Patient: I talked to [NAME] yesterday."


@pytest.mark.parametrize("text, expected", [
    # names in no list one edit from a drug name that English text never uses ("festim": "testim", "nadica":
    # "nadida", "azlina": "azlin", "zenel": "zentel"): no drug written wrong, a name
    ("Patient: Festim picked up my prescriptions on Tuesday.", "Patient: [NAME] picked up my prescriptions on Tuesday."),
    ("Doctor: Has Nadica been helping with the dressings?", "Doctor: Has [NAME] been helping with the dressings?"),
    ("Patient: My sister-in-law Azlina keeps the log.", "Patient: My sister-in-law [NAME] keeps the log."),
    ("Patient: I asked Zenel about it.", "Patient: I asked [NAME] about it."),
])
def test_a_name_one_edit_from_a_drug_english_never_writes_is_a_name(text, expected):
    assert _deid(text) == expected


def test_misspelt_drug_needs_a_drug_that_english_text_uses():
    from clinaudit.perturb.name_writing import misspelt_drug

    # "detroal" (detrol, Zipf 1.2), "clantix" (chantix 1.9) of the real dialogs stay drugs
    assert misspelt_drug("detroal") and misspelt_drug("clantix") and misspelt_drug("asprin")
    assert not misspelt_drug("festim") and not misspelt_drug("nadica") and not misspelt_drug("azlina")


@pytest.mark.parametrize("text, expected", [
    ("Doctor: Okay Cooper, breathe in for me.", "Doctor: Okay [NAME], breathe in for me."),
    ("Doctor: Alright Mason, you can sit up.", "Doctor: Alright [NAME], you can sit up."),
    ("Patient: Oh Cooper, stop it.", "Patient: Oh [NAME], stop it."),  # the interjection is no part of the name
])
def test_a_name_addressed_after_an_opener(text, expected):
    assert _deid(text) == expected


@pytest.mark.parametrize("text", [
    "Doctor: Okay Doctor, I see.",  # a function word
    "Patient: Well Mom, you did it.",  # no gazetteer name
    "Patient: Awesome, I agree.",  # at a sentence start without an opener the capital says too little
])
def test_words_after_an_opener_that_are_no_names_stay(text):
    assert _deid(text) == text


@pytest.mark.parametrize("text", [
    "[patient] we live in dallas .",
    "Patient: When I lived in Detroit we skated a lot.",
    "Patient: We took her to Vail, Colorado for a week.",
    "[doctor] the family lives in dallas , georgia , so follow-up is there .",
])
def test_towns_where_one_lives_or_before_their_state_are_not_people(text):
    assert _deid(text) == text


def test_a_person_after_to_is_still_a_name():
    assert _deid("Patient: I gave the forms to Dallas yesterday.") == "Patient: I gave the forms to [NAME] yesterday."


@pytest.mark.parametrize("text, expected", [
    # "ronin": a word of philter-ucsf's whitelist, but rare in English text (wordfreq's Zipf below 3.5)
    ("Patient: Ronin brought the forms over yesterday.", "Patient: [NAME] brought the forms over yesterday."),
    # addressed at a sentence's start, rare in English text: "bertram", "currie" are dictionary headwords
    ("Doctor: Bertram, I want you to rest the knee.", "Doctor: [NAME], I want you to rest the knee."),
    ("Doctor: Currie, can you lift your arm?", "Doctor: [NAME], can you lift your arm?"),
])
def test_rare_words_written_as_names(text, expected):
    assert _deid(text) == expected


@pytest.mark.parametrize("text", [
    "Patient: Kiss me goodbye, he said.",  # "kiss": a whitelist word, frequent in English text
    "Patient: Truly, I do not know.",  # frequent words before ", I"
    "Doctor: Awesome, I agree.",
])
def test_frequent_words_at_a_sentence_start_stay(text):
    assert _deid(text) == text


@pytest.mark.parametrize("text", [
    "Patient: I will look for a place back in Sacaton.",  # a town in no list: "back in", "a place in"
    "Doctor: Are you looking for a place in Sacaton?",
    "Patient: I had a Medrol Dosepak last month.",  # a word in no list after a drug: the product's name
])
def test_towns_and_product_names_in_no_list_stay(text):
    assert _deid(text) == text


def test_a_name_after_a_drug_word_that_is_also_a_name_is_still_a_name():
    # "hana" is in the drug list and a given name: the word after it is no product name
    assert "Nomvulova" not in _deid("Patient: I talked to Hana Nomvulova yesterday.")


@pytest.mark.parametrize("text, expected", [
    # in no list, though each "looks like" a word to the lower-case check (a misspelling, two words run together)
    ("Patient: Palesa brought my glasses.", "Patient: [NAME] brought my glasses."),
    ("Doctor: Lusanda says the swelling is down.", "Doctor: [NAME] says the swelling is down."),
])
def test_a_word_in_no_list_capitalised_at_a_sentence_start_before_prose_is_a_name(text, expected):
    assert _deid(text) == expected


@pytest.mark.parametrize("text", [
    "Patient: Asprin helps with the pain.",  # a drug written wrong
    "[patient] asprin helps with the pain .",  # lower case too: a drug written wrong is no subject
])
def test_a_drug_written_wrong_or_lower_case_stays(text):
    assert _deid(text) == text


@pytest.mark.parametrize("text, expected", [
    # "sander": a lower-case noun of ICD-10-CM (a power tool), a gazetteer name rare in English text
    ("Patient: Sander brought the forms over.", "Patient: [NAME] brought the forms over."),
])
def test_a_rare_icd_noun_capitalised_at_a_sentence_start_is_a_name(text, expected):
    assert _deid(text) == expected


@pytest.mark.parametrize("text", [
    "Patient: I cut it on the sander last week.",  # lower case, inside a sentence: the tool
    "Patient: Parkinson runs in my family.",  # an eponym, only capitalised in ICD-10-CM: still clinical
])
def test_icd_words_that_are_no_names_stay(text):
    assert _deid(text) == text


@pytest.mark.parametrize("text", [
    "Patient: They sent me to Tacoma General Hospital first.",  # a capital and a facility's word after it
    "Patient: I've worked at Purdy Correctional Institute for years.",
    "Patient: I went to Prompt Care in Bremerton last week.",  # a facility, a specialty or a workplace and "in"
    "Patient: I made an appointment with an orthopedist in Newton.",
])
def test_towns_and_facilities_by_where_they_stand(text):
    assert _deid(text) == text


def test_a_person_at_a_facility_is_still_a_name():
    assert _deid("Patient: I saw Cooper at the clinic.") == "Patient: I saw [NAME] at the clinic."


def test_the_residual_check_does_not_count_a_town_it_kept():
    _new, rep = deidentify_text("Patient: They sent me to Tacoma General Hospital first.")
    found = {r["text"]: r["known"] for r in rep.remaining if r["kind"] == "possible_name"}
    assert found["Tacoma"] == "context" and residual_identifiers(rep.remaining) == []


# ---------------------------------------------------------------- issue 50, the second development set (name_cased.py)


@pytest.mark.parametrize("text, expected", [
    # two or three lower-case particles, after a capitalised word or at a sentence's start
    ("Patient: My friend Joris van der Horst drove me.", "Patient: My friend [NAME] drove me."),
    ("Patient: van den Broek told me to rest.", "Patient: [NAME] told me to rest."),
    ("Doctor: I spoke to Ana de la Fuente today.", "Doctor: I spoke to [NAME] today."),
    # a capitalised particle, then the name (a gazetteer name or a word in no list)
    ("Patient: Me and Colm Ó Dálaigh went fishing.", "Patient: Me and [NAME] went fishing."),
    ("Patient: Ó Dálaigh says it's nothing.", "Patient: [NAME] says it's nothing."),
    ("Doctor: Mac Diarmada will see you next.", "Doctor: [NAME] will see you next."),
    ("Patient: De Santis lent me his cane.", "Patient: [NAME] lent me his cane."),
    # inside a sentence: two particles or more, or a capitalised one
    ("Patient: Ask for van den Heuvel at the front desk.", "Patient: Ask for [NAME] at the front desk."),
    ("Doctor: I'll send it to Ó Dálaigh today.", "Doctor: I'll send it to [NAME] today."),
])
def test_a_chain_of_surname_particles_is_a_name(text, expected):
    assert _deid(text) == expected


@pytest.mark.parametrize("text", [
    "Patient: O my, that stings.",  # a capital particle before no capital
    "Patient: My blood type is Type O Negative.",  # a common word after a capitalised particle
    "Doctor: Take it at the end of the day.",
    "Patient: I was in the ICU for a week.",
])
def test_particles_outside_a_name_stay(text):
    assert _deid(text) == text


@pytest.mark.parametrize("text, expected", [
    ("Patient: D'Alessandro says I should walk more.", "Patient: [NAME] says I should walk more."),
    ("Doctor: I'll ask N'Dour to call you.", "Doctor: I'll ask [NAME] to call you."),
])
def test_a_capital_after_an_apostrophe_is_a_name(text, expected):
    assert _deid(text) == expected


@pytest.mark.parametrize("text", [
    "Patient: Don't worry, it's fine.",
    "Doctor: Y'All can wait outside.",  # one letter, then a capital and lower case: "y'all" is a word
])
def test_contractions_stay(text):
    assert _deid(text) == text


@pytest.mark.parametrize("text, expected", [
    # a sentence's first word in no list, right before a name found: part of it
    ("Patient: Zdeňka Horáková's number is on the fridge.", "Patient: [NAME]'s number is on the fridge."),
    ("Patient: Ruairí Nyhan's wife called.", "Patient: [NAME]'s wife called."),
])
def test_an_unlisted_first_word_before_a_name_is_part_of_it(text, expected):
    assert _deid(text) == expected


@pytest.mark.parametrize("text, expected", [
    ("Patient: Yesterday Kowalczyk called me.", "Patient: Yesterday [NAME] called me."),  # a common word stays
    ("Patient: Honestly Nguyen was right.", "Patient: Honestly [NAME] was right."),
])
def test_a_first_word_that_is_a_word_stays(text, expected):
    assert _deid(text) == expected


@pytest.mark.parametrize("text, expected", [
    ("Patient: My son-in-law, Radek, drives me.", "Patient: My son-in-law, [NAME], drives me."),
    ("Patient: My daughter-in-law Vera keeps my pills.", "Patient: My daughter-in-law [NAME] keeps my pills."),
])
def test_in_laws_are_relatives(text, expected):
    assert _deid(text) == expected


@pytest.mark.parametrize("text, expected", [
    # capitalised inside cased prose, a word only as a rare dictionary headword
    ("Patient: Could you ask Gorm to pick me up?", "Patient: Could you ask [NAME] to pick me up?"),
    ("Doctor: Did Ottar bring the forms?", "Doctor: Did [NAME] bring the forms?"),
    # a given name that is also a condition word, less frequent in English than CONDITION_NAME_ZIPF
    ("Patient: I have been seeing Iris for my back.", "Patient: I have been seeing [NAME] for my back."),
    ("Doctor: According to Iris, the swelling is down.", "Doctor: According to [NAME], the swelling is down."),
    # a gazetteer name at a sentence's start before a verb of speech
    ("Patient: Hope says I should rest more.", "Patient: [NAME] says I should rest more."),
    # ... also with where the person works between
    ("Patient: Rose at the pharmacy said it was fine.", "Patient: [NAME] at the pharmacy said it was fine."),
    # a name addressed in reported speech
    ('Patient: My wife said, "Gorm, you need a doctor."', 'Patient: My wife said, "[NAME], you need a doctor."'),
    # coordinated with a person
    ("Patient: Yes, Gorm and I are married.", "Patient: Yes, [NAME] and I are married."),
    ("Patient: Either Gorm or my son will drive me.", "Patient: Either [NAME] or my son will drive me."),
    ("Patient: Hope and me went for a walk.", "Patient: [NAME] and me went for a walk."),
])
def test_names_capitalised_in_cased_prose(text, expected):
    assert _deid(text) == expected


@pytest.mark.parametrize("text", [
    "Patient: I hit my shin on the table.",  # lower case
    "Patient: I have lived fifteen of my years on Earth.",  # a condition word frequent in English
    "Patient: I went to Overeaters Anonymous last week.",  # a capitalised word follows
    "Patient: Me and my husband have been in the States for years.",  # after a determiner
    "Patient: He had early Parkinson's disease.",  # an eponym
    "Patient: Everyone says I look tired.",  # no gazetteer name before the verb
    "Patient: Insurance said it was not covered.",
    "Patient: Mom says hi.",  # a relative's word
    "Patient: Mom and I went shopping.",
    "Patient: Tylenol and I do not get along.",  # a drug
    "Patient: Yesterday and today were bad.",
    "Patient: Everyone at the office said I looked pale.",
    "Patient: Will at work said so.",  # a function word
    'Doctor: She said, "Okay, you can go."',
])
def test_capitalised_words_that_are_no_names_stay(text):
    assert _deid(text) == text


@pytest.mark.parametrize("text, expected", [
    # a letter no English word has: no English word even when its folded form is one ("asa" is a whitelist word)
    ("Patient: I talked to Åsa today.", "Patient: I talked to [NAME] today."),
    ("Patient: Åsa drove me here.", "Patient: [NAME] drove me here."),
    ("[patient] my neighbour åsa came by yesterday .", "[patient] my neighbour [NAME] came by yesterday ."),
    # also a gazetteer name that is a common word once folded ("girts"): the letter says it is no English word
    ("[patient] i was sitting beside ģirts on the bus .", "[patient] i was sitting beside [NAME] on the bus ."),
    ("Patient: I asked Ģirts about it.", "Patient: I asked [NAME] about it."),
])
def test_a_letter_no_english_word_has_makes_a_name(text, expected):
    assert _deid(text) == expected


@pytest.mark.parametrize("text", [
    "Patient: I had a café latte this morning.",  # the accents loanwords keep
    "Patient: The jalapeño burned my mouth.",
    "Patient: My fiancée drove me here.",
    "Patient: I had the purée for lunch.",
    "[patient] aloe vera helps with the burn .",  # the same folded word without such a letter stays
])
def test_loanword_accents_stay(text):
    assert _deid(text) == text


@pytest.mark.parametrize("text, expected", [
    # a capitalised object of "tell", "ask", "told", "to" inside cased prose, before the clause's end or a
    # preposition: a person, though the lists call the word common ("blessing", "comfort", "bright", "frank") or a
    # condition word ("schmidt")
    ("Patient: I'll tell Blessing about the results.", "Patient: I'll tell [NAME] about the results."),
    ("Doctor: Did you ask Comfort about the stairs?", "Doctor: Did you ask [NAME] about the stairs?"),
    ("Patient: My niece drove, so I told Bright when I got home.",
     "Patient: My niece drove, so I told [NAME] when I got home."),
    ("Patient: I gave the paperwork to Frank last night.", "Patient: I gave the paperwork to [NAME] last night."),
    ("Doctor: I'll send a copy to Schmidt at the clinic.", "Doctor: I'll send a copy to [NAME] at the clinic."),
])
def test_a_capitalised_object_of_tell_ask_to_is_a_person(text, expected):
    assert _deid(text) == expected


@pytest.mark.parametrize("text", [
    "Patient: We drove to Fresno on Friday.",  # a verb of going before "to": a place
    "Patient: They switched me to Lyrica last month.",  # a drug
    "Patient: I'll tell Mom about it.",  # a relative's word
    "Patient: I'm driving up to Fresno again.",
    "Patient: I was sent to Mercy last year.",  # a facility's name
    "Doctor: I'll refer you to Cardiology.",  # a specialty
    "Patient: I went to Walmart yesterday.",
    "Patient: I live in a small town called Fayetteville in Tennessee.",  # "called" names a thing
    "Doctor: It is called Onychomycosis. It is nail fungus.",
])
def test_a_capitalised_object_that_is_no_person_stays(text):
    assert _deid(text) == text


def test_a_lower_case_word_set_off_after_a_relative_in_cased_prose_is_no_name():
    # twenty-first session: "my friend, came." took "came" (a gazetteer word ending its clause after a relative and a
    # comma); in cased prose the name there is capitalised, in lower-case speech it is still taken
    assert _deid("Patient: Harriet Brown, my friend, came.") == "Patient: [NAME], my friend, came."
    assert _deid("Patient: I'm here with my husband, Park.") == "Patient: I'm here with my husband, [NAME]."
    assert _deid("[patient] i'm here with my husband , park .") == "[patient] i'm here with my husband , [NAME] ."


@pytest.mark.parametrize("text", [
    # twenty-first session, CRAFT-MD's vignettes (rows read while writing the rules): a country where one comes from
    # or travels to is no person, even before "who"
    "He is a refugee from Sudan who arrived in the United States a month earlier.",
    "A month ago, she returned from a camping trip to Sri Lanka.",
])
def test_a_country_one_comes_from_or_travels_to_stays(text):
    assert _deid(text) == text


def test_a_person_after_to_before_who_is_still_a_name():
    assert _deid("Patient: I talked to Georgia who said it was fine.") == \
        "Patient: I talked to [NAME] who said it was fine."
