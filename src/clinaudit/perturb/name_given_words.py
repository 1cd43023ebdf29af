"""A given name that is an English word (a flower, a gem, a colour, a virtue, a weather or nature word, a pet word:
"lily", "jewel", "lilac", "purity", "stormy", "pebbles"), alone and in lower case, where an everyday sentence leaves
room only for a person (issue 50, seventeenth session: ``benchmarks/deid_dev41.py``). The older lower-case rules read
such a word only in their frames or when it is rare in English; "lily fetched my prescription", "my carer is posy ,
she comes at nine", "i was telling haven about the dizzy spells", "we're going to jewel's after this" lost it.

What decides is what the word is and the place English gives it:

* **the word**: lower case, in the first-name gazetteer, a common English word (:func:`.vocab.is_common`), three
  letters or more, no plural of a common word ("miles", "pebbles"); no clinical word at all, no function, spoken, filler, modal, adverb, relative's, day, title, role or
  person's-verb word, no eponym, no demographic word, no word :data:`.name_guarded_words.NOT_PERSONS` keeps ("iris",
  "heart"); months only where no date can stand (a person's verb after it, "telling X about"; "may" is a modal);
* **a person's errand** (:data:`PERSON_ACTS`): the word opening a clause (:func:`.name_clause_opens.opens_clause`),
  a surname maybe after it, then an adverb or an auxiliary maybe, then what only a person does in a day: phoned,
  texted, booked, fetched, "drove me / all the way" (not "winter drove the prices up"), noticed, spotted, signed, sorted, reckons, wanted me to, "is picking me up"
  (a person after it: not "harvest is picking up"; not "says": "law says you have to"), "had to take the day off", "usually does my shopping" (not "heaven knows", "sunshine helped", "candy rotted",
  "stormy weather sets"). A mass noun, a food, a season or a weather word (:data:`.name_everyday_places.MASS`:
  "sunshine", "candy", "honey") is read only before the verbs no thing does (not "came over", "collected", "brought
  me"); "sent" only as "sent me a text / photo / card";
* **the one told or asked** (:data:`TOLD`): after "tell / ask / remind / show / let / ring / text / email" before
  "about", "that", "to" and a verb, "know", a pronoun, or the clause's end after a verb that is no noun ("i was
  telling X about", "let X know"; not "telling stormy tales", "let sunshine in", "thank heaven for", "auto text X .");
* **a person's name as a complement**: "my carer / support worker / granddaughter ('s name) is X" before a comma and
  a pronoun or the sentence's end, "was it / it was X who" (not "the one who called was X": an adjective stands there
  as often, "strange"): never an adjective there ("my daughter is stormy , she's a teenager"; :func:`.vocab.y_adjective`, "-ing", "-ful", "-ous" ...), nor a mass
  noun or colour a thing takes ("my dress is lilac" has no person before "is");
* **come with, a home**: "i came in with X" before the clause's end or a time ("not i came in with candy floss"),
  "going to / at / round X's" before "after", "later", "for tea", "till", "all afternoon", "when" (a home);
* **a person wanted or asked a question of**: "would you like / want / get X to come", "has / did X noticed / say"
  after a clause's break or "and / so / but" (not yet right after a speaker's label "[doctor]");
* **the person first of two objects**: "i showed / gave X the letter" (no mass noun).

Only the tokens whose word passes are read (a few a dialog), each with a bounded match at its end and 60 characters
before it: linear in the text. Capitalised words are the cased rules'. Never where the detector says no person stands.
Used by :mod:`.name_detect` (source ``rule``)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import lru_cache

from .name_clause_opens import opens_clause
from .name_everyday_places import MASS
from .name_frames import TITLE_WORDS
from .name_guarded_words import NOT_PERSONS
from .name_roles import ROLE_TITLES
from .name_surname_after import FILLERS, MODAL_VERBS
from .name_tokens import Tok, key_indices, keys_of
from .name_word import word_facts
from .vocab import DAY_NAMES, FUNCTION_WORDS, MONTH_NAMES, RELATIVES, SPOKEN_WORDS, first_names, is_common, \
    english_zipf, plural_of_common, surnames, y_adjective

__all__ = ["PERSON_ACTS", "TOLD", "given_word_names", "may_be_given_word"]

_W = r"(?![\w'’\-])"
_S = r"[ \t]+"
_ME = r"(?:me|us|him|her|them|you)"
#: adverbs and time words that are never a name here (between a subject and its verb)
_ADVERBS = frozenset("""once twice first last home back away alone together too also again still ever never always
    usually sometimes often recently lately early late later soon today tonight yesterday tomorrow now then there here
    anyway instead either neither else even just only really very quite already yet ago since maybe perhaps probably
    straight right sure round over off out up down""".split())
#: endings of an adjective that may stand after "is" ("faithful", "precious", "priceless")
_ADJ_ENDINGS = ("ful", "ous", "less", "ish", "able", "ible")
#: what a person is said to be after "is" and a gazetteer holds as a given name (no ending tells them)
_PERSON_ADJECTIVES = frozenset("""happy lucky lovely sunny jolly merry sweet bonny fancy tiny honest loyal noble brave
    gentle patient proud rich young keen free true earnest modest pretty bright clever smart quiet calm kind fine
    grand dear""".split())
#: a verb of a person's day, in the forms that may follow the subject: what no thing does ("phoned", "booked") ...
_ONLY_PERSON = (
    r"(?:sent[ \t]+(?:me|us|him|her|them)[ \t]+(?:a|an|the)[ \t]+(?:text|message|photo|picture|card|letter|email|"
    r"e-mail|voice[ \t]+note|link|screenshot)|found[ \t]+(?:me|us|him|her|them)[ \t]+(?:on|in|at|collapsed|lying|"
    r"unconscious|passed)|phoned|rang|texted|emailed|e-mailed|messaged|booked|fetched|noticed|spotted|signed|"
    r"sorted|reckons|reckoned|insisted|promised|arranged|organised|organized|visited|popped[ \t]+(?:in|round|over|by)|"
    r"told|tells|asked|asks|thinks|mentioned|cooked|hoovered|ironed|nagged|collected[ \t]+(?:my|me|us|the[ \t]+"
    r"(?:kids|children|prescription|tablets|car|keys))|made[ \t]+me[ \t]+(?:promise|swear|an[ \t]+appointment|"
    r"a[ \t]+(?:cuppa|cup|brew|sandwich)|breakfast|dinner|lunch|tea)|"
    r"wants[ \t]+(?:me|us|him|her|them|to)|wanted[ \t]+(?:me|us|him|her|them|to)|"
    r"drove[ \t]+(?:me|us|him|her|them|you|my|all[ \t]+the[ \t]+way|over|round|home|here|there|in|the[ \t]+car)|"
    r"picked[ \t]+(?:" + _ME + r"[ \t]+)?up|dropped[ \t]+" + _ME + r"|"
    r"(?:usually|always|normally)?[ \t]*does[ \t]+(?:my|our|his|her|the)[ \t]+(?:shopping|washing|cleaning|cooking|"
    r"ironing|garden|hair|tablets|meds|medication|forms|paperwork)|"
    r"(?:is|was|['’]s|are|were)[ \t]+(?:(?:picking|fetching|collecting|driving|bringing|taking|booking|ringing|"
    r"phoning|texting)[ \t]+(?:me|us|him|her|them|you|my)|coming[ \t]+(?:to[ \t]+get|with[ \t]+me|in[ \t]+with))|"
    r"(?:will|['’]ll|can|could|would|['’]d|should|might|had[ \t]+to|has[ \t]+to|is[ \t]+going[ \t]+to)[ \t]+"
    r"(?:fetch|collect|pick|drive|book|ring|phone|text|email|sign|sort|ask|tell|take[ \t]+(?:" + _ME + r"|the[ \t]+day|"
    r"time)|bring[ \t]+" + _ME + r"))" + _W)
#: ... and what a person does that a thing may also do ("rain came in", "sunshine brought me out in a rash"): only
#: after a word that is no mass noun
_PERSON_TOO = (
    r"(?:came[ \t]+(?:straight[ \t]+)?(?:over|round|in[ \t]+with|to[ \t]+see|with[ \t]+me)|"
    r"collected|found[ \t]+" + _ME + r"|brought[ \t]+" + _ME
    + r"|helped[ \t]+" + _ME + r"[ \t]+(?:get[ \t]+(?:dressed|washed|up|in|out|into|ready|home)|dress|wash|shower|"
    r"bath|into|out[ \t]+of|up[ \t]+the|to[ \t]+the))" + _W)
_ADV = (r"(?:(?:just|then|also|usually|always|never|already|even|finally|actually|kindly|only|probably|normally|"
        r"sometimes|often)[ \t]+)?")
#: a space, or a clitic "'s" / "'ll" / "'d" right after the word ("lily's picking me up")
_AFTER = r"(?:[ \t]+|(?=['’]))"
#: what a person's errand is after the subject (and a surname maybe)
PERSON_ACTS = re.compile(_AFTER + _ADV + _ONLY_PERSON)
_ACTS_TOO = re.compile(_S + _ADV + _PERSON_TOO)
#: after a verb whose object is a person ("telling", "rang"); a verb that is also a noun ("text", "ring", "phone") or
#: "let" only before what follows a person told (never at the clause's end: "auto text uri .")
_TOLD_BEFORE = re.compile(r"(?:^|[^\w'’])(?:(?P<verb>tell|told|telling|tells|ask|asked|asking|asks|remind|reminded|"
                          r"reminding|rang|rung|ringing|texted|texting|phoned|phoning|emailed|emailing|messaged|warn|"
                          r"warned)|show|showed|shown|showing|let|letting|ring|text|phone|email|message)[ \t]+$")
#: what follows the one told or asked
TOLD = re.compile(r"[ \t]+(?:about|that|whether|if|what|when|where|how|why|know|back|later|tonight|tomorrow|"
                  r"i|we|she|he|it|to[ \t]+(?:come|ring|call|phone|text|pick|bring|collect|fetch|write|take|sit|wait|"
                  r"stay|get|help|sign|book|look|check|tell|ask|say))" + _W + r"|(?P<end>[ \t]*(?:[.!?]|$))")
_MONTH_TOLD = re.compile(r"[ \t]+(?:about|know)" + _W)
#: a person's word before "is", and what follows a person's name as its complement
_COMPLEMENT_BEFORE = re.compile(
    r"(?:^|[^\w'’])(?:my|our|his|her|their|your)[ \t]+(?:(?:next-door|next[ \t]+door|support|key|eldest|youngest|"
    r"little|big|best|other|new|home)[ \t]+)?(?P<who>[a-z\-]+)(?:['’]s[ \t]+name)?[ \t]+(?:is|was|['’]s)[ \t]+$"
    r"|(?P<it>(?:^|[^\w'’])(?:(?:was|is)[ \t]+it|it[ \t]+(?:was|is)|it['’]s))[ \t]+$")
_PERSON_NOUNS = RELATIVES | frozenset("""worker carer helper nurse cleaner neighbour neighbor friend mate name
    contact granddaughter grandson daughter son""".split())
_COMPLEMENT_NEXT = re.compile(r"[ \t]*,[ \t]*(?:she|he|they|who|and|i|is|that|the|my|our)(?![\w\-])"
                              + r"|[ \t]+who" + _W + r"|[ \t]*[.!?](?![\w])|[ \t]*$")
_WHO = re.compile(r"[ \t]+who" + _W)
#: "i came (in) with X", "i'm here with X"
_WITH_BEFORE = re.compile(r"(?:^|[^\w'’])(?:i|we|i['’]ve|we['’]ve|i['’]m|we['’]re)(?:[ \t]+(?:have|am|are))?[ \t]+"
                          r"(?:came|come|here|been)(?:[ \t]+(?:in|along|up|down|over|here|today))?[ \t]+with[ \t]+$")
_WITH_NEXT = re.compile(r"[ \t]*(?:[.!?]|$)|[ \t]*,[ \t]*(?:my|our|his|her|their|she|he|who)(?![\w\-])"
                        r"|[ \t]+(?:today|this[ \t]+(?:morning|afternoon|time)|tonight|again)" + _W)
#: a home: "going to / at / round X's" before a time or an errand there
_HOME_BEFORE = re.compile(r"(?:^|[ \t])(?:to|at|round|from|over)[ \t]+$")
_HOME_NEXT = re.compile(r"['’]s[ \t]+(?:after|afterwards|later|tonight|tomorrow|till|until|first|then|for[ \t]+"
                        r"(?:tea|dinner|lunch|supper|christmas|the[ \t]+(?:weekend|night)|a[ \t]+few[ \t]+days)|all[ \t]+"
                        r"(?:day|afternoon|morning|evening|night|weekend)|this[ \t]+(?:weekend|afternoon|evening))" + _W)
#: a person wanted to come, or asked of: "would you like X to come", "has X noticed"
_WANT_BEFORE = re.compile(r"(?:^|[^\w'’])(?:like|want|wants|wanted|need|needs|get|got|expect|asked)[ \t]+$")
_WANT_NEXT = re.compile(r"[ \t]+to[ \t]+(?:come|ring|call|phone|text|pick|drive|bring|collect|fetch|sit|stay|wait|"
                        r"sign|speak|talk)" + _W)
_ASK_BEFORE = re.compile(r"(?:^|[.!?,;:\n][ \t]*|(?:and|so|but)[ \t]+)(?:has|had|did|does|is|was|will|can|could|would)"
                         r"[ \t]+$")
_ASK_NEXT = re.compile(r"[ \t]+(?:noticed|mentioned|said|told|asked|rung|rang|phoned|booked|fetched|"
                       r"say|tell|ask|ring|phone|book|notice|mention)" + _W)
#: after a verb of two objects, the person first ("i showed X the letter")
_SHOWN_BEFORE = re.compile(r"(?:^|[^\w'’])(?:show|showed|shown|showing|gave|give|giving|handed|hand|passed|lent|"
                           r"bought|told|tell)[ \t]+$")
_SHOWN_NEXT = re.compile(r"[ \t]+(?:the|my|a|an|your|his|her|our|their|some|it)" + _W)


@lru_cache(maxsize=8192)
def may_be_given_word(key: str) -> bool:
    """``key`` (lower case) may be a given name that is an English word: the module's docstring."""
    if len(key) < 3 or not key.isalpha() or key not in first_names() or not is_common(key) or plural_of_common(key):
        return False
    if key in FUNCTION_WORDS or key in SPOKEN_WORDS or key in FILLERS or key in MODAL_VERBS or key in _ADVERBS \
            or key in RELATIVES or key in DAY_NAMES or key in TITLE_WORDS or key in ROLE_TITLES or key in NOT_PERSONS:
        return False
    w = word_facts(key)
    return w.clinical is None and not w.function and not w.demographic and not w.eponym


