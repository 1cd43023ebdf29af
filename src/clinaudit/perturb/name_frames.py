"""The frames that name a person take a word the guards call a word (issue 50, thirteenth session): a title, a
self-introduction, a greeting or sign-off, a relative or carer in apposition. Elsewhere the guards keep a function,
modal, month, day, demographic, clinical (ICD description) or spoken word from ever being a name; in these frames a
person called Friday, Baby, Long, No or Civil is lost ("My name is Friday.", "Hi Baby, how are you?", "Dr No sent
me.", "mrs civil is here ."). Each frame word has a closed class of what follows it as a word; a word outside it is
a name there:

* **a title** "mr", "mrs", "mx", "dr", "prof" (and "ms", "mr" with a period or cased: without one, lower-case "ms"
  and "mr" are multiple sclerosis and magnetic resonance); "doctor", "nurse", "sister", "miss", "professor" (not
  after a determiner, a possessive, a subject or an auxiliary: "the dr will see you", "i miss may"): in cased text a
  capitalised word ("Dr May sent me."; never in capitals, "Dr MRI"); in lower case a word followed by a verb a
  person does, a clause's end or a comma ("dr son will see you .", "nurse civil will take your bloods"), and a
  modal, auxiliary or verb of saying only before such a verb or the clause's end ("dr will see you now" stays, as
  the real dialogs' "nurse will be", "nurse told you", "nurse did a"); never a preposition, conjunction, pronoun or
  article ("mr and mrs", "dr on call");
* **"my name is" / "my name's"**: a word followed by the clause's end, a comma or a second name word that ends it,
  outside "not", "on", "in", "spelled", "the", "a", "also", "still", ... ("my name is not on the list");
* **"call me X"**, **"this is X speaking / calling"**, **"i'm X"** (cased, capitalised, no demographic word; in
  lower case after a greeting, or before ", i'll be" / "from the pharmacy"), **"it's X"** after a greeting or before
  "here , from" / "speaking": the same;
* **a greeting or sign-off** at a turn's or sentence's start ("hi", "hello", "morning", "good morning", "thanks",
  "thank you", "cheers", "bye", "take care", "nice to meet you"): a word that ends the clause, outside the words of
  address and endearment ("hi there", "thanks again", "thanks , pal .", "hi honey");
* **a relative or carer after a possessive** ("my son X", "her daughter , X ,", "my nurse X"): set off by commas, or
  before a verb a person does ("my son ran drives me in"; not "my son will drive", "my son ran off", "my son also
  has": no function word but a month or day, no word ending in -ly).

Never a drug, specialty or eponym, a relative's word (but after "mr", "mrs", "dr": "dr son"), a word in capitals in
cased text (an acronym: "Dr MRI"), a word of grammar after a title ("Dr. Then"), a speaker label (a word before ":").
Read by :func:`.name_context.context_spans` (:func:`frame_at`) only where it finds a naming context and declines the
word, and at "nurse", "sister", "my name's", "take care" (about 8 ms more a 1 MB dialog); :func:`frame_names` reads
every frame word of a text (for tests and measures). Source ``rule``."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import lru_cache
from itertools import compress

from .name_tokens import Tok, keys_of
from .name_pronoun_pairs import AND
from .name_person_only import NOT_ADDRESSED
from .name_word import GRAMMAR_NAMES, SEP_COMMA, SEP_PERIOD, SEP_SPACE, word_facts
from .vocab import DAY_NAMES, FEAST_NAMES, MONTH_NAMES, POSSESSIVES, RELATIVES, SPOKEN_WORDS

__all__ = ["FRAME_WORDS", "TITLES", "TITLE_WORDS", "VERBS_AFTER_A_PERSON", "frame_at", "frame_names", "is_cased",
           "lower_case_text"]

#: the abbreviated titles (:mod:`.name_parts_apart` reads them too)
TITLES = frozenset("mr mrs ms mx dr prof".split())
_FULL_TITLES = frozenset("doctor nurse sister miss professor mister missus".split())
_GREETINGS = frozenset("hi hello hey morning afternoon evening thanks bye goodbye cheers welcome".split())
_ROLES = RELATIVES | frozenset("nurse carer caregiver neighbour neighbor friend therapist physio midwife".split())
#: every title, abbreviated or in full
TITLE_WORDS = TITLES | _FULL_TITLES
#: the words a frame starts at (:func:`frame_names`; the pipeline: :data:`.name_context._CONTEXT_WORDS` and "nurse")
FRAME_WORDS = TITLE_WORDS | _GREETINGS | _ROLES | frozenset("is me i'm you name".split())

#: never a name right after any frame word: articles, pronouns, prepositions, conjunctions, adverbs of degree
_CLOSED = frozenset("""until after before since during over under through without within around near like because
    while unless and or but nor the a an this that these those there here i you he she we they it me him her us
    them my your his our their its on in at for to of with from by about as into onto than then so if when who which
    what whom whose where why how not also just still only even too very really quite pretty now again already always
    never please yes no nope yeah okay ok alright sure right well sorry both all everyone everybody everything nothing
    someone something anyone anything mr mrs ms mx dr doctor nurse sister miss prof professor sir madam ma'am maam
    herself himself myself yourself themselves ourselves itself once twice though anyway anyways yep yup bye-bye
    dragon dax document god lord jesus christ goodness heavens computer is are was were am be been being has have had
    does did mister missus doctors nurses back""".split())
#: what follows "my name is" as a word ("my name is spelled wrong", "my name is in the system")
_NAME_IS = _CLOSED | frozenset("""spelled spelt written listed printed wrong correct missing different same down up
    under hard long short difficult easy unusual common weird funny kind sort mentioned called mine hers being""".split())
#: capitalised after a title, a word: "Mr. And Mrs. Smith" ("Dr No", "Mrs An" are names)
_CASED_TITLE = (_CLOSED | GRAMMAR_NAMES) - frozenset("an no he so".split())
#: said to, a word: words of address and endearment ("hi there", "thanks , pal .", "hi honey")
_ADDRESS = _CLOSED | RELATIVES | frozenset("""there guys folks y'all team ladies gentlemen man dude bro sis mate pal buddy
    bud love lovey dear darling honey hon hun sweetie sweetheart babe baby doc champ chief boss kiddo kid kids son sonny
    lad lass legend ace star angel pet petal duck chuck poppet treasure sunshine doll people friend friends much lot
    bye hi hello hey goodbye thanks cheers morning afternoon evening night tonight today tomorrow later soon lady
    gentleman gentlemen sir madam girl girls boy boys woman fella young old um uh er erm hmm mm ah oh eh gotcha
    alrighty righto ta byebye""".split()) | NOT_ADDRESSED | SPOKEN_WORDS
#: after "call me" as a word ("call me crazy", "call me back")
_CALL_ME = _ADDRESS | frozenset("""back later tomorrow anytime tonight today sometime whenever crazy silly old paranoid
    stupid lazy first maybe asap directly instead""".split())
#: modals, auxiliaries and verbs of saying: a name after a title only before a person's verb or the clause's end
_MODALS = frozenset("""will would shall should may might must can could do does did have has had be is am are was were
    said says say told tell tells come check see""".split())
#: a verb a person does, right after the name ("dr son will see you", "my son ran drives me in")
VERBS_AFTER_A_PERSON = _PERSON_VERBS = frozenset("""will would can could may might must should shall is was has had does did said says told
    tells sent sends saw sees gave gives took takes came comes called calls wants wanted thinks thought knows knew
    teaches taught rang rings asked asks keeps kept changes changed drives drove lives lived works worked helps helped
    brought brings picks picked checked checks looked looks wrote writes prescribed ordered referred signed agreed
    explained mentioned suggested treats treated operated did's""".split())
