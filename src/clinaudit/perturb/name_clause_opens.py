"""Where a clause opens before a word (issue 50, seventeenth session): a turn's or a sentence's start, a break
(punctuation, a line's start, a quote or a bracket) or a word that opens a clause before its subject ("and", "so",
"oh", "well"). :mod:`.name_person_predicates` and :mod:`.name_word_surnames` read it; they wrote the break twice and
the openers with different lists. The break and the openers both read are here once; what each adds stays beside it:
:mod:`.name_word_surnames` also opens a clause after a verb of saying or thinking ("i think [kirsty] main has") and
after "me and"; :mod:`.name_person_predicates` wants only spaces between the opener and the word (``spaced``)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from .name_tokens import Tok

__all__ = ["CLAUSE_BREAK", "OPENERS", "opens_clause"]

#: a clause's break right before a place (search it in the text up to there)
CLAUSE_BREAK = re.compile(r"(?:^|[.!?;:,\n\"“(\]])[ \t]*$")
#: words that open a clause before its subject
OPENERS = frozenset("and so but then because cos oh yeah yes no well anyway plus".split())


def opens_clause(text: str, toks: Sequence[Tok], i: int, openers: frozenset[str] = OPENERS, spaced: bool = False) -> bool:
    """``toks[i]`` opens a clause: the first token, a :data:`CLAUSE_BREAK` before it, or a word of ``openers`` right
    before it (``spaced``: with nothing but spaces and tabs between)."""
    if not i or CLAUSE_BREAK.search(text, toks[i - 1].end, toks[i].start):
        return True
    return toks[i - 1].key in openers and (not spaced or text[toks[i - 1].end:toks[i].start].strip() == "")
