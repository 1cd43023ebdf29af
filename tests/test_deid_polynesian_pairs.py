"""A name of two Polynesian-shaped parts that no rule takes alone (issue 50, seventeenth session,
:mod:`clinaudit.perturb.name_polynesian_pairs`). Hand-written examples: the places the rule was written from (names
in no set), a transfer check of 15 names and 15 words as words written after the rule and looked at only to be run
(with main's counts), the negatives, and a 200 kB text of the rule's shape (linear)."""

from __future__ import annotations

import re
import time

import pytest

from clinaudit.perturb.deid import deidentify_text
from clinaudit.perturb.name_no_person import no_person_at
from clinaudit.perturb.name_polynesian_pairs import polynesian_pairs, polynesian_part
from clinaudit.perturb.name_tokens import tokens


def _out(text: str) -> str:
    return deidentify_text(text)[0]


def _left(out: str, name: str) -> list[str]:
    return [p for p in name.split() if re.search(rf"(?<![\w']){p}(?![\w])", out)]


#: the places the rule was written from, with names in no set: parts the lists hold as rare words ("koro", "toga",
#: "mote", "soli") or read as words run together or with a silent "e" ("henare", "tapine")
WRITTEN_FROM = [
    ("[patient] henare tapine dropped me at the door .", "henare tapine"),
    ("[patient] i'm staying with koro hona till i'm better .", "koro hona"),
    ("[patient] soli toga looks after the kids .", "soli toga"),
    ("[patient] we met loke tapine at the bus stop .", "loke tapine"),
    ("[patient] henare mote found my pills in the bin .", "henare mote"),
    ("[doctor] is soli kele happy to be contacted ?", "soli kele"),
]

#: the transfer check, written after the rule and run once (this rule: 15 of 15 taken; main 40dae43 + dev43's commit:
#: 14 of 15, it leaves "hoki" of "hoki ropata")
TRANSFER = [
    ("[patient] pene tawera picked me up from work .", "pene tawera"),
    ("[patient] i'm going to heke tamehana's for tea .", "heke tamehana"),
    ("[doctor] tipa wihongi rang to say she's running late .", "tipa wihongi"),
    ("[patient] hoki ropata lives two doors down from me .", "hoki ropata"),
    ("[patient] tolo malua is my daughter's godmother .", "tolo malua"),
    ("[patient] my sister lives with leti tusa in porirua .", "leti tusa"),
    ("[patient] we were at vaha pesa's wedding on saturday .", "vaha pesa"),
    ("[doctor] has mafa tagi signed the form yet ?", "mafa tagi"),
    ("[patient] hune matete brought me the paper .", "hune matete"),
    ("[patient] i've asked lopaka kahoano to feed the dog .", "lopaka kahoano"),
    ("[patient] hiki kaahanui sat with me in the waiting room .", "hiki kaahanui"),
    ("[patient] sevuloni vosa is our pastor .", "sevuloni vosa"),
    ("[doctor] shall we send a copy to vilimone kalou ?", "vilimone kalou"),
    ("[patient] pere raukura and her husband run the dairy .", "pere raukura"),
    ("[patient] i told mohi tipoki about the results .", "mohi tipoki"),
]

#: the transfer check's words as words that stay (4 of 15, as on main): the other 11 are replaced on main too, by the
#: detector's rules for words no list holds ("kapa haka", "karakia", "taonga pounamu", "pipi", "taro", "kanuka");
#: this rule adds one word to them: "salami" of "salami panini" (main replaces "panini" alone)
TRANSFER_WORDS_KEPT = [
    "[patient] the tiramisu gelato was lovely .",
    "[patient] hoki fillets and chips on fridays .",
    "[patient] the hangi pit took all day to dig .",
    "[patient] tapa cloth hangs in our lounge .",
]
TRANSFER_WORDS_REPLACED = [
    "[patient] kapa haka practice is on tuesdays .",
    "[patient] matariki karakia were held at dawn .",
    "[doctor] taonga pounamu are precious , i know .",
    "[patient] salami panini for lunch again .",
    "[patient] manuka honey or kanuka honey , it's all the same to me .",
]

#: the rule's words as words, and pairs it must leave: a reduplication, a determiner before, a frequent or short word,
#: capitals (the rule takes none of them; main's other rules replace "kava kava", "kia ora", "tena koe", "aroha nui"
#: and "marae hui", as before)
NEGATIVES = [
    "[patient] kava kava tea helps me sleep .",
    "[patient] i put aloe vera gel on the burn .",
    "[patient] there's a mote in my eye .",
    "[patient] the rota at work is all nights .",
    "[patient] we went to a toga party .",
    "[patient] kia ora , come in .",
    "[patient] tena koe , nice to meet you .",
    "[patient] aroha nui to the nurses .",
    "[patient] we sang at the marae hui .",
    "[patient] MOTE SOLI is on the label .",
]


@pytest.mark.parametrize("text,name", WRITTEN_FROM + TRANSFER)
def test_two_polynesian_parts_are_a_name(text, name):
    out = _out(text)
    assert not _left(out, name) and "[NAME]" in out, out


@pytest.mark.parametrize("text", TRANSFER_WORDS_KEPT)
def test_the_words_as_words_stay(text):
    out = _out(text)
    assert "[NAME]" not in out, out


@pytest.mark.parametrize("text", NEGATIVES)
def test_the_rule_leaves_them(text):
    assert polynesian_pairs(text, tokens(text), no_person_at) == []


#: replaced on main, kept since name_pacific_words (seventeenth session: a vocabulary of Pacific words and their places)
TRANSFER_WORDS_KEPT_SINCE = [
    "[patient] we did a karakia before the tangi .",
    "[patient] i bought a kete harakeke at the market .",
    "[patient] waiata aroha were sung for my dad .",
    "[patient] i keep kumara wedges in the freezer .",
    "[patient] pipi fritters make my lips swell .",
    "[patient] we eat taro leaves with coconut cream .",
]


@pytest.mark.parametrize("text", TRANSFER_WORDS_KEPT_SINCE)
def test_the_transfer_words_kept_since_pacific_words(text):
    assert "[NAME]" not in _out(text)


@pytest.mark.parametrize("text", TRANSFER_WORDS_REPLACED)
def test_the_transfer_words_replaced_as_on_main(text):
    assert "[NAME]" in _out(text)  # recorded, not wanted: main replaces them too (but "salami")


def test_what_a_part_is():
    assert all(map(polynesian_part, ["henare", "tapine", "koro", "hona", "toga", "soli", "loke"]))
    assert not any(map(polynesian_part, ["more", "aloe", "sole", "kia", "koe", "mama", "papa", "nana", "tuesday"]))


def test_linear_on_200_kb():
    line = "[patient] henare tapine and koro hona came , then the kava kava and the marae hui .\n"
    small, big = line * 250, line * 2500
    t0 = time.perf_counter()
    _out(small)
    t1 = time.perf_counter()
    _out(big)
    t2 = time.perf_counter()
    assert len(big) > 200_000
    assert (t2 - t1) < 25 * max(t1 - t0, 0.01), (t1 - t0, t2 - t1)
