"""A person named after a preposition in lower-case speech (issue 50, fifth session: persons after prepositions).

A word in no list is taken for a name by the detector unless it looks like a word (:func:`.word_known.looks_like_a_word`:
one edit from a long word, two words run together: "jirina", "oystein", "razvan", "massawe", "leeuwen" do). After a
preposition that takes a person as its object ("from", "with", "for", "by", "about", "beside", "behind", "next to",
"in front of", ...) and before the clause's end or a word that opens the next part of it ("when", "and", "on",
"this", "today", ...), such a word is a person: "i got a text from jirina this morning", "i was sitting beside
oystein on the bus", "i'm worried about massawe , he has not eaten". Only a word in no list (``kind`` says
``"unlisted"``: no common, clinical or gazetteer word, no drug written wrong) that English text seldom uses
(wordfreq Zipf below :data:`.vocab.RARE_ZIPF`: not "covid" 3.86, "zoom"), in lower case: English puts a noun there
("with gauze .", "for pain ."), which the word lists know.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from .name_tokens import Tok, fold
from .vocab import RARE_ZIPF, english_zipf

__all__ = ["prep_objects"]

_PREP_OBJECT = re.compile(
    r"(?<![\w'’\-])(?:from|with|for|by|about|beside|behind|near|without|next[ \t]+to|close[ \t]+to|in[ \t]+front[ \t]+of)"
    r"[ \t]+([a-z]+)(?=[ \t]*(?:[.,!?;:]|\n|$)|[ \t]+(?:when|and|or|on|at|in|if|about|for|to|this|today|yesterday|last|"
    r"too|again|all|since|because|while|after|before|but|so|who|over|every)\b)")


def prep_objects(text: str, kind: Callable[[str, Tok], str | None]) -> list[Tok]:
    """The lower-case words in no list that stand after a preposition taking a person and before the clause's end or
    its next part (the module's docstring). ``kind(text, t)``: what the detector knows of ``t`` (``"unlisted"``: a
    word in no list; None where no person stands)."""
    out: list[Tok] = []
    for m in _PREP_OBJECT.finditer(text):
        word = m.group(1)
        if len(word) < 3 or english_zipf(word) >= RARE_ZIPF:  # "with covid ."
            continue
        t = Tok(m.start(1), m.end(1), word, fold(word))
        if kind(text, t) == "unlisted":
            out.append(t)
    return out
