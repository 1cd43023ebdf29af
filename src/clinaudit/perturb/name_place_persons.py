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

from .vocab import POSSESSIVE_PATTERN, RELATIVE_PATTERN

__all__ = ["shared_possessive", "PERSON_IN_VERBS", "relative_apposed"]

#: one more person of a list after a comma (", jyrki"): the list's words, each read whole (what follows a word cut
#: short is a letter, which neither a comma nor the list's end takes)
_LIST_STEP = re.compile(r"[ \t]*,[ \t]*[^\W\d_][\w\-]*")
#: the list's end: "and" and the last person in the possessive ("and jyrki's", "or her husband's")
_SHARED_POSSESSIVE = re.compile(
    r"[ \t]*,?[ \t]+(?:and|or|&)[ \t]+(?:(?:my|his|her|their|our|your)[ \t]+)?"
    r"(?!(?i:it|that|there|who|what|he|she|here|where|how|let|one|this|everything|everyone|everybody|something|"
    r"someone|somebody|nothing|nobody|anyone|anybody|all|mine|yours)[ \t]?['’]s\b)"
    r"[^\W\d_][\w\-]*(?:[ \t]+[^\W\d_][\w\-]*){0,2}[ \t]?['’]s\b")

#: verbs before "in" and a person that they take into something ("loop in Sipho", "we'll bring in Okafor")
PERSON_IN_VERBS = frozenset("loop loops looped looping bring brings bringing brought fill fills filling "
                             "rope ropes roped roping".split())  # "fill in Hughes"; not "filled in bremerton"

_RELATIVE_APPOSED = re.compile(
    rf"[ \t]*,[ \t]*{POSSESSIVE_PATTERN}(?:{RELATIVE_PATTERN})"
    r"(?:[ \t]?['’]s(?:[ \t]+(?:place|house|home|apartment|flat|farm|cabin))?)?[ \t]*(?:[.,!?;)]|\n|$)")


#: the last text read and, for each position of its lists, whether the list ends in a shared possessive
_MEMO: list[tuple[str, dict[int, bool]]] = [("", {})]


def shared_possessive(text: str, end: int) -> bool:
    """Right after a word (at ``end``) more persons follow, the last one in the possessive ("at maria and jyrki's").
    A list is read once for all its words (issue 50, tenth session: "Lee, Lee, Lee, …" was read to its end from every
    word, quadratic); the same answers as ``(?:, word)*`` before the end's pattern."""
    if _SHARED_POSSESSIVE.match(text, end):
        return True
    m = _LIST_STEP.match(text, end)
    if m is None:
        return False  # no list: most words
    memo_text, memo = _MEMO[0]
    if memo_text is not text:
        memo = {}
        _MEMO[0] = (text, memo)
    if end in memo:
        return memo[end]
    chain = [end]
    found = False
    while True:
        if m.end() in memo:
            found = memo[m.end()]
            break
        chain.append(m.end())
        if _SHARED_POSSESSIVE.match(text, chain[-1]):
            found = True
            break
        m = _LIST_STEP.match(text, chain[-1])
        if m is None:
            break
    for pos in chain:  # an end found from a word is found from each word before it in the list
        memo[pos] = found
    return found


def relative_apposed(text: str, end: int) -> bool:
    """Right after a word (at ``end``) a comma, a possessive and a relative set it off as that relative ("i live near
    jyrki , my cousin .", "we were at jyrki, my aunt's place")."""
    return text[end:end + 1] in (",", " ", "\t") and bool(_RELATIVE_APPOSED.match(text, end))
