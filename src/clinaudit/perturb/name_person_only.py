"""A name that is an everyday word (Zipf 4.5 or more), standing bare where only a person can stand (issue 50, twelfth
session). :mod:`.name_bare_person`, :mod:`.name_clause_subject` and :mod:`.name_bare_object` stop at
:data:`.vocab.WORD_NAME_ZIPF` so as not to take "may", "will", "hope" as names; in lower-case speech a person called
Journey, Promise, Mark or Rose is then lost wherever nothing but the grammar says "person". This module reads, in
lower case, such a word only in places that themselves exclude the word's uses as a word:

* **"it was X who"** ("it was king who found me", "actually it's moon who does my tablets"): "who" follows a
  person, never a thing ("it was gold that gave me the rash"), nor an adjective ("it was close who won");
* **a clause's bare subject before a verb only a person does**, at a turn's or sentence's start or after a
  conjunction, a filler or "only" ("mark says hello", "then rose rang the surgery", "only hope knows where", "so
  grace told me"; "drove" and "wants" only before a person: "miles drove me here", "grace wants me to"): a count
  noun needs a determiner there, a mass noun says, tells, reckons, rings and texts nothing ("gold costs a fortune",
  "hope helps", "church helps me cope" stay), an adjective or a verb is no bare subject at all. Not the verbs that
  are nouns too ("gold rings", "smart phones", "golden thought"), nor the words English lets say or know as a voice
  or an institution ("god knows", "lord knows", "law says", "police said", "news says");
* **a question's subject before what a person does**: "did song tell you", "has lucky told you", "would hope like
  to sit in";
* **the one told, asked or let know before a clause**: "tell grace to bring", "i'll ask mark if he", "let rose know
  i'm okay", "ask mark about it" (not "i can't tell north from south", "ask for help"; never a plural of a common
  word there, "i told lies about it", so not "tell miles i'll be late" either);
* **the one rung, called or texted** by someone, before a time, "for me", "and let" or the sentence's end ("we'll
  call mark later", "could you phone rose for me"; not "we'll call it a day", "i rang church for a lift");
* **"X and her husband"**, a person's pronoun and a relative or partner after it, at a clause's start ("joy and
  her husband brought me in"; not "salt and pepper");
* **the one addressed**, a given name: said to after thanks, a greeting or a sign-off, before a comma or the
  sentence's end ("thanks for that , miles .", "come on through , rose .", "see you next week , rose ."), after
  "hi" ("hi grace , what brings you in"), or first in a clause before a request ("mark , could you slip your shoes
  off", "king , can you pop your coat off"); never a word of approval, an exclamation or a sentence adverb said on
  its own ("okay , perfect .", "great , can you sit up", "first , can you").

The word: lower case, three letters or more, a gazetteer given name or surname English text uses at least
:data:`.vocab.WORD_NAME_ZIPF` (:func:`.name_bare_person.may_be_high`; the rarer ones are the three modules' above), no
clinical, function, demographic, relative's or spoken word, no eponym, word of address, modal or auxiliary, month or
day; never where the detector says no person stands (``kind`` None). Words first: the words are read in
:func:`.name_bare_person.bare_word_places`' one scan of a text's words (with the other three rules' words), and at
each of their places the words right around it first (about 5 ms a 1 MB dialog). Used by :mod:`.name_detect`
(source ``rule``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import lru_cache

from .name_bare_person import BareWords, bare_word_places
from .name_clause_opens import GAP_BREAK, gap_opens_clause
from .name_tokens import Tok, ends_of, starts_of, texts_of
from .vocab import common_words, first_names

__all__ = ["CALL_WORDS", "GREETINGS", "NOT_ADDRESSED", "SAYS", "TELL_WORDS", "clause_start", "person_only_at",
           "person_only_names"]

#: words English lets say, tell, know or think as a voice, no person ("god knows", "time will tell", "law says",
#: "police said", "news says", "council rang")
_VOICES = frozenset("""god lord heaven heavens goodness christ jesus law time history science nature experience reason
    instinct sense faith memory rumour word legend tradition logic evidence research gut heart body mind conscience
    google everyone everybody nobody someone somebody council police army navy news radio media press bank bible guide
    scripture government court luck truth reality management security reception""".split())
#: verbs only a person does, right after the bare subject ("says", "told", "rang"; not "rings", "phones", "texts",
#: "drives", "thought", "wants": nouns too, "gold rings", "smart phones", "golden thought")
SAYS = frozenset("""says said tells told reckons reckoned rang texted phoned thinks knows knew noticed mentioned
    promised insisted asked explained""".split())
#: "drove" only before a person ("nick drove me"; not "demand drove prices up"), "wants" before a person and "to"
_DROVE = re.compile(r"[ \t]+(?:drove[ \t]+(?:me|us|him|her|them|you)|wants[ \t]+(?:me|us|him|her|them|you)[ \t]+to)"
                    r"(?![\w'’\-])")
#: words after which a clause starts: conjunctions, fillers, sentence adverbs, "only" ("only dream knows"); this
#: rule's own, measured with it (name_everyday_places, name_guarded_words, name_place_names read it: clause_start)
_OPENERS = frozenset("""and but because cause cos so then when while if though although apparently honestly anyway plus
    only even well oh um uh er erm actually""".split())
#: "it was X who"
_IT_WAS = re.compile(r"(?<![\w'’\-])(?:it[ \t]+was|it[ \t]*['’][ \t]*s|it[ \t]+is|was[ \t]+it)[ \t]+$")
#: ... and "who" right after the word
_WHO = re.compile(r"[ \t]+who(?![\w'’\-])")
#: a question's subject before what a person does ("did nick tell you", "has ocean told you", "would dream like to")
_ASK_BEFORE = re.compile(r"(?<![\w'’\-])(?:did|has|would)[ \t]+$")
#: ... and what a person does right after it
_ASK_AFTER = re.compile(r"[ \t]+(?:tell|told|say|said|ring|rung|text|texted|phone|phoned|mention|mentioned|like[ \t]+to|"
                        r"drive[ \t]+you)(?![\w'’\-])")
#: the one told, asked or let know, before a clause
_TOLD_BEFORE = re.compile(r"(?<![\w'’\-])(?:tell|ask|told|asked)[ \t]+$")
#: ... and a clause's first word right after it
_TOLD_AFTER = re.compile(r"[ \t]+(?:i|i'm|i'll|i've|i'd|we|she|he|they|you|to|if|whether|when|that|how|not|about)"
                         r"(?![\w'’\-])")
#: "let X know"
_LET = re.compile(r"(?<![\w'’\-])let[ \t]+$")
_KNOW = re.compile(r"[ \t]+know(?![\w'’\-])")
#: the one rung, called or texted, by someone ("i'll ring", "can you call", "we called"), before a time, "for me",
#: "and let", or the sentence's end ("we'll call mark later", "could you phone rose for me", "can you call grace and
#: let her know"; not "we'll call it a day", "i rang church for a lift", "email price quotes")
_CALL_BEFORE = re.compile(r"(?<![\w'’\-])(?:i|we|you|he|she|they|[a-z]+['’]ll|to|can|could|will|would|please|just)[ \t]+"
                          r"(?:call|phone|ring|text|email|message|called|phoned|rang|texted|emailed|messaged)[ \t]+$")
#: ... and what follows the one rung
_CALL_AFTER = re.compile(r"[ \t]+(?:later|back|tomorrow|tonight|again|today|now|first|for[ \t]+(?:me|us|him|her|them)|"
                         r"and[ \t]+(?:let|tell|ask)|when|if)(?![\w'’\-])|[ \t]*[.!?]")
#: "X and her husband": a person's pronoun before a relative or a partner
_AND_HER = re.compile(r"[ \t]+and[ \t]+(?:his|her)[ \t]+(?:husband|wife|partner|boyfriend|girlfriend|son|daughter|"
                      r"sons|daughters|kids|children|mum|mom|dad|mother|father|brother|sister|family|fiance|"
                      r"fiancee)(?![\w'’\-])")
#: said to, set off by commas after a greeting, thanks or a sign-off ("thanks for that , journey .", "come on through ,
#: ocean .", "right then , nick , any questions ?"), or after "hi" ("hi dream , what brings you in ?")
_SAID_TO = re.compile(r"(?<![\w'’\-])(?:(?:thanks|thank[ \t]+you)(?:[ \t]+(?:so|very)[ \t]+much)?(?:[ \t]+for[ \t]+[a-z']+"
                      r"(?:[ \t]+[a-z']+)?)?|cheers|bye(?:[ \t]+now)?|goodbye|take[ \t]+care|see[ \t]+you(?:[ \t]+[a-z]+){0,2}|"
                      r"come[ \t]+(?:on[ \t]+)?(?:in|through|up|over)|(?:good[ \t]+)?(?:morning|afternoon|evening)|"
                      r"right[ \t]+then|okay[ \t]+then|(?:lovely|nice|good|great)[ \t]+to[ \t]+(?:meet|see)[ \t]+you"
                      r"(?:[ \t]+again)?|welcome[ \t]+back)[ \t]*,[ \t]*$|(?<![\w'’\-])(?:hi|hello|hiya|morning)[ \t]+$")
_SAID_TO_AFTER = re.compile(r"[ \t]*(?:[.!?,]|$)")
#: a turn's or sentence's first word addressed before a request ("nick , could you slip your shoes off", "ocean ,
#: just take a deep breath")
_REQUEST = re.compile(r"[ \t]*,[ \t]*(?:(?:can|could|would|will)[ \t]+you|just|please)(?![\w'’\-])")
#: words said on their own where a name is addressed: approval, exclamations, sentence adverbs ("okay , perfect .",
#: "great , could you ...", "lord , what a week", "first , can you ...")
NOT_ADDRESSED = frozenset("""perfect great lovely brilliant excellent fine good super sure right cool nice sweet
    wonderful fantastic marvellous marvelous smashing splendid beautiful gorgeous golden awesome amazing bingo correct
    exactly absolutely true indeed fair close done ready sorry pardon welcome bless wow gosh golly jeez blimey crikey
    damn hell first next last finally lastly listen look wait hang hold please deal same interesting pleasure team
    kids quick honestly seriously brave strong cute honest real tough big cheap loud angry strange huge worth fun wish
    bro sis dude fella gents ladies girls boys lads cutie handsome princess mister missus hen luv sweetpea cupcake sugar
    boo bub bestie guv squire captain skipper officer""".split())
#: how far before a word its frame is read
_BEFORE = 32
#: the words before the one rung, called or texted, and before the one told or asked (:mod:`.name_guarded_kinds`
#: reads them too)
CALL_WORDS = frozenset("call phone ring text email message called phoned rang texted emailed messaged".split())
TELL_WORDS = frozenset("tell ask told asked".split())
#: the words right before a place that open a frame read with text (a token; "it 's": "s")
_TRIGGERS = frozenset("was s is it did has would let".split()) | CALL_WORDS | TELL_WORDS
#: the words right after a clause's subject that open its frames ("says", "drove me", "wants me to", "and her husband")
_NEXT = SAYS | {"drove", "wants", "and"}
#: the greetings right before a name addressed ("hi dream ,"), and what may follow a name said to ("," "." "?" "!", the
#: text's end)
GREETINGS = frozenset("hi hello hiya morning".split())
_SAID_END = (",", ".", "!", "?", " ,", " .", " !", " ?")


def _addressed(text: str, texts: list[str], starts: list[int], ends: list[int], i: int) -> bool:
    """Word ``i``, a given name, is the one addressed (the module's docstring): said to after a greeting, thanks or a
    sign-off, or at a clause's start before a request."""
    word, s, e = texts[i], starts[i], ends[i]
    if word in NOT_ADDRESSED or word not in first_names():
        return False
    if _REQUEST.match(text, e) and (not i or GAP_BREAK.search(text, ends[i - 1], s)):
        return True
    return _SAID_TO_AFTER.match(text, e) is not None and _SAID_TO.search(text, max(0, s - 48), s) is not None


def clause_start(text: str, texts: list[str], starts: list[int], ends: list[int], i: int) -> bool:
    """Word ``i`` starts a clause: a turn's or the text's start, a break before it, or an opener right before
    (:func:`.name_clause_opens.gap_opens_clause` with this rule's :data:`_OPENERS`)."""
    return gap_opens_clause(text, texts, starts, ends, i, _OPENERS)


def _subject(text: str, texts: list[str], starts: list[int], ends: list[int], i: int, high: bool) -> bool:
    """Word ``i`` is a clause's bare subject before a verb only a person does (``high``: a word of Zipf 4.5 or more;
    the rarer words are :mod:`.name_clause_subject`'s there), or before "and her husband" (the module's docstring)."""
    e = ends[i]
    nxt = high and (i + 1 < len(texts) and texts[i + 1] in SAYS and not text[e:starts[i + 1]].strip()
                    or _DROVE.match(text, e) is not None)
    return (nxt or _AND_HER.match(text, e) is not None) and clause_start(text, texts, starts, ends, i)


@lru_cache(maxsize=10_000)
def _plural(word: str) -> bool:
    """``word`` is the plural of a common word ("lies", "miles", "banks"): a bare object of "tell", "ask", "call" as a
    word ("i told lies about it", "ask questions about"), never taken there."""
    words = common_words()
    return len(word) >= 4 and word.endswith("s") and (word[:-1] in words or word.endswith("es") and word[:-2] in words)


def _framed(text: str, s: int, e: int, prev: str, high: bool) -> bool:
    """The word at ``s:e`` (``prev``: the word before) stands in a frame read around it (the module's docstring);
    ``high``: a word of Zipf 4.5 or more ("it was X who", "tell X to": :mod:`.name_bare_person`'s for the rarer)."""
    lo = max(0, s - _BEFORE)
    if prev in ("did", "has", "would"):
        return _ASK_AFTER.match(text, e) is not None and _ASK_BEFORE.search(text, lo, s) is not None
    if prev == "let":
        return _KNOW.match(text, e) is not None and _LET.search(text, lo, s) is not None
    if not high:
        return False
    if prev in CALL_WORDS or prev in TELL_WORDS:
        if _plural(text[s:e]):
            return False
    if prev in CALL_WORDS:
        return _CALL_AFTER.match(text, e) is not None and _CALL_BEFORE.search(text, lo, s) is not None
    if prev in ("was", "s", "is", "it"):
        return _WHO.match(text, e) is not None and _IT_WAS.search(text, lo, s) is not None
    return _TOLD_AFTER.match(text, e) is not None and _TOLD_BEFORE.search(text, lo, s) is not None


def person_only_at(text: str, texts: list[str], starts: list[int], ends: list[int], i: int, high: bool) -> bool:
    """Word ``i`` of the text (``texts``, ``starts``, ``ends``: its words) stands in a place only a person stands (the
    module's docstring), no voice ("god knows"); ``high``: read in every frame (:func:`_framed`). The words around
    first: a frame's word before, a verb or "and" after, a comma or an end after, a greeting before."""
    word, s, e = texts[i], starts[i], ends[i]
    prev = texts[i - 1] if i else ""
    return (prev in _TRIGGERS and _framed(text, s, e, prev, high)
            or i + 1 < len(texts) and texts[i + 1] in _NEXT and _subject(text, texts, starts, ends, i, high)
            or (prev in GREETINGS or text.startswith(_SAID_END, e)) and _addressed(text, texts, starts, ends, i)) \
        and word not in _VOICES


def person_only_names(text: str, toks: Sequence[Tok], kind: Callable[[str, Tok], str | None],
                      unlisted: Callable[[str], bool], bare: BareWords | None = None) -> list[Tok]:
    """The lower-case words of Zipf 4.5 or more that stand bare where only a person stands (the module's docstring).
    ``toks``: the text's words; ``kind``: what the detector knows of a word where it stands
    (:func:`.name_slots.person_slots`'s: ``"gazetteer"`` for a name that may be one there); ``unlisted``: a word in
    no list. Words first: ``bare`` (:func:`.name_bare_person.bare_word_places`, read once a text for the four
    bare-word rules) holds the words (``high``) and their places."""
    bare = bare or bare_word_places(toks, unlisted)
    words, rarer = bare.high, bare.clause
    if not (words or rarer):
        return []
    texts, starts, ends = texts_of(toks), starts_of(toks), ends_of(toks)
    out: list[Tok] = []
    for i in bare.places:
        word = texts[i]
        if word in words:
            high = True
        elif word in rarer:
            high = False
        else:
            continue
        if not person_only_at(text, texts, starts, ends, i, high):
            continue
        t = Tok(starts[i], ends[i], word, word)
        if kind(text, t) == "gazetteer":
            out.append(t)
    return out