def _adjective(key: str) -> bool:
    """``key`` is an adjective that may stand where a name does after "is" ("stormy", "charming", "lovely")."""
    if key in _PERSON_ADJECTIVES or key.endswith(_ADJ_ENDINGS):
        return True
    if key.endswith("ing"):  # "charming"; not "bing", "sterling"
        return len(key) > 5 and (is_common(key[:-3]) or is_common(key[:-3] + "e"))
    if key.endswith("ly"):  # "lovely", "lonely"; not "holly", "lily"
        return len(key) > 5 and is_common(key[:-2])
    if y_adjective(key) and len(key) > 4 and not key.endswith("ity") and not key.endswith(("sy", "sey")) \
            or key.endswith("ssy"):  # "stormy", "misty" (their noun more frequent); not "daisy", "ruby", "joy"
        stem = key[:-2] if key[-2] == key[-3] else key[:-1]
        return english_zipf(stem) >= english_zipf(key) or english_zipf(stem + "e") >= english_zipf(key)
    return False


def _after_surname(text: str, toks: Sequence[Tok], i: int) -> int:
    """Where the word ``toks[i]`` ends, or its surname right after it (a gazetteer surname no common word)."""
    if i + 1 < len(toks):
        n = toks[i + 1]
        if n.text.islower() and text[toks[i].end:n.start] in (" ", "\t") and n.key in surnames() \
                and not is_common(n.key):
            return n.end
    return toks[i].end


