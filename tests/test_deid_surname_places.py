"""A surname that is an English word, bare in lower case in the everyday places only a person takes (issue 50,
seventeenth session, :mod:`clinaudit.perturb.name_surname_places`). Hand-written examples: the places the rule was
written from (``benchmarks/deid_dev42.py``'s surnames), a transfer check of 15 names and 15 words as words written after
the rule and run once (12/15 names, main 10; 13/15 words kept, main 14: "my carer is brilliant" is this rule's false
replacement, "does ginger help" main's too), and the negatives (the same places with the words as words)."""

from __future__ import annotations

import time

import pytest

from clinaudit.perturb.deid import deidentify_text
from clinaudit.perturb.name_surname_places import adjective_like, may_be_place_surname


def _out(text: str) -> str:
    return deidentify_text(text)[0]


#: the places the rule was written from
WRITTEN_FROM = [
    ("[patient] pound booked me in for the scan last week .", "pound"),
    ("[patient] chalk is picking me up at four .", "chalk"),
    ("[patient] shore will be here at half two .", "shore"),
    ("[patient] and mill keeps an eye on me .", "mill"),
    ("[patient] my carer is barber , she comes mornings .", "barber"),
    ("[doctor] your gp is still gunning , isn't it ?", "gunning"),
    ("[patient] i came with trim this morning .", "trim"),
    ("[doctor] let roth know if anything changes .", "roth"),
    ("[patient] i was telling stein about the dizzy spells .", "stein"),
    ("[patient] we're going to gall's after this .", "gall"),
    ("[patient] my friend , mir , drove me in .", "mir"),
    ("[doctor] morning shaw , come and sit down .", "shaw"),
    ("[patient] say hello to painter for me .", "painter"),
    ("[patient] dar from the chemist dropped it round .", "dar"),
    ("[patient] it was shah that noticed my lips were blue .", "shah"),
]

#: the transfer check, written after the rule and run once (not tuned on): the three lost are marked ("my carer is bal
#: , she comes at nine ." was the third: name_given_words reads a word no name list holds since the twenty-fourth
#: session)
_LOST = {
    "[patient] frost has been doing my shopping .": "'frost' a weather word (name_everyday_places.MASS)",
    "[patient] pal sorts out my tablets on sundays .": "'pal' a function word (vocab.FUNCTION_WORDS)",
}
TRANSFER = [
    ("[patient] my neighbour is marsh , she's been brilliant .", "marsh"),
    ("[patient] i came in with crowe this afternoon .", "crowe"),
    ("[patient] lamb drove me here today .", "lamb"),
    ("[patient] frost has been doing my shopping .", "frost"),
    ("[doctor] let fisher know the results are back .", "fisher"),
    ("[patient] i was telling mason about my knee .", "mason"),
    ("[patient] we're going back to hogg's after this .", "hogg"),
    ("[patient] my friend , dean , came with me .", "dean"),
    ("[doctor] afternoon gates , take a seat .", "gates"),
    ("[patient] kang from the chemist rang me .", "kang"),
    ("[patient] my carer is bal , she comes at nine .", "bal"),
    ("[patient] pal sorts out my tablets on sundays .", "pal"),
    ("[patient] say thanks to rush for me .", "rush"),
    ("[patient] it was ford who found me on the floor .", "ford"),
    ("[doctor] does lynch live with you now ?", "lynch"),
]

#: the transfer check's words as words, run once: the two replaced are marked
_MISSED = {
    "[patient] my carer is brilliant , she comes tuesdays .": "this rule: an adjective with no superlative",
    "[patient] does ginger help with sickness ?": "main's too",
}
TRANSFER_WORDS = [
    "[patient] frost has been doing damage to the car .",
    "[patient] lamb is what we had on sunday .",
    "[patient] i was telling the mason about the wall .",
    "[patient] we're going to the mill after this .",
    "[patient] my dad , bless him , came with me .",
    "[patient] my carer is brilliant , she comes tuesdays .",
    "[patient] my gp is sound , she listens .",
    "[patient] it was rain that made me slip .",
    "[patient] i came with cash to pay for it .",
    "[patient] rush hour was awful this morning .",
    "[patient] hello again , trouble .",
    "[patient] thanks to rain i got soaked .",
    "[patient] pal of mine came with me .",
    "[patient] i live with chronic pain .",
    "[patient] does ginger help with sickness ?",
]

#: the same places with the words as words (deid_dev42.py's words as words among them)
NEGATIVES = [
    "[patient] rice makes me sick .",
    "[patient] i paid with cash this morning .",
    "[patient] my carer is lush , she comes mornings .",
    "[patient] my friend is rich .",
    "[patient] we went with price in the end .",
    "[patient] it was price that made me choose it .",
    "[patient] my friend's golden retriever sits with me .",
    "[patient] hello again stranger .",
    "[patient] i came with a pound in my purse .",
    "[patient] we're going to the barber's after this .",
    "[patient] the pound shop is picking up trade .",
    "[patient] my neighbour is a barber .",
    "[patient] the bank sorted out my card .",
    "[patient] trim the nails straight across .",
    "[patient] cash from the machine dropped out .",
]


@pytest.mark.parametrize("text,gone", WRITTEN_FROM + [
    pytest.param(t, g, marks=pytest.mark.xfail(reason=_LOST[t], strict=True)) if t in _LOST else (t, g)
    for t, g in TRANSFER])
def test_a_word_surname_where_only_a_person_stands(text, gone):
    out = _out(text)
    assert f" {gone} " not in out and f" {gone}'s " not in out and "[NAME]" in out, out


@pytest.mark.parametrize("text", [pytest.param(t, marks=pytest.mark.xfail(reason=_MISSED[t], strict=True))
                                  if t in _MISSED else t for t in TRANSFER_WORDS] + NEGATIVES)
def test_the_word_as_a_word_stays(text):
    out = deidentify_text(text, gender=False)[0].split()
    assert all(w in out for w in text.split()), out


def test_the_word():
    assert may_be_place_surname("pound") and may_be_place_surname("shah")
    assert not may_be_place_surname("bank")  # a voice: "the bank rang"
    assert not may_be_place_surname("stone")  # a clinical word
    assert not may_be_place_surname("the") and not may_be_place_surname("heather")  # a function word; no surname
    assert adjective_like("lush") and adjective_like("rich") and not adjective_like("pound")


def test_the_capitalised_name_is_other_rules():
    assert "Pound" not in _out("[patient] My carer is Pound, she comes mornings.")


def test_linear_in_the_text():
    unit = ("[patient] pound booked me in . my carer is chalk . i came with a pound in my purse . "
            "i was telling shore about it . morning mill , come in . the pound shop is picking up trade .\n")
    times = []
    for n in (300, 1200):  # 53 kB and 214 kB
        text = unit * n
        t0 = time.perf_counter()
        deidentify_text(text)
        times.append(time.perf_counter() - t0)
    assert times[1] < times[0] * 8, times
