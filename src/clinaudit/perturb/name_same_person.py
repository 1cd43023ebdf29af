"""A full name's parts said again alone in the same text, and a word surname after a given name that the text says
again where only a person stands (issue 50, sixteenth session: ``benchmarks/deid_dev37.py``).

The issue asks that a name be decided also by the dialog's other mentions of the same person. A full name found
("[sarah ward]", "[Narelle Swan]") says that its parts are this person's names in this text; where the same word
stands alone again in a person's place it is the same person, not a word: "it's ward , sarah ward .", "It's Hill,
Sarah Hill.", "that was brett hook on the phone . hook wants to come in", "i'll ring beach after this". Where an
article, a possessive, "of" or a preposition of place stands before it, it is a thing or a place again ("sarah hill
walked up the hill", "a plate of bacon", "down by the pond"), and it is kept; so is a word before another word ("the
brass band", "spark plugs"): only a word at a clause's end or before what a person does or has is read.

* :func:`full_name_mentions` — each part (three letters or more, no function, relative's, title or spoken word, no particle) of
  two words found one after another with one space between (a full name, any rule's), taken elsewhere in the
  text where it stands alone: written as the name writes it (capitalised or lower case alike), not after a
  determiner, a possessive, "of" or a preposition of place, and before a clause's end (".", ",", "?", "!", ";", the
  line's end), a possessive "'s", a person's verb ("wants", "thinks", "visits", "mention"), an auxiliary, "to" or
  "after" (not "and": "mac and cheese", "bacon and eggs"); never where the detector says no person stands.
* :func:`repeated_word_surnames` — a given name found (any rule, the built-in first names too) right before a word
  (:func:`.name_word_surnames.may_be_word_surname`) not found, where the same word stands alone elsewhere in the text
  in a person's strict place (a clause's start or "ring / tell / ask / thank" before it, and a person's verb or an
  auxiliary after it: "[narelle] swan , ... swan thinks it's my thyroid"): both are the person's surname.

Only the words of the names found are looked up (:func:`.name_tokens.key_indices`, no step per word of the text), and
each is judged by the two words around it: linear in the text's length. Used by :mod:`.name_detect` (source
``rule``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from .name_frames import TITLE_WORDS
from .name_roles import ROLE_TITLES
from .name_surname_after import VERBS_AFTER_A_SURNAME as _PERSON_VERB_WORDS
from .name_tokens import Tok, indices_within, key_indices
from .name_word import OWNERS, SEP_SPACE
from .name_word_surnames import may_be_word_surname
from .name_writing import PARTICLES
from .vocab import FUNCTION_WORDS, RELATIVES, SPOKEN_WORDS

__all__ = ["full_name_mentions", "repeated_word_surnames"]

#: before a word, what makes it a thing or a place ("the hill", "my ward", "a plate of bacon", "up the hill" is the
#: article's; "down by pond", "in beach" are rare but a place)
_THING_BEFORE = OWNERS | frozenset("""of in on at up down into onto along across under over near behind beside
    through round around past off inside outside by some any no every each those these another other""".split())
#: after a person's name alone: what a person does or has ("beach wants", "swan thinks", "did hook mention")
_AFTER = _PERSON_VERB_WORDS | frozenset("""is was has had says said will would can could should might must may
    does did wants wanted thinks thought knows knew visits visited mention mentioned sends sent says asked
    told rang phoned texted called rings phones calls to after""".split())
#: the same, read by :func:`.name_mentions.other_mentions` after a frequent name found once ("mark says", "rose was")
PERSON_AFTER = _AFTER
#: before a word surname alone in its strict place: a clause's start or a verb whose object is a person
_REACH = frozenset("ring rang tell told ask asked thank thanked call called phone phoned text texted".split())
#: the end of a clause right after a word
_END = re.compile(r"[ \t]*(?:[.,?!;:]|\n|$)")
#: the same, read by :func:`.name_mentions.other_mentions`
CLAUSE_END = _END
_BREAK = re.compile(r"[.,?!;:\n]")
#: the words a full name's part never is (a particle is no person alone: "mac and cheese" beside "[mac coinnich]")
_NEVER = FUNCTION_WORDS | RELATIVES | TITLE_WORDS | ROLE_TITLES | SPOKEN_WORDS | PARTICLES | frozenset(
    "mac mc mag nic ni ua ui ah ap fitz le la san st".split())


def _part_ok(t: Tok) -> bool:
    return len(t.key) >= 3 and t.text.isalpha() and t.key not in _NEVER and not t.text.isupper()


def _alone(text: str, toks: Sequence[Tok], j: int) -> bool:
    """``toks[j]`` stands alone where a person's name stands: not after a thing's or a place's word, and before a
    clause's end, a possessive, or what a person does."""
    t = toks[j]
    if j > 0 and toks[j - 1].key in _THING_BEFORE and not _BREAK.search(text, toks[j - 1].end, t.start):
        return False
    if text.startswith(("'s", "’s"), t.end):
        return True
    if _END.match(text, t.end):
        return True
    return j + 1 < len(toks) and toks[j + 1].key in _AFTER and bool(SEP_SPACE.fullmatch(text[t.end:toks[j + 1].start]))


