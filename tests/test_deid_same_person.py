"""A full name's parts said again alone, and a word surname after any given name found said again where only a person
stands (issue 50, sixteenth session, :mod:`clinaudit.perturb.name_same_person`). Hand-written examples: the places the
rule was written from (names in no set), the same words as words beside the same person's name (what is right
there), a transfer check of 15 names and 15 words as words written after the rule and looked at only to be run, and
the time bound."""

from __future__ import annotations

import re
import time

import pytest

from clinaudit.perturb.deid import deidentify_text


def _out(text: str) -> str:
    return deidentify_text(text)[0]


def _left(out: str, word: str) -> int:
    return len(re.findall(rf"\b{word}\b", out, flags=re.IGNORECASE))


#: the places the rule was written from (the brief's probes; names in no set): every occurrence of the word is the name
WRITTEN_FROM = [
    ("[patient] james hill told me .", "hill"),
    ("[patient] john ward rang .", "ward"),
    ("[patient] peter salt , my neighbour .", "salt"),
    ("[patient] it's ward , sarah ward .", "ward"),
    ("[patient] It's Hill, Sarah Hill.", "hill"),
    ("[patient] sarah ward came . ward is lovely .", "ward"),
    ("[patient] my carer is tessa quill . quill comes at nine .", "quill"),
    ("[doctor] I had a call from Ross Gable. Did Gable mention the scan?", "gable"),
    ("[patient] i'll ring mabel fern , fern has my keys .", "fern"),
]


@pytest.mark.parametrize("text,word", WRITTEN_FROM)
def test_the_person_said_again_is_taken(text: str, word: str) -> None:
    assert _left(_out(text), word) == 0, _out(text)


#: the same word as a word beside the same person's name: after an article, a possessive, "of" or a preposition of
#: place, or before another word, it is the thing or the place again, and it stays
WORD_BESIDE_NAME = [
    ("[patient] sarah hill walked up the hill .", "up the hill ."),
    ("[patient] Sarah Hill lives on the hill.", "on the hill."),
    ("[patient] my neighbour james ward came . ward six was busy .", "ward six was busy"),
    ("[patient] peter salt came . pass the salt .", "pass the salt ."),
    ("[patient] It's Hill, Sarah Hill. My house is up a hill.", "up a hill."),
]


@pytest.mark.parametrize("text,kept", WORD_BESIDE_NAME)
def test_the_word_beside_the_name_stays(text: str, kept: str) -> None:
    assert _out(text).endswith(kept) or kept in _out(text), _out(text)


#: written after the rule was done and run once; what it gets is reported (docs/deidentification.md), not tuned on:
#: 15 full names of the kind and the same person again, and 15 of the same words as words beside such a name
TRANSFER_NAMES = [
    ("[patient] it's crisp , wendy crisp , for the two o'clock .", "crisp"),
    ("[patient] my lodger is owen marsh . marsh pays the rent on time .", "marsh"),
    ("[patient] That was Shona Pike on the phone. Pike says she'll be late.", "pike"),
    ("[patient] tell deirdre carpenter i said thanks . carpenter fixed my door .", "carpenter"),
    ("[doctor] Has Moira Hedge rung? I asked Hedge to bring the forms.", "hedge"),
    ("[patient] sorry , it's lamb . gordon lamb .", "lamb"),
    ("[patient] Aidan Frost dropped me off. Frost is my son-in-law.", "frost"),
    ("[patient] i live with kerry gale . gale does the driving .", "gale"),
    ("[patient] The carer, Bernadette Moon, comes daily. Moon thinks I'm eating better.", "moon"),
    ("[patient] trish cotton came with me . cotton wanted to ask about the tablets .", "cotton"),
    ("[patient] I'm Niall Flint. Flint, like the stone.", "flint"),
    ("[doctor] Dr Patel wants to see Ruth Steele. Ruth, come through.", "ruth"),
    ("[patient] yvonne badger is my sister . badger will bring me next time .", "badger"),
    ("[patient] Stuart Coin rang earlier. Did Coin leave a number?", "coin"),
    ("[patient] me and hilary crane go walking . crane knows all the paths .", "crane"),
]
TRANSFER_WORDS = [
    ("[patient] wendy crisp brought me a bag of crisp apples .", "crisp"),
    ("[patient] owen marsh walked me across the marsh .", "marsh"),
    ("[patient] Shona Pike caught a pike in the lake.", "pike"),
    ("[patient] gordon lamb cooked roast lamb for sunday .", "lamb"),
    ("[patient] Aidan Frost said the frost got his roses.", "frost"),
    ("[patient] kerry gale says there's a gale coming .", "gale"),
    ("[patient] Bernadette Moon likes to look at the moon.", "moon"),
    ("[patient] trish cotton wears cotton , it's kinder on the skin .", "cotton"),
    ("[patient] Niall Flint found a flint on the beach.", "flint"),
    ("[patient] yvonne badger saw a badger in her garden .", "badger"),
    ("[patient] Stuart Coin lost a coin down the drain.", "coin"),
    ("[patient] hilary crane says crane is the tallest bird .", "crane"),
    ("[patient] moira hedge cut the hedge back for me .", "hedge"),
    ("[patient] deirdre carpenter is a carpenter by trade .", "carpenter"),
    ("[patient] Gale force winds, Kerry Gale told me.", "gale"),
]

#: what the transfer check got (run once, after the rule): names with every occurrence taken, word sentences with the
#: word kept (the name's own occurrence aside)
TRANSFER_RESULT = (15, 11)  # main 70ba364: (12, 11); the 4 words taken are taken on main too; (14, 11) until the
# twenty-sixth session's cased mentions (name_cased_mentions) took "Did Coin leave a number?" after "[Stuart Coin] rang"


def transfer_counts() -> tuple[int, int]:
    names = sum(_left(_out(t), w) == 0 for t, w in TRANSFER_NAMES)
    words = sum(_left(_out(t), w) >= 1 for t, w in TRANSFER_WORDS)  # the word sense (the name's may be taken)
    return names, words


def test_transfer_check_as_reported() -> None:
    assert transfer_counts() == TRANSFER_RESULT


def test_a_text_of_full_names_said_again_stays_linear() -> None:
    """200 kB of full names and their parts said again (and the same words as words): linear, no step per pair."""
    unit = ("[patient] it's ward , sarah ward . ward is lovely . we walked up the hill with james hill , hill said "
            "fine .\n[doctor] okay .\n")
    small, big = unit * 250, unit * 2000
    t0 = time.perf_counter()
    _out(small)
    t1 = time.perf_counter()
    _out(big)
    t2 = time.perf_counter()
    assert len(big) > 200_000
    assert (t2 - t1) < 8 * 2 * (t1 - t0) + 1.0
