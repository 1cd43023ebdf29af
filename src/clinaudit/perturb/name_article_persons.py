"""A person where lower-case speech puts a thing or a place (issue 50, tenth session; ``benchmarks/deid_dev13.py``):
a word in no list after an article is read as a thing ("the wixela", :func:`.not_a_name.thing_after_determiner`) and
one after "in" as a place (:func:`.not_a_name.place_after_preposition`), but the sentence can say that it is a person:

* **one of a kind that someone knows**: "there's a" (is, was, are) before it and "at"/"from" one's work, church,
  school, ... and "too", "also", "as well" or "who" after it ("there's a jyrki at my work too"); not "there's a
  walgreens at the corner", "there's a wixela at my work .";
* **a family's name one carries**: "she's a" (he is, was) before it and a relative whose name it is after it ("she's
  a torvik , like her dad", "he's a torvik on his mother's side", "she's a torvik by marriage");
* **a person one saw something in**: "saw it in" (seen, noticed, ...) before it and a comma and "she"/"he" who has or
  had it after it ("i saw it in jyrki , she had the same thing"); not "i was in bremerton , she said it rained".

:data:`LOWER_FRAMES` are read by :func:`.name_prep.prep_objects` (a word in no list, rare in English), which
:func:`person_after_article` keeps from calling the word a thing; :func:`seen_in` keeps :mod:`.name_detect` from
calling the word after "in" a place.
"""

from __future__ import annotations

import re

from .vocab import POSSESSIVE_PATTERN, RELATIVE_PATTERN

__all__ = ["LOWER_FRAMES", "person_after_article", "seen_in"]

#: (what stands before the word, what stands after it) of the frames after an article
_ARTICLE_FRAMES = (
    (r"(?<![\w'’\-])there(?:[ \t]?['’]s|[ \t]+(?:is|was|are|were))[ \t]+(?:a|an|another)[ \t]+",
     rf"[ \t]+(?:at|from)[ \t]+{POSSESSIVE_PATTERN}(?:work|job|office|church|school|class|gym|team|unit|practice)"
     r"[ \t]+(?:too|also|as[ \t]+well|who|named)\b"),
    (r"(?<![\w'’\-])(?:she|he)(?:[ \t]?['’]s|[ \t]+(?:is|was))[ \t]+a[ \t]+",
     rf"[ \t]*,?[ \t]*like[ \t]+{POSSESSIVE_PATTERN}(?:{RELATIVE_PATTERN})\b|"
     rf"[ \t]+on[ \t]+{POSSESSIVE_PATTERN}(?:{RELATIVE_PATTERN})[ \t]?['’]s[ \t]+side\b|"
     r"[ \t]+by[ \t]+marriage\b"),
)
_FRAME_PARTS = tuple((re.compile(b + "$"), re.compile(a)) for b, a in _ARTICLE_FRAMES)
_SEEN = r"(?<![\w'’\-])(?:saw|seen|see|sees|seeing|noticed|notice|noticing)[ \t]+(?:it|that|this)[ \t]+in[ \t]+"
_HAD_AFTER = r"[ \t]*,[ \t]*(?:she|he)[ \t]+(?:had|has|got|gets|caught)\b"
_SEEN_BEFORE = re.compile(r"(?i:" + _SEEN + r")$")
_HAD = re.compile(r"(?i:" + _HAD_AFTER + ")")

#: the lower-case frames, group 1 the person
LOWER_FRAMES = tuple(re.compile(b + r"([a-z]+)(?=" + a + ")") for b, a in (*_ARTICLE_FRAMES, (_SEEN, _HAD_AFTER)))


def person_after_article(text: str, start: int, end: int) -> bool:
    """``text[start:end]``, a lower-case word after an article, stands in a frame of the module's docstring that
    says it is a person ("there's a jyrki at my work", "she's a torvik , like her dad"), not a thing."""
    return any(b.search(text, max(0, start - 30), start) is not None and a.match(text, end) is not None
               for b, a in _FRAME_PARTS)


def seen_in(text: str, start: int, end: int) -> bool:
    """``text[start:end]`` stands after "saw it in" (seen, noticed, ...) and before a comma and "she"/"he" who has or
    had it ("i saw it in jyrki , she had the same thing", "I saw it in Jyrki, she had it"): a person, not a place."""
    return text[end:end + 1] in (",", " ", "\t") and bool(_HAD.match(text, end)) \
        and bool(_SEEN_BEFORE.search(text, max(0, start - 30), start))