def full_name_mentions(text: str, toks: Sequence[Tok], found: Sequence[tuple[int, int]],
                       no_person_at: Callable[[str, int, int], bool]) -> list[Tok]:
    """The words a full name found takes elsewhere alone (the module's docstring)."""
    cov = indices_within(toks, found)
    if len(cov) < 2:
        return []
    parts: dict[str, bool] = {}  # a part's key -> written capitalised
    for i in sorted(cov):
        if i + 1 in cov and SEP_SPACE.fullmatch(text[toks[i].end:toks[i + 1].start]):
            for t in (toks[i], toks[i + 1]):
                if _part_ok(t):
                    parts.setdefault(t.key, t.capital)
    if not parts:
        return []
    return [t for j in key_indices(toks, parts) if j not in cov and (t := toks[j]).capital == parts[t.key]
            and t.text.isalpha() and _alone(text, toks, j) and not no_person_at(text, t.start, t.end)]


def _strict(text: str, toks: Sequence[Tok], j: int) -> bool:
    """``toks[j]`` alone where only a person stands: a clause's start or a verb of reaching a person before it, and
    a person's verb or an auxiliary after it (or the clause's end after a verb of reaching)."""
    t = toks[j]
    opens = j == 0 or bool(_BREAK.search(text, toks[j - 1].end, t.start)) or toks[j - 1].key in ("and", "but", "then")
    reach = j > 0 and toks[j - 1].key in _REACH and not opens
    nxt = j + 1 < len(toks) and toks[j + 1].key in _AFTER - {"to", "after"} \
        and bool(SEP_SPACE.fullmatch(text[t.end:toks[j + 1].start]))
    return (opens and nxt) or (reach and (nxt or bool(_END.match(text, t.end))))


def repeated_word_surnames(text: str, toks: Sequence[Tok], found: Sequence[tuple[int, int]],
                           no_person_at: Callable[[str, int, int], bool]) -> list[Tok]:
    """A word surname after a given name found, said again where only a person stands (the module's docstring):
    both words."""
    cov = indices_within(toks, found)
    after: dict[str, list[int]] = {}  # a word right after a one-word name found -> its indices
    for i in cov:
        w = i + 1
        if w < len(toks) and w not in cov and i - 1 not in cov and SEP_SPACE.fullmatch(text[toks[i].end:toks[w].start]):
            t = toks[w]
            if _part_ok(t) and t.capital == toks[i].capital and may_be_word_surname(t.key):
                after.setdefault(t.key, []).append(w)
    if not after:
        return []
    again: dict[str, list[int]] = {}  # one look-up of every such word (not a pass over the words per word)
    for j in key_indices(toks, after):
        t = toks[j]
        ws = after[t.key]
        if j not in cov and j not in ws and t.capital == toks[ws[0]].capital and _strict(text, toks, j) \
                and not no_person_at(text, t.start, t.end):
            again.setdefault(t.key, []).append(j)
    return [toks[j] for key, js in again.items() for j in after[key] + js]
