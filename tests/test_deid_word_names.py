"""Given names and surnames that are also words, beside another part of the name (issue 50, sixth session:
:mod:`clinaudit.perturb.name_neighbour_words`). Hand-written examples (names of many origins that are words in
English or in the word lists: Ali, Mohamed, Sri, Tal, Blessing, Patience, Ho, Joy, Precious, Dewi; Per, Sunday,
Young, Brown, White, Macula, Arvin), not the by-origin benchmark's forms; and the same words used as words."""

from __future__ import annotations

import re

import pytest

from clinaudit.perturb.deid import deidentify_text


def _left(text: str, words: str) -> list[str]:
    out = deidentify_text(text)[0]
    return [w for w in words.split() if re.search(rf"(?i)(?<![\w'-]){w}(?![\w])", out)]


@pytest.mark.parametrize("text, name", [
    ("patient: my neighbour fatima ali came by with soup .", "fatima ali"),
    ("doctor: is sri wahyuni your primary doctor ?", "sri wahyuni"),
    ("patient: me and blessing okonkwo both caught it at work .", "blessing okonkwo"),
    ("patient: mohamed abdullahi told me to stop the pills .", "mohamed abdullahi"),
    ("doctor: i spoke with tal mizrahi from the lab this morning .", "tal mizrahi"),
    ("patient: i stay with patience mensah on weekends .", "patience mensah"),
    ("patient: hassan mohamed drove me here .", "hassan mohamed"),
    ("patient: ho thi lan called me yesterday .", "ho thi"),
    ("patient: i came with nguyen ho and my son .", "nguyen ho"),
    ("patient: precious ndlovu said i should rest .", "precious ndlovu"),
    ("doctor: is dewi lestari your nurse ?", "dewi lestari"),
])
def test_a_lower_case_given_name_that_is_a_word_beside_a_name(text, name):
    assert _left(text, name) == []


@pytest.mark.parametrize("text, name", [
    ("Patient: Me and Fatima Brown both caught it at work.", "Fatima Brown"),
    ("Patient: My neighbour Adaeze White came by.", "Adaeze White"),
    ("Patient: I stay with Per Hansen on weekends.", "Per Hansen"),
    ("Patient: I came in with Sunday Okafor and my son.", "Sunday Okafor"),
    ("Doctor: I'll ask Kim Young Jae to call you back.", "Kim Young Jae"),
    ("Patient: Dr. Lee Young Ho saw me.", "Lee Young Ho"),
    ("Doctor: I spoke with Macula Pierre from the lab.", "Macula Pierre"),
    ("Patient: Is Arvin Santos your primary doctor?", "Arvin Santos"),
    ("Patient: My friend Lars Echo Nilsson came.", "Lars Echo Nilsson"),
])
def test_a_cased_name_part_the_lists_call_never_a_name_beside_a_name(text, name):
    assert _left(text, name) == []


@pytest.mark.parametrize("text, words", [
    # the same words as words, lower case and cased
    ("patient: i had a bright red rash on sunday .", "bright sunday"),
    ("patient: i take it twice per day .", "per"),
    ("patient: it was only my joke .", "joke"),
    ("doctor: we did an echo of the heart last week .", "echo"),
    ("patient: there was frank blood in the stool and my urine was brown .", "frank brown"),
    ("doctor: he has a fast heart beat for a young man .", "beat young"),
    ("patient: i pray for patience and some joy and mercy .", "patience joy mercy"),
    ("Patient: I had a bright rash on Sunday and brown urine.", "bright Sunday brown"),
    ("Doctor: We will get an Echo and check the macula next week.", "Echo macula"),
    # beside a name, still words: a time before a day, a drug, a person's noun, a thing's or place's name
    ("Patient: On Sunday Hansen came by with soup.", "Sunday"),
    ("Doctor: I gave Mary Tylenol for the pain.", "Tylenol"),
    ("Patient: We drove to Healing Rivers for the weekend.", "Healing"),
    ("Patient: I bought a Yellow Harvey grill.", "Yellow"),
    ("patient: we went down to columbus georgia last spring .", "georgia"),
    ("patient: the color of , like , cherry cola .", "cherry"),
    # a verb in the past before a name in no list: the inflected everyday word is no given name (27th session)
    ("patient: i faxed qwertz the form yesterday .", "faxed"),
    ("patient: i paged qwertz but no one came .", "paged"),
    ("patient: i messaged qwertz about the rash .", "messaged"),
])
def test_the_same_words_used_as_words_stay(text, words):
    assert _left(text, words) == words.split()


