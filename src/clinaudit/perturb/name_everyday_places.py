"""A name that is an everyday word, standing bare in everyday places no frame reads (issue 50, fifteenth session:
``benchmarks/deid_dev32.py``). In lower-case speech a surname or given name that is an English word ("thatcher",
"carpenter", "robin", "finch") carries no capital, and the other bare-word rules read it only where a frame names a
person ("tell X i said", "X says hi", "it was X who", "with X ."). English puts a singular count noun nowhere bare:
"the farmer was worried", "we saw a potter at work", "my grandad , a potter ,"; a mass noun stands bare ("brandy was
all we had", "dinner was late", "without power the fridge fails") but does not worry, leave, drive, book, get known or
met, nor stands for a person in apposition. So, in lower case, such a word is a person where it stands bare:

* **a clause's subject before what only a person does**, at a turn's or sentence's start, after a filler, a
  conjunction or a time phrase: worried or upset, just left, took someone, had to help, would know, can't make it,
  went back home, found my ..., stayed over, booked, sorted, called an ambulance, usually does my ... ("thatcher was
  worried sick", "yeah robin drove , i was", "last week finch stayed over twice"; not "burger was on the menu",
  "rain came through the roof", "flu went round the office", "brandy helps me sleep");
* **the one known, seen, met, recognised or remembered** by someone, before a place, a time, "saying" or the
  sentence's end ("do you know weaver from the day centre ?", "we saw glover at the chemist", "i haven't seen
  shepherd since the funeral"; not "do you know better than", "do you know brandy butter", "we saw a potter");
* **after "without", "except", "but", "apart from", "both"** where a person stands: "manage / cope / be lost
  without X" before the end or "now" (not "i can't sleep without willow ."), "everyone except X had", "nobody but X knows", "apart from X been", "both X and her son";
* **in apposition**: after a role or a relative and a comma ("the carer , robin , comes", "the district nurse ,
  glover , changed"), before "the one who" or a relative ("robin , the one who lives next door", "it's robin , her
  husband , who"); not "my job , carpenter , is", "my grandad , a potter ,";
* **a possessive at a clause's start** before a relative, a partner or what a person has ("robin's mum", "thatcher's
  car broke down", "glover's letter says"; not "shepherd's pie", "farmer's lung", "robin's eggs");
* **a label**: "contact : robin weaver , same address", "signed , robin weaver", "next of kin : robin , daughter";
* **"X here"** calling: "robin here , calling about", "hi , it's robin here".

The word: lower case, a gazetteer given name or surname :func:`.name_bare_person.may_be_name` takes (rarer in English
than Zipf 4.5; no clinical, function, demographic, relative's or spoken word, no eponym, word of address, day or
month), no role, body part or thing of :data:`.name_guarded_words.NOT_PERSONS`, no abstract noun ("-ness", "-ity":
"kindness", "charity"), no meal, season, time, weather, food, drink, spice or fabric (:data:`MASS`: what English
writes bare as a mass noun); never where the detector says no person stands (``kind`` not ``"gazetteer"``). Words
first: only the places of :func:`.name_bare_person.bare_word_places`' one scan are read, and at each the words right
around it first. Used by :mod:`.name_detect` (source ``rule``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import lru_cache
from itertools import compress

from .name_bare_person import BareWords
from .name_guarded_words import NOT_PERSONS
from .name_person_only import clause_start
from .name_tokens import WORD_END, Tok, ends_of, starts_of, texts_of
from .vocab import RELATIVES, plural_of_common

__all__ = ["MASS", "everyday_place_at", "everyday_place_names", "may_be_everyday"]

#: meals, seasons, times, weather, foods, drinks, spices, plants and fabrics: nouns English writes bare as a mass or
#: a meal ("brandy was all we had", "dinner was late", "lamb was on the menu", "without ginger it's bland")
MASS = frozenset("""
    breakfast brunch lunch dinner supper tea teatime spring summer autumn winter fall christmas easter morning evening
    night noon midnight weekend rain snow frost hail fog mist sun sunshine wind thunder lightning ice storm weather
    brandy sherry whisky whiskey gin rum vodka port cider beer ale wine champagne coffee cocoa milk cream butter cheese
    honey sugar salt pepper ginger mustard cinnamon saffron nutmeg sage basil rosemary thyme mint parsley lavender
    heather clover candy toffee fudge jelly custard pudding cake bread toast rice pasta lamb mutton beef pork ham bacon
    chicken turkey duck goose venison salmon trout cod haddock herring mackerel fish shrimp cotton silk satin velvet
    linen wool denim tweed leather lace amber coral ivory marble granite slate flint clay sand stone steel iron tin
    copper gold silver bronze brass glass timber power money cash luck fortune glory grace mercy patience justice
    """.split())
#: an abstract noun's endings ("kindness", "charity", "treatment")
_ABSTRACT = ("ness", "ity", "ment", "ship", "dom", "ism", "ance", "ence", "tion", "sion")

_W = WORD_END
_ME = r"(?:me|us|him|her|them|you|my|our|his|their|the[ \t]+kids)"
#: what only a person does, right after a clause's bare subject (an adverb maybe between)
_DOES = re.compile(
    r"[ \t]+(?:(?:just|then|also|usually|always|never|already|even|finally|actually|really|only|kindly)[ \t]+)?(?:"
    r"(?:was|were|got|is|gets)[ \t]+(?:so[ \t]+|really[ \t]+|ever[ \t]+so[ \t]+|very[ \t]+|a[ \t]+bit[ \t]+)?(?:worried|"
    r"upset|scared|frightened|terrified|furious|cross|annoyed|relieved|shocked|panicking|fuming|gutted|livid|with[ \t]+me)"
    r"|left(?=[ \t]*(?:[.,!?]|$|to[ \t]|for[ \t]|early|already|after|before|at[ \t]|this|work|home))"
    r"|went[ \t]+(?:back[ \t]+(?:home|to)|home|shopping|to[ \t]+(?:get|see|fetch|pick|collect))"
    r"|took[ \t]+(?:me|us|him|her|them)[ \t]+(?:to|in|home|out|down|up|along|there)"
    r"|had[ \t]+to[ \t]+(?:help|take|drive|carry|come|go|leave|pick|ring|call|phone|bring|fetch|collect|lift)"
    r"|(?:would|will|could|can|can[ \t]*['’]?t|ca[ \t]*n['’]t|cannot|couldn['’]t|could[ \t]*n['’]t|won['’]t|wo[ \t]*n['’]t|"
    r"might|should|['’]ll|['’]d)[ \t]+(?:know|make[ \t]+it|drive|pick[ \t]+" + _ME + r"|collect|visit|stay[ \t]+with|"
    r"ring|phone|text|look[ \t]+after|come[ \t]+(?:in|with|along|round|over|and)|be[ \t]+(?:here|there|with[ \t]+me))"
    r"|(?:has|had|have)[ \t]+been[ \t]+(?:ever[ \t]+so[ \t]+|so[ \t]+|really[ \t]+|very[ \t]+)?(?:good|kind|helping|"
    r"looking[ \t]+after|visiting|staying|ringing|coming[ \t]+(?:in|round|over))"
    r"|drove(?=[ \t]*(?:[,.!?]|$|me|us|him|her|them|here|in|over|up|down|home))"
    r"|stayed[ \t]+(?:over|with|the[ \t]+night|up[ \t]+with)"
    r"|booked[ \t]+(?:this|the|my|me|us|an|a|it)"
    r"|sorted[ \t]+(?:it|all|that|out|everything|my)"
    r"|called[ \t]+(?:an[ \t]+ambulance|999|911|the[ \t]+(?:ambulance|paramedics|doctor|gp|surgery|police))"
    r"|found[ \t]+(?:me|us|him|her|them|my|our|his|her)"
    r"|(?:visited|collected|fetched|picked)[ \t]+(?:me|us|him|her|them)"
    r"|(?:does|did|do)[ \t]+(?:my|our|his|her|the[ \t]+shopping)"
    r"|popped[ \t]+(?:in|round|over|by))" + _W)
#: the words that may open :data:`_DOES` right after the subject
_DOES_FIRST = frozenset("""just then also usually always never already even finally actually really only kindly was were
    got is gets left went took had would will could can can't cannot couldn't won't might should 'll 'd ll d has have
    drove stayed booked sorted called found visited collected fetched picked does did do popped ca wo""".split())
#: before a clause's bare subject, besides :func:`.name_person_only.clause_start`'s openers: fillers and time words
_OPENERS = frozenset("yeah yes yep no okay ok right anyway yesterday today tonight earlier and so oh um".split())
#: a time phrase's last word before the subject ("last week", "this morning", "the other day")
_TIME_END = re.compile(r"(?:^|[ \t,.])(?:last|this|the[ \t]+other|on)[ \t]+(?:week|night|month|year|morning|afternoon|"
                       r"evening|day|weekend|monday|tuesday|wednesday|thursday|friday|saturday|sunday)[ \t]*,?[ \t]*$")
#: known, seen, met, recognised, remembered: the verb right before the word, and someone before it
_KNOW = frozenset("know knew saw seen see met meet recognise recognize recognised recognized remember remembered".split())
_KNOW_BEFORE = re.compile(r"(?<![\w'’\-])(?:i|we|you|they|he|she|did|do|does|ever|never|not|haven['’]t|hasn['’]t|"
                          r"didn['’]t|don['’]t|doesn['’]t|n['’]t|i['’]ve|we['’]ve|['’]ve|have|has|"
                          r"to|also|just|already)[ \t]+(?:not[ \t]+|ever[ \t]+|never[ \t]+|just[ \t]+|already[ \t]+)?"
                          r"[a-z]+[ \t]+$")
_KNOW_AFTER = re.compile(r"[ \t]*(?:[.!?]|$)|[ \t]+(?:at|from|since|when|saying|yesterday|today|earlier|last|"
                         r"this[ \t]+(?:morning|week)|the[ \t]+other[ \t]+day|again|before|outside)" + _W)
#: "without" after a verb of getting by ("i couldn't manage without X"; not "i can't sleep without willow .")
_WITHOUT = re.compile(r"(?<![\w'’\-])(?:manage|managed|cope|coped|do|done|survive|survived|lost|live|get[ \t]+by)[ \t]+"
                      r"without[ \t]+$")
#: after "without": the end, a comma or a time
_WITHOUT_AFTER = re.compile(r"[ \t]*(?:[,.!?]|$)|[ \t]+(?:now|honestly|really|these[ \t]+days)" + _W)
#: after "except", "but", "apart from": a person's verb or the end
_EXCEPT_AFTER = re.compile(r"[ \t]*(?:[,.!?]|$)|[ \t]+(?:had|has|was|is|did|does|knows|knew|came|went|got|can|could|"
                           r"would|will|been|who)" + _W)
_SOMEONE = re.compile(r"(?<![\w'’\-])(?:everyone|everybody|nobody|anyone|anybody|someone|somebody|no[ \t]+one|all[ \t]+of"
                      r"[ \t]+us)[ \t]+(?:else[ \t]+)?(?:except|but|apart[ \t]+from)[ \t]+$")
#: "both X and" a person
_BOTH_AFTER = re.compile(r"[ \t]+and[ \t]+(?:my|his|her|their|our|i|me|the[ \t]+kids)" + _W)
#: roles and relatives that a name stands in apposition to
_ROLES = RELATIVES | frozenset("""nurse physio physiotherapist doctor gp consultant midwife carer cleaner driver
    keyworker worker therapist counsellor dentist optician pharmacist chemist manager landlord landlady lodger
    neighbour neighbor friend partner""".split())
_APPOSED_AFTER = re.compile(r"[ \t]*,")
#: a determiner before the role ("the carer", "our district nurse")
_DETERMINED = re.compile(r"(?<![\w'’\-])(?:the|my|our|her|his|their)[ \t]+(?:[a-z]+[ \t]+)?[a-z]+$")
_PERSON_NEXT = re.compile(r"[ \t]*,[ \t]*(?:the[ \t]+one[ \t]+(?:who|that)|who[ \t]|(?:her|his|my|our|their)[ \t]+(?:"
                          + "|".join(sorted(_ROLES, key=len, reverse=True)) + r")" + _W + ")")
#: a possessive before a relative, a partner or what a person has
_OWNS = re.compile(r"[ \t]*['’][ \t]*s[ \t]+(?:" + "|".join(sorted(RELATIVES, key=len, reverse=True)) + r"|car|house|flat|"
                   r"place|phone|number|letter|birthday|wedding|funeral|dog|cat|kids|children|boys|girls|husband|wife|"
                   r"job|van|bike|garden)" + _W)
#: a label before the word, at a line's or a sentence's start
_LABEL = re.compile(r"(?:^|[\n.!?\]])[ \t]*(?:emergency[ \t]+contact|contact|next[ \t]+of[ \t]+kin|nok|signed|referred"
                    r"[ \t]+by|key[ \t]+worker)[ \t]*[:,][ \t]*$")
_LABEL_AFTER = re.compile(r"[ \t]*(?:[,.;\n]|$)|[ \t]+[a-z]+[ \t]*(?:[,.;\n]|$)")
_HERE = re.compile(r"[ \t]+here(?:[ \t]*,|[ \t]+(?:from|calling|ringing|just))")
_BEFORE = 40
#: the words right before a word that open one of its places (a time phrase's last word, an opener, a verb of
#: knowing, a preposition, "it's")
_PREV = _KNOW | _OPENERS | frozenset("""without except but from both it is was well then because cause cos when while
    if though although apparently honestly plus only even uh er erm actually""".split())
#: the words right after a word that open one of its places
_NEXT = _DOES_FIRST | {"here"}
#: a time phrase's last word (:data:`_TIME_END`), a label's last word (:data:`_LABEL`)
_TIMES = frozenset("""week night month year morning afternoon evening day weekend monday tuesday wednesday thursday
    friday saturday sunday""".split())
_LABEL_LAST = frozenset("contact kin nok signed by worker".split())


@lru_cache(maxsize=100_000)
def may_be_everyday(word: str) -> bool:
    """``word`` (a word :func:`.name_bare_person.may_be_name` takes) may be a name here: no role, body part or thing
    of :data:`.name_guarded_words.NOT_PERSONS`, no word of :data:`MASS`, no abstract noun, no plural of a common
    word."""
    return word not in NOT_PERSONS and word not in MASS and not word.endswith(_ABSTRACT) and not plural_of_common(word)


def _subject(text: str, texts: list[str], starts: list[int], ends: list[int], i: int) -> bool:
    """Word ``i`` is a clause's bare subject before what only a person does (the module's docstring)."""
    if i + 1 >= len(texts) or texts[i + 1] not in _DOES_FIRST and not text.startswith(("'", "’"), ends[i]):
        return False
    if _DOES.match(text, ends[i]) is None:
        return False
    if clause_start(text, texts, starts, ends, i):
        return True
    if i and texts[i - 1] in _OPENERS and not text[ends[i - 1]:starts[i]].strip(" \t,"):
        return True
    return i > 0 and texts[i - 1] in _TIMES and _TIME_END.search(text, max(0, starts[i] - _BEFORE), starts[i]) is not None


def _placed(text: str, texts: list[str], starts: list[int], ends: list[int], i: int) -> bool:
    """Word ``i`` stands where only a person stands (the module's docstring); the word before first."""
    s, e = starts[i], ends[i]
    prev = texts[i - 1] if i else ""
    gap = (text[ends[i - 1]:s] if i else text[:s]).strip()
    lo = max(0, s - _BEFORE)
    if prev == "it" and gap in ("'s", "’s") or prev in ("is", "was") and not gap and i >= 2 and texts[i - 2] in (
            "it", "this"):  # "it's X , her husband", "it's X here"
        return _PERSON_NEXT.match(text, e) is not None or _HERE.match(text, e) is not None
    if not gap:
        if prev in _KNOW:
            return _KNOW_AFTER.match(text, e) is not None and _KNOW_BEFORE.search(text, lo, s) is not None
        if prev == "without":
            return _WITHOUT_AFTER.match(text, e) is not None and _WITHOUT.search(text, lo, s) is not None
        if prev in ("except", "but", "from"):
            return _EXCEPT_AFTER.match(text, e) is not None and _SOMEONE.search(text, lo, s) is not None
        if prev == "both":
            return _BOTH_AFTER.match(text, e) is not None
    elif gap == "," and prev in _ROLES and _DETERMINED.search(text, lo, ends[i - 1]) is not None:
        return _APPOSED_AFTER.match(text, e) is not None or i + 1 < len(texts) \
            and _APPOSED_AFTER.match(text, ends[i + 1]) is not None and not text[e:starts[i + 1]].strip()
    elif prev in _LABEL_LAST and gap in (":", ","):
        return _LABEL.search(text, lo, s) is not None and _LABEL_AFTER.match(text, e) is not None
    if clause_start(text, texts, starts, ends, i) or prev in _OPENERS:
        return _PERSON_NEXT.match(text, e) is not None or _OWNS.match(text, e) is not None \
            or _HERE.match(text, e) is not None or _subject(text, texts, starts, ends, i)
    return _subject(text, texts, starts, ends, i)


#: word ``i`` stands where only a person stands (the module's places), read by :mod:`.name_place_names` too
everyday_place_at = _placed


def everyday_place_names(text: str, toks: Sequence[Tok], kind: Callable[[str, Tok], str | None],
                         bare: BareWords) -> list[Tok]:
    """The lower-case gazetteer names that are everyday words standing bare in the module's places. ``toks``: the
    text's words; ``kind``: what the detector knows of a word where it stands (``"gazetteer"`` for a name that may be
    one there); ``bare``: :func:`.name_bare_person.bare_word_places` (its ``clause`` words and their places)."""
    words = {w for w in bare.clause if may_be_everyday(w)}
    if not words:
        return []
    texts, starts, ends = texts_of(toks), starts_of(toks), ends_of(toks)
    n = len(texts)
    out: list[Tok] = []
    places = bare.places
    for i in compress(places, map(words.__contains__, map(texts.__getitem__, places))):
        word = texts[i]
        # the words right around first: a word before that opens a place, a comma or a colon before, a verb, "here",
        # a comma or a possessive after
        if i and texts[i - 1] not in _PREV and (i + 1 == n or texts[i + 1] not in _NEXT) \
                and text[ends[i]:ends[i] + 2].lstrip()[:1] not in (",", "'", "’") \
                and not (texts[i - 1] in _ROLES or texts[i - 1] in _LABEL_LAST):
            continue
        if _placed(text, texts, starts, ends, i):
            t = Tok(starts[i], ends[i], word, word)
            if kind(text, t) == "gazetteer":
                out.append(t)
    return out
