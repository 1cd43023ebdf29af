"""A word that opens a sentence listed with a name found (issue 50, twenty-first session): "Benjamin, [Siosaia], my
aunt, they all had it", "Hyacinth, [Siosaia], and me all had the same rash", "tang, [siosaia] and i went".

In cased prose a capital at a sentence's start says nothing by itself (:func:`.name_writing.capital_at_start` reads
only a lower-case word after it, so "Benjamin, Siosaia, my aunt" kept "Benjamin"). A name found right after it, set
off by a comma, "and" or "&", in a list that goes on with "and me", "and I", "and my ...", or a comma and "my" and a
relative's word, says the first word is listed with a person too. The list's end is read, not only the comma, so an
address ("Okay, Sarah, my plan is ...", "Well, John, and I'll ...") is no list.

The word: capitalised, a gazetteer name that is no function, demographic, drug or spoken word nor a clinical word
(:func:`.name_slot_kinds.may_name`), no relative's or kin's word ("Nana"), and no word said on its own where a name is addressed
(:data:`.name_person_only.NOT_ADDRESSED`: "Perfect, Tom, and I ..."); in lower case, only a given name English text
uses less than Zipf 4.5 (:func:`.name_neighbour_words.lower_word_name`); never where no person stands. Used by
:mod:`.name_detect` (source ``rule``).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable, Sequence

from .name_neighbour_words import lower_word_name
from .name_person_only import NOT_ADDRESSED
from .name_slot_kinds import may_name
from .name_tokens import Tok, starts_of
from .name_word import RELATIVES
from .vocab import KIN_CALLS

__all__ = ["listed_with_names"]

#: between the word and the name found: a comma, "and" or "&"
_JOIN = re.compile(r"[ \t]*,[ \t]*|[ \t]+(?:and|&)[ \t]+")
#: after the name found: the list goes on with the speaker or a relative ("and me", ", and I ", ", my aunt")
_GOES_ON = re.compile(r"(?i)[ \t]*,?[ \t]+and[ \t]+(?:me|myself|i(?![\w'’])|my|his|her|our|their)(?![\w'’])"
                      r"|[ \t]*,[ \t]*my[ \t]+([a-z\-]+)")
#: kin said as a name ("Nana, [Sione] and me went"): no person's own name
_KIN = KIN_CALLS
#: only spaces, quotes or an opening bracket between the word and its sentence's start
_OPENS = re.compile(r"(?:^|[.!?:\n\]])[ \t\"'“(]*$")


def listed_with_names(text: str, toks: Sequence[Tok], found: Sequence[tuple[int, int]],
                      no_person_at: Callable[[str, int, int], bool]) -> list[Tok]:
    """The words that open a sentence listed with a name of ``found`` (the module's docstring)."""
    if not found:
        return []
    starts = starts_of(toks)  # only the words right before a name found are read (bisection, not every word)
    out: list[Tok] = []
    for s, e in sorted(set(found)):
        i = bisect_left(starts, s) - 1
        if i < 0 or i + 1 >= len(toks) or starts[i + 1] != s:
            continue
        t = toks[i]
        if not _JOIN.fullmatch(text, t.end, s) or not _OPENS.search(text[max(0, t.start - 8):t.start]):
            continue
        m = _GOES_ON.match(text, e)
        if not m or m.group(1) is not None and m.group(1).lower() not in RELATIVES:
            continue
        if t.key in RELATIVES or t.key in _KIN or t.key in NOT_ADDRESSED or not may_name(t, gazetteer=True) \
                or not (t.capital and not t.text.isupper() or t.text.islower() and lower_word_name(t.key)) \
                or no_person_at(text, t.start, t.end):
            continue
        out.append(t)
    return out
