"""A name that is a word, bare as the subject of a verb only a person does at the start of a clause inside a turn, in
lower case (issue 50, eleventh session, :mod:`clinaudit.perturb.name_clause_subject`): after a conjunction, a filler,
a sentence adverb or a verb reporting a clause, or a quotative after a comma or at a turn's start. Hand-written
examples: the forms of dev17 the rule was written from, a transfer check of 15 sentences of the same kind written
after the rule and looked at only to be run (14 right, the miss by design: "cliff" is a clinical word), and the
negatives (the same places with a determiner, institutions that say and want things, words too frequent)."""

from __future__ import annotations

import pytest

from clinaudit.perturb.deid import deidentify_text


def _out(text: str) -> str:
    return deidentify_text(text)[0]


#: the dev17 forms the rule was written from, with probe names in no set
WRITTEN_FROM = [
    ("[patient] but penny said it was fine .", "penny"),
    ("[patient] apparently baxter thinks it's an allergy .", "baxter"),
    ("[patient] even penny noticed i was limping .", "penny"),
    ("[patient] only hunter knows the code to my door .", "hunter"),
    ("[patient] penny was all , you have to see someone about that .", "penny"),
    ("[patient] and then baxter goes , you need to lose some weight .", "baxter"),
    ("[patient] well , penny thinks i'm overreacting .", "penny"),
    ("[patient] my husband keeps saying hunter told him it was nothing .", "hunter"),
    ("[patient] so baxter wants me to have another test .", "baxter"),
    ("[patient] honestly penny worries more than i do .", "penny"),
]

#: the transfer check: written after the rule, in no set (one miss: "cliff" is a clinical word, never taken)
TRANSFER = [
    ("[patient] but holly said the swelling would go down .", "holly"),
    ("[patient] and then sandy texted me a picture of the rash .", "sandy"),
    ("[patient] apparently dawn reckons it's hay fever .", "dawn"),
    ("[patient] so ivy decided to take me in herself .", "ivy"),
    ("[patient] well , basil thinks i should rest it .", "basil"),
    ("[doctor] because wade asked about the scan , i ordered it .", "wade"),
    ("[patient] honestly , clay never told me any of this .", "clay"),
    ("[patient] my daughter says sandy knows the code .", "sandy"),
    ("[patient] um , holly rang the ward twice .", "holly"),
    ("[patient] when dawn phoned , i was still asleep .", "dawn"),
    ("[patient] even basil agreed it looked worse .", "basil"),
    ("[patient] ivy was like , you need to get that seen .", "ivy"),
    ("[patient] and wade goes , it's probably nothing .", "wade"),
    ("[patient] if clay wants to come in , that's fine .", "clay"),
]


@pytest.mark.parametrize("text, gone", WRITTEN_FROM + TRANSFER)
def test_a_bare_name_as_a_clause_subject(text, gone):
    out = _out(text)
    assert f" {gone} " not in out and "[NAME]" in out, out


def test_the_verb_after_it_stays():
    assert _out("[patient] apparently dawn reckons it's hay fever .") == "[patient] apparently [NAME] reckons it's hay fever ."
    assert _out("[patient] but holly said the swelling would go down .") == (
        "[patient] but [NAME] said the swelling would go down .")


@pytest.mark.parametrize("text", [
    "[patient] but insurance said it wasn't covered .",
    "[patient] and then work wants a sick note .",
    "[patient] apparently school rang about the cough .",
    "[patient] so billing texted me about the copay .",
    "[patient] well , reception said you were running late .",
    "[patient] because pharmacy asked for a new script , i came in .",
    "[patient] even physio thinks it's getting better .",
    "[patient] and the hunter said it was fine .",
    "[patient] a hunter said it was fine .",
    "[patient] the pain goes , then it comes back .",
    "[patient] my penny thinks it's a waste of money .",
    "[patient] and honey said it helps the cough .",
    "[patient] and mum said to come in .",
])
def test_words_that_stay(text):
    assert _out(text) == text
