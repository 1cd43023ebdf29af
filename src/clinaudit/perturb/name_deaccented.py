"""A name written once with its diacritics and again without them in one dialog (issue 50, seventh session).

People and forms drop a name's diacritics: a dialog names "Jitka Bednářová" and later "Bednarova", or "Jiří" and
"jiri". The word without them may be a word of the lists ("cerna" and "bednar" are in the drug or condition lists,
"vera" is a word), so no list decides; the dialog does. A word of :data:`.name_tokens.Tok` whose key (lower case,
diacritics folded) is the key of a word written with a letter English lacks (:func:`.name_cased.non_english_letter`)
that a rule took for a name elsewhere in the dialog is the same name, in any case ("Bednar", "bednar", "BEDNAR"),
unless it is written as a clinical acronym or no person stands there (``no_person_at``: "Cerna disease"). Used by
:mod:`.name_detect` (source ``rule``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .name_cased import non_english_letter
from .name_tokens import Tok, indices_within, key_indices
from .vocab import written_acronym

__all__ = ["deaccented_mentions"]


def deaccented_mentions(text: str, toks: Sequence[Tok], found: Sequence[tuple[int, int]],
                        no_person_at: Callable[[str, int, int], bool]) -> list[Tok]:
    """The words of ``toks`` written without diacritics whose key is that of a word with a letter English lacks
    inside a span of ``found`` (the module's docstring): "Bednar" after "[Jitka Bednář]"."""
    if text.isascii() or not found:
        return []
    taken = indices_within(toks, found)
    keys = {toks[i].key for i in taken if non_english_letter(toks[i].text) and len(toks[i].key) >= 3}
    if not keys:
        return []
    at = key_indices(toks, keys)  # only the words of keys
    return [t for i in at if i not in taken and (t := toks[i]).text.isascii()
            and not written_acronym(t.text) and not no_person_at(text, t.start, t.end)]
