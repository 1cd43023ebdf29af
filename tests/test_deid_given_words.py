"""A given name that is an English word (a flower, a gem, a colour, a virtue, a weather or pet word), alone in lower
case where an everyday sentence leaves room only for a person (issue 50, seventeenth session,
:mod:`clinaudit.perturb.name_given_words`). Hand-written examples: the places the rule was written from
(``benchmarks/deid_dev41.py``'s names), a transfer check of 15 names and 15 words as words written after the rule and
run once (14/15 names taken, main 8; 13/15 after a plural guard added later, "cypress" read as a plural; 11/15 words
as words kept, main 12: "asking [sooner] ." is this rule's false
replacement, an adverb the gazetteer holds as a given name after a verb of asking at the clause's end; the three
others main's too), and the negatives (the same places with the words as words)."""

from __future__ import annotations

import time

import pytest

from clinaudit.perturb.deid import deidentify_text
from clinaudit.perturb.name_given_words import may_be_given_word


def _out(text: str) -> str:
    return deidentify_text(text)[0]


#: the places the rule was written from
WRITTEN_FROM = [
    ("[patient] lily fetched my prescription from the pharmacy .", "lily"),
    ("[patient] jewel texted me to say the results were in .", "jewel"),
    ("[patient] posy sent me a photo of the rash last night .", "posy"),
    ("[patient] purity is picking me up at half three .", "purity"),
    ("[patient] dahlia had to take the day off work to bring me .", "dahlia"),
    ("[patient] my carer is haven , she comes at nine .", "haven"),
    ("[patient] my granddaughter is sunshine , she's seventeen now .", "sunshine"),
    ("[patient] i was telling orchid about the dizzy spells .", "orchid"),
    ("[patient] i came in with ebony today .", "ebony"),
    ("[patient] we're going to delight's after this for tea .", "delight"),
    ("[doctor] and has testimony noticed any change in your memory ?", "testimony"),  # not after a speaker's label
    ("[doctor] would you like heaven to come in with you ?", "heaven"),
    ("[doctor] was it emerald who rang the ambulance ?", "emerald"),
    ("[patient] i showed lilac the letter and she said to ring .", "lilac"),
    pytest.param("[patient] pebbles picked me up from the station .", "pebbles", marks=pytest.mark.xfail(
        reason="a plural of a common word is never read (test_deid_person_only: 'ask miles about it')", strict=True)),
]

#: the transfer check, written after the rule and run once (not tuned on)
TRANSFER = [
    ("[patient] zinnia booked the appointment online for me .", "zinnia"),
    ("[patient] peony drove me to the walk-in centre .", "peony"),
    ("[patient] azalea spotted the rash on my back .", "azalea"),
    ("[patient] honesty reckons it's the new tablets .", "honesty"),
    ("[patient] my support worker is camellia , she's lovely .", "camellia"),
    ("[patient] i was telling tulip about the pain in my side .", "tulip"),
    ("[patient] can you let garnet know i'm here ?", "garnet"),
    ("[patient] i stayed at amity's all weekend .", "amity"),
    ("[patient] serenity will pick me up after .", "serenity"),
    ("[patient] my next-door neighbour is cypress , she has a key .", "cypress"),
    ("[patient] i came in with lotus , my granddaughter .", "lotus"),
    ("[patient] modesty phoned the out of hours for me .", "modesty"),
    ("[doctor] did cherish say how long you were out ?", "cherish"),
    ("[patient] sparkle collected my prescription yesterday .", "sparkle"),
    ("[patient] i asked dewdrop to write it down for me .", "dewdrop"),
]

