"""Where a person stands in a lower-case sentence (issue 50, lower-case recall): a word that the lists call a common
word too, or a word in no list, is a name in a slot English fills with a person. Used by the name detector
(:mod:`.name_detect`), which passes in what it knows of a word.

* **addressed**: after a sentence-opening "alright", "okay", "well", "so", "now", "oh" and before a comma ("alright
  harry , let's take a look"): a gazetteer name that philter-ucsf's whitelist of everyday words lacks, or a word in
  no list ("alright thembile ,"); "so far ," stays ("far" is an everyday word);
* **at a sentence's start before a comma and a pronoun or auxiliary** ("andrew , what's going on", "bilal , i want
  you to ..."): the same words, or a name-like one (:func:`.name_frequency.name_like`);
* **the subject of a verb of saying, thinking, going or messaging** ("texted", "phoned", "emailed": issue 50, eighth
  session) at a sentence's start, where the person works or comes from
  maybe between ("harry drove me here", "bilal thinks i snore", "moore at the pharmacy said"): a gazetteer name outside
  the whitelist even when used inflected ("sander drove me here"; English puts no bare singular noun there), a
  name-like word or a word in no list; in lower-case text, before a verb no thing does, an English word no name list
  holds (``kind`` ``"word"``, :func:`.name_given_words.plain_word_name`: "peg drove me here"; twenty-fourth session);
* **after "to", "call", "ask", "tell" and no determiner, before the clause's end or a preposition** ("i talked to
  moore on the phone", "fax the results to cho .", "you can call bilal if ..."): a name-like word only: English puts
  a verb there ("to ache ."), which is used inflected, or a bare noun ("go to bed"), which is frequent; the name-like
  words are neither. Not after "with", where bare mass nouns stand ("close it up with gauze and superglue").
* **the subject of a clause opened inside a sentence** by "and", "that", "because", "before", "when", ... before a
  verb only a person does ("my sister said that razvan told her", "before jirina was born", "i sat down and oystein
  said"; issue 50, seventh session): a word in no list or a name-like gazetteer name only (English puts a noun
  there that the lists know: "and the doctor said", "that mom told").
"""

from __future__ import annotations

import re
from collections.abc import Callable

from .name_frequency import name_like, word_shaped
from .name_neighbour_words import lower_word_name
from .name_tokens import Tok
from .text_scan import by_first_letter, places
from .vocab import SPOKEN_WORDS, whitelist_words

__all__ = ["person_slots"]

_PRONOUN = r"(?:i|you|we|let's|let|can|could|would|will|how|what|what's|do|did|are|is|have)\b"
_VERBS = """said says told tells thinks thought drove drives wants wanted called calls asked asks came comes brought
    brings took takes gave gives knows knew feels felt mentioned mentions suggested suggests helped helps went goes lives
    lived works worked texted texts phoned emailed messaged reckons reckoned rang""".split()
#: after a sentence-opening "alright", "okay", ... and before a comma ("alright harry , let's take a look")
_ADDRESSED = re.compile(r"(?:alright|okay|ok|well|so|now|oh)[ \t]+([a-z]+)[ \t]*,")
#: a comma and a pronoun or an auxiliary that opens a request to the person addressed ("bilal , i want you to")
_START = re.compile(rf",[ \t]*{_PRONOUN}")
#: a verb of saying, thinking or going after its subject ("harry drove me here", "bilal thinks i snore")
#: (grouped by first letter, :func:`.text_scan.by_first_letter`: each verb is a whole word before "\b", so at most
#: one of them matches at a place whatever their order; issue 50, eleventh session: the scan twice as fast)
_SUBJECT = re.compile(rf" (?:{by_first_letter(_VERBS)})\b")
#: after "to", "call", "ask", "tell", before the clause's end or a preposition ("talked to moore on the phone", "call
#: bilal if i don't pick up", "fax the results to cho .")
_OBJECT = re.compile(r"(?:to|call|ask|tell|told|asked|called)[ \t]+([a-z]+)(?=[ \t]*(?:[.,!?;:]|\n|$)|[ \t]+"
                     r"(?:on|at|in|if|about|and|for|to|yesterday|today|again|when)\b)")
#: a verb only a person does after its subject (where the person works or comes from maybe between): "drove",
#: "thinks", "said" ("blessing drove me here", "ali at the desk said"; not "joy came back", "patience helps")
_PERSON_VERB = re.compile(r"(?:[ \t]+(?:at|from)[ \t]+[a-z]+[ \t]+[a-z]+)?[ \t]+(?:said|says|told|tells|thinks|thought|"
                          r"drove|drives|wants|wanted|knows|knew|mentioned|mentions|suggested|suggests|asked|asks)\b")
#: words that open a clause inside a sentence, before its subject ("my sister said that razvan told her", "i sat down
#: and oystein said", "before jirina was born"): issue 50, seventh session
_OPENERS = frozenset("and but that because cause since before after when while until if so".split())
#: Before "to", a verb of going: a place follows, not a person ("we drove to columbus and ...", "a trip to rome")
_GOING = frozenset("""go goes going went gone drive drives driving drove driven walk walks walking walked fly flies
    flying flew flown move moves moving moved come comes coming came travel travels traveling travelled traveled
    trip trips back way head heads heading headed get gets getting got return returned returning ride rode
    commute commuted transferred""".split())
