"""A surname that is a common English adjective, noun or verb, after a given name found or alone where only a person
stands, in lower case (issue 50, sixteenth session, :mod:`clinaudit.perturb.name_word_surnames`). Hand-written
examples: the places the rule was written from (names in no set), a transfer check of 15 names and 15 words as words
written after the rule and looked at only to be run, and the negatives (the same places with the words as words)."""

from __future__ import annotations

import time

import pytest

from clinaudit.perturb.deid import deidentify_text
from clinaudit.perturb.name_word_surnames import may_be_word_surname


def _out(text: str) -> str:
    return deidentify_text(text)[0]


#: the places the rule was written from, with names in no set
WRITTEN_FROM = [
    ("[patient] morag wild rang the surgery for me .", "wild"),
    ("[patient] so gavin stout popped in yesterday .", "stout"),
    ("[patient] tegan broad and her husband live next door .", "broad"),
    ("[doctor] is shaun bush your next of kin ?", "bush"),
    ("[doctor] has leanne pinch been in touch ?", "pinch"),
    ("[patient] i go to church with trevor dart on sundays .", "dart"),
    ("[doctor] can you send a copy to carly quick as well ?", "quick"),
    ("[patient] my daughter-in-law is mhairi hawk .", "hawk"),
    ("[patient] i asked fraser brace to pick up my tablets .", "brace"),
    ("[patient] we had jarrod mould round for dinner .", "mould"),
    ("[patient] me and lachlan heron walk the dog every morning .", "heron"),
    ("[patient] sorry , who ? oh , rook , from the pharmacy .", "rook"),
    ("[patient] me and heron went to the match .", "heron"),
    ("[patient] heron and i went to the walk-in centre .", "heron"),
    ("[patient] ask heron , she'll know .", "heron"),
    ("[patient] we went round to heron's for tea .", "heron"),
    ("[patient] heron's boy gave me a lift .", "heron"),
    ("[patient] heron from number twelve found me .", "heron"),
    ("[patient] nobody came except heron and her lad .", "heron"),
    ("[patient] i've known heron for thirty years .", "heron"),
]

#: written after the rule, looked at only to be run (names in none of the sets or the probes)
TRANSFER = [
    ("[patient] so niamh gentle phoned the ward this morning .", "gentle"),
    ("[patient] has connor bold had his jabs ?", "bold"),
    ("[patient] is maeve steward your mum ?", "steward"),
    ("[patient] i went to bingo with colm swift on tuesday .", "swift"),
    ("[patient] we had aoibheann noble over for christmas .", "noble"),
    ("[patient] my sister is tracey pollock .", "pollock"),
    ("[patient] me and shona younger go swimming on fridays .", "younger"),
    ("[patient] i asked gillian sheen to ring the surgery .", "sheen"),
    ("[patient] ruairi grove popped round with a casserole .", "grove"),
    ("[patient] who ? oh , warden , from the housing office .", "warden"),
    ("[patient] me and cruickshank went fishing .", "cruickshank"),
    ("[patient] ask keeper , he'll know where it is .", "keeper"),
    ("[patient] i stopped at butler's for lunch .", "butler"),
    ("[patient] only marshal knows the code .", "marshal"),
    ("[patient] paddy rook drove me to the hospital .", "rook"),
]
#: of these, main before the rule took 11 (not "younger", "warden", "keeper", "butler"); this rule takes all 15

#: the same places with words as words (written after the rule, looked at only to be run); 12 of 15 stay, as on main
TRANSFER_WORDS = [
    "[patient] i went to bingo with colm last tuesday .",
    "[patient] has connor bold ideas about his treatment ?",
    "[patient] who ? oh , nobody important .",
    "[patient] ask reception , they'll know where it is .",
    "[patient] the one who helped was noble about it .",
    "[patient] we had aoibheann home for christmas .",
    "[patient] a swift recovery is what we want .",
    "[patient] the warden came round at six .",
    "[patient] i keep a gentle routine now .",
    "[patient] my sister is tracey , she's younger than me .",
    "[patient] we went to the grove for a picnic .",
    "[patient] there was a sheen on the skin after the cream .",
]
#: the transfer check's three words as words replaced, each by an older rule, on main before this rule too
TRANSFER_WORDS_TAKEN = [
    ("[patient] is niamh gentle with you when she does the dressing ?",
     "[patient] is [NAME] with you when the patient does the dressing ?"),
    ("[patient] i asked gillian nicely to ring the surgery .", "[patient] i asked [NAME] to ring the surgery ."),
    ("[patient] me and grove walks are a thing of the past .", "[patient] me and [NAME] walks are a thing of the past ."),
]

