"""A capitalised surname that the lists hold as a function word, inside cased prose (issue 50, twenty-eighth
session): "Young" is among the commonest surnames of the US, the UK, Samoa and China (and a Korean given name), and the
word lists call "young" a function word and a condition word ("young child"), so the detector passed it over in
every place: "I'm worried about Young, he has not eaten", "Did you get the referral from Young or from the clinic?",
"Is it Sione R. Young on the insurance?", "Patient name: Young, Sione" kept it (362 of 795 development forms).

Capitalised inside a sentence, English writes "young" so only in a heading's title case ("Young Adult Services",
"Young People's Clinic") or an eponym ("Young's syndrome"), so :func:`open_surname_capitals` takes a word of
:data:`.vocab.OPEN_SURNAMES` written with one capital, where no sentence starts, that no person's noun
(:data:`.name_neighbour_words.PERSON_NOUNS`: "Young Men", "Young Adult") and no capitalised word of a heading follows
("Young Onset Dementia"), and not after a determiner ("the Young Adult"). The caller drops it where no person stands
(``person_here``: "Young's syndrome", "Young Medical Center"). Lower case is :func:`.name_neighbour_words
.open_surname`'s. Used by :mod:`.name_detect` (source ``rule``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .name_neighbour_words import PERSON_NOUNS
from .name_no_person import sentence_start
from .name_tokens import Tok, key_indices, word_before
from .name_word import DETERMINERS
from .vocab import OPEN_SURNAMES

__all__ = ["open_surname_capitals"]

#: the word after: a capitalised word of a heading's title case ("Young Onset"), or a lower-case word
_NEXT = re.compile(r"(?:['’]s)?[ \t]+([A-Za-z]+)")


def open_surname_capitals(text: str, toks: Sequence[Tok]) -> list[Tok]:
    """The words of :data:`.vocab.OPEN_SURNAMES` in ``toks`` written with one capital inside a sentence of ``text``,
    no person's noun or capitalised word after, no determiner before (the module's docstring)."""
    out: list[Tok] = []
    for i in key_indices(toks, OPEN_SURNAMES):
        t = toks[i]
        if not (t.text[:1].isupper() and t.text[1:].islower()) or sentence_start(text, t.start) \
                or word_before(text, t.start).lower() in DETERMINERS:
            continue
        m = _NEXT.match(text, t.end)
        if m is not None and (m.group(1)[:1].isupper() or m.group(1).lower() in PERSON_NOUNS):
            continue
        out.append(t)
    return out