#: the transfer check's misses, run once (not tuned on)
_MISSED = {
    "[patient] my next-door neighbour is cypress , she has a key .": "this rule after the run: 'cypress' reads as a plural"
    " of a common word, which the rule leaves (a guard added for test_deid_person_only's 'ask miles about it')",
    "[patient] serenity is what i need after this week .": "main's too",
    "[patient] my favourite stone is garnet , it's my birthstone .": "main's too",
    "[patient] sparkle went out of her eyes .": "main's too",
    "[patient] modesty stopped me asking sooner .": "this rule: an adverb the gazetteer holds after 'asking' at the end",
    # the negatives main replaces too (older rules: a bare word at a clause's start, a word before "floss")
    "[patient] lilac came out early this year .": "main's too",
    "[patient] heaven knows how i managed .": "main's too",
    "[patient] sunshine helped my mood no end .": "main's too",
    "[patient] sunshine brings my rash out .": "main's too",
    "[patient] i came in with candy floss on my top .": "main's too",
    "[patient] i came with hope , really .": "main's too: name_surname_places ('i came with mill today'), d77c630",
}
#: the transfer check's words as words, run once
TRANSFER_WORDS = [
    "[patient] the peony in the front garden has flopped .",
    "[patient] tulip bulbs go in before christmas .",
    "[patient] honesty is the best policy , my mum said .",
    "[patient] serenity is what i need after this week .",
    "[patient] my favourite stone is garnet , it's my birthstone .",
    "[patient] a lotus position hurts my knees now .",
    "[patient] modesty stopped me asking sooner .",
    "[patient] i cherish every day now .",
    "[patient] sparkle went out of her eyes .",
    "[patient] the zinnia seeds came free with a magazine .",
    "[patient] azalea leaves are poisonous to dogs .",
    "[patient] cypress trees line the drive .",
    "[patient] camellia tea is just green tea .",
    "[patient] the amity between the two wards is gone .",
    "[patient] i came in with dew on my shoes .",
]

#: the same places with the words as words (deid_dev41.py's words as words among them)
NEGATIVES = [
    "[patient] lilac came out early this year .",
    "[patient] heaven knows how i managed .",
    "[patient] heaven sent me a good carer .",
    "[patient] sunshine helped my mood no end .",
    "[patient] sunshine brings my rash out .",
    "[patient] my dress is lilac , it's new .",
    "[patient] my daughter is stormy , she always has been .",
    "[patient] i came in with candy floss on my top .",
    "[patient] i was telling stormy tales about the ward .",
    "[patient] let sunshine in , open the curtains .",
    "[patient] thank heaven for small mercies .",
    "[patient] i came with hope , really .",
    "[patient] ginger helped the sickness .",
    "[patient] i booked it for june .",
    "[doctor] physical exam , auto text ruby .",
]


@pytest.mark.parametrize("text,gone", WRITTEN_FROM + [
    pytest.param(t, g, marks=pytest.mark.xfail(reason=_MISSED[t], strict=True)) if t in _MISSED else (t, g)
    for t, g in TRANSFER])
def test_a_word_name_where_a_person_stands(text, gone):
    out = _out(text)
    assert f" {gone} " not in out and f" {gone}'s " not in out and "[NAME]" in out, out


@pytest.mark.parametrize("text", [pytest.param(t, marks=pytest.mark.xfail(reason=_MISSED[t], strict=True))
                                  if t in _MISSED else t for t in TRANSFER_WORDS + NEGATIVES])
def test_the_word_as_a_word_stays(text):
    out = deidentify_text(text, gender=False)[0].split()
    assert all(w in out for w in text.split()), out


def test_the_word():
    assert may_be_given_word("lily") and may_be_given_word("purity") and may_be_given_word("sunshine")
    assert not may_be_given_word("iris")  # clinical
    assert not may_be_given_word("may") and not may_be_given_word("the") and not may_be_given_word("friday")


def test_the_capitalised_name_is_other_rules():
    assert "Lily" not in _out("[patient] Lily fetched my prescription from the pharmacy .")


def test_linear_in_the_text():
    """200 kB of the set's shapes (names and words as words) read in linear time: four times the text, well under
    eight times the time."""
    unit = ("[patient] lily fetched my tablets . my carer is posy , she comes at nine . lilac came out early . "
            "i was telling haven about it . we're going to jewel's after . heaven knows how .\n")
    times = []
    for n in (300, 1200):
        text = unit * n
        t0 = time.perf_counter()
        deidentify_text(text)
        times.append(time.perf_counter() - t0)
    assert len(unit) * 1200 > 200_000 and times[1] < times[0] * 8, times