_MONTHS = MONTH_NAMES | FEAST_NAMES
_DETERMINER_LIKE = POSSESSIVES | frozenset("""the a an this that your any another every each i you we they he she to
    will would can could don't didn't won't not never also really just do did does may might must should 'll""".split())
_END = re.compile(r"[ \t]*(?:[.,!?;)]|\n|$)")
#: what follows a name said in "i'm X" / "it's X" in lower case ("i'm X , i'll be looking after you", "i'm X from the
#: pharmacy", "it's X here , from ...")
_INTRO_AFTER = re.compile(r"[ \t]*(?:,[ \t]*(?:i'll|i will|i'm your|your|one of)\b|from the (?:pharmacy|ward|lab|clinic|"
                          r"front desk|reception|office|practice|team|care home|agency)\b|here[ \t]*,[ \t]*from\b|"
                          r"(?:speaking|calling)\b)")
_CALLING = frozenset("speaking calling ringing".split())
_CONTRACTION = re.compile(r"'(?:m|ve|ll|d|s|re|t)$")

Follows = Callable[[int], bool]


def _may_be(t: Tok, cased: bool, relative_ok: bool = False) -> bool:
    """A word a frame may take: two letters or more, no drug, specialty, eponym, relative's word, nor (cased text) a
    word in capitals."""
    if len(t.key) < 2 or not t.key.replace("-", "").replace("'", "").isalpha() or cased and t.text.isupper() \
            or _CONTRACTION.search(t.key):
        return False
    w = word_facts(t.key)
    if w.eponym or w.clinical == "specialty" or w.clinical == "drug" and not w.person_drug:
        return False
    return relative_ok or t.key not in _ROLES