#: a subject, then where it works or comes from, before its verb ("moore at the pharmacy said", "cho from the lab told")
_PLACE_BETWEEN = re.compile(r"([a-z]+)[ \t]+(?:at|from)[ \t]+(?:the|my|his|her|our|their|your)[ \t]+[a-z]+[ \t]*$")
#: the lower-case word right before a position (spaces between)
_BEFORE = re.compile(r"([a-z]+)[ \t]*$")
_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_'’-")

SentenceStart = Callable[[str, int], bool]


def _word_before(text: str, pos: int) -> tuple[int, int] | None:
    m = _BEFORE.search(text, max(0, pos - 40), pos)
    if m is None or m.start(1) > 0 and (text[m.start(1) - 1] in _LETTERS or text[m.start(1) - 1].isalpha()):
        return None
    return m.start(1), m.end(1)


def _whole(text: str, start: int, end: int) -> bool:
    """``text[start:end]`` is a whole word (no letter, digit, apostrophe or hyphen either side)."""
    return not (start > 0 and (text[start - 1] in _LETTERS or text[start - 1].isalpha())
                or end < len(text) and (text[end] in _LETTERS or text[end].isalpha()))


def _opened(text: str, start: int) -> bool:
    """The word before ``start`` (spaces between) opens a clause inside a sentence (:data:`_OPENERS`)."""
    w = _word_before(text, start)
    return w is not None and text[w[0]:w[1]] in _OPENERS


def _candidates(text: str, sentence_start: SentenceStart) -> list[tuple[str, int, int]]:
    """``(slot, start, end)`` of the words in a slot; found from four patterns led by their fixed words (a comma, a
    verb, "to": the regular-expression engine skips to them), not by a look at every word."""
    out = []
    for m in _ADDRESSED.finditer(text):
        if _whole(text, m.start(), m.start() + m.group(0).index(" ")) and _whole(text, m.start(1), m.end(1)) \
                and sentence_start(text, m.start()):
            out.append(("addressed", m.start(1), m.end(1)))
    for pat, slot in ((_START, "start"), (_SUBJECT, "subject")):
        for m in pat.finditer(text):
            if slot == "subject" and not _whole(text, m.start() + 1, m.end()):
                continue
            w = _word_before(text, m.start())
            if w is not None and sentence_start(text, w[0]):
                out.append((slot, *w))
            elif slot == "subject" and w is not None and _PERSON_VERB.match(text, w[1]) and _opened(text, w[0]):
                out.append(("opened", *w))  # "... that razvan told her": a clause opened inside a sentence
            elif slot == "subject" and (text.find(" at ", max(0, m.start() - 40), m.start()) >= 0
                                        or text.find(" from ", max(0, m.start() - 40), m.start()) >= 0):
                # where the person works between: "moore at the pharmacy said"
                p = _PLACE_BETWEEN.search(text, max(0, m.start() - 60), m.start())
                if p is not None and _whole(text, p.start(1), p.end(1)) and sentence_start(text, p.start(1)):
                    out.append((slot, p.start(1), p.end(1)))
    for pos in places(text, " was born"):  # "before jirina was born"
        w = _word_before(text, pos)
        if w is not None and _opened(text, w[0]):
            out.append(("opened", *w))
    for m in _OBJECT.finditer(text):
        if _whole(text, m.start(), m.start() + len(m.group(0)) - len(m.group(0).lstrip("abcdefghijklmnopqrstuvwxyz"))) \
                and _whole(text, m.start(1), m.end(1)):
            w = _word_before(text, m.start())
            if w is None or text[w[0]:w[1]] not in _GOING:  # "talked to moore"; not "drove to columbus"
                out.append(("object", m.start(1), m.end(1)))
    return out


def person_slots(text: str, sentence_start: SentenceStart, kind: Callable[[str, Tok], str | None]) -> list[Tok]:
    """The lower-case words of ``text`` that stand where a person stands (the module's docstring). ``kind(t)``: what
    the detector knows of ``t`` in ``text``: ``"gazetteer"`` (a gazetteer name that is no function, demographic, drug or specialty
    word, nor a clinical word that is no name), ``"unlisted"`` (in no list), ``"word"`` (in lower-case text, an English
    word no name list holds that may be a given name: read only as the subject of a verb no thing does, "peg drove
    me here"), or None (never a name here: a town by where it stands, "moved to ..." too)."""
    out: list[Tok] = []
    for slot, start, end in _candidates(text, sentence_start):
        word = text[start:end]
        if len(word) < 2 or word in SPOKEN_WORDS:
            continue
        t = Tok(start, end, word, word)
        k = kind(text, t)
        if k is None:
            continue
        if slot == "object":
            ok = k == "gazetteer" and name_like(word)
        elif slot == "opened":  # "... that razvan told her": a word in no list, or a name-like gazetteer name
            ok = k == "unlisted" or k == "gazetteer" and name_like(word)
        else:
            ok = k == "unlisted" or k == "gazetteer" and (
                name_like(word) or word not in whitelist_words() and (slot != "start" or not word_shaped(word))
                or lower_word_name(word) and (slot != "subject" or _PERSON_VERB.match(text, end) is not None))
            # a given name that is a word: "blessing drove me here", "ali , i want you", "alright sri ,"; as a subject
            # only of a verb no thing does ("joy came back", "patience helps" stay)
        if k == "word":  # a word no name list holds: the same subject only ("peg drove me here"; twenty-fourth session)
            ok = slot == "subject" and _PERSON_VERB.match(text, end) is not None
        if ok:
            out.append(t)
    return out
