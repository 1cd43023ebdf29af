"""Where a clause opens before a word (issue 50, seventeenth session): a turn's or a sentence's start, a break
(punctuation, a line's start, a quote or a bracket) or a word that opens a clause before its subject ("and", "so",
"oh", "well"). :mod:`.name_person_predicates` and :mod:`.name_word_surnames` read it; they wrote the break twice and
the openers with different lists. The break and the openers both read are here once; what each adds stays beside it:
:mod:`.name_word_surnames` also opens a clause after a verb of saying or thinking ("i think [kirsty] main has") and
after "me and"; :mod:`.name_person_predicates` wants only spaces between the opener and the word (``spaced``).

The rules that read the words as lists (texts, starts, ends: :mod:`.name_person_only`, :mod:`.name_clause_subject`,
:mod:`.name_bare_places`) wrote a narrower break three times, and the same test with it (eighteenth session): they
read :data:`GAP_BREAK` and :func:`gap_opens_clause` here, each with its own openers (each list was measured with its
rule). The two breaks stay two: :data:`CLAUSE_BREAK` also opens after a quote or an opening bracket and at the text's
start; :data:`GAP_BREAK` does not."""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence

from .name_tokens import Tok

__all__ = ["CLAUSE_BREAK", "GAP_BREAK", "OPENERS", "gap_opens_clause", "opens_clause"]

#: a clause's break right before a place (search it in the text up to there)
CLAUSE_BREAK = re.compile(r"(?:^|[.!?;:,\n\"“(\]])[ \t]*$")
#: words that open a clause before its subject
OPENERS = frozenset("and so but then because cos oh yeah yes no well anyway plus".split())
#: a clause's break in the blanks before a word, searched in that gap: punctuation or a line's start, then spaces or
#: tabs (no quote, bracket or text's start: the break the list-reading rules were measured with)
GAP_BREAK = re.compile(r"[,.!?:;\]\n][ \t]*$")


def opens_clause(text: str, toks: Sequence[Tok], i: int, openers: frozenset[str] = OPENERS, spaced: bool = False) -> bool:
    """``toks[i]`` opens a clause: the first token, a :data:`CLAUSE_BREAK` before it, or a word of ``openers`` right
    before it (``spaced``: with nothing but spaces and tabs between)."""
    if not i or CLAUSE_BREAK.search(text, toks[i - 1].end, toks[i].start):
        return True
    return toks[i - 1].key in openers and (not spaced or text[toks[i - 1].end:toks[i].start].strip() == "")


def gap_opens_clause(text: str, texts: Sequence[str], starts: Sequence[int], ends: Sequence[int], i: int,
                     openers: Collection[str]) -> bool:
    """Word ``i`` of the lists opens a clause: the text's start (only blanks before it), a :data:`GAP_BREAK` in the
    gap before it, or a word of ``openers`` right before it with only blanks between."""
    gap = text[ends[i - 1]:starts[i]] if i else text[:starts[i]]
    return not gap.strip() and (not i or texts[i - 1] in openers) or GAP_BREAK.search(gap) is not None
