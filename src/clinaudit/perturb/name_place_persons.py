"""A person where a place would stand (issue 50, tenth session; ``benchmarks/deid_dev13.py``): a word right after "at",
"in" or "near" is read as a place (:func:`.not_a_name.place_after_preposition`, :func:`.name_writing.town_context`),
but what surrounds it can say that it is a person, whatever its letters:

* **one of several owners of the place**: more persons follow, the last one in the possessive ("we were at maria and
  jyrki's", "in maria and her husband's spare room", "at a , b and c 's"); not "at costco and that's when", "and
  it's", "and everyone's";
* **taken into something**: after "loop in", "bring in" ("i'll loop in okafor", "we'll bring in okafor"), no place
  (not "fill in": "i got it filled in bremerton");
* **set off by a comma as a relative**: a possessive and a relative that ends there or owns the place ("i live near
  jyrki , my cousin .", "at jyrki , my cousin 's .", "at Jyrki, my aunt's place"); not a clause the relative opens
  ("in tacoma , my sister lives there", "at walmart , my husband's car broke down").

Used by :mod:`.not_a_name` and :mod:`.name_detect`.
"""

from __future__ import annotations

import re

from .vocab import RELATIVES

__all__ = ["shared_possessive", "PERSON_IN_VERBS", "relative_apposed"]

_SHARED_POSSESSIVE = re.compile(
    r"(?:[ \t]*,[ \t]*[^\W\d_][\w\-]*)*[ \t]*,?[ \t]+(?:and|or|&)[ \t]+(?:(?:my|his|her|their|our|your)[ \t]+)?"
    r"(?!(?i:it|that|there|who|what|he|she|here|where|how|let|one|this|everything|everyone|everybody|something|"
    r"someone|somebody|nothing|nobody|anyone|anybody|all|mine|yours)[ \t]?['’]s\b)"
    r"[^\W\d_][\w\-]*(?:[ \t]+[^\W\d_][\w\-]*){0,2}[ \t]?['’]s\b")

#: verbs before "in" and a person that they take into something ("loop in Sipho", "we'll bring in Okafor")
PERSON_IN_VERBS = frozenset("loop loops looped looping bring brings bringing brought".split())

_RELATIVE_APPOSED = re.compile(
    rf"[ \t]*,[ \t]*(?:my|his|her|our|their|your)[ \t]+(?:{'|'.join(sorted(RELATIVES, key=len, reverse=True))})"
    r"(?:[ \t]?['’]s(?:[ \t]+(?:place|house|home|apartment|flat|farm|cabin))?)?[ \t]*(?:[.,!?;)]|\n|$)")


def shared_possessive(text: str, end: int) -> bool:
    """Right after a word (at ``end``) more persons follow, the last one in the possessive ("at maria and jyrki's")."""
    return bool(_SHARED_POSSESSIVE.match(text, end))


def relative_apposed(text: str, end: int) -> bool:
    """Right after a word (at ``end``) a comma, a possessive and a relative set it off as that relative ("i live near
    jyrki , my cousin .", "we were at jyrki, my aunt's place")."""
    return text[end:end + 1] in (",", " ", "\t") and bool(_RELATIVE_APPOSED.match(text, end))
