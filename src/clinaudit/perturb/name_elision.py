"""A surname written with an elided particle in lower-case speech (issue 50, fifth session): "d'amico", "o'brien",
"n'diaye", "l'heureux". In cased text the capital after the apostrophe names it (:func:`.name_cased.apostrophe_names`);
in lower case nothing did, since the detector reads no word with an apostrophe inside as a word in no list. English
writes "d'", "l'", "n'", "o'" before a word only in "o'clock" and the spoken "d'you": the rest of the word is then a
common English word ("clock", "you"), which a surname's rest is not, or is a name-like gazetteer name
(:func:`.name_frequency.name_like`: "brien", "neil").

ACI-Bench's transcripts also split a word at its apostrophe ("do n't", "patient 's"), so a surname may stand as
"o 'driscoll" ("O 'Driscoll" in cased text; issue 50, ninth session): the particle alone, one space, the apostrophe
and the rest, judged as above. The real dialogs write no single "d", "l", "n" or "o" before a spaced apostrophe."""

from __future__ import annotations

import re

from .name_frequency import name_like
from .name_tokens import NAME_END, Tok
from .name_word import word_facts
from .text_scan import anchored_finditer, matches_from, places

__all__ = ["elided_particle_names"]

_ELIDED = re.compile(r"(?<![\w'’\-])[dlno]['’]([a-z]{3,})" + NAME_END)
#: what every match of :data:`_ELIDED` starts with
_ELIDED_START = tuple(c + a for c in "dlno" for a in "'’")
#: the same with the apostrophe spaced as ACI-Bench writes it ("o 'driscoll", "O 'Driscoll": a capital both sides)
_SPACED = re.compile(r"(?<![\w'’\-])(?:[dlno] ['’]([a-z]{3,})|[DLNO] ['’]([A-Z][a-z]{2,}))" + NAME_END)


def elided_particle_names(text: str) -> list[Tok]:
    """The lower-case words "d'", "l'", "n'" or "o'" + a rest of three letters or more that is no common word, or is a
    name-like gazetteer name: "d'amico", "o'brien", also spaced ("o 'driscoll", "O 'Driscoll"), before a possessive too ("o'brien's mum"); not "o'clock",
    "d'you", "o 'clock"."""
    if "'" not in text and "’" not in text:
        return []
    out = []
    found = [(m, 1) for m in anchored_finditer(_ELIDED, text, _ELIDED_START)]
    # the spaced form: the letter before each " '" (two literals read, not eight letters' sixteen)
    spaced = sorted(p - 1 for a in (" '", " ’") for p in places(text, a) if p and text[p - 1] in "dlnoDLNO")
    found += [(m, 1 if m.group(1) else 2) for m in matches_from(_SPACED, text, spaced)]
    for m, g in found:
        rest = m.group(g).lower()
        w = word_facts(rest)
        if w.function or w.clinical is not None and not w.gazetteer:
            continue
        if not w.common or name_like(rest):
            out.append(Tok(m.start(), m.end(), m.group(0), m.group(0).lower().replace("’", "'")))
    return out