@pytest.mark.parametrize("text, name", [
    ("patient: blessing drove me here .", "blessing"),
    ("patient: ali thinks i snore .", "ali"),
    ("patient: precious said i should rest more .", "precious"),
    ("patient: tal at the pharmacy said it was fine .", "tal"),
    ("patient: mohamed mentioned the dizziness to me .", "mohamed"),
    ("doctor: ali , i want you to keep a food diary .", "ali"),
    ("doctor: sri , can you lie back for me ?", "sri"),
    ("doctor: alright mohamed , let's take a look .", "mohamed"),
    ("doctor: okay blessing , we'll start with your knee .", "blessing"),
    # a word English writes seldom and no lexicon reads (name_neighbour_words.lower_foreign_word: "ese", "sulu") where
    # a person is named: a greeting, "named", a relative, a sentence's start before a name found (27th session)
    ("[patient] thanks , ese . we'll see you again in two weeks .", "ese"),
    ("[patient] a friend named ese told me about this clinic .", "ese"),
    ("[patient] my niece ese drove me .", "ese"),
    ("[patient] ese tuilagi drove me here today .", "ese"),
    ("[doctor] hi , sulu , come on in .", "sulu"),
])
def test_a_lower_case_given_name_that_is_a_word_where_a_person_stands(text, name):
    assert _left(text, name) == []


@pytest.mark.parametrize("text, words", [
    ("patient: patience helps with the pain .", "patience"),
    ("patient: you have to give us a call sooner and we will see .", "sooner"),
    ("doctor: are you able to flex and extend the knee ?", "flex"),
    ("doctor: okay so , let's take a look .", "so"),
    # English words the lexicon reads stay there (twenty-seventh session)
    ("[patient] ask tuilagi about it .", "ask"),
    ("[patient] my niece cried all night .", "cried"),
    ("[patient] thanks , doc .", "doc"),
    ("[patient] hi , everyone .", "everyone"),
])
def test_a_word_where_a_person_may_stand_stays(text, words):
    assert _left(text, words) == words.split()


@pytest.mark.parametrize("text, name", [
    ("Patient: Per thinks I snore.", "Per"),
    ("Patient: Sunday drove me here this morning.", "Sunday"),
    ("Patient: Brown at the front desk said it was fine.", "Brown"),
    ("Patient: Bright thinks I should come in.", "Bright"),
    ("Doctor: How is Per doing these days?", "Per"),
    ("Doctor: Does Joke know about the new dose?", "Joke"),
    ("Doctor: Will Comfort call you back?", "Comfort"),
    ("Doctor: Did Blessing tell you about it?", "Blessing"),
    ("Doctor: How's Goodluck doing?", "Goodluck"),
    ("Doctor: Can Macula drive you home?", "Macula"),
    ("doctor: how is ali doing these days ?", "ali"),
    ("doctor: did blessing tell you about the dose ?", "blessing"),
    ("doctor: does omar know about the results ?", "omar"),
])
def test_a_name_that_is_a_word_beside_a_verb_only_a_person_does(text, name):
    assert _left(text, name) == []


