"""A rare word where real speech puts a person, in lower case (issue 50, eighth session: forms taken from real speech,
``benchmarks/deid_dev7.py``).

The sentences of the shared dialogs that name a person put the name where English puts a person, not a thing: a
clause's subject before an auxiliary or a verb ("jirina is usually here with me", "massawe's gon na help you",
"and daguerre did say we need to be careful", "when oystein was sixty five"); the one addressed, after a turn's
"okay ," or "great ," and before the sentence's end ("okay , razvan . do you smoke ?") or before a question to them
("jirina , were you having some dizziness ?"); the subject asked about in a question ("is briain retired with you
?", "why is jirina here ?"). English puts a noun or a pronoun in those places, and the word lists know those nouns;
so only a word the lists do not explain is taken there: a word in no list, or a word only as a rare dictionary
headword (:func:`.name_cased.rare_headword`: "birthe"), rare in English text (wordfreq Zipf below
:data:`.vocab.RARE_ZIPF`), no clinical, function or relative's word, no drug written wrong, which the dialog does not
write after a determiner as a thing ("switched to wixela ... the wixela off to the side"). Cased text has its capitals
for that (:mod:`.name_cased`); only lower-case words are read.

Only the lines holding such a word are read (:func:`.name_prep.rare_lines`, shared with :func:`.name_prep.prep_objects`),
and on them only the words themselves: each is checked by what stands right before and after it.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable, Sequence

from operator import attrgetter

from .name_cased import LOWER_PARTICLES
from .name_tokens import Tok

__all__ = ["HEADWORD_ZIPF", "rare_slot_names"]

#: A common word only as a dictionary headword is taken in these places when rarer in English text than this
#: (wordfreq Zipf: "birthe" 1.3, "thais" 2.7 are; "gotcha" 3.4 of "okay , gotcha ." is not)
HEADWORD_ZIPF = 2.5

_AUX = (r"is|was|has|had|did|does|will|would|can|could|should|died|passed|lives|lived|loves|helps|says|said|"
        r"actually|also|just|never|always|still|usually|really|already")
#: after a clause's subject: an auxiliary, a verb of living and dying, an adverb before the verb, or a contraction
#: of "is", "will", "would" that is no possessive ("massawe's gon na", not "zarbee's , but")
_SUBJECT_NEXT = re.compile(rf"[ \t]+(?:{_AUX})\b(?![’'\-])|['’](?:s|ll|d)\b(?![ \t]*[,.?!;:]|[ \t]+(?:and|or)\b)")
#: after a subject, what a thing does as well as a person: a modal, or the "is that" of a definition
_WEAK_SUBJECT = re.compile(r"[ \t]+(?:will|would|can|could|should|(?:is|was)[ \t]+(?:that|when|where|like|basically|"
                           r"what|the|a|an|just|also|really|actually)\b)")
#: words that open a clause before its subject, at a sentence's start or inside it ("so , jirina is", "and daguerre
#: did say", "when oystein was", "it looks like razvan was"), and the verbs of thinking or saying a clause follows
#: ("i think massawe has")
_OPENERS = frozenset("so and but um uh well yeah okay oh then now because cause when that if how since until while "
                     "before after where why like think guess know believe suppose said says heard".split())
#: an opener (and a comma) right before a position
_OPENER_BEFORE = re.compile(r"(?<![\w'’\-])([a-z]+)[ \t]*,?[ \t]*$")
#: a turn's interjection and a comma right before the one addressed ("okay , razvan .", "great , jirina !")
_ADDRESS_BEFORE = re.compile(r"(?<![\w'’\-])(?:okay|ok|alright|all right|great|good|sure|excellent|wonderful|perfect|"
                             r"right|yes|no|well|thanks|thank you|bye|goodbye)(?:[ \t]+then)?[ \t]*,[ \t]*$")
#: the end of the sentence (or a comma) after the one addressed
_ADDRESS_NEXT = re.compile(r"[ \t]*[.!?,](?![\w'’])")
#: a comma and a question or request to the one addressed ("jirina , were you", "oystein , can you")
_ADDRESS_QUESTION = re.compile(r"[ \t]*,[ \t]*(?:were|was|are|is|do|did|does|have|has|had|can|could|would|will|should|"
                               r"how|what|i|you|we|let's|please|tell)\b")
#: an auxiliary that opens a question, maybe after a question word ("is briain retired", "why is jirina here")
_QUESTION_BEFORE = re.compile(r"(?<![\w'’\-])(?:(?:why|how|where|when|what|so|and|but|now)[ \t]+){0,2}(?:is|was|does|did|has|"
                              r"will|can|could|would)[ \t]+$")
#: the question's words up to its mark on the same line (a word after the one asked about, then "?")
_QUESTION_NEXT = re.compile(r"[ \t]+[a-z][^.!?\n]{0,120}\?")

#: a surname's particles in lower case right before a word ("o briain", "van der meulen", "mac"): their place is its
_PARTICLES_BEFORE = re.compile(rf"(?<![\w'’\-])(?:(?:{'|'.join(LOWER_PARTICLES)}|o|ó|ní|ni|nic|mac|mc|uí)[ \t]+){{1,2}}$")

SentenceStart = Callable[[str, int], bool]
_START = attrgetter("start")


def _slot(text: str, t: Tok, sentence_start: SentenceStart) -> str | None:
    """Which of the module's places ``t`` stands in, if any (``"subject"`` before a modal or a definition's "is that"
    as ``"subject?"``: a thing stands there too, "flareups can be unpredictable", "so toret is that it's a ..."). A
    surname's particles before the word stand in its place ("o briain is in town", "okay , van leeuwen .")."""
    end = t.end
    p = _PARTICLES_BEFORE.search(text, max(0, t.start - 16), t.start)
    start = p.start() if p is not None else t.start
    before = text[max(0, start - 40):start]
    m = _SUBJECT_NEXT.match(text, end)
    if m is not None:
        weak = _WEAK_SUBJECT.match(text, end) is not None
        if sentence_start(text, start):
            return "subject?" if weak else "subject"
        o = _OPENER_BEFORE.search(before)
        if o is not None and o.group(1) in _OPENERS:
            return "subject?" if weak else "subject"
    m = _ADDRESS_BEFORE.search(before)
    if m is not None and _ADDRESS_NEXT.match(text, end) and sentence_start(text, start - len(before) + m.start()):
        return "addressed"
    if sentence_start(text, start) and _ADDRESS_QUESTION.match(text, end):
        return "addressed"
    m = _QUESTION_BEFORE.search(before)
    if m is not None and _QUESTION_NEXT.match(text, end) and sentence_start(text, start - len(before) + m.start()):
        return "asked"
    return None


def rare_slot_names(text: str, toks: Sequence[Tok], lines: Sequence[tuple[int, int]], words: frozenset[str],
                    sentence_start: SentenceStart, kind: Callable[[str, Tok], str | None]) -> list[Tok]:
    """The lower-case words of ``words`` (the rare words :func:`.name_prep.rare_lines` found, on ``lines``) that stand
    where real speech puts a person (the module's docstring) and ``kind(text, t)`` allows there: ``"unlisted"`` (a
    word in no list) anywhere, ``"headword"`` (a rare dictionary headword) but before a modal or a definition's "is
    that" (``"subject?"``), None nowhere."""
    out: list[Tok] = []
    for lo, hi in lines:
        for t in toks[bisect_left(toks, lo, key=_START):bisect_left(toks, hi, key=_START)]:
            if t.text not in words:
                continue
            slot = _slot(text, t, sentence_start)
            if slot is None:
                continue
            k = kind(text, t)
            if k == "unlisted" or k == "headword" and slot != "subject?":
                out.append(t)
    return out
