"""A listed given name that the lists also hold as a word or a clinical abbreviation, found where only a person stands
(issue 50, sixteenth session: ``benchmarks/deid_dev39.py``).

Short given names of many origins are English words or clinical abbreviations too: Spanish "Mar", "Gala", "Alba",
UK "Mel", "Sal", "Dee", "Ed", "Len", Samoan "Ala" ("ALA", aminolevulinic acid). The detector reads a common or
clinical word as no name, and the rules that take such a word in lower case read it only in their own frames; so
"mel is my next of kin", "good afternoon sal , i'm one of the doctors", "my eldest , dee , does my shopping", "mar
signed the consent form" lost the name in lower case, and a capitalised word at a sentence's start is no evidence in
cased text either. This module takes such a word only in the strongest places a person has, where no result, test,
drug property or department can stand:

* **after a possessive and a relative's or a carer's word** (one word may stand between: "my foster son", "my key
  worker"), or such a word and a comma, and before the sentence's end, a comma or a word that no clinical word, no
  facility and no place follows ("this is my nephew X , he drove me", "my eldest , X , does my shopping", "my support
  worker X fills in the forms"); not "my nephew's ed appointment" (the possessive is the relative's), nor before a
  particle, a preposition, an article or a pronoun ("my mum rose early", "my mum rose from her chair": a verb);
* **addressed after a greeting or thanks at a sentence's start, a comma or the sentence's end after it** ("hi X ,",
  "good afternoon X ,", "hello again X ,", "thanks X ,", "sorry to keep you waiting X ,"); not "hi , the tia was
  brief", "morning , ed is full again" (the comma is before the word);
* **a person's place in a sentence about next of kin**: at a clause's start before "is (down as) my next of kin /
  emergency contact / (lasting) power of attorney / named carer / a relative's word", or after "next of kin is" and
  before a comma or the sentence's end;
* **a clause's bare subject before what only a person does** with the speaker or a form (:data:`_PERSON_DOES`: "X
  signed the consent form", "X sat with me", "X cooked for me", "X drove me", "X phoned 999", "X and i have");
* **asked or thanked**: "say thank you to X", "did X come with you", "ask X to bring".

The word (:func:`strong_word`): letters only, a given name of philter-ucsf's list, or a word of three letters at most
that Webster's Second International lists only capitalised (its short given names: "Ed", "Len", "Al"), that English
text writes less often than Zipf :data:`.name_roles.ROLE_ZIPF` (5.0: not "little", "way", "guess", which the list
holds too) and that the lists hold as a common word or a clinical word; never a function, demographic or spoken word, a relative's word or a word of
address, a specialty, a facility, a place, a drug (but a gazetteer name English seldom writes) nor an eponym; never
where the detector says no person stands (``nobody``). In lower-case text the places also read an English word no
name list holds (:func:`.name_given_words.plain_word_name`: "hi uso ,", "this is my nephew noodle , he drove me";
twenty-fourth session). Each place reads at most a few dozen characters around the
word (linear in the text). Used by :mod:`.name_detect` (source ``rule``)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import lru_cache
from itertools import compress

from .name_frames import lower_case_text
from .name_frequency import webster_proper
from .name_given_words import plain_word_name
from .name_roles import ROLE_ZIPF
from .name_tokens import WORD_END, Tok, distinct_texts, ends_of, starts_of, texts_of
from .name_word import blocked, word_facts
from .vocab import RELATIVES, SPOKEN_WORDS, english_zipf, first_names

__all__ = ["strong_place", "strong_word", "strong_place_names"]

#: a relative's, a carer's or a helper's word after a possessive: the person named right after it
_KIN = RELATIVES | frozenset("""worker keyworker carer helper eldest youngest landlord landlady lodger companion
    advocate guardian godmother godfather godson goddaughter""".split())
_KIN_PATTERN = "|".join(sorted((re.escape(k) for k in _KIN), key=len, reverse=True))
_W = WORD_END
#: a possessive, at most one word, a relative's word, perhaps a comma: right before the word
_AFTER_KIN = re.compile(r"(?<![\w'’\-])(?:my|his|her|our|their|your)[ \t]+(?:[a-z\-]+[ \t]+)?(?:" + _KIN_PATTERN
                        + r")[ \t]*,?[ \t]*$")
#: a greeting or thanks at a sentence's start, right before the word
_GREETING = re.compile(r"(?:[.!?\n:]|\])[ \t]*(?:(?:oh|ah|well|right|okay|ok)[ \t]*,?[ \t]+)?(?:hi|hello|hiya|hey|"
                       r"thanks|thank[ \t]+you|cheers|bye|good[ \t]+(?:morning|afternoon|evening)|"
                       r"(?:hi|hello|hiya|hey)[ \t]+(?:again|there)|nice[ \t]+to[ \t]+(?:meet|see)[ \t]+you|"
                       r"sorry[ \t]+to[ \t]+keep[ \t]+you[ \t]+waiting)[ \t]+$")
#: the last word of :data:`_GREETING`'s greetings
_GREETING_LAST = frozenset("hi hello hiya hey thanks you cheers bye morning afternoon evening again there waiting".split())
#: what follows a word addressed: a comma, the sentence's end
_ADDRESSED_END = re.compile(r"[ \t]*(?:[,!?]|\.(?![\w])|$|\n)")
#: a clause's start right before the word (or after "so", "and", "well", "yes", a filler)
_CLAUSE_START = re.compile(r"(?:[.!?\n:;]|\])[ \t]*(?:(?:so|and|well|yes|yeah|oh|um|er|erm|right|okay|ok|now)"
                           r"[ \t]*,?[ \t]+)?$")
#: after the word at a clause's start: what only a person is to the speaker
_KIN_NOUN = (r"next[ \t]+of[ \t]+kin|emergency[ \t]+contact|(?:lasting[ \t]+)?power[ \t]+of[ \t]+attorney|"
             r"(?:named|main|only|paid|unpaid|usual)[ \t]+carer|" + _KIN_PATTERN)
_IS_NEXT_OF_KIN = re.compile(r"[ \t]+(?:is|was|['’]s)[ \t]+(?:(?:down|listed|named|put)[ \t]+as[ \t]+|still[ \t]+|also[ \t]+"
                             r"|now[ \t]+)?(?:my|your|his|her|our|their|the[ \t]+patient['’]s)[ \t]+(?:[a-z\-]+[ \t]+)?"
                             r"(?:" + _KIN_NOUN + r")" + _W)
#: "next of kin is X", "emergency contact is X": the word then a comma or the sentence's end
_NEXT_OF_KIN_IS = re.compile(r"(?<![\w'’\-])(?:next[ \t]+of[ \t]+kin|emergency[ \t]+contact)[ \t]+(?:is|was|:)[ \t]+$")
#: what only a person does, right after a clause's bare subject
_PERSON_DOES = re.compile(r"[ \t]+(?:signed|sat[ \t]+with|cooked[ \t]+for|drove[ \t]+(?:me|us|him|her)|phoned|"
                          r"texted|told[ \t]+(?:me|us|the|him|her)|rang[ \t]+(?:me|us|the|999|an)|reckons|reckoned|translates[ \t]+for|"
                          r"translated[ \t]+for|and[ \t]+i[ \t]+(?:have|had|are|were|live|lived|went|go)|"
                          r"has[ \t]+power[ \t]+of[ \t]+attorney)" + _W)
#: asked or thanked: the words before, and (for "did", "ask") the words after
_THANKED = re.compile(r"(?<![\w'’\-])(?:say[ \t]+)?(?:thank[ \t]+you|thanks)[ \t]+to[ \t]+$")
_DID = re.compile(r"(?<![\w'’\-])did[ \t]+$")
_DID_AFTER = re.compile(r"[ \t]+(?:come|bring|drive|ring|phone|call)[ \t]+(?:with|you|in|round)" + _W)
_ASK = re.compile(r"(?<![\w'’\-])(?:ask|asked|could[ \t]+you[ \t]+ask|can[ \t]+you[ \t]+ask)[ \t]+$")
_ASK_AFTER = re.compile(r"[ \t]+to[ \t]+(?:bring|come|ring|call|phone|drop|pick)" + _W)
#: after the word after a relative: the sentence's end or a comma, or another word (the detector's ``nobody`` reads
#: what stands there)
_END = re.compile(r"[ \t]*(?:[,!?;]|\.(?![\w])|$|\n)")
#: a noun the word after a relative would modify: no person ("my son's ed appointment" is written with the clitic)
_THING_AFTER = re.compile(r"[ \t]+(?:appointment|visit|results?|levels?|tests?|scores?|bloods?|scan|dose|team|"
                          r"department|ward|clinic|unit|night|shift|apple|tray|rail|painting|booster|line|review|"
                          r"consultation|nebs?|tox|dash)" + _W)
#: a particle or a preposition right after the word after a relative: the word may be a verb ("my mum rose early",
#: "my mum rose from her chair")
_PARTICLE_AFTER = re.compile(r"[ \t]+(?:up|out|off|over|down|back|away|early|late|again|from|to|at|in|on|into|onto|by|"
                             r"about|around|round|with|for|through|the|a|an|his|her|their|my|our|your|me|us|them|him|"
                             r"it)" + _W)
_WINDOW = 72


@lru_cache(maxsize=50_000)
def strong_word(key: str) -> bool:
    """A given name the lists hold as a word or a clinical word (the module's docstring)."""
    if not key.isalpha() or len(key) < 2 or key in SPOKEN_WORDS or key in _KIN:
        return False
    if not (key in first_names() or len(key) <= 3 and webster_proper(key)) or english_zipf(key) >= ROLE_ZIPF:
        return False  # no given name, or a word English writes too often to be read as one ("little", "way")
    w = word_facts(key)
    if blocked(w) or w.clinical in ("facility", "place", "specialty"):
        return False
    return w.common or w.clinical is not None


def strong_place_names(text: str, toks: Sequence[Tok], nobody: Callable[[str, int, int], bool]) -> list[Tok]:
    """The words of :func:`strong_word` where only a person stands (the module's docstring); in lower-case text also
    a lower-case English word no name list holds that may be a given name (:func:`.name_given_words.plain_word_name`:
    "my son tele , he drove me", "hi uso ,"; twenty-fourth session). ``nobody(text, start, end)``: the detector says
    no person stands there."""
    lower = lower_case_text(text)
    words = {w for w in distinct_texts(toks)
             if strong_word(w.lower()) or lower and w.islower() and plain_word_name(w, adjective=True)}
    if not words:
        return []
    texts, starts, ends = texts_of(toks), starts_of(toks), ends_of(toks)
    found: list[Tok] = []
    for i in compress(range(len(texts)), map(words.__contains__, texts)):
        s, e = starts[i], ends[i]
        if strong_place(text, s, e) and not nobody(text, s, e):
            found.append(toks[i])
    return found


def strong_place(text: str, s: int, e: int) -> bool:
    """The word at ``text[s:e]`` stands where only a person does (the module's docstring)."""
    lo = max(0, s - _WINDOW)
    before = ("\n" if lo == 0 else "") + text[lo:s].lower()  # the text's start reads as a line's
    after = text[e:e + _WINDOW].lower()
    if after.startswith(("'", "’", "-")) and not re.match(r"['’](?:s|ll|d|ve|re)" + _W, after):
        return False  # part of a longer word
    rest = before.rstrip(" \t,")
    last = rest.rsplit(None, 1)[-1] if rest.strip() else "\n"  # the word (or mark) right before: which place to read
    if last in _KIN:
        return _AFTER_KIN.search(before) is not None and (
            _END.match(after) is not None or re.match(r"[ \t]+[a-z]", after) is not None
            and _THING_AFTER.match(after) is None and _PARTICLE_AFTER.match(after) is None)
    if last in _GREETING_LAST:
        return _GREETING.search(before) is not None and _ADDRESSED_END.match(after) is not None
    if (_IS_NEXT_OF_KIN.match(after) or _PERSON_DOES.match(after)) and _CLAUSE_START.search(before):
        return True
    if last in ("is", "was", ":") or last.endswith(":"):
        return _NEXT_OF_KIN_IS.search(before) is not None and _END.match(after) is not None
    if last == "to":
        return _THANKED.search(before) is not None and (
            _END.match(after) is not None or re.match(r"[ \t]+for" + _W, after) is not None)
    if last == "did":
        return _DID.search(before) is not None and _DID_AFTER.match(after) is not None
    if last in ("ask", "asked"):
        return _ASK.search(before) is not None and _ASK_AFTER.match(after) is not None
    return False