def _gap(text: str, a: Tok, b: Tok, rx: re.Pattern[str]) -> bool:
    return bool(rx.fullmatch(text, a.end, b.start))


def _ends(text: str, t: Tok) -> bool:
    """The clause ends right after ``t`` (a possessive "'s" may follow)."""
    return bool(_END.match(text, t.end + (2 if text[t.end:t.end + 2] in ("'s", "’s") else 0)))


def _verb_next(toks: Sequence[Tok], text: str, j: int) -> bool:
    """A verb a person does right after ``toks[j]``."""
    return j + 1 < len(toks) and _gap(text, toks[j], toks[j + 1], SEP_SPACE) and toks[j + 1].key in _PERSON_VERBS


def _run(text: str, toks: Sequence[Tok], i: int, closed: frozenset[str], cased: bool, follows: Follows,
         relative_ok: bool = False) -> list[Tok]:
    """The name starting at ``toks[i]`` in a frame, one word or two with a space between: capitalised in cased
    text; in lower case what ``follows(j)`` accepts after its last word ``toks[j]`` (a modal, an auxiliary or a verb
    of saying only before the clause's end or a person's verb: "dr will see you" stays)."""
    t = toks[i]
    if t.key in closed or not _may_be(t, cased, relative_ok) or text[t.end:t.end + 1] == ":":
        return []
    if cased:
        if not t.capital:
            return []
        if i + 1 < len(toks) and toks[i + 1].capital and _gap(text, t, toks[i + 1], SEP_SPACE) \
                and toks[i + 1].key not in closed and _may_be(toks[i + 1], cased):
            return [t, toks[i + 1]]
        return [t]
    for j in (i, i + 1):
        if j >= len(toks):
            return []
        if j > i and not (_gap(text, toks[i], toks[j], SEP_SPACE) and toks[j].key not in closed
                          and toks[j].key not in _MODALS and _may_be(toks[j], cased)):
            return []
        if follows(j):
            if t.key in _MODALS and not (_ends(text, toks[j]) or _verb_next(toks, text, j)):
                return []
            return list(toks[i:j + 1])
    return []


def _start(text: str, toks: Sequence[Tok], k: int) -> bool:
    """``toks[k]`` opens a turn or a sentence (maybe after "oh", "well", "okay", "good", "and")."""
    while True:
        lo = toks[k - 1].end if k else 0
        gap = text[lo:toks[k].start]
        if k == 0 or "\n" in gap or gap.strip()[-1:] in (".", "!", "?", ":", "]"):
            return True
        if gap.strip(" \t,") or toks[k - 1].key not in _OPENERS:
            return False
        k -= 1


_OPENERS = frozenset("oh well okay ok good and so yes yeah alright".split())


