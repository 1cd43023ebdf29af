"""Names told by their letters (issue 50, sixth session, perturb/name_letters.py): a name in capitals copied from a
form, the ʻokina (or an apostrophe for it) between two vowels, a lower-case word of open syllables only. Hand-written
examples (none of the by-origin benchmark's names or forms)."""

from __future__ import annotations

import pytest

from clinaudit.perturb.deid import deidentify_text
from clinaudit.perturb.name_letters import open_syllables


@pytest.mark.parametrize("text, expected", [
    ("Patient: The card says BLAŽKOVÁ, not my married name.", "Patient: The card says [NAME], not my married name."),
    ("Doctor: I have it as TUIMAVAVE, Losi, is that right?", "Doctor: I have it as [NAME], [NAME], is that right?"),
    ("Patient: It is written KAʻAHANUI on my bracelet.", "Patient: It is written [NAME] on my bracelet."),
    ("Doctor: So it is HALATOA on the referral?", "Doctor: So it is [NAME] on the referral?"),
])
def test_a_name_in_capitals_in_cased_prose(text, expected):
    assert deidentify_text(text, gender=False)[0] == expected


@pytest.mark.parametrize("text", [
    "Patient: The MRI and the COPD clinic said the same.",
    "Patient: It was VERY painful, I mean REALLY painful.",
    "Doctor: We will check your CBC and NSAID use.",
    "PATIENT: I WANT TO GO HOME TODAY.",  # a line in capitals
    "Doctor: Your HEENT exam was fine.",
    # a chemotherapy regimen's acronym in no list (the quick demo's patient message: "my third cycle of FOLFOX"
    # was replaced before the open-syllable condition)
    "Patient: I finished my third cycle of FOLFOX on Monday.",
    "Doctor: We could switch to FOLFIRI or CAPOX, or FOLFIRINOX later.",
])
def test_capitals_that_are_no_name_stay(text):
    assert deidentify_text(text, gender=False)[0] == text


@pytest.mark.parametrize("text, expected", [
    ("[patient] i asked le'ota about the pills .", "[patient] i asked [NAME] about the pills ."),
    ("[patient] tell sa'ulu i said hi .", "[patient] tell [NAME] i said hi ."),
    ("[doctor] is mau’ava coming with you ?", "[doctor] is [NAME] coming with you ?"),  # found before too
])
def test_a_glottal_stop_between_vowels_is_a_name(text, expected):
    assert deidentify_text(text, gender=False)[0] == expected


@pytest.mark.parametrize("text", [
    "[patient] yes ma'am , it was ten o'clock .",
    "[patient] i don't know , she'll call , we've tried .",
    "[patient] o'er the hills , as the song goes .",
])
def test_apostrophes_of_english_stay(text):
    assert deidentify_text(text, gender=False)[0] == text


def test_open_syllables():
    for name in ("tupuivao", "sekonaia", "loimata", "halapua", "ratunavo"):
        assert open_syllables(name), name
    for word in ("overa",  # "over" + a letter
                 "regade", "etoside",  # a silent e: English written wrong
                 "adobee", "pizzeria", "strata", "hip"):
        assert not open_syllables(word), word


@pytest.mark.parametrize("text, expected", [
    # each one letter from a word of the lists or a longer one's start: "looks like a word" kept them before
    ("[patient] falani picks up my refills .", "[patient] [NAME] picks up my refills ."),
    ("[doctor] has sikota seen the rash ?", "[doctor] has [NAME] seen the rash ?"),
    ("[patient] i go to church with kolopa .", "[patient] i go to church with [NAME] ."),
])
def test_open_syllable_names_in_lower_case(text, expected):
    assert deidentify_text(text, gender=False)[0] == expected


def test_open_syllables_after_a_short_frequent_word():
    # "men" + "ai": a frequent word of three letters and two more is no English word ("over" + "a" is one cut off)
    assert open_syllables("menai")
    assert deidentify_text("[patient] menai picks me up on fridays .", gender=False)[0] == \
        "[patient] [NAME] picks me up on fridays ."



@pytest.mark.parametrize("text, expected", [
    # issue 50, sixth session (name_writing.capital_at_start): a possessive between the name and the lower-case word
    ("Patient: Urban's kids had it first.", "Patient: [NAME]'s kids had it first."),
    ("Patient: Toman's wife drove me.", "Patient: [NAME]'s wife drove me."),
])
def test_a_possessive_name_at_a_sentence_start(text, expected):
    assert deidentify_text(text, gender=False)[0] == expected


@pytest.mark.parametrize("text", [
    "Patient: Today's pain is worse.",
    "Patient: Will's fine, he's my son.",  # an everyday word: not by this rule
    "Doctor: Parkinson's disease runs in the family?",
    "Patient: Nobody's home during the day.",
])
def test_a_possessive_word_at_a_sentence_start_stays(text):
    assert deidentify_text(text, gender=False)[0] == text


def test_okina_names_read_only_the_words_that_hold_a_stop():
    # issue 50, Build 3: okina_names reads only the words where the text has a stop between two vowels (found by
    # one scan), not all 190,000 words of a 1 MB dialog; the same finds as reading every word (the rule as first
    # written), given the caller's tokens or not
    import re

    from clinaudit.perturb import name_letters
    from clinaudit.perturb.name_tokens import Tok, fold, tokens

    text = ("Patient: Faʻamoe and mata'afa came, ma'am. So’oaemalelagi's son, o'er the hill; Tuʻi‘a, Leʻa'a'u, "
            "don't, I'd, we've, Ke'alohi's ‘aina, a'a, e'er.\n") * 3

    def every_word() -> list[Tok]:
        out = [t for t in tokens(text) if len(t.text) >= 4 and name_letters._OKINA.search(t.text)
               and t.key.replace("’", "'") not in name_letters._ENGLISH_APOSTROPHE]
        return out + [Tok(m.start(), m.end(), m.group(0), fold(m.group(0)).lower()) for m in re.finditer(
            r"(?<![\w'’\-])[^\W\d_]*[aeiouāēīōū]‘[aeiouāēīōū][^\W\d_]*", text, re.I)]

    expected = every_word()
    assert [t.text for t in expected][:4] == ["Faʻamoe", "mata'afa", "So’oaemalelagi", "Tuʻi"]
    assert name_letters.okina_names(text) == expected
    assert name_letters.okina_names(text, tokens(text)) == expected
    assert name_letters.okina_names("no stop here, don't") == []


@pytest.mark.parametrize("text, gone", [
    ("[patient] bo-ra drove me here today .", "bo-ra"),
    ("[doctor] is ji-ho your son ?", "ji-ho"),
    ("Patient: My daughter Seo-yeon and Min-jun came along.", "Min-jun"),
    ("[patient] i asked ha-eun to call .", "ha-eun"),
])
def test_korean_given_names_of_hyphenated_syllables(text, gone):
    from clinaudit.perturb.deid import deidentify_text

    assert gone not in deidentify_text(text)[0]


def test_no_korean_name_in_english_hyphenated_words():
    from clinaudit.perturb.deid import deidentify_text

    text = "[patient] bye-bye , to-do , no-go , co-op , re-do , yo-yo , so-so , i-i , t-shirt , x-ray , in-law ."
    assert deidentify_text(text)[0] == text
