"""The person a sentence speaks of, named in an apposition set off by commas (issue 50, fifteenth session;
``benchmarks/deid_dev30.py``): "the patient , manu pule , is 45", "this patient , billy joe , came in with",
"the caller , Sina Faleolo , asked". :func:`.name_roles.relative_names` reads such a name after a relative or a role
("my partner , fern moss ."); a clinic names its patient the same way, and the lead's probe of the fourteenth session
lost both words of "the patient , manu pule , is 45" (and "the patient , earl , is" alone): no rule read the place.

Taken: after "the", "this", "that", "our", "your" or "my" and a person's noun of :data:`PERSON_NOUNS` ("patient",
"client", "resident", "caller", "gentleman", "lady", "child", "baby"), then a comma, one or two words set off by a
comma or ending the sentence, exactly as :func:`.name_roles.set_off` takes them after a relative: in lower case each a
gazetteer name rarer than Zipf 5.0 and no function, demographic, drug, specialty, relative's, role's or spoken word
(the second a surname: "the patient , type two , is" stays, and so does "the patient , however , is"); in cased text
capitalised words that may name a person. Not where the detector says no person stands. Used by :mod:`.name_detect`
(source ``rule``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from .name_roles import set_off
from .name_tokens import Tok, key_indices

__all__ = ["PERSON_NOUNS", "apposed_persons"]

#: a person a clinic speaks of, whose name an apposition may give ("the patient , X ,")
PERSON_NOUNS = frozenset("patient client resident caller gentleman lady child baby".split())
_BEFORE = frozenset("the this that our your my".split())
_COMMA = re.compile(r"[ \t]*,[ \t]*")


def apposed_persons(text: str, toks: Sequence[Tok], no_person_at: Callable[[str, int, int], bool]) -> list[Tok]:
    """The name set off by commas after "the patient" and its like (the module's docstring)."""
    out: list[Tok] = []
    for i in key_indices(toks, PERSON_NOUNS):
        noun = toks[i]
        if i == 0 or i + 1 >= len(toks) or toks[i - 1].key not in _BEFORE:
            continue
        if not re.fullmatch(r"[ \t]", text[toks[i - 1].end:noun.start]) or not _COMMA.fullmatch(
                text, noun.end, toks[i + 1].start):
            continue
        out += set_off(text, toks, i + 1, no_person_at)
    return out
