"""name_particle_apart and name_accented (issue 50, fourteenth session): an Irish or Scottish surname whose particle
is written apart ("o brien", "ó briain", "mc cue", "ua buachalla") is one name, the whole span replaced; a word
written with an accent English never writes on it, whose folded letters are a word ("síle", "bríd"), is a word in no
list. The particles and the folded words as words stay."""

from __future__ import annotations

import pytest

from clinaudit.perturb.deid import deidentify_text
from clinaudit.perturb.name_accented import accented_unknown
from clinaudit.perturb.name_particle_apart import surname_apart


def _out(text: str) -> str:
    return deidentify_text(text)[0]


@pytest.mark.parametrize(("particle", "stem"), [
    ("o", "brien"), ("o", "hare"), ("o", "dubhghaill"), ("ó", "briain"), ("ó", "dálaigh"), ("ní", "bhraonáin"),
    ("ua", "buachalla"), ("mac", "coinnich"), ("mc", "cue"), ("mc", "fall"), ("fitz", "harris"),
])
def test_a_particle_and_its_stem_are_a_surname(particle, stem):
    assert surname_apart(particle, stem)


@pytest.mark.parametrize(("particle", "stem"), [
    ("o", "negative"), ("o", "positive"), ("o", "ring"), ("o", "line"), ("o", "so"), ("o", "nine"), ("o", "plan"),
    ("mac", "and"), ("mac", "book"), ("mac", "cheese"), ("mac", "is"), ("mac", "infection"), ("mc", "at"),
    ("fitz", "hotel"), ("ni", "hotel"), ("o", "dear"),
])
def test_a_particle_before_a_word_is_no_surname(particle, stem):
    assert not surname_apart(particle, stem)


@pytest.mark.parametrize(("text", "gone"), [
    ("i talked to mr o brien yesterday .", "brien"),
    ("i talked to john o brien yesterday .", "brien"),
    ("ask o hare about it .", "hare"),
    ("i talked to ó briain yesterday .", "briain"),
    ("mc cue came with me today .", "cue"),
    ("it was ua buachalla who drove me .", "buachalla"),
    ("me , mac coinnich and my son live there .", "coinnich"),
    ("I talked to Mr O Brien yesterday.", "Brien"),
    ("Mc Cool is picking me up.", "Cool"),
])
def test_a_surname_written_apart_is_replaced_whole(text, gone):
    out = _out(text)
    assert "[NAME]" in out and gone not in out.split()


@pytest.mark.parametrize("text", [
    "my blood type is o negative .", "we have two units of o positive ready .", "the o2 sats dropped to eighty eight .",
    "i had mac and cheese for dinner .", "the mac is slow so i couldn't book online .", "my mac mini is broken .",
    "a big mac meal on the way in .", "the number is zero , o , two , four .", "i've got an o ring leaking .",
    "it's the o line on the bus timetable .", "Your O2 is fine, and the MAC was normal.",
    "The MAC infection is treated with three antibiotics.", "this is a de novo mutation .",
    "grade o reflux on the scope .", "the mc at the wedding was hilarious .",
])
def test_the_particles_as_words_stay(text):
    assert _out(text) == text


@pytest.mark.parametrize("word", ["síle", "Síle", "bríd", "Bríd"])
def test_an_accent_english_never_writes(word):
    assert accented_unknown(word)


@pytest.mark.parametrize("word", ["café", "résumé", "naïve", "sile", "brid", "séan", "crème", "née"])
def test_an_accent_english_writes_or_no_accent(word):
    assert not accented_unknown(word)


@pytest.mark.parametrize("text", [
    "síle came with me today .", "i talked to bríd yesterday .", "Síle came with me today.", "ask bríd about it .",
])
def test_an_accented_given_name_is_replaced(text):
    assert "[NAME]" in _out(text)


@pytest.mark.parametrize("text", [
    "i had a café au lait .", "my résumé is out of date .", "that was naïve of me .", "the sile on the tap is broken .",
])
def test_english_accents_and_the_folded_words_stay(text):
    assert _out(text) == text


# The transfer check: sentences written after the rule, not looked at while writing it (main 4388e4b: 16 of 20 names,
# the first 15 in the same places; 14 of 15 words, "mac and i" taken as a person on main too).
@pytest.mark.parametrize(("text", "gone"), [
    ("i spoke to mr o rourke this morning .", "rourke"), ("ask ó súilleabháin to ring me .", "súilleabháin"),
    ("mac dhùghaill came in with me .", "dhùghaill"), ("my neighbour nic amhlaoibh drove me .", "amhlaoibh"),
    ("it was o kelleher who found me .", "kelleher"), ("tell mc gonagle i said thanks .", "gonagle"),
    ("i was with o neachtain all afternoon .", "neachtain"), ("i got a lift from o hagan .", "hagan"),
    ("Mrs Ní Chonaill is here for her bloods.", "Chonaill"), ("i talked to bríghid yesterday .", "bríghid"),
    ("síomha came with me today .", "síomha"), ("ask máirtín about it .", "máirtín"),
    ("i talked to mc kenna yesterday .", "kenna"), ("mac sween is picking me up .", "sween"),
    ("me , o mara and the kids all had it .", "mara"),
    ("i talked to mc cord yesterday .", "cord"), ("mc cash came with me today .", "cash"),
    ("ask mc master about it .", "master"), ("it was mc keen who drove me .", "keen"),
    ("tell o hurley i said hi .", "hurley"),
])
def test_transfer_names(text, gone):
    assert gone not in _out(text).split()


@pytest.mark.parametrize("text", [
    "o positive blood is in short supply .", "the o2 mask was on all night .",
    "my mac crashed again last night .", "i love mac n cheese .", "we had a big mac after the scan .",
    "type o donors are always needed .", "zero o one is the code .", "the mc was my cousin .",
    "i use my mac book for email .", "say o like in orange .", "o dear , what a day .",
    "the mac mini is in the spare room .", "he is blood group o , same as me .", "de facto she is my carer .",
])
def test_transfer_words(text):
    assert "[NAME]" not in _out(text)


@pytest.mark.parametrize("text,expected", [
    # fifteenth session: a surname with its particle, followed by a possessive "'s", was lost whole, cased and lower
    # case (the patterns ended where no apostrophe follows: "O'Brien's mum" kept "O'Brien")
    ("O'Brien's mum is here.", "[NAME]'s mum is here."),
    ("Mrs. O'Neill's son came.", "[NAME]'s son came."),
    ("N'Diaye's car is outside.", "[NAME]'s car is outside."),
    ("o'brien's mum is on the list too .", "[NAME]'s mum is on the list too ."),
    ("i'm staying at o'sullivan's place .", "i'm staying at [NAME]'s place ."),
    ("we went to d'angelo's house .", "we went to [NAME]'s house ."),
    ("i saw mc cue's car outside .", "i saw [NAME]'s car outside ."),
    ("ó briain's son came .", "[NAME]'s son came ."),
    # a word of an apostrophe's kind that is no name stays, possessive or not
    ("it was five o'clock's news .", "it was five o'clock's news ."),
    ("blood type o's are common .", "blood type o's are common ."),
])
def test_a_particle_surname_before_a_possessive(text, expected):
    assert _out(text) == expected