def _greeting_before(text: str, toks: Sequence[Tok], k: int) -> bool:
    """A greeting opens the sentence right before ``toks[k]`` ("hi , i'm ...", "hello , it's ...")."""
    return k >= 1 and toks[k - 1].key in _GREETINGS and _gap(text, toks[k - 1], toks[k], SEP_COMMA) \
        and _start(text, toks, k - 1)


def frame_names(text: str, toks: Sequence[Tok]) -> list[Tok]:
    """Names in the frames that name a person (module docstring), read at every frame word (the pipeline reads them
    only where :func:`.name_context.context_spans` finds a naming context it declines: :func:`frame_at`)."""
    cased = is_cased(text)
    keys = keys_of(toks)
    return [t for k in compress(range(len(toks) - 1), map(FRAME_WORDS.__contains__, keys))
            for t in frame_at(text, toks, keys, k, cased)]


def is_cased(text: str) -> bool:
    """Cased text: a capital letter in its first 4,000 characters."""
    return any(c.isupper() for c in text[:4000])


@lru_cache(maxsize=8)
def lower_case_text(text: str) -> bool:
    """Lower-case text (not :func:`is_cased`), read once a text however many words ask (the rules of words no name
    list holds, :func:`.name_given_words.plain_word_name`)."""
    return not is_cased(text)


def frame_at(text: str, toks: Sequence[Tok], keys: Sequence[str], k: int, cased: bool) -> list[Tok]:
    """The name the frame word ``toks[k]`` opens, if any."""
    p, key, i = toks[k], keys[k], k + 1
    prev = keys[k - 1] if k else ""

    def ends(j: int) -> bool:
        return _ends(text, toks[j])

    def verb(j: int) -> bool:
        return _ends(text, toks[j]) or _verb_next(toks, text, j)

    if key in _ROLES and prev in POSSESSIVES:
        return _relative(text, toks, i, cased)
    if key in TITLES:
        dotted = "." in text[p.end:toks[i].start]
        if not _gap(text, p, toks[i], SEP_PERIOD) or key in ("ms", "mr") and not dotted and not (
                cased and p.capital or _guard_word(toks[i].key)):
            return []  # "ms flare", "mr arthrogram"; "mr friday" is no scan
        if key == "dr" and prev in _DETERMINER_LIKE or prev in POSSESSIVES or prev in ("the", "a", "an", "your"):
            return []  # "the dr will see you", "your dr may want to", "i saw the dr . tea , ..."
        return _run(text, toks, i, _CASED_TITLE if cased or dotted or key in ("mrs", "mx") else _CLOSED, cased,
                    lambda j: verb(j) or _prep_next(toks, keys, j), relative_ok=True)
    if key in _FULL_TITLES:
        if not _gap(text, p, toks[i], SEP_SPACE) or prev in _DETERMINER_LIKE or cased and not p.capital:
            return []  # "the nurse will", "i miss may", "miss . how are you"
        if not cased and not _word_like_name(toks[i].key):
            return []  # "my old doctor knows", "nurse practitioner"
        return _run(text, toks, i, _CLOSED, cased, verb)
    possessive = text[p.end:p.end + 2] in ("'s", "’s")
    if key in ("is", "me", "i'm", "it", "name") and not SEP_SPACE.fullmatch(text, p.end + 2 * possessive, toks[i].start):
        return []  # only a space between the frame and the name ("call me . certainly" is none)
    if key == "is" and prev == "name" and k >= 2 and keys[k - 2] in POSSESSIVES \
            or key == "name" and possessive and prev in POSSESSIVES:
        return _run(text, toks, i, _NAME_IS, cased, lambda j: ends(j) or bool(_AND_I.match(text, toks[j].end)))
    if key == "me" and prev == "call":
        return _run(text, toks, i, _CALL_ME, cased, ends)
    if key == "is" and prev == "this":
        return _run(text, toks, i, _CLOSED, cased, lambda j: j + 1 < len(toks) and keys[j + 1] in _CALLING)
    if key == "i'm" or key == "it" and possessive:
        if cased and key == "i'm":
            return [] if word_facts(toks[i].key).demographic else _run(text, toks, i, _NAME_IS, cased, ends)
        if _intro_after(text, toks[i]):
            return _run(text, toks, i, _NAME_IS, cased, lambda j: j == i)
        return _run(text, toks, i, _NAME_IS, cased, ends) if _greeting_before(text, toks, k) else []
    if key in _GREETINGS or key in ("you", "care") and prev in ("thank", "meet", "take"):
        if key in _GREETINGS and not (_start(text, toks, k) or prev in ("good", "thank")):
            return []
        if keys[i] == "it" and text[toks[i].end:toks[i].end + 1] in ("'", "’") and i + 1 < len(toks):
            return frame_at(text, toks, keys, i, cased)  # "hi , it's X , i rang yesterday"
        while i + 1 < len(toks) and (keys[i] == "now" or keys[i] in ("so", "very") and keys[i + 1] == "much"):
            i += 1 if keys[i] == "now" else 2  # "take care now , X", "thank you so much , X"
        if i >= len(toks) or not _gap(text, toks[i - 1], toks[i], SEP_COMMA) or not _word_like_name(toks[i].key):
            return []  # a common word no guard knows is said to no one ("thank you tea , money and a phone")
        return _run(text, toks, i, _ADDRESS, cased, lambda j: j == i and ends(j))  # one word in lower case
    return []


