"""Built-in first-name lists shared by de-identification and the neutralizer's residual check, and de-identification's
rule that reads them (:func:`first_name_spans`)."""

from __future__ import annotations

import re
from collections.abc import Collection
from itertools import accumulate

__all__ = ["FIRST_NAMES", "AMBIGUOUS_NAMES", "first_name_spans"]

#: Built-in first names (lower case). Names that are also common words need a capital letter.
FIRST_NAMES: frozenset[str] = frozenset(
    """aaron adam alan albert alex alice amanda amy andrea andrew angela ann anna anne anthony ashley barbara betty
    beverly brandon brenda brian bruce bryan carl carol caroline catherine charles cheryl christina christine
    christopher cynthia daniel david deborah debra denise dennis diana diane donald donna dorothy douglas edward
    elizabeth emily emma eric ethan evelyn frances frank gary george gloria gregory hannah harold heather helen
    henry jack jacob james janet janice jason jean jeffrey jennifer jeremy jerry jessica joan john jonathan joseph
    joshua joyce judith judy julia julie justin karen katherine kathleen kathryn keith kelly kenneth kevin kimberly
    larry laura lauren lawrence linda lisa louis madison margaret maria marie marilyn martha mary matthew megan
    melissa michael michelle nancy nathan nicholas nicole noah olivia pamela patricia paul peter philip rachel
    raymond rebecca richard robert roger ronald ruth ryan samantha samuel sandra sara sarah scott sean sharon
    shirley sophia stephanie stephen steven susan teresa thomas timothy tyler victoria vincent virginia walter
    wayne william zachary""".split()
)
#: Names that are also common words ("will", "may"): the name finder treats them with extra care.
AMBIGUOUS_NAMES = frozenset("""will mark bill grace hope faith rose may june april joy dawn bob pat sue frank jack
    jean""".split())


def first_name_spans(text: str, cap_stop: Collection[str]) -> list[tuple[int, int, str, str, str]]:
    """The built-in first names of ``text`` (:data:`FIRST_NAMES` in any case, :data:`AMBIGUOUS_NAMES` capitalised and
    not at a sentence's start), with a capitalised surname after them on the same line unless it is one of
    ``cap_stop``: ``(start, end, "[NAME]", "name", "rule")`` (:func:`clinaudit.perturb.deid.deidentify_text`)."""
    # the words the pattern reads and the text between them: [gap, word, surname, gap, word, surname, ..., gap];
    # only the words of the built-in lists are looked at (issue 50, Build 3: not a Python step per word)
    parts = _FIRST_NAME.split(text)
    firsts = parts[1::3]
    wanted = {w for w in set(firsts) if w.lower() in _BUILT_IN_NAMES}  # as written; each distinct word read once
    if not wanted:
        return []
    ends = list(accumulate(map(len, parts)))  # ends[i]: where parts[i] ends
    spans = []
    for j in [j for j, w in enumerate(firsts) if w in wanted]:
        first, surname, start = firsts[j], parts[3 * j + 2], ends[3 * j]
        low = first.lower()
        if low in AMBIGUOUS_NAMES and (not first[0].isupper() or start == 0 or _after_stop(text, start)):
            continue  # every other word of ``wanted`` is one of FIRST_NAMES
        end = start + len(first) + (len(surname) if surname and surname.strip() not in cap_stop else 0)
        spans.append((start, end, "[NAME]", "name", "rule"))
    return spans


def _after_stop(text: str, pos: int) -> bool:
    """``text[:pos]`` ends with ".", "!", "?" or ":" and spaces (read back from ``pos``, not by a search of a copy of
    everything before it: issue 50, linear time)."""
    i = pos
    while i > 0 and text[i - 1].isspace():
        i -= 1
    return i > 0 and text[i - 1] in ".!?:"


# a built-in first name, and a capitalised surname after it on the same line (whole words only: "Nguyễn" is no
# "Nguy" + "ễn"); the surname's group is "" when there is none (re.split keeps three parts a match)
_FIRST_NAME = re.compile(r"(?<![\w\[\-'’])([A-Za-z][a-z'-]+)(?![\w\u0300-\u036f])"
                         r"((?:[ \t]+[A-Z][a-z'-]+(?![\w\u0300-\u036f]))?)")
_BUILT_IN_NAMES = FIRST_NAMES | AMBIGUOUS_NAMES