#: the words as words in the rule's places: after a given name (an adjective, an object, an adverb), alone
NEGATIVES = [
    "[patient] i gave trevor a ring last night .",
    "[patient] leanne 's main worry is the stairs .",
    "[patient] i stay with leanne most weekends .",
    "[patient] i told carly straight , no more takeaways .",
    "[doctor] is sarah better ?",
    "[patient] i left my bag with sarah upstairs .",
    "[patient] the one who called was strange , he didn't leave a name .",
    "[patient] sorry , who ? oh , never mind .",
    "[patient] me and house work don't mix these days .",
    "[patient] swallow and i choke , that's the problem .",
    "[patient] ask the chemist , she'll know the dose .",
    "[patient] we went round to the house for tea .",
    "[patient] the house from across the road was sold .",
    "[patient] i've known strange pains like this for years .",
    "[patient] nobody came except the main doctor .",
]


@pytest.mark.parametrize("text,gone", WRITTEN_FROM + TRANSFER)
def test_a_word_surname_where_only_a_person_stands(text, gone):
    out = _out(text)
    assert f" {gone} " not in out and f" {gone}'s " not in out and "[NAME]" in out, out


#: the persons named beside the words (their given names go, found by older rules)
PERSONS = frozenset("colm connor tracey leanne trevor carly sarah aoibheann".split())


@pytest.mark.parametrize("text", TRANSFER_WORDS + NEGATIVES)
def test_the_word_as_a_word_stays(text):
    out = deidentify_text(text, gender=False)[0].split()
    assert all(w in out for w in text.split() if w not in PERSONS), out


#: a word after a given name that older rules take with it, on main before this rule too (the detector's "leanne
#: keen", a rule's "sarah then"); this rule never reads an adverb ("then") and asks "your", "been" after "is X Y"
OLDER = [
    ("[doctor] is leanne keen on the idea of surgery ?", "[doctor] is [NAME] on the idea of surgery ?"),
    ("[patient] so sarah then rang the surgery .", "[patient] so [NAME] rang the surgery ."),
]


@pytest.mark.parametrize("text,out", TRANSFER_WORDS_TAKEN + OLDER)
def test_the_transfer_words_older_rules_take(text, out):
    assert _out(text) == out


def test_only_the_name_goes():
    assert _out("[patient] morag wild rang the surgery for me .") == "[patient] [NAME] rang the surgery for me ."
    assert _out("[patient] me and heron went to the match .") == "[patient] me and [NAME] went to the match ."


def test_what_the_word_may_be():
    assert all(map(may_be_word_surname, "wild stout broad bush main chambers house strange ring".split()))
    assert not any(map(may_be_word_surname, "then never home again better upstairs nicely shopping monday will".split()))


def test_no_quadratic_path():
    """200 kB of the set's shapes, repeated, read in about the time of 50 kB four times (no text read per word)."""
    unit = ("[patient] me and heron went to the match . sorry , who ? oh , rook . ask heron , she'll know . "
            "we went round to heron's for tea . is shaun bush your next of kin ? i go with trevor dart on sundays .\n")
    small, big = unit * (50_000 // len(unit)), unit * (200_000 // len(unit))
    _out(small)
    t0 = time.process_time()
    _out(small)
    t1 = time.process_time()
    _out(big)
    t2 = time.process_time()
    assert t2 - t1 < 8 * (t1 - t0) + 0.5, (t1 - t0, t2 - t1)
