"""The speaker coordinated with a person: "me and X", "X and i", "X and me", with or without a verb after (issue 50,
seventeenth session). Six rules read these pairs (:mod:`.name_place_names`, :mod:`.name_word_surnames`,
:mod:`.name_bare_places`, :mod:`.name_coordinated`, :mod:`.not_a_name`; later :mod:`.name_eponym_persons`); they wrote the same skeleton six times with
different verb lists. The skeleton is written here once; each rule keeps the difference of its own verb list, named
beside it (:func:`verbs`), because each list was measured with its rule:

* :data:`AND_I_OR_ME` — "and i" / "and me" right after a word, the pronoun a whole word ("esi and i", "kitty and me");
* :data:`AND`, :data:`ME_AND` — the pieces of "X and i" and "me and X" the rules build their patterns from;
* :data:`PAIR_VERBS` — the verbs two persons do together that every rule reading a pair with a verb after it takes
  ("me and X went", "X and i both had"); :func:`verbs` joins them with a rule's own.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from .name_tokens import WORD_END

__all__ = ["AND", "AND_I_OR_ME", "ME_AND", "PAIR_VERBS", "verbs"]

#: " and " between a word and a pronoun, any run of spaces and tabs
AND = r"[ \t]+and[ \t]+"
#: "me and " before a word
ME_AND = r"me" + AND
#: "and i" / "and me" right after a word, the pronoun a whole word
AND_I_OR_ME = re.compile(AND + r"(?:i|me)" + WORD_END)
#: what two persons do together, after the pair: every rule's list holds these
PAIR_VERBS = ("went", "were", "have", "had", "both", "live", "lived")


def verbs(*extra: str) -> str:
    """The alternation ``(?:...)`` of :data:`PAIR_VERBS` and a rule's ``extra`` verbs (a verb of two words written
    with one space, "used to", is read with any run of spaces and tabs)."""
    return "(?:" + "|".join(w.replace(" ", r"[ \t]+") for w in _unique((*PAIR_VERBS, *extra))) + ")"


def _unique(words: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(words))
