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
(``person_here``: "Young's syndrome", "Young Medical Center").

In lower case English puts the adjective bare only before a noun ("young people"), after a verb it describes ("you
look young", "she died young") or an adverb ("so young"), never alone after a preposition or a verb of meeting
and telling; :func:`open_surname_bare` takes it there before a clause's end, a possessive or a preposition ("i've
been seeing young for physical therapy", "according to young , the cast", "we will fax the results to young .",
"from young or from the clinic"). After a title or a role it is :func:`.name_neighbour_words.open_surname`'s.
Used by :mod:`.name_detect` (source ``rule``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .name_neighbour_words import PERSON_NOUNS
from .name_no_person import sentence_start
from .name_tokens import Tok, key_indices, word_before
from .name_word import DETERMINERS
from .vocab import OPEN_SURNAMES

__all__ = ["open_surname_bare", "open_surname_capitals"]

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


#: before a bare person: a preposition or a verb of meeting, seeing, telling or sending whose object it is
_PERSON_BEFORE = frozenset("""to with from by about per via cc under seeing see saw seen meet met visit visited call
    called ask asked tell told ring rang phone phoned text texted email emailed page paged fax faxed thank thanks
    contact contacted""".split())
#: after a bare person: a clause's end, a possessive, a preposition or "or" ("from young or from the clinic"), not
#: "old" after one ("from young to old", "young or old")
_PERSON_AFTER = re.compile(r"(?![ \t]+(?:to|or)[ \t]+old(?![\w'’\-]))(?:[ \t]*(?:[.,;:!?](?:[ \t]|$)|$|\n)|['’]s(?![\w'’])"
                           r"|[ \t]+(?:for|about|at|on|in|from|or|to|with|today|yesterday|tomorrow|last|this|next)"
                           r"(?![\w'’\-]))")


def open_surname_bare(text: str, toks: Sequence[Tok]) -> list[Tok]:
    """The lower-case words of :data:`.vocab.OPEN_SURNAMES` in ``toks`` standing bare as a person after a
    preposition or a verb of meeting or telling, before a clause's end, a possessive or a preposition (the module's
    docstring)."""
    out: list[Tok] = []
    for i in key_indices(toks, OPEN_SURNAMES):
        t = toks[i]
        if t.text.islower() and i and toks[i - 1].key in _PERSON_BEFORE and toks[i - 1].end < t.start \
                and text[toks[i - 1].end:t.start].strip(" \t") == "" and _PERSON_AFTER.match(text, t.end):
            out.append(t)
    return out
