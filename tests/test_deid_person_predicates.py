"""A gazetteer name that is a common word, alone in lower case where the predicate around it is a person's (issue 50,
sixteenth session, :mod:`clinaudit.perturb.name_person_predicates`). Hand-written examples: the places the rule was
written from (``benchmarks/deid_dev38.py``'s names), a transfer check of 15 names and 15 words as words written after
the rule and run once (15/15 names, main 4; 10/15 words kept, main 11: "dawn couldn't come quick enough" was this
rule's false replacement, mended in the seventeenth session: 11/15 now, the four others main's too), and the
negatives (the same places with the words as words)."""

from __future__ import annotations

import time

import pytest

from clinaudit.perturb.deid import deidentify_text
from clinaudit.perturb.name_person_predicates import may_be_predicate_name


def _out(text: str) -> str:
    return deidentify_text(text)[0]


#: the places the rule was written from
WRITTEN_FROM = [
    ("[patient] jay was lovely with me after the operation .", "jay"),
    ("[patient] rook was ever so patient with me at the clinic .", "rook"),
    ("[patient] ivy was really rude to me on the phone .", "ivy"),
    ("[patient] jasmine couldn't get the time off work .", "jasmine"),
    ("[patient] heron wouldn't let me walk home on my own .", "heron"),
    ("[patient] violet and the kids came up at the weekend .", "violet"),
    ("[patient] bush and the grandkids were round on sunday .", "bush"),
    ("[patient] jay , who lives upstairs , checks on me most days .", "jay"),
    ("[patient] i'll have to check with gosling first .", "gosling"),
    ("[patient] that was jay on the phone just now .", "jay"),
    ("[patient] that was dove at the door earlier , with my shopping .", "dove"),
    ("[patient] i was at otter's when i fell .", "otter"),
    ("[patient] i got bliss ringing round for a bed .", "bliss"),
    ("[patient] ivy sends her love , by the way .", "ivy"),
    ("[patient] i'm waiting on starling to pick me up .", "starling"),
]

#: the transfer check, written after the rule and run once (not tuned on)
TRANSFER = [
    ("[patient] robin was brilliant with me when i came round .", "robin"),
    ("[patient] dawn couldn't make it today , her car's broken .", "dawn"),
    ("[patient] fern and her husband drove up from leeds .", "fern"),
    ("[patient] rowan , who works at the chemist , sorted it .", "rowan"),
    ("[patient] i'll need to speak to hunter about it .", "hunter"),
    ("[patient] that was chase on the phone , he's running late .", "chase"),
    ("[patient] we got wade phoning the council for us .", "wade"),
    ("[patient] crane wouldn't leave my side all night .", "crane"),
    ("[patient] i was round at fox's when it started .", "fox"),
    ("[patient] miller has been really kind to me .", "miller"),
    ("[patient] i'm waiting for baker to ring me back .", "baker"),
    ("[patient] king won't stop fussing over me .", "king"),
    ("[patient] lane and the kids are away till monday .", "lane"),
    ("[patient] it was drew at the door just now .", "drew"),
    ("[patient] pierce sends his love .", "pierce"),
]

#: the transfer check's words as words, run once: the four replaced were marked (main's too; the fifth, "dawn couldn't
#: come quick enough", this rule's, is mended: seventeenth session; "my grandad said" is kept since name_pacific_words)
_MISSED = {
    "[patient] i was at king's for the scan .": "main's too (a hospital named for a person)",
    "[patient] baker's yeast sets off my rash .": "main's too",
    "[patient] drew a picture for me , my grandson did .": "main's too ('grandson' made neutral)",
}
TRANSFER_WORDS = [
    "[patient] robin was on the feeder again this morning .",
    "[patient] dawn couldn't come quick enough , i was awake all night .",
    "[patient] fern and the moss grow by the shed .",
    "[patient] crane and the diggers were outside at six .",
    "[patient] that was fox on the lawn last night , not a cat .",
    "[patient] i was at king's for the scan .",
    "[patient] lane closures won't help my journey .",
    "[patient] pierce the skin and it stings .",
    "[patient] hunter green is my favourite colour .",
    "[patient] chase it down with water , the pharmacist said .",
    "[patient] wade in slowly , the physio said .",
    "[patient] miller's thumb is a fish , my grandad said .",
    "[patient] baker's yeast sets off my rash .",
    "[patient] drew a picture for me , my grandson did .",
    "[patient] grace was said before dinner at the home .",
]

#: the same places with the words as words (deid_dev38.py's words as words among them)
NEGATIVES = [
    "[patient] basil is lovely with tomatoes .",
    "[patient] rosemary won't grow in our garden .",
    "[patient] jasmine won't flower this year .",
    "[patient] lily pads and the kids' boats were on the pond .",
    "[patient] sage and the other herbs are in the window .",
    "[patient] that was heron on the pond , not a crane .",
    "[patient] that was moor land up there , all bog .",
    "[patient] that was bold of him last week .",
    "[patient] that was holly on the door , not mistletoe .",
    "[patient] the one who found me was gentle .",
    "[patient] the one who called was strange , he didn't leave a name .",
    "[patient] i was at the butcher's when i fell .",
    "[patient] we got sage growing out the back .",
    "[patient] i got jasmine climbing up the fence .",
    "[patient] she was so gentle with me .",
]


@pytest.mark.parametrize("text,gone", WRITTEN_FROM + TRANSFER)
def test_a_word_name_where_only_a_person_stands(text, gone):
    out = _out(text)
    assert f" {gone} " not in out and f" {gone}'s " not in out and "[NAME]" in out, out


@pytest.mark.parametrize("text", [pytest.param(t, marks=pytest.mark.xfail(reason=_MISSED[t], strict=True))
                                  if t in _MISSED else t for t in TRANSFER_WORDS] + NEGATIVES)
def test_the_word_as_a_word_stays(text):
    out = deidentify_text(text, gender=False)[0].split()
    assert all(w in out for w in text.split()), out


def test_the_word():
    assert may_be_predicate_name("heron") and may_be_predicate_name("jay")
    assert not may_be_predicate_name("basil")  # a herb: a mass noun
    assert not may_be_predicate_name("summer") and not may_be_predicate_name("the")


def test_the_capitalised_name_is_other_rules():
    assert "Jay" not in _out("[patient] Jay was lovely with me after the operation .")


def test_linear_in_the_text():
    unit = "[patient] heron was lovely with me . that was heron on the pond . basil is lovely with tomatoes .\n"
    times = []
    for n in (200, 800):
        text = unit * n
        t0 = time.perf_counter()
        deidentify_text(text)
        times.append(time.perf_counter() - t0)
    assert times[1] < times[0] * 8, times


@pytest.mark.parametrize("text", [
    "[patient] dawn couldn't come quick enough , i was awake all night .",
    "[patient] dawn couldn't come soon enough .",
    "[patient] spring can't come fast enough .",
])
def test_come_soon_enough_is_said_of_a_time(text):
    """Issue 50, seventeenth session: "couldn't come quick / soon / fast enough" is said of a time or a thing longed
    for, not of a person who cannot come."""
    assert deidentify_text(text, gender=False)[0] == text


@pytest.mark.parametrize("text,gone", [
    ("[patient] dawn couldn't come today , her car's broken .", "dawn"),
    ("[patient] dawn can't come in till friday .", "dawn"),
    ("[doctor] who came with you ?\n[patient] my daughter dawn . dawn couldn't come today though .", "dawn"),
])
def test_dawn_the_person_who_cannot_come_is_still_taken(text, gone):
    out = _out(text)
    assert f" {gone} " not in out and "[NAME]" in out, out
