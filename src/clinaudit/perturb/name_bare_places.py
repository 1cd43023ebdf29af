"""A name that is a word, standing bare in the places of a sentence where English puts a person and no bare noun,
which no other rule reads (issue 50, twelfth session: ``benchmarks/deid_dev19.py``). In lower-case speech a name
that is also a word ("holly", "willow", "kitty") carries no capital. In each of these places a singular count noun
needs a determiner ("with the tiger", "from the mentor"), and a mass noun, an adjective or a verb makes no sense
there, or the words around it say which it is; so, in lower case, such a word is a person:

* **after a preposition whose object is a person, after a verb or noun that takes one**, before the clause's end or
  a word that opens its next part ("i came in with willow this morning", "i've been staying with kitty since",
  "she lives with kitty and my son", "i had a call from willow last night", "a referral letter from gentry .", "i'm
  here for kitty , she ...", "i'm really worried about willow .", "i can't manage without kitty now", "older than
  willow by a year"; not "i woke up with goo in my eye", "i've been washing with lavender , it calms", "the smell
  comes from lavender in the pillow", "i can't sleep without lavender .", "better than lavender"); after "except",
  "including", "besides" when a person's quantifier stands before them in the clause ("everyone came except kitty
  .", "anyone besides willow who helps"; not "nothing works except lavender .");
* **the answer to a who-question** ("who took me ? willow did", "who else was there ? just kitty .", "who's
  looking after the dog ? gentry next door ."; not "what's that smell ? lavender ,", "who gave you that ? tiger
  balm ,");
* **"let X know", "have X call you", "get X to drop in"** (not "i can't get lavender to grow", "get goo to come off",
  "we have willow growing");
* **in a list with "me" or "you"** before another person: "me , willow and my son", "just me and kitty in the house", "so it's you , kitty
  and the baby", and at a clause's start before "and i" ("kitty and i both had the jab"; not "me , tiger balm and a
  hot bath", "me , pepper and salt", "me and lavender oil");
* **the subject of a progressive or a copula only a person is** at a clause's start: "willow is picking up my
  prescription", "kitty's driving me home", "willow was with me when", "kitty was the one who" (not "goo is coming
  out of the drain", "willow is coming down", "lavender is growing");
* **a complement clause's subject** before what only a person did or will do: "i think kitty has my discharge
  letter", "i'm pretty sure willow took the bottle home", "i guess kitty forgot", "do you think willow could come"
  (not "i think goo has got into", "i guess willow has the same pollen", "i think lavender helps");
* **a hand-over line**: "handover from willow : bed four", "over to kitty , she has", "hand over to gentry at seven"
  (not "handover from trinity ward :").

The word: a gazetteer given name or surname English text uses less than Zipf 4.5, no clinical, function,
demographic, relative's or spoken word, no eponym, no word of address, day or month (:func:`.name_bare_person.
may_be_name`, the words of ``BareWords.clause``), or (thirteenth session) one of Zipf 4.5 or more that English text
writes mostly as a name ("martin", "lee", "smith", "tim": ``BareWords.high`` that :func:`.name_abroad.
named_by_frequency` takes; not "hope", "story", "grace"), or (fourteenth session) a listed word English hardly writes
in no gazetteer (:func:`.name_rare_listed.rare_listed`: "eti", "fetu", "wisly"); never where the detector says no person stands (``kind``
None).
Never a word before a noun ("with holly leaves": what follows must end the clause or open its next part), after an
article or a possessive, nor a plural. Words first: only the places of the words that may be such a name (one scan
for every bare-word rule, :func:`.name_bare_person.bare_word_places`) whose word before opens one of these places
are read. Used by :mod:`.name_detect` (source ``rule``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from .name_abroad import names_by_frequency
from .name_bare_person import BareWords, bare_word_places
from .name_clause_opens import gap_opens_clause
from .name_pronoun_pairs import AND_I_OR_ME, verbs
from .name_rare_listed import rare_listed
from .name_tokens import WORD_END, Tok, ends_of, starts_of, texts_of

__all__ = ["bare_place_at", "bare_place_names"]

_W = WORD_END
#: the clause's end
_END = re.compile(r"[ \t]*(?:[.!?;:,]|\n|$)")
#: a word that opens the clause's next part after a person ("with willow this morning", "and my son")
_NEXT = re.compile(r"[ \t]+(?:this|last|yesterday|today|tonight|tomorrow|now|since|when|while|until|till|"
                   r"all[ \t]+(?:day|night|week|morning|afternoon|evening)|at[ \t]+the|on[ \t]+the|"
                   r"over[ \t]+(?:christmas|easter|the[ \t]+weekend)|for[ \t]+(?:an?|the|two|three)[ \t]+[a-z]+|"
                   r"by[ \t]+(?:a|two|three|five|ten)[ \t]+[a-z]+|"
                   r"and[ \t]+(?:my|i|me|the[ \t]+kids|her|his|our))" + _W)
#: each preposition whose object is a person, and the words right before it that take a person there
_PREP_BEFORE: dict[str, frozenset[str]] = {k: frozenset(v.split()) for k, v in {
    "with": """come came coming comes in out stay stays stayed staying live lives lived living was were been be i'm
        here there phone keys key along talked talking spoke speaking chatting sat sitting went""",
    "from": """call calls text texts message messages letter letters email emails note voicemail heard hear hearing
        word back card visit referral news phone present gift""",
    "for": "here waiting wait prescription appointment message note letter present gift card asking looking covering",
    "about": "worried worry worrying asked asking talking talked spoke heard thinking forgot",
    "without": "manage cope lost do go went came come left",
    "than": "older younger taller shorter",
}.items()}
#: "everyone came except willow", "anyone besides kitty who": a person's quantifier before in the clause
_EXCEPT = frozenset("except including besides".split())
_SOMEONE = re.compile(r"(?<![\w'’\-])(?:everyone|everybody|nobody|anyone|anybody|someone|somebody|no[ \t]+one|"
                      r"all[ \t]+of[ \t]+(?:us|them|you))(?![\w'’\-])[^.!?\n]*$")
_WHO_AFTER = re.compile(r"[ \t]+who" + _W)
#: the answer to a who-question: the question, then maybe "just", "only", "probably"
_ASKED = re.compile(r"(?:^|[.!?\n:\]])[ \t]*(?:(?:and|so|but|then|okay|ok)[ \t]*,?[ \t]+)?who(?:[ \t]*['’]s|[ \t]+else)?"
                    r"[ \t]+[^.!?\n]*\?[ \t]*(?:(?:just|only|probably|maybe|oh|um|well)[ \t]*,?[ \t]+)?$")
_JUST = frozenset("just only probably".split())
_ANSWER_AFTER = re.compile(r"[ \t]+(?:did|does|was|is|has|had|and|or|next[ \t]+door|from|upstairs|downstairs)" + _W)
_HAVE_DO = re.compile(r"[ \t]+(?:call|ring|phone|text|email|come|pop|drop|bring|look|check|sign|pick|collect|give|send|"
                      r"see|sort|fill)[ \t]+(?:you|me|him|her|them|us|in|over|round|by|up|the|a|it|back|about|that|"
                      r"this|your|my)" + _W)
_GET_TO = re.compile(r"[ \t]+to[ \t]+(?:call|ring|phone|text|email|come[ \t]+(?:in|over|round|with|by|and)|pop|drop|"
                     r"bring|look|check|sign|pick|collect|give|send|see|sort|fill|drive|help|take|talk|speak)" + _W)
#: what follows "me , X and": another person ("me , holly and my son"; not "me , pepper and salt")
_AND = re.compile(r"[ \t]+and[ \t]+(?:my|i|me|her|his|our|their|the[ \t]+(?:kids|baby|boys|girls|two|three|rest|dog|dogs))"
                  + _W)
#: after "me and X": the shared pair verbs and this rule's own ("in", "at", "all", "now", "do", "did", "are", "got")
_WITH_ME_AFTER = re.compile(r"[ \t]+" + verbs("in", "at", "all", "are", "now", "do", "did", "got") + _W)
#: what only a person is doing or is, after the subject at a clause's start
_DOING = re.compile(r"(?:[ \t]*['’]s|[ \t]+(?:is|was))[ \t]+(?:picking(?![ \t]+up[ \t]*(?:[.,!?;]|$|(?:this|again|now|"
                    r"nicely|slowly|lately|a[ \t]+bit|speed|steam)\b))|driving|bringing|collecting|taking|"
                    r"coming[ \t]+(?:in|with|over|round|to|along|by)|staying[ \t]+(?:over|with)|looking[ \t]+after|"
                    r"helping|sitting[ \t]+with|minding|dropping|ringing|calling|visiting|with[ \t]+(?:me|him|her|us|"
                    r"them)|the[ \t]+one[ \t]+who)" + _W)
#: words after which a clause starts (its subject next): this rule's own, measured with it ("um", "now", "actually")
_OPENERS = frozenset("and but so because cos then well oh um now apparently actually".split())
#: verbs of thinking before a complement clause, and what only a person did or will do after its subject
_THINK = frozenset("think thought sure guess hope know knew reckon suppose bet maybe hopefully believe".split())
_DID = re.compile(r"[ \t]+(?:took|forgot|remembered|brought|picked|signed|booked|called|rang|phoned|texted|drove|"
                  r"collected|dropped|sent|gave|paid|has[ \t]+(?:my|your|his|her|our|their|a[ \t]+key|the[ \t]+keys?|"
                  r"the[ \t]+forms|the[ \t]+letter)|(?:could|can|will|would|might|should)[ \t]+(?:come|drive|bring|"
                  r"pick|collect|sign|ring|call|phone|text))" + _W)
#: a hand-over line: "handover from willow :", "hand over to gentry at seven", "over to kitty ,"
_HAND = frozenset("hand hands handed handing".split())
_HANDED = re.compile(r"[ \t]+(?:at|now|then|tonight)" + _W)
#: the words before the word that open one of the places (read first: a set look-up a place)
_BEFORE = frozenset(_PREP_BEFORE) | _EXCEPT | _THINK | {"let", "have", "get", "got", "and", "to", "from"}
#: the words after the word at a clause's start ("willow is", "kitty and i")
_AFTER = frozenset("is was and".split())


def _handing(text: str, texts: list[str], starts: list[int], ends: list[int], j: int) -> bool:
    """Word ``j`` ("over") is a hand-over's: after "hand", "handing", or at a clause's start ("over to kitty ,")."""
    if j and texts[j - 1] in _HAND:
        return True
    return gap_opens_clause(text, texts, starts, ends, j, ())


def bare_place_at(text: str, texts: list[str], starts: list[int], ends: list[int], i: int) -> bool:
    """Word ``i`` stands where a person stands (the module's docstring; :mod:`.name_guarded_kinds` reads it too)."""
    s, e = starts[i], ends[i]
    p1 = texts[i - 1] if i else ""
    p2 = texts[i - 2] if i >= 2 else ""
    gap = text[ends[i - 1]:s] if i else text[:s]
    spaced = i > 0 and not gap.strip()
    ends_here = _END.match(text, e) is not None
    if spaced and p1 in _PREP_BEFORE and p2 in _PREP_BEFORE[p1] and not text[ends[i - 2]:starts[i - 1]].strip():
        return ends_here or _NEXT.match(text, e) is not None
    if spaced and p1 in _EXCEPT:
        return (ends_here or _WHO_AFTER.match(text, e) is not None) \
            and _SOMEONE.search(text, max(0, s - 80), starts[i - 1]) is not None
    if spaced and p1 == "let":
        return re.match(r"[ \t]+know" + _W, text[e:e + 8]) is not None
    if spaced and p1 == "have":
        return _HAVE_DO.match(text, e) is not None
    if spaced and p1 in ("get", "got"):
        return _GET_TO.match(text, e) is not None
    if spaced and p1 in _THINK:
        return _DID.match(text, e) is not None
    if spaced and p1 in ("from", "to") and (p2 == "handover" or p2 == "over" and _handing(text, texts, starts, ends, i - 2)):
        return ends_here or _HANDED.match(text, e) is not None
    if spaced and p1 == "and" and p2 in ("me", "you"):
        return ends_here or _WITH_ME_AFTER.match(text, e) is not None
    if "," in gap and p1 in ("me", "you") and _AND.match(text, e):
        return True
    if "?" in gap or i and "?" in text[max(0, starts[i - 1] - 2):starts[i - 1]] and p1 in _JUST:
        if (ends_here or _ANSWER_AFTER.match(text, e)) and _ASKED.search(text, max(0, s - 100), s):
            return True
    if gap_opens_clause(text, texts, starts, ends, i, _OPENERS):
        return _DOING.match(text, e) is not None or AND_I_OR_ME.match(text, e) is not None
    return False


def bare_place_names(text: str, toks: Sequence[Tok], kind: Callable[[str, Tok], str | None],
                     unlisted: Callable[[str], bool], bare: BareWords | None = None) -> list[Tok]:
    """The lower-case words that stand bare where a person stands (the module's docstring). ``toks``: the text's
    words; ``kind``: what the detector knows of a word where it stands; ``unlisted(word)``: a word in no list."""
    bare = bare or bare_word_places(toks, unlisted)
    places = bare.places
    if not places:
        return []
    named = bare.clause | bare.high & names_by_frequency()  # "with martin", "who ? lee ." (thirteenth session)
    rare = {w for w in bare.person if rare_listed(w)}  # "with eti", "eti is picking" (fourteenth session)
    named |= rare
    texts, starts, ends = texts_of(toks), starts_of(toks), ends_of(toks)
    n = len(texts)
    out: list[Tok] = []
    for i in places:
        word = texts[i]
        if word not in named or not (i and texts[i - 1] in _BEFORE or i + 1 < n and texts[i + 1] in _AFTER
                                     or text[ends[i]:ends[i] + 1] in ("'", "’") or i and texts[i - 1] in _JUST
                                     or i and "?" in text[ends[i - 1]:starts[i]]):
            continue
        if not bare_place_at(text, texts, starts, ends, i):
            continue
        t = Tok(starts[i], ends[i], word, word)
        k = kind(text, t)
        if k == "gazetteer" or k == "unlisted" and word in rare:
            out.append(t)
    return out