#: "my name is X and i'm one of the nurses"
_AND_I = re.compile(AND + r"i(?:'m|[ \t])")
_PREPOSITIONS = frozenset("in at on from with about for to by".split())


def _guard_word(key: str) -> bool:
    """A word the guards keep from being a name elsewhere: a function, demographic, month or day word."""
    w = word_facts(key)
    return w.function or w.demographic or key in _MONTHS


def _word_like_name(key: str) -> bool:
    """A word that may be a name the guards keep out: a function, demographic, month, day, condition or spoken word,
    a gazetteer name, or a word in no list ("my son X drives", "nurse X will"; not "my father side had")."""
    w = word_facts(key)
    return w.function or w.demographic or w.clinical == "condition" or w.gazetteer or not w.common \
        or key in _MONTHS or key in DAY_NAMES or key in SPOKEN_WORDS


def _prep_next(toks: Sequence[Tok], keys: Sequence[str], j: int) -> bool:
    """A preposition right after ``toks[j]`` ("seen by dr X Y in the spring", "ask for dr X at the desk")."""
    return j + 1 < len(keys) and keys[j + 1] in _PREPOSITIONS and keys[j] not in _MODALS


def _intro_after(text: str, t: Tok) -> bool:
    """"i'm X , i'll be looking after you", "i'm X from the pharmacy", "it's X here , from ...", "i'm X speaking"."""
    return bool(_INTRO_AFTER.match(text, t.end))


def _relative(text: str, toks: Sequence[Tok], i: int, cased: bool) -> list[Tok]:
    """"her daughter , X ," / "my son X drives me in": set off by commas, or before a person's verb; no function word
    but a month or a day, no adverb in -ly."""
    p, t = toks[i - 1], toks[i]
    if word_facts(t.key).function and t.key not in _MONTHS and t.key not in DAY_NAMES or t.key.endswith("ly"):
        return []
    closed = _CLOSED | _MODALS
    w = word_facts(t.key)
    if w.clinical is not None and not (w.function or w.demographic or t.key in DAY_NAMES):
        return []  # "her mother , Diabetes , and her father , Heart disease"
    if _gap(text, p, t, SEP_SPACE):
        if not cased and w.common and not (w.function or w.demographic or t.key in SPOKEN_WORDS):
            return []  # "my father side had cancer": of the common words, only a guard's word there
        return _run(text, toks, i, closed, cased, lambda j: _verb_next(toks, text, j))
    if re.fullmatch(r"[ \t]*,[ \t]*", text[p.end:t.start]) and (cased or _word_like_name(t.key)):
        return _run(text, toks, i, _CLOSED, cased, lambda j: j == i and text[t.end:t.end + 3].lstrip()[:1] in (",", "."))
    return []
