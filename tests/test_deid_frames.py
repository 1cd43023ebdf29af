"""The frames that name a person take a word the guards call a word (issue 50, thirteenth session,
:mod:`clinaudit.perturb.name_frames`): a title, a self-introduction, a greeting or sign-off, a relative in
apposition, in cased and lower-case text. Hand-written examples: the lead's probe places the rule was written from,
dev21's frames with names in no set, a transfer check of 15 names and 15 words in the same frames (written after the
rule and only run), and the negatives (the same frames holding words: "my name is not on the list", "hi there", "the
dr will see you now", "i miss may", "my son will drive"), with the real dialogs' "nurse will be", "nurse told you",
"hey , dragon , show me", "good afternoon , young lady", "my father side had cancer"."""

from __future__ import annotations

import re

import pytest

from clinaudit.perturb.deid import deidentify_text


def _out(text: str) -> str:
    return deidentify_text(text)[0]


def _kept(text: str, name: str) -> bool:
    """``name`` is still in the output, past a speaker label."""
    out = _out(text)
    return bool(re.search(rf"(?i)(?<![\w'-]){re.escape(name)}(?![\w'-])", out.split("] ", 1)[-1]))


#: the lead's probe places (names in no set)
WRITTEN_FROM = [
    ("My name is Will.", "will"), ("My name is June.", "june"),
    ("Dr May sent me.", "may"), ("Dr An sent me.", "an"), ("[patient] my name is young .", "young"),
    ("[patient] this is mrs young .", "young"), ("[doctor] dr son will see you .", "son"),
    ("[doctor] hi will , how are you ?", "will"), ("[doctor] this is mrs an .", "an"),
    ("[doctor] mrs do is here .", "do"), ("[patient] dr . park said it was fine .", "park"),
    # dev21's frames, names in no set
    ("[patient] my name's sunday .", "sunday"), ("[doctor] hello , my name is june and i'm one of the nurses .", "june"),
    ("[doctor] i'm june , i'll be looking after you today .", "june"), ("[doctor] good morning , june .", "june"),
    ("[patient] thank you so much , june , you've been great .", "june"), ("[patient] her daughter , may , rang .", "may"),
    ("[patient] my son oh drives me in .", "oh"), ("[doctor] sister young is on the ward today .", "young"),
    ("[patient] hello , this is june calling about my results .", "june"), ("Miss Black, take a seat.", "black"),
    ("[doctor] take care now , june .", "june"), ("I'm Friday from the pharmacy.", "friday"),
]

#: the transfer check: written after the rule, looked at only to be run (14 of 15 names; "i'm will from the lab" is
#: lost: a modal before "from" stays a word)
TRANSFER_NAMES = [
    ("Mrs Tu is in the waiting room.", "tu"), ("[doctor] dr thursday will see you now .", "thursday"),
    ("My name is Autumn.", "autumn"), ("[patient] my name is rain .", "rain"), ("Hi Winter, come on in.", "winter"),
    ("[doctor] hello october , how have you been ?", "october"), ("Thanks, Summer.", "summer"),
    ("[patient] this is tan speaking .", "tan"), ("[patient] my daughter , hope , drives me .", "hope"),
    ("Nurse May will take your bloods.", "may"), ("[patient] call me sunday , everyone does .", "sunday"),
    ("Good morning, Mrs Long.", "long"), ("[patient] prof . ding did my operation .", "ding"),
]
TRANSFER_WORDS = [
    "[patient] my name is on the form .", "[doctor] hi there , how are you ?", "Thanks, everyone.",
    "[doctor] the nurse will call you later .", "[patient] your dr said it was fine .", "[patient] i miss my mum .",
    "My son will pick me up.", "[patient] my daughter may drive .", "[patient] this is my wife .",
    "[doctor] call me later , please .", "[patient] i'm tired from the walk .", "[patient] thank you , doctor .",
    "Hello, everybody.", "[doctor] nurse , could you help ?", "[patient] my husband usually has the list .",
]

#: the same frames holding words (dev21's word uses, the real dialogs' frames)
WORDS = [
    "[patient] my name is not on the list .", "[patient] my name is spelled wrong on the letter .",
    "[patient] my name is still on the old form .", "[patient] my name's the same as my mum's .",
    "[patient] my name is a bit long for the form .", "[doctor] hi again , how did the tablets go ?",
    "[doctor] hi everyone , i'm just the student .", "[patient] hi honey , i'll be out soon .",
    "[patient] thanks again for fitting me in .", "[patient] thanks , pal .",
    "[doctor] the dr will see you now .", "[doctor] your dr may want to change the dose .",
    "[patient] dr said to sit tight .", "[doctor] mr and mrs are the options on the form .", "[patient] i miss you all .",
    "[patient] i'd hate to miss april .", "[doctor] nurse will come and do your obs .",
    "[doctor] doctor will be with you shortly .", "[patient] my son will drive me home .",
    "[patient] my daughter may come later .",
    "[patient] my husband , bless him , did the shopping .", "[patient] i'm sorry , i forgot .",
    "[doctor] call me if it gets worse .", "[patient] it's early days yet .", "[patient] call me early next week .",
    "[doctor] nurse will be in shortly .", "[doctor] the nurse told you about it .", "[doctor] nurse did a swab .",
    "[doctor] hey , dragon , show me the vital signs .", "[doctor] good afternoon , young lady .",
    "[patient] my granny on my father side had cancer .", "[doctor] thank you , um , what happened ?",
    "[doctor] thank you , think hard , any other surgeries ?", "[patient] my other sister is ten .",
    "[patient] my old doctor knows .", "[doctor] call me . certainly , if it gets worse .",
    "[patient] hi , i'm- i'm good , thank you .", "Thanks, Doctor.", "Hi there, come in.", "My name is not on it.",
    "The MS clinic called.", "[doctor] ms flare last year ?", "[doctor] mr arthrogram of the knee .",
    "[patient] okay , thank you tea , money and a phone , that's all i took .",
]


@pytest.mark.parametrize(("text", "name"), WRITTEN_FROM + TRANSFER_NAMES)
def test_a_frame_takes_a_guard_word_name(text, name):
    assert not _kept(text, name), _out(text)


@pytest.mark.parametrize("text", WORDS + TRANSFER_WORDS)
def test_a_frame_keeps_its_words(text):
    assert "[NAME]" not in _out(text)


def test_a_modal_before_from_stays_a_word():
    assert _kept("[doctor] i'm will from the lab .", "will")  # the transfer check's one name lost


@pytest.mark.parametrize("text", ["Hi ICU, this is ward 4.", "[doctor] hey , dragon , finalize the note .",
                                  "Hi Son, how are you?"])
def test_acronyms_dictation_and_address_stay(text):
    """An acronym in capitals, the dictation software, a relative's word said to a person ("hi son": a father)."""
    assert "[NAME]" not in _out(text)


@pytest.mark.xfail(reason="name_context's vocative and relative contexts (before this rule): a gazetteer given name "
                   "that ends its clause or follows a relative; 'Máté' folds to 'mate'", strict=True)
@pytest.mark.parametrize("text", ["[patient] cheers , mate .", "[patient] my son ran off in the car park ."])
def test_words_the_older_contexts_take(text):
    assert "[NAME]" not in _out(text)
