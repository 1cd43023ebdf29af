"""A surname that is an English word, bare and in lower case, in the everyday places only a person takes (issue 50,
seventeenth session: ``benchmarks/deid_dev42.py``). :mod:`.name_word_surnames` reads such a word after a given name
and alone in a few frames ("me and X went", "ask X , she'll know"), :mod:`.name_person_predicates` a clause's subject
before a predicate only a person takes ("X was lovely with me", "X can't come"); a UK, Irish or Punjabi surname that is
a word ("pound", "swords", "dar", "mill") was still lost in the plainer places of a person's day: "X booked me in",
"my carer is X .", "i came with X this morning", "i was telling X about", "we're going to X's after this", "my friend
, X , drove me in", "morning X ,", "X from the chemist dropped it round". What decides here is what the word is and
what English puts in the place:

* **the word**: in lower case, a surname the gazetteer holds that is a common English word
  :func:`.name_person_predicates.may_be_predicate_name` allows (no function, spoken, relative's, filler, modal,
  adverb, person's verb, day or month word, no clinical word at all, no mass noun, food, drink, season or weather
  word, no title or role, no plural: "i told lies about it"), no word English lets speak as a voice ("law", "lord", "bank": "the bank rang");
* **a clause's bare subject before what a person does to a person** (a turn's or sentence's start, or after "and /
  so / but / oh / well"): a verb of a person's errands or care with a person after it ("booked me in", "is picking
  me up", "sorted out my prescription", "keeps an eye on me", "wanted me to ask", "has been doing my shopping"),
  "will be here at / by / soon", "and her sister / his brother": English puts a determiner before a count noun there,
  and a mass noun books, picks up, fetches and looks after no one ("rice makes me sick": no such verb);
* **the complement of a person's role or relation**: "my carer / neighbour / gp / friend is X" before the sentence's
  end or a comma (not "my friend's golden": a possessive), never an adjective (English writes its superlative and its "-ly" adverb or comparative: "my carer
  is lush", "my friend is rich");
* **the object of a preposition or verb that takes a person**: "i came / was staying with X" before a time or the
  end ("i came with a rash": a determiner; not "went with", a choice: "we went with cash"; not "living with", a
  condition: "living with mark on my arm"), "telling / asking X about", "tell X the results", "let X
  know", "say hello to X", "thanks to X i", a home ("going / round / stopping / back to / at X's after this /
  tonight / later");
* **an apposition** after a person's role or relation ("my friend , X , drove me in"), **a greeting** ("morning X ,",
  "hello again X .", :data:`.name_person_only.NOT_ADDRESSED` words and adjectives never), "X from the chemist / the
  surgery / church" before a person's verb at a clause's start, "it was X that / who noticed", "does X live with
  you ?".

Only tokens whose word passes the test above are read (a few a dialog), each with the words right around it (a bounded
match at the token's end and a bounded search of the 48 characters before it): linear in the text. Capitalised words
are the cased rules'. Used by :mod:`.name_detect` (source ``rule``)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import lru_cache

from .name_person_only import NOT_ADDRESSED
from .name_person_predicates import may_be_predicate_name
from .name_tokens import Tok, key_indices, keys_of
from .vocab import RELATIVES, common_words, english_zipf, surnames

__all__ = ["adjective_like", "may_be_place_surname", "surname_place_names"]

_W = r"(?![\w'’\-])"
_S = r"[ \t]+"
#: words English lets speak, ring or write as a voice or an institution ("the bank rang", "law says")
_VOICES = frozenset("law lord bank god post press court church council".split())
#: a clause opens before the word: a boundary, or one of these words right before it
_BREAK = re.compile(r"(?:^|[.!?;:,\n\"“(\]])[ \t]*$")
_OPENERS = frozenset("and so but then because cos oh yeah yes well anyway plus also".split())
#: a person's role or relation ("my carer", "our lodger", "her key worker")
_ROLES = r"(?:" + "|".join(sorted(RELATIVES | frozenset("""carer carers neighbour neighbor gp doctor consultant nurse
    friend partner lodger landlord landlady boss manager worker warden dentist physio midwife visitor counsellor
    surgeon mate pal flatmate housemate colleague helper cleaner driver advocate""".split()), key=len, reverse=True)) + r")"
_OBJ = r"(?:me|us|him|her|them|my|mum|dad|mam|nan|gran|grandad|the[ \t]+kids)" + _W
#: after the bare subject: a verb of a person's errands or care, a person after it
_SUBJECT_NEXT = re.compile(
    _S + r"(?:(?:is|was|will|['’]ll|has|had|['’]s|would|can|could|usually|always|normally|often|sometimes|just|also|"
    r"still|kindly|then|been|be)" + _S + r"){0,3}"
    r"(?:(?:booked|books|booking|book|picked|picks|picking|pick|collected|collects|collecting|collect|fetched|fetches|"
    r"fetching|fetch|sorted|sorts|sorting|sort|drove|drives|driving|drive|driven|brought|brings|bringing|bring|took|"
    r"takes|taking|ferried|ferries|ferrying|visited|visits|visiting|visit|reminded|reminds|wanted|wants|asked|asks|"
    r"helped|helps|helping|help|rang|rings|phoned|phones|texted|texts|emailed|called|calls|told|tells|"
    r"(?:looked|looks|looking|look)" + _S + r"after|(?:keeps|kept|keeping|keep)" + _S + r"an" + _S + r"eye" + _S + r"on|"
    r"(?:came|comes|coming|come|went|goes|going|go)" + _S + r"(?:in" + _S + r"|round" + _S + r"|along" + _S + r")?with|"
    r"(?:sat|sits|sitting|sit|stayed|stays|staying|stay)" + _S + r"with)"
    + _S + r"(?:(?:out|up|in|round)" + _S + r")?" + _OBJ
    + r"|(?:does|did|doing|do)" + _S + r"(?:my|our|her|his)" + _S + r"(?:shopping|washing|cleaning|tablets|meds|"
    r"medication|dressings|paperwork|forms|hair|feet|ironing|cooking)" + _W
    + r"|be" + _S + r"here" + _S + r"(?:at|by|around|about|soon|later|after|before|tomorrow|in" + _S + r"a)" + _W
    + r"|and" + _S + r"(?:her|his)" + _S + r"(?:sister|brother|sisters|brothers|nan|niece|nephew|cousin|mate|"
    r"friend|neighbour|carer|lodger|grandson|granddaughter)" + _W + r")")
#: before the word: "my carer is", "our gp was", "my neighbour's"
_COMPLEMENT_BEFORE = re.compile(r"(?:^|[^\w'’])(?:my|our|your|his|her|their)" + _S + r"(?:[a-z\-]+" + _S + r")?"
                                + _ROLES + _S + r"(?:is|was)" + _S + r"(?:still" + _S + r"|now" + _S
                                + r"|called" + _S + r")?$")
_COMPLEMENT_NEXT = re.compile(r"[ \t]*(?:[.,!?;]|\n|$)|" + _S + r"(?:now|these" + _S + r"days|isn['’]t" + _S + r"it|"
                              r"from|and" + _S + r"(?:she|he)|who|at" + _S + r"number)" + _W)
#: before the word: a preposition that takes a person after someone's verb
_WITH_BEFORE = re.compile(r"(?:^|[^\w'’])(?:i|we|she|he|they|i['’]m|i['’]ve|we['’]re|i've|been)" + _S
                          + r"(?:(?:was|am|were|been|have|had|just|only|all|usually|always)" + _S + r"){0,2}"
                          r"(?:came|come|coming|stay|stays|stayed|staying|sat|"
                          r"sit|sitting|stopped|stopping|travelled|traveled)" + _S + r"(?:in" + _S + r"|over" + _S
                          + r"|down" + _S + r"|up" + _S + r")?with" + _S + r"$")
_WITH_NEXT = re.compile(r"[ \t]*(?:[.,!?;]|\n|$)|" + _S + r"(?:this|last|today|tonight|yesterday|since|now|and" + _S
                        + r"(?:her|his))" + _W)
_TELL_BEFORE = re.compile(r"(?:^|[^\w'’])(?:telling|told|tell|tells|asking|ask|asked|reminded|remind|warned|warn)" + _S
                          + r"$")
_TELL_NEXT = re.compile(_S + r"(?:about|the" + _S + r"(?:results|news|plan)|that" + _S
                        + r"(?:i|we|you|she|he|they|it)|if" + _S + r"(?:i|we|you|she|he|they))" + _W)
_LET_BEFORE = re.compile(r"(?:^|[^\w'’])let" + _S + r"$")
_KNOW = re.compile(_S + r"know" + _W)
_HELLO_BEFORE = re.compile(r"(?:^|[^\w'’])(?:say|said|send|sends)" + _S + r"(?:hello|hi|hiya|thanks|thank" + _S
                           + r"you)" + _S + r"to" + _S + r"$|(?:^|[^\w'’])(?:my|our)" + _S + r"(?:love|best)" + _S
                           + r"to" + _S + r"$|(?:^|[^\w'’])thanks" + _S + r"to" + _S + r"$")
_HELLO_NEXT = re.compile(r"[ \t]*(?:[.,!?;]|\n|$)|" + _S + r"(?:for" + _S + r"me|from" + _S + r"me|i|we)" + _W)
#: a person's home: "going to X's after this", "stopping at X's tonight"
_HOME_BEFORE = re.compile(r"(?:^|[^\w'’])(?:to|at|round|over|from|back" + _S + r"to)" + _S + r"$")
_HOME_NEXT = re.compile(r"['’]s(?:[ \t]*(?:[.,!?;]|\n|$)|" + _S + r"(?:after|afterwards|tonight|later|tomorrow|this|"
                        r"first|then|on" + _S + r"the" + _S + r"way|now|till|until|for" + _S + r"(?:tea|dinner|lunch|"
                        r"the" + _S + r"night|a" + _S + r"few|a" + _S + r"bit|christmas))" + _W + r")")
#: an apposition after a person's role or relation: "my friend , X , drove me in"
_APPOSED_BEFORE = re.compile(r"(?:^|[^\w'’])(?:my|our|your|his|her|their|the)" + _S + r"(?:[a-z\-]+" + _S + r")?"
                             + _ROLES + r"[ \t]*,[ \t]*$|(?:^|[^\w'’])the" + _S + r"warden[ \t]*,[ \t]*$")
_APPOSED_NEXT = re.compile(r"[ \t]*,")
#: a greeting before the word said to: "morning X ,", "hello again X ."
_GREETING_BEFORE = re.compile(r"(?:^|[.!?,\n:][ \t]*)(?:hi|hello|hiya|morning|good" + _S + r"(?:morning|afternoon|"
                              r"evening)|afternoon|evening)(?:" + _S + r"again|" + _S + r"there)?[ \t]*,?[ \t]*$|"
                              r"(?:nice|good|lovely|great)" + _S + r"to" + _S + r"(?:see|meet)" + _S + r"you"
                              r"(?:" + _S + r"again)?[ \t]*,[ \t]*$")
_GREETING_NEXT = re.compile(r"[ \t]*(?:[.,!?]|\n|$)")
#: "X from the chemist dropped it round" at a clause's start
_FROM_NEXT = re.compile(_S + r"from" + _S + r"(?:the" + _S + r")?(?:chemist|pharmacy|surgery|practice|church|chapel|"
                        r"mosque|temple|gurdwara|club|shop|council|library|post" + _S + r"office|centre|center|home|"
                        r"school|work|office|hospice|day" + _S + r"centre)" + _S
                        + r"(?:dropped|drops|brought|brings|came|comes|rang|rings|phoned|said|says|sits|sat|popped|"
                        r"picked|picks|helps|helped|visits|visited|called|drove|drives|takes|took|told|looks)" + _W)
#: "it was X that noticed"
_IT_WAS_BEFORE = re.compile(r"(?:^|[^\w'’])(?:it" + _S + r"was|it['’]s|it" + _S + r"is)" + _S + r"$")
_IT_WAS_NEXT = re.compile(_S + r"(?:that|who)" + _S + r"(?:noticed|found|told|said|rang|called|phoned|saw|spotted|"
                          r"took|brought|drove|helped|insisted)" + _W)
#: "does X live with you ?"
_ASK_BEFORE = re.compile(r"(?:^|[.!?,\n][ \t]*|(?:and|so)" + _S + r")(?:does|did|is|has|will|can|could|would)" + _S
                         + r"$")
_ASK_NEXT = re.compile(_S + r"(?:still" + _S + r")?(?:live|living|lives)" + _S + r"(?:with|near|nearby|alone|on"
                       + _S + r"her|on" + _S + r"his)" + _W + r"|" + _S + r"(?:look|looking)" + _S + r"after" + _W
                       + r"|" + _S + r"(?:drive|pick|collect|take|bring)" + _S + r"(?:you|me)" + _W)
_BEFORE = 48


@lru_cache(maxsize=8192)
def adjective_like(key: str) -> bool:
    """English text writes ``key``'s superlative and its "-ly" adverb or its comparative: an adjective ("lush":
    "lushest", "lushly"; "rich", "sharp", "hardy"), which stands after "is" as often as a name."""
    ly = [key + "ly"] + ([key[:-1] + "ily"] if key.endswith("y") else []) + (
        [key[:-1] + "y"] if key.endswith("le") else [])
    est = [key + "est", key + key[-1] + "est"] + ([key[:-1] + "iest"] if key.endswith("y") else []) + (
        [key + "st"] if key.endswith("e") else [])
    er = [key + "er", key + key[-1] + "er"] + ([key[:-1] + "ier"] if key.endswith("y") else []) + (
        [key + "r"] if key.endswith("e") else [])
    return max(map(english_zipf, est)) >= 1.0 and (max(map(english_zipf, ly)) >= 1.0 or max(map(english_zipf, er)) >= 1.5)


def _adjective(key: str) -> bool:
    """``key`` is an adjective (:func:`adjective_like`) or the comparative of one ("stranger": "hello again stranger
    .")."""
    return adjective_like(key) or key.endswith("er") and (adjective_like(key[:-1]) or adjective_like(key[:-2]))


@lru_cache(maxsize=8192)
def may_be_place_surname(key: str) -> bool:
    """``key`` (lower case) may be a bare surname that is a common word: the module's docstring."""
    words = common_words()
    if len(key) >= 4 and key.endswith("s") and (key[:-1] in words or key.endswith("es") and key[:-2] in words):
        return False  # a plural or a verb's "-s" ("lies", "wells": "i told lies about it")
    return key in surnames() and key not in _VOICES and may_be_predicate_name(key)


def _opens(text: str, toks: Sequence[Tok], i: int) -> bool:
    if not i or _BREAK.search(text, toks[i - 1].end, toks[i].start):
        return True
    return toks[i - 1].key in _OPENERS and text[toks[i - 1].end:toks[i].start].strip() == "" and (
        i < 2 or _BREAK.search(text, toks[i - 2].end, toks[i - 1].start) is not None)


#: the word right before the word that opens each frame read before it (a cheap test first: most places open none)
_ROLE_WORDS = frozenset(_ROLES[3:-1].split("|")) | {"warden"}
_COMPLEMENT_PREV = frozenset("is was still now called".split())
_TELL_PREV = frozenset("telling told tell tells asking ask asked reminded remind warned warn".split())
_HOME_PREV = frozenset("to at round over from".split())
_GREETING_PREV = frozenset("hi hello hiya morning afternoon evening again there you".split())
_IT_PREV = frozenset("was is it s".split())
_ASK_PREV = frozenset("does did is has will can could would".split())


def _person_here(text: str, toks: Sequence[Tok], i: int) -> bool:
    t = toks[i]
    s, e = t.start, t.end
    if _opens(text, toks, i) and (_SUBJECT_NEXT.match(text, e) or _FROM_NEXT.match(text, e)):
        return True
    if not i:
        return False
    prev = toks[i - 1].key
    lo = max(0, s - _BEFORE)
    if prev in _COMPLEMENT_PREV and _COMPLEMENT_NEXT.match(text, e) and _COMPLEMENT_BEFORE.search(text[lo:s]) \
            and not _adjective(t.key):
        return True
    if prev == "with" and _WITH_NEXT.match(text, e) and _WITH_BEFORE.search(text[lo:s]):
        return True
    if prev in _TELL_PREV and _TELL_NEXT.match(text, e) and _TELL_BEFORE.search(text[lo:s]):
        return True
    if prev == "let" and _KNOW.match(text, e) and _LET_BEFORE.search(text[lo:s]):
        return True
    if prev == "to" and _HELLO_NEXT.match(text, e) and _HELLO_BEFORE.search(text[lo:s]):
        return True
    if prev in _HOME_PREV and _HOME_NEXT.match(text, e) and _HOME_BEFORE.search(text[lo:s]):
        return True
    if prev in _ROLE_WORDS and _APPOSED_NEXT.match(text, e) and _APPOSED_BEFORE.search(text[lo:s]):
        return True
    if prev in _GREETING_PREV and _GREETING_NEXT.match(text, e) and _GREETING_BEFORE.search(text[lo:s]) \
            and t.key not in NOT_ADDRESSED and not _adjective(t.key):
        return True
    if prev in _IT_PREV and _IT_WAS_NEXT.match(text, e) and _IT_WAS_BEFORE.search(text[lo:s]):
        return True
    return bool(prev in _ASK_PREV and _ASK_NEXT.match(text, e) and _ASK_BEFORE.search(text[lo:s]))


def surname_place_names(text: str, toks: Sequence[Tok], no_person_at: Callable[[str, int, int], bool]) -> list[Tok]:
    """Lower case: a bare gazetteer surname that is a common word where only a person stands (the module's
    docstring)."""
    wanted = {k for k in set(keys_of(toks)) if may_be_place_surname(k)}
    out: list[Tok] = []
    for i in key_indices(toks, wanted):  # only the places of those words
        t = toks[i]
        if not t.text.islower():
            continue
        if _person_here(text, toks, i) and not no_person_at(text, t.start, t.end):
            out.append(t)
    return out