def _person_here(text: str, toks: Sequence[Tok], i: int) -> bool:
    t, key = toks[i], toks[i].key
    mass, month = key in MASS, key in MONTH_NAMES
    end = _after_surname(text, toks, i)
    if opens_clause(text, toks, i) and (PERSON_ACTS.match(text, end) or not mass and _ACTS_TOO.match(text, end)):
        return True
    before = text[max(0, t.start - 60):t.start]
    told = _TOLD_BEFORE.search(before)
    if told and (m := (_MONTH_TOLD if month else TOLD).match(text, t.end)) \
            and (told.group("verb") or not m.groupdict().get("end")):
        return True
    if _WANT_BEFORE.search(before) and _WANT_NEXT.match(text, end) \
            or _ASK_BEFORE.search(before) and _ASK_NEXT.match(text, end):
        return True
    if _HOME_BEFORE.search(before) and not month and _HOME_NEXT.match(text, t.end):
        return True
    if month:
        return False
    if (m := _COMPLEMENT_BEFORE.search(before)) and not _adjective(key) \
            and (m.group("who") in _PERSON_NOUNS or not mass and m.group("who") is None) \
            and (_WHO.match(text, end) if m.group("it") else _COMPLEMENT_NEXT.match(text, end)):
        return True  # a mass noun only after a person's word ("my carer is grace , she")
    if mass:
        return False
    if _WITH_BEFORE.search(before) and not _adjective(key) and _WITH_NEXT.match(text, end):
        return True
    return bool(_SHOWN_BEFORE.search(before) and _SHOWN_NEXT.match(text, end))


def given_word_names(text: str, toks: Sequence[Tok], no_person_at: Callable[[str, int, int], bool]) -> list[Tok]:
    """Lower case: a given name that is an English word where the sentence leaves room only for a person (the
    module's docstring)."""
    wanted = {k for k in set(keys_of(toks)) if may_be_given_word(k)}
    out: list[Tok] = []
    for i in key_indices(toks, wanted):  # only the places of those words
        t = toks[i]
        if t.text.islower() and _person_here(text, toks, i) and not no_person_at(text, t.start, t.end):
            out.append(t)
    return out
