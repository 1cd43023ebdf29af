"""A lower-case given name and surname that are English words, before what only a person does (issue 50, eighth
session): "autumn sterling drives me to my appointments", "fern moss from church brought me soup", "clay frost , my
neighbor , found me". A gazetteer given name before a gazetteer surname is two words in lower case ("hope long",
"grace hill"), and :func:`.name_mentions.given_and_surname` takes such a pair only when both are rare in English;
a verb only a person does right after the pair (where the person comes from maybe between), or a relative set off by
commas after it, says the two are one person's name.

Taken: both words, each a gazetteer name (the first a given name, the second a surname) English text uses less than
Zipf :data:`.name_roles.ROLE_ZIPF`, no function, demographic, drug, specialty, spoken or relative's word, no clinical
word but a condition's ("hay", "snow"), in lower case with one space between, not after a determiner or a possessive
("the grace period", "my long term"), nor where no person stands (``no_person_at``). The dialog's other mentions of
them follow (:func:`.name_mentions.other_mentions`). Used by :func:`.name_mentions.given_and_surname`, which reads
the pairs of a given name and a surname once for both rules.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from .name_roles import ROLE_ZIPF
from .name_tokens import Tok
from .name_word import OWNERS, RELATIVES, SEP_SPACE, blocked, word_facts
from .vocab import POSSESSIVE_PATTERN, SPOKEN_WORDS, english_zipf

__all__ = ["person_pair"]

#: what only a person does, right after the name (where the person comes from or works maybe between), or a relative
#: set off by commas ("clay frost , my neighbor , found me")
_AFTER = re.compile(r"(?:[ \t]+(?:from|at)[ \t]+(?:the[ \t]+)?[a-z]+)?[ \t]+(?:said|says|told|tells|thinks|thought|"
                    r"drove|drives|brought|brings|called|calls|texted|texts|visited|visits|wants|wanted|knows|knew|"
                    r"mentioned|mentions|suggested|suggests|asked|asks|helped|helps)\b"
                    rf"|[ \t]*,[ \t]*{POSSESSIVE_PATTERN}([a-z\-]+)[ \t]*,")


def _part_may_be(key: str) -> bool:
    if not key.isalpha() or len(key) < 2 or key in SPOKEN_WORDS or key in RELATIVES:
        return False
    w = word_facts(key)
    return w.gazetteer and not blocked(w) and w.clinical in (None, "condition") and english_zipf(key) < ROLE_ZIPF


def person_pair(text: str, toks: Sequence[Tok], i: int, no_person_at: Callable[[str, int, int], bool]) -> bool:
    """``toks[i]``, ``toks[i + 1]`` (a gazetteer given name and surname: the caller's pair) stand before a person's
    verb or a relative set off by commas (the module's docstring)."""
    a, b = toks[i], toks[i + 1]
    m = _AFTER.match(text, b.end)  # first: most pairs have no person's verb after them
    if m is None or m.group(1) is not None and m.group(1) not in RELATIVES:
        return False
    if not (a.text.islower() and b.text.islower() and SEP_SPACE.fullmatch(text, a.end, b.start)):
        return False
    if i > 0 and toks[i - 1].key in OWNERS or not (_part_may_be(a.key) and _part_may_be(b.key)):
        return False
    return not (no_person_at(text, a.start, a.end) or no_person_at(text, b.start, b.end))