@pytest.mark.parametrize("text, words", [
    ("Doctor: Did Mom say anything about it?", "Mom"),
    ("Doctor: How is Cardiology doing with the referral?", "Cardiology"),
    ("Doctor: Did Tylenol help at all?", "Tylenol"),
    ("Patient: Insurance told me it was not covered. Will Billing call me?", "Insurance Billing"),
    ("Doctor: How is your knee doing? Did the echo show anything?", "knee echo"),
    ("doctor: how is everything doing ? how is work doing ?", "everything work"),
    ("Patient: Frank blood came out and my heart beat fast on Sunday.", "Frank beat Sunday"),
])
def test_a_word_beside_such_a_verb_stays_a_word(text, words):
    assert _left(text, words) == words.split()


@pytest.mark.parametrize("text, name", [
    ("Doctor: And do you exercise? Ahmed, I want you to keep a food diary.", "Ahmed"),
    ("Doctor: That's good. Precious, can you lie back for me?", "Precious"),
    ("Doctor: Omar, how have you been sleeping?", "Omar"),
    ("Doctor: Alright Bright, let's take a look.", "Bright"),
    ("Doctor: Okay Godswill, we'll start with your knee.", "Godswill"),
])
def test_a_cased_name_that_is_a_word_addressed(text, name):
    assert _left(text, name) == []


@pytest.mark.parametrize("text, words", [
    ("Doctor: Okay Mom, let's go over the results.", "Mom"),
    ("Patient: Understood, I will do that.", "Understood"),
    ("Patient: Honestly, I forgot to take it.", "Honestly"),
    ("Doctor: Perfect, we can stop there.", "Perfect"),
])
def test_a_cased_word_before_a_comma_stays(text, words):
    assert _left(text, words) == words.split()


@pytest.mark.parametrize("text, name", [
    ("Patient: I talked to Costa on the phone last week.", "Costa"),
    ("Doctor: According to Brown, the cast can come off soon.", "Brown"),
    ("Doctor: We will fax the results to Brown.", "Brown"),
    ("Doctor: I gave the forms to Precious yesterday.", "Precious"),
    ("Patient: It was Per who noticed the swelling first.", "Per"),
    ("Patient: I think it was Hope who called.", "Hope"),
    ("Patient: I came in with Beat and my son.", "Beat"),
    ("Patient: Comfort or her husband will pick me up.", "Comfort"),
    ("patient: i talked to blessing on the phone last week .", "blessing"),
    ("patient: i spoke to omar about it yesterday .", "omar"),
])
def test_a_name_that_is_a_word_told_given_to_or_named_with_who(text, name):
    assert _left(text, name) == []


@pytest.mark.parametrize("text, words", [
    ("Doctor: We moved it to Sunday.", "Sunday"),
    ("Doctor: I sent a referral to Cardiology.", "Cardiology"),
    ("Patient: Everyone who knows me says so.", "Everyone"),
    ("Patient: Tylenol and I do not get along.", "Tylenol"),
    ("Patient: I got into poison ivy and my son did too.", "ivy"),
    ("patient: i have a little calendar and i put checks on it .", "calendar"),
    ("patient: i have a peloton who is your favorite instructor ?", "peloton"),
    ("patient: the one who noticed was my son .", "one"),
])
def test_a_word_told_or_named_with_who_stays(text, words):
    assert _left(text, words) == words.split()


@pytest.mark.parametrize("text, name", [
    ("Patient: I've been seeing Schmidt for physical therapy.", "Schmidt"),
    ("Patient: I saw Bright for my knee last year.", "Bright"),
    ("patient: i've been seeing omar for my back .", "omar"),
])
def test_the_one_seen_for_a_treatment(text, name):
    assert _left(text, name) == []


@pytest.mark.parametrize("text, words", [
    ("Patient: I saw Cardiology for my heart.", "Cardiology"),
    ("patient: i've been seeing spots for a week .", "spots"),
    ("Doctor: I will see you for a follow up.", "you"),
])
def test_what_is_seen_for_a_while_stays(text, words):
    assert _left(text, words) == words.split()
