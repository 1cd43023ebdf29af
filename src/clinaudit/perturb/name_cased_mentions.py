"""A name found once in a cased dialog, written again in the same capitals inside a sentence (issue 50, twenty-sixth
session).

In cased text a capital inside a sentence marks a name, but the rules that read capitals keep a word the lists call
common ("Ana" is philter-ucsf's whitelist word for the ANA test; "Dodo", "Kiwi", "Sugar" are English words): "My name
is [Ana Sulu]. ... Was anybody next to Ana when it happened?" kept the second "Ana". Lower-case speech has
:func:`.name_mentions.other_mentions`; this is its cased counterpart. A word a rule took as a name, written with a
capital and the rest in lower case ("Ana", not "ANA"), is the same name where the dialog writes it again exactly so,
inside a sentence (a capital at a sentence's start says nothing), not after a determiner or a possessive ("the Ana
test": :func:`.name_mentions.after_determiner`), not beside a capitalised word no name found holds (a title's or an
organisation's words: "the National Center for Lesbian Rights"), not where no person stands (``no_person_at``), and
never a clinical word (a cased vignette that took "Vernal" or "Lumbar" at a sentence's start took a word), a word no
rule may take (:func:`.name_word.blocked`: function, demographic, eponym), a day, a month or a feast. Used by
:mod:`.name_detect` (source ``rule``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .name_frames import is_cased
from .name_mentions import after_determiner
from .name_no_person import sentence_start
from .name_tokens import Tok, indices_within, key_indices
from .name_word import SEP_SPACE, blocked, word_facts
from .vocab import DAY_NAMES, FEAST_NAMES, MONTH_NAMES

__all__ = ["cased_mentions"]

_NO_NAME = DAY_NAMES | MONTH_NAMES | FEAST_NAMES


def _title(word: str) -> bool:
    return len(word) >= 2 and word[0].isupper() and word[1:].isalpha() and word[1:].islower()


def cased_mentions(text: str, toks: Sequence[Tok], found: Sequence[tuple[int, int]],
                   no_person_at: Callable[[str, int, int], bool]) -> list[Tok]:
    """The words of ``toks`` written as a word a span of ``found`` takes elsewhere (the module's docstring)."""
    if not found or not is_cased(text):
        return []
    taken = indices_within(toks, found)
    chosen = [toks[i] for i in taken if _title(toks[i].text) and toks[i].key not in _NO_NAME
              and (w := word_facts(toks[i].key)).clinical is None and not blocked(w)]
    if not chosen:
        return []
    written = {t.text for t in chosen}
    names = {toks[i].key for i in taken}
    at = key_indices(toks, {t.key for t in chosen})  # only the words of those keys
    return [t for i in at if i not in taken and (t := toks[i]).text in written
            and not after_determiner(toks, i) and not sentence_start(text, t.start)
            and not _capital_beside(text, toks, i, names) and not no_person_at(text, t.start, t.end)]


def _capital_beside(text: str, toks: Sequence[Tok], i: int, names: set[str]) -> bool:
    """A capitalised word right before ``toks[i]`` (not at a sentence's start) or right after it, a space between,
    that no name found holds (``names``: their words' keys): a title's or an organisation's words ("the National
    Center for Lesbian Rights"), which the name rules read themselves; not the same full name again ("[Georgia Walsh]
    ... with Georgia Walsh")."""
    p, n = (toks[i - 1] if i > 0 else None), (toks[i + 1] if i + 1 < len(toks) else None)
    before = p is not None and p.capital and p.key not in names and not sentence_start(text, p.start) \
        and SEP_SPACE.fullmatch(text, p.end, toks[i].start) is not None
    return before or n is not None and n.capital and n.key not in names \
        and SEP_SPACE.fullmatch(text, toks[i].end, n.start) is not None
