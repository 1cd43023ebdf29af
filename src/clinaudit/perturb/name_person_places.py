"""The places in a sentence where only a person stands, read by the rules for names that are English words or
eponyms (issue 50, seventeenth session): :mod:`.name_given_words` (a given name that is a word, "lily fetched my
prescription"), :mod:`.name_surname_places` (a surname that is a word, "telling rook about it"),
:mod:`.name_person_predicates` ("basil was lovely with me") and, through :func:`predicate_place`,
:mod:`.name_eponym_persons`. Each rule wrote its places in its own module, and the same places again ("going to X's
after", "i came with X", "telling X about", "my carer is X", a clause's opener, "X from the chemist"); a name of one
kind was read only in its own rule's places. They are here once, one section a place, each kind's copy named beside
the others (suffix ``_GIVEN``, ``_SURNAME``, ``_PRED``) where the copies differ:

* **a clause's subject before a person's errand** — :data:`PERSON_ACTS` (a given name's: "phoned", "is picking me
  up"; a mass noun only before these) and ``_ACTS_TOO`` (what a thing does too: "came over"); the surname's
  ``_SUBJECT_NEXT_SURNAME`` (a verb of errands or care with a person after it) and :data:`_FROM_NEXT` ("X from the
  chemist rang"); the predicate's ``_SUBJECT_NEXT_PRED`` ("was lovely with me", "can't come"). The opener: the given
  name's and the predicate's :func:`.name_clause_opens.opens_clause` (the predicate's ``spaced``), the surname's
  :func:`_opens` (:data:`.name_clause_opens.CLAUSE_BREAK`, its own openers with "also" and without "no", and a break
  before the opener too);
* **the one told or asked** — the given name's :data:`TOLD` after ``_TOLD_BEFORE`` (more verbs, "let" and a verb that
  is a noun only before what follows a person told; a month only before "about / know"), the surname's
  ``_TELL_BEFORE`` / ``_TELL_NEXT`` and "let X know";
* **a complement** — "my carer is X" (the given name's: a person's word, a comma and a pronoun or the end; "it was X
  who"; the surname's: a role, "still / now / called"), "it was X that noticed", the predicate's "that was X on the
  phone";
* **came with** — the given name's "i came (in) with X" (the speaker), the surname's "she was staying with X";
* **a home** — "going to X's after": three lists of what follows ("for tea", "when", the sentence's end: the
  surname's), the predicate's without "over";
* **asked, wanted, waited on** — "would you like X to come", "has X noticed" (given), "does X live with you"
  (surname), "check with X first", "got X ringing round" (predicate);
* **addressed, apposed, two objects** — the surname's greeting, "say hello to X", "my friend , X ,"; the given name's
  "i showed X the letter";
* **the kinds' guards** — an adjective where a name may stand after "is" or a greeting: the given name's
  (``_adjective_given``: "stormy", "charming") and the surname's (:func:`adjective_like`: "lush", "rich").

:func:`given_place`, :func:`surname_place` and :func:`predicate_place` read a kind's places (each rule's module
docstring says which and why); the word's own test stays in its rule. Each reads a bounded window around the word:
linear in the text."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import lru_cache

from .name_clause_opens import CLAUSE_BREAK, opens_clause
from .name_everyday_places import MASS
from .name_person_only import NOT_ADDRESSED
from .name_tokens import WORD_END, Tok, key_indices, keys_of
from .vocab import MONTH_NAMES, RELATIVES, english_zipf, is_common, surnames, y_adjective

__all__ = ["IT_WAS_BEFORE", "PERSON_ACTS", "TOLD", "VOICES", "adjective_like", "given_place", "lower_words_in_places", "person_place",
           "predicate_place", "surname_place"]

W = WORD_END
#: words English lets speak, ring or write as a voice or an institution ("the bank rang", "law says"): never a
#: surname read bare, nor a word read in the surname's places
VOICES = frozenset("law lord bank god post press court church council".split())
S = r"[ \t]+"

# --- a clause's subject before a person's errand -------------------------------------------------------------
#: the surname's clause openers (:data:`.name_clause_opens.OPENERS` with "also", without "no"; :func:`_opens`)
_OPENERS = frozenset("and so but then because cos oh yeah yes well anyway plus also".split())
#: a person as an object
_ME = r"(?:me|us|him|her|them|you)"
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
    r"time)|bring[ \t]+" + _ME + r"))" + W)
#: ... and what a person does that a thing may also do ("rain came in", "sunshine brought me out in a rash"): only
#: after a word that is no mass noun
_PERSON_TOO = (
    r"(?:came[ \t]+(?:straight[ \t]+)?(?:over|round|in[ \t]+with|to[ \t]+see|with[ \t]+me)|"
    r"collected|found[ \t]+" + _ME + r"|brought[ \t]+" + _ME
    + r"|helped[ \t]+" + _ME + r"[ \t]+(?:get[ \t]+(?:dressed|washed|up|in|out|into|ready|home)|dress|wash|shower|"
    r"bath|into|out[ \t]+of|up[ \t]+the|to[ \t]+the))" + W)
_ADV = (r"(?:(?:just|then|also|usually|always|never|already|even|finally|actually|kindly|only|probably|normally|"
        r"sometimes|often)[ \t]+)?")
#: a space, or a clitic "'s" / "'ll" / "'d" right after the word ("lily's picking me up")
_AFTER = r"(?:[ \t]+|(?=['’]))"
#: what a person's errand is after the subject (and a surname maybe)
PERSON_ACTS = re.compile(_AFTER + _ADV + _ONLY_PERSON)
_ACTS_TOO = re.compile(S + _ADV + _PERSON_TOO)
#: a person's role or relation ("my carer", "our lodger", "her key worker")
_ROLES = r"(?:" + "|".join(sorted(RELATIVES | frozenset("""carer carers neighbour neighbor gp doctor consultant nurse
    friend partner lodger landlord landlady boss manager worker warden dentist physio midwife visitor counsellor
    surgeon mate pal flatmate housemate colleague helper cleaner driver advocate""".split()), key=len, reverse=True)) + r")"
_OBJ = r"(?:me|us|him|her|them|my|mum|dad|mam|nan|gran|grandad|the[ \t]+kids)" + W
#: after the bare subject: a verb of a person's errands or care, a person after it
_SUBJECT_NEXT_SURNAME = re.compile(
    S + r"(?:(?:is|was|will|['’]ll|has|had|['’]s|would|can|could|usually|always|normally|often|sometimes|just|also|"
    r"still|kindly|then|been|be)" + S + r"){0,3}"
    r"(?:(?:booked|books|booking|book|picked|picks|picking|pick|collected|collects|collecting|collect|fetched|fetches|"
    r"fetching|fetch|sorted|sorts|sorting|sort|drove|drives|driving|drive|driven|brought|brings|bringing|bring|took|"
    r"takes|taking|ferried|ferries|ferrying|visited|visits|visiting|visit|reminded|reminds|wanted|wants|asked|asks|"
    r"helped|helps|helping|help|rang|rings|phoned|phones|texted|texts|emailed|called|calls|told|tells|"
    r"(?:looked|looks|looking|look)" + S + r"after|(?:keeps|kept|keeping|keep)" + S + r"an" + S + r"eye" + S + r"on|"
    r"(?:came|comes|coming|come|went|goes|going|go)" + S + r"(?:in" + S + r"|round" + S + r"|along" + S + r")?with|"
    r"(?:sat|sits|sitting|sit|stayed|stays|staying|stay)" + S + r"with)"
    + S + r"(?:(?:out|up|in|round)" + S + r")?" + _OBJ
    + r"|(?:does|did|doing|do)" + S + r"(?:my|our|her|his)" + S + r"(?:shopping|washing|cleaning|tablets|meds|"
    r"medication|dressings|paperwork|forms|hair|feet|ironing|cooking)" + W
    + r"|be" + S + r"here" + S + r"(?:at|by|around|about|soon|later|after|before|tomorrow|in" + S + r"a)" + W
    + r"|and" + S + r"(?:her|his)" + S + r"(?:sister|brother|sisters|brothers|nan|niece|nephew|cousin|mate|"
    r"friend|neighbour|carer|lodger|grandson|granddaughter)" + W + r")")
#: "X from the chemist dropped it round" at a clause's start
_FROM_NEXT = re.compile(S + r"from" + S + r"(?:the" + S + r")?(?:chemist|pharmacy|surgery|practice|church|chapel|"
                        r"mosque|temple|gurdwara|club|shop|council|library|post" + S + r"office|centre|center|home|"
                        r"school|work|office|hospice|day" + S + r"centre)" + S
                        + r"(?:dropped|drops|brought|brings|came|comes|rang|rings|phoned|said|says|sits|sat|popped|"
                        r"picked|picks|helps|helped|visits|visited|called|drove|drives|takes|took|told|looks)" + W)
_DEGREE = r"(?:(?:really|so|ever|very|quite|always|being|a[ \t]+bit|too|just|that|such|been|not|never)" + S + r"){0,3}"
#: "couldn't come quick / soon / fast enough" is said of a time or a thing longed for ("dawn couldn't come quick
#: enough", "the weekend can't come soon enough"), not of a person who cannot come
_SOON_ENOUGH = r"(?![ \t]+(?:quick|quicker|quickly|soon|sooner|fast|faster)[ \t]+enough" + W + r")"
#: after the word opening a clause: what only a person is or does
_BE = r"(?:['’]s|" + S + r"(?:is|was|were|has|had|'s))"
_SUBJECT_NEXT_PRED = re.compile(
    r"(?:" + _BE + r"(?:" + S + r"been)?" + S + _DEGREE + r"[a-z]+" + S + r"(?:with|to)" + S
    + r"(?:me|us|him|her|them|everyone|everybody|my[ \t]+[a-z]+|mum|dad|the[ \t]+(?:kids|patients|staff))" + W
    + r"|" + _BE + S + r"(?:worried[ \t]+sick|beside[ \t]+(?:her|him)self|out[ \t]+of[ \t]+(?:her|his)[ \t]+mind)" + W
    + r"|" + S + r"(?:can['’]?t|cannot|won['’]?t|wouldn['’]?t|couldn['’]?t|didn['’]?t|doesn['’]?t|shouldn['’]?t|"
    r"never)" + S + r"(?P<verb>[a-z]+)" + W + _SOON_ENOUGH
    + r"|" + S + r"(?:hasn['’]?t|hadn['’]?t|isn['’]?t|wasn['’]?t)" + S + r"(?:been" + S + r")?"
    r"(?:herself|himself|themselves|well|in[ \t]+touch|round|the[ \t]+same|able[ \t]+to|coping|answering|sleeping)" + W
    + r"|" + S + r"and" + S + r"(?:the|her|his|my|their|our)" + S + r"(?:kids|grandkids|children|grandchildren|"
    r"boys|girls|lads|twins|family|husband|wife|partner|kid|baby|son|daughter|mum|dad|mother|father|boyfriend|"
    r"girlfriend|fella|missus)" + W + r"(?![ \t]*['’])"
    + r"|[ \t]*,[ \t]*who" + S + r"(?:lives|lived|works|worked|is|was|has|had|comes|came|used|helps|helped|looks|"
    r"does|did|drove|drives|brought|brings)" + W
    + r"|" + S + r"(?:sends|sent)" + S + r"(?:her|his|their)" + S + r"(?:love|regards|best)" + W + r")")
#: a person's verbs after a negative modal ("can't come", "wouldn't let me")
_PERSON_BASE = frozenset("""come get let drive walk make remember stop cope manage stand wait stay talk speak answer
    hear believe understand afford bear face visit help ring phone call text pick collect leave find tell say do
    go see sleep eat cook work lift reach bend cope""".split())

# --- the one told or asked ---------------------------------------------------------------------------------
# given: more verbs, and what follows a person told; surname: a narrower after ("about", "the results", "that i")
#: after a verb whose object is a person ("telling", "rang"); a verb that is also a noun ("text", "ring", "phone") or
#: "let" only before what follows a person told (never at the clause's end: "auto text uri .")
_TOLD_BEFORE = re.compile(r"(?:^|[^\w'’])(?:(?P<verb>tell|told|telling|tells|ask|asked|asking|asks|remind|reminded|"
                          r"reminding|rang|rung|ringing|texted|texting|phoned|phoning|emailed|emailing|messaged|warn|"
                          r"warned)|show|showed|shown|showing|let|letting|ring|text|phone|email|message)[ \t]+$")
#: what follows the one told or asked
TOLD = re.compile(r"[ \t]+(?:about|that|whether|if|what|when|where|how|why|know|back|later|tonight|tomorrow|"
                  r"i|we|she|he|it|to[ \t]+(?:come|ring|call|phone|text|pick|bring|collect|fetch|write|take|sit|wait|"
                  r"stay|get|help|sign|book|look|check|tell|ask|say))" + W + r"|(?P<end>[ \t]*(?:[.!?]|$))")
_MONTH_TOLD = re.compile(r"[ \t]+(?:about|know)" + W)
_TELL_BEFORE = re.compile(r"(?:^|[^\w'’])(?:telling|told|tell|tells|asking|ask|asked|reminded|remind|warned|warn)" + S
                          + r"$")
_TELL_NEXT = re.compile(S + r"(?:about|the" + S + r"(?:results|news|plan)|that" + S
                        + r"(?:i|we|you|she|he|they|it)|if" + S + r"(?:i|we|you|she|he|they))" + W)
_LET_BEFORE = re.compile(r"(?:^|[^\w'’])let" + S + r"$")
_KNOW = re.compile(S + r"know" + W)

# --- a person's name as the complement of a person's word ----------------------------------------------
# given: a person's word (a mass noun only after one), a comma and a pronoun after; surname: a role, any end
#: "it was / is it / it's" (the complement's "it was X who"; :func:`.name_given_words.given_word_names` reads no
#: word no name list holds after it, :data:`IT_WAS_BEFORE`)
_IT_WAS = r"(?:^|[^\w'’])(?:(?:was|is)[ \t]+it|it[ \t]+(?:was|is)|it['’]s)"
#: "it was" right before a word
IT_WAS_BEFORE = re.compile(_IT_WAS + r"[ \t]+$")
#: a person's word before "is", and what follows a person's name as its complement
_COMPLEMENT_BEFORE_GIVEN = re.compile(
    r"(?:^|[^\w'’])(?:my|our|his|her|their|your)[ \t]+(?:(?:next-door|next[ \t]+door|support|key|eldest|youngest|"
    r"little|big|best|other|new|home)[ \t]+)?(?P<who>[a-z\-]+)(?:['’]s[ \t]+name)?[ \t]+(?:is|was|['’]s)[ \t]+$"
    r"|(?P<it>" + _IT_WAS + r")[ \t]+$")
_PERSON_NOUNS = RELATIVES | frozenset("""worker carer helper nurse cleaner neighbour neighbor friend mate name
    contact granddaughter grandson daughter son""".split())
_COMPLEMENT_NEXT_GIVEN = re.compile(r"[ \t]*,[ \t]*(?:she|he|they|who|and|i|is|that|the|my|our)(?![\w\-])"
                              + r"|[ \t]+who" + W + r"|[ \t]*[.!?](?![\w])|[ \t]*$")
_WHO = re.compile(r"[ \t]+who" + W)
#: before the word: "my carer is", "our gp was", "my neighbour's"
_COMPLEMENT_BEFORE_SURNAME = re.compile(r"(?:^|[^\w'’])(?:my|our|your|his|her|their)" + S + r"(?:[a-z\-]+" + S + r")?"
                                + _ROLES + S + r"(?:is|was)" + S + r"(?:still" + S + r"|now" + S
                                + r"|called" + S + r")?$")
_COMPLEMENT_NEXT_SURNAME = re.compile(r"[ \t]*(?:[.,!?;]|\n|$)|" + S + r"(?:now|these" + S + r"days|isn['’]t" + S + r"it|"
                              r"from|and" + S + r"(?:she|he)|who|at" + S + r"number)" + W)
#: "it was X that noticed"
_IT_WAS_BEFORE = re.compile(r"(?:^|[^\w'’])(?:it" + S + r"was|it['’]s|it" + S + r"is)" + S + r"$")
_IT_WAS_NEXT = re.compile(S + r"(?:that|who)" + S + r"(?:noticed|found|told|said|rang|called|phoned|saw|spotted|"
                          r"took|brought|drove|helped|insisted)" + W)
_THAT_WAS_BEFORE = re.compile(r"(?:^|[^\w'’])(?:that|it)[ \t]+was[ \t]+$|(?:^|[^\w'’])that['’]s[ \t]+$")
_THAT_WAS_NEXT = re.compile(r"[ \t]+(?:on[ \t]+the[ \t]+(?:phone|line|blower)|at[ \t]+the[ \t]+(?:front[ \t]+|back[ \t]+)?door|"
                            r"just[ \t]+now|earlier|last[ \t]+(?:week|night|time|month)|yesterday|this[ \t]+(?:morning|"
                            r"afternoon)|ringing|calling|texting)" + W)

# --- came with ---------------------------------------------------------------------------------------------
# given: the speaker came (in) / is here with; surname: anyone came, stayed or sat with
#: "i came (in) with X", "i'm here with X"
_WITH_BEFORE_GIVEN = re.compile(r"(?:^|[^\w'’])(?:i|we|i['’]ve|we['’]ve|i['’]m|we['’]re)(?:[ \t]+(?:have|am|are))?[ \t]+"
                          r"(?:came|come|here|been)(?:[ \t]+(?:in|along|up|down|over|here|today))?[ \t]+with[ \t]+$")
_WITH_NEXT_GIVEN = re.compile(r"[ \t]*(?:[.!?]|$)|[ \t]*,[ \t]*(?:my|our|his|her|their|she|he|who)(?![\w\-])"
                        r"|[ \t]+(?:today|this[ \t]+(?:morning|afternoon|time)|tonight|again)" + W)
#: before the word: a preposition that takes a person after someone's verb
_WITH_BEFORE_SURNAME = re.compile(r"(?:^|[^\w'’])(?:i|we|she|he|they|i['’]m|i['’]ve|we['’]re|i've|been)" + S
                          + r"(?:(?:was|am|were|been|have|had|just|only|all|usually|always)" + S + r"){0,2}"
                          r"(?:came|come|coming|stay|stays|stayed|staying|sat|"
                          r"sit|sitting|stopped|stopping|travelled|traveled)" + S + r"(?:in" + S + r"|over" + S
                          + r"|down" + S + r"|up" + S + r")?with" + S + r"$")
_WITH_NEXT_SURNAME = re.compile(r"[ \t]*(?:[.,!?;]|\n|$)|" + S + r"(?:this|last|today|tonight|yesterday|since|now|and" + S
                        + r"(?:her|his))" + W)

# --- a home -------------------------------------------------------------------------------------------------
# one place, three lists of what follows "'s"; the predicate's reads no "over", the surname's any non-word before
#: a home: "going to / at / round X's" before a time or an errand there
_HOME_BEFORE_GIVEN = re.compile(r"(?:^|[ \t])(?:to|at|round|from|over)[ \t]+$")
_HOME_NEXT_GIVEN = re.compile(r"['’]s[ \t]+(?:after|afterwards|later|tonight|tomorrow|till|until|first|then|for[ \t]+"
                        r"(?:tea|dinner|lunch|supper|christmas|the[ \t]+(?:weekend|night)|a[ \t]+few[ \t]+days)|all[ \t]+"
                        r"(?:day|afternoon|morning|evening|night|weekend)|this[ \t]+(?:weekend|afternoon|evening))" + W)
#: a person's home: "going to X's after this", "stopping at X's tonight"
_HOME_BEFORE_SURNAME = re.compile(r"(?:^|[^\w'’])(?:to|at|round|over|from|back" + S + r"to)" + S + r"$")
_HOME_NEXT_SURNAME = re.compile(r"['’]s(?:[ \t]*(?:[.,!?;]|\n|$)|" + S + r"(?:after|afterwards|tonight|later|tomorrow|this|"
                        r"first|then|on" + S + r"the" + S + r"way|now|till|until|for" + S + r"(?:tea|dinner|lunch|"
                        r"the" + S + r"night|a" + S + r"few|a" + S + r"bit|christmas))" + W + r")")
_HOME_BEFORE_PRED = re.compile(r"(?:^|[ \t])(?:at|to|round|from)[ \t]+$")
_HOME_NEXT_PRED = re.compile(r"['’]s[ \t]+(?:when|while|for[ \t]+a[ \t]+(?:cuppa|brew|coffee|cup|drink|bite|sleepover|few)|"
                        r"overnight|for[ \t]+the[ \t]+(?:night|weekend))" + W)

# --- asked of, wanted, waited on ---------------------------------------------------------------------------
#: a person wanted to come, or asked of: "would you like X to come", "has X noticed"
_WANT_BEFORE = re.compile(r"(?:^|[^\w'’])(?:like|want|wants|wanted|need|needs|get|got|expect|asked)[ \t]+$")
_WANT_NEXT = re.compile(r"[ \t]+to[ \t]+(?:come|ring|call|phone|text|pick|drive|bring|collect|fetch|sit|stay|wait|"
                        r"sign|speak|talk)" + W)
_ASK_BEFORE_GIVEN = re.compile(r"(?:^|[.!?,;:\n][ \t]*|(?:and|so|but)[ \t]+)(?:has|had|did|does|is|was|will|can|could|would)"
                         r"[ \t]+$")
_ASK_NEXT_GIVEN = re.compile(r"[ \t]+(?:noticed|mentioned|said|told|asked|rung|rang|phoned|booked|fetched|"
                       r"say|tell|ask|ring|phone|book|notice|mention)" + W)
#: "does X live with you ?"
_ASK_BEFORE_SURNAME = re.compile(r"(?:^|[.!?,\n][ \t]*|(?:and|so)" + S + r")(?:does|did|is|has|will|can|could|would)" + S
                         + r"$")
_ASK_NEXT_SURNAME = re.compile(S + r"(?:still" + S + r")?(?:live|living|lives)" + S + r"(?:with|near|nearby|alone|on"
                       + S + r"her|on" + S + r"his)" + W + r"|" + S + r"(?:look|looking)" + S + r"after" + W
                       + r"|" + S + r"(?:drive|pick|collect|take|bring)" + S + r"(?:you|me)" + W)
#: after "check with" / "waiting on": what follows a person asked or waited on
_ASKED_BEFORE = re.compile(r"(?:check|checked|checking|speak|spoke|speaking|talk|talked|talking|sort[ \t]+it[ \t]+out)"
                           r"[ \t]+(?:with|to)[ \t]+$|(?:wait|waiting|waited)[ \t]+(?:on|for)[ \t]+$")
_ASKED_NEXT = re.compile(r"[ \t]+(?:first|about|if|whether|before)" + W + r"|[ \t]+to[ \t]+(?:pick|come|call|ring|get|"
                         r"bring|collect|drive|phone|text|sort|arrive|turn|tell|say|answer|reply|take|fetch)" + W)
_GOT_BEFORE = re.compile(r"(?:^|[ \t])(?:got|get|gets|getting|had|have)[ \t]+$")
_GOT_NEXT = re.compile(r"[ \t]+(?:ringing|phoning|calling|texting|fetching|sorting|helping|cooking|cleaning|driving|"
                       r"picking|checking|chasing|asking|shopping|writing|typing|emailing|hoovering|ironing)" + W)

# --- addressed, apposed, the first of two objects -----------------------------------------------------------
_HELLO_BEFORE = re.compile(r"(?:^|[^\w'’])(?:say|said|send|sends)" + S + r"(?:hello|hi|hiya|thanks|thank" + S
                           + r"you)" + S + r"to" + S + r"$|(?:^|[^\w'’])(?:my|our)" + S + r"(?:love|best)" + S
                           + r"to" + S + r"$|(?:^|[^\w'’])thanks" + S + r"to" + S + r"$")
_HELLO_NEXT = re.compile(r"[ \t]*(?:[.,!?;]|\n|$)|" + S + r"(?:for" + S + r"me|from" + S + r"me|i|we)" + W)
#: an apposition after a person's role or relation: "my friend , X , drove me in"
_APPOSED_BEFORE = re.compile(r"(?:^|[^\w'’])(?:my|our|your|his|her|their|the)" + S + r"(?:[a-z\-]+" + S + r")?"
                             + _ROLES + r"[ \t]*,[ \t]*$|(?:^|[^\w'’])the" + S + r"warden[ \t]*,[ \t]*$")
_APPOSED_NEXT = re.compile(r"[ \t]*,")
#: a greeting before the word said to: "morning X ,", "hello again X ."
_GREETING_BEFORE = re.compile(r"(?:^|[.!?,\n:][ \t]*)(?:hi|hello|hiya|morning|good" + S + r"(?:morning|afternoon|"
                              r"evening)|afternoon|evening)(?:" + S + r"again|" + S + r"there)?[ \t]*,?[ \t]*$|"
                              r"(?:nice|good|lovely|great)" + S + r"to" + S + r"(?:see|meet)" + S + r"you"
                              r"(?:" + S + r"again)?[ \t]*,[ \t]*$")
_GREETING_NEXT = re.compile(r"[ \t]*(?:[.,!?]|\n|$)")
#: after a verb of two objects, the person first ("i showed X the letter")
_SHOWN_BEFORE = re.compile(r"(?:^|[^\w'’])(?:show|showed|shown|showing|gave|give|giving|handed|hand|passed|lent|"
                           r"bought|told|tell)[ \t]+$")
_SHOWN_NEXT = re.compile(r"[ \t]+(?:the|my|a|an|your|his|her|our|their|some|it)" + W)

# --- the kinds' guards: adjectives --------------------------------------------------------------------------
#: endings of an adjective that may stand after "is" ("faithful", "precious", "priceless")
_ADJ_ENDINGS = ("ful", "ous", "less", "ish", "able", "ible")
#: what a person is said to be after "is" and a gazetteer holds as a given name (no ending tells them)
_PERSON_ADJECTIVES = frozenset("""happy lucky lovely sunny jolly merry sweet bonny fancy tiny honest loyal noble brave
    gentle patient proud rich young keen free true earnest modest pretty bright clever smart quiet calm kind fine
    grand dear""".split())


def _adjective_given(key: str) -> bool:
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


def _adjective_surname(key: str) -> bool:
    """``key`` is an adjective (:func:`adjective_like`) or the comparative of one ("stranger": "hello again stranger
    .")."""
    return adjective_like(key) or key.endswith("er") and (adjective_like(key[:-1]) or adjective_like(key[:-2]))

# --- each kind's places --------------------------------------------------------------------------------------


def _after_surname(text: str, toks: Sequence[Tok], i: int) -> int:
    """Where the word ``toks[i]`` ends, or its surname right after it (a gazetteer surname no common word)."""
    if i + 1 < len(toks):
        n = toks[i + 1]
        if n.text.islower() and text[toks[i].end:n.start] in (" ", "\t") and n.key in surnames() \
                and not is_common(n.key):
            return n.end
    return toks[i].end


def given_place(text: str, toks: Sequence[Tok], i: int) -> bool:
    """The word ``toks[i]`` stands where a given name that is a word may (:mod:`.name_given_words`' docstring: a
    mass noun only before :data:`PERSON_ACTS` or after a person's word, a month only before a person's verb or
    "about / know")."""
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
            or _ASK_BEFORE_GIVEN.search(before) and _ASK_NEXT_GIVEN.match(text, end):
        return True
    if _HOME_BEFORE_GIVEN.search(before) and not month and _HOME_NEXT_GIVEN.match(text, t.end):
        return True
    if month:
        return False
    if (m := _COMPLEMENT_BEFORE_GIVEN.search(before)) and not _adjective_given(key) \
            and (m.group("who") in _PERSON_NOUNS or not mass and m.group("who") is None) \
            and (_WHO.match(text, end) if m.group("it") else _COMPLEMENT_NEXT_GIVEN.match(text, end)):
        return True  # a mass noun only after a person's word ("my carer is grace , she")
    if mass:
        return False
    if _WITH_BEFORE_GIVEN.search(before) and not _adjective_given(key) and _WITH_NEXT_GIVEN.match(text, end):
        return True
    return bool(_SHOWN_BEFORE.search(before) and _SHOWN_NEXT.match(text, end))


#: how many characters before the word the surname's places search (the given name's read 60, the predicate's 40)
_BEFORE = 48


def _opens(text: str, toks: Sequence[Tok], i: int) -> bool:
    """The surname's clause opener: :func:`.name_clause_opens.opens_clause` with :data:`_OPENERS`, only spaces after
    the opener and a break before it too ("so rook rang": yes; "i think so rook rang": no)."""
    if not i or CLAUSE_BREAK.search(text, toks[i - 1].end, toks[i].start):
        return True
    return toks[i - 1].key in _OPENERS and text[toks[i - 1].end:toks[i].start].strip() == "" and (
        i < 2 or CLAUSE_BREAK.search(text, toks[i - 2].end, toks[i - 1].start) is not None)


#: the word right before the word that opens each frame read before it (a cheap test first: most places open none)
_ROLE_WORDS = frozenset(_ROLES[3:-1].split("|")) | {"warden"}
_COMPLEMENT_PREV = frozenset("is was still now called".split())
_TELL_PREV = frozenset("telling told tell tells asking ask asked reminded remind warned warn".split())
_HOME_PREV = frozenset("to at round over from".split())
_GREETING_PREV = frozenset("hi hello hiya morning afternoon evening again there you".split())
_IT_PREV = frozenset("was is it s".split())
_ASK_PREV = frozenset("does did is has will can could would".split())


def surname_place(text: str, toks: Sequence[Tok], i: int) -> bool:
    """The word ``toks[i]`` stands where a surname that is a word may (:mod:`.name_surname_places`' docstring); a
    cheap test of the word right before first, then the bounded search of the :data:`_BEFORE` characters."""
    t = toks[i]
    s, e = t.start, t.end
    if _opens(text, toks, i) and (_SUBJECT_NEXT_SURNAME.match(text, e) or _FROM_NEXT.match(text, e)):
        return True
    if not i:
        return False
    prev = toks[i - 1].key
    lo = max(0, s - _BEFORE)
    if prev in _COMPLEMENT_PREV and _COMPLEMENT_NEXT_SURNAME.match(text, e) and _COMPLEMENT_BEFORE_SURNAME.search(text[lo:s]) \
            and not _adjective_surname(t.key):
        return True
    if prev == "with" and _WITH_NEXT_SURNAME.match(text, e) and _WITH_BEFORE_SURNAME.search(text[lo:s]):
        return True
    if prev in _TELL_PREV and _TELL_NEXT.match(text, e) and _TELL_BEFORE.search(text[lo:s]):
        return True
    if prev == "let" and _KNOW.match(text, e) and _LET_BEFORE.search(text[lo:s]):
        return True
    if prev == "to" and _HELLO_NEXT.match(text, e) and _HELLO_BEFORE.search(text[lo:s]):
        return True
    if prev in _HOME_PREV and _HOME_NEXT_SURNAME.match(text, e) and _HOME_BEFORE_SURNAME.search(text[lo:s]):
        return True
    if prev in _ROLE_WORDS and _APPOSED_NEXT.match(text, e) and _APPOSED_BEFORE.search(text[lo:s]):
        return True
    if prev in _GREETING_PREV and _GREETING_NEXT.match(text, e) and _GREETING_BEFORE.search(text[lo:s]) \
            and t.key not in NOT_ADDRESSED and not _adjective_surname(t.key):
        return True
    if prev in _IT_PREV and _IT_WAS_NEXT.match(text, e) and _IT_WAS_BEFORE.search(text[lo:s]):
        return True
    return bool(prev in _ASK_PREV and _ASK_NEXT_SURNAME.match(text, e) and _ASK_BEFORE_SURNAME.search(text[lo:s]))


def predicate_place(text: str, toks: Sequence[Tok], i: int) -> bool:
    """The word ``toks[i]`` stands where the predicate around it is a person's (:mod:`.name_person_predicates`'
    docstring; also read by :mod:`.name_eponym_persons`)."""
    t = toks[i]
    before = text[max(0, t.start - 40):t.start]
    if opens_clause(text, toks, i, spaced=True) and (m := _SUBJECT_NEXT_PRED.match(text, t.end)) \
            and (m.group("verb") is None or m.group("verb") in _PERSON_BASE):
        return True
    if _ASKED_BEFORE.search(before) and _ASKED_NEXT.match(text, t.end):
        return True
    if _GOT_BEFORE.search(before) and _GOT_NEXT.match(text, t.end):
        return True
    if _THAT_WAS_BEFORE.search(before) and _THAT_WAS_NEXT.match(text, t.end):
        return True
    return bool(_HOME_BEFORE_PRED.search(before) and _HOME_NEXT_PRED.match(text, t.end))



def person_place(text: str, toks: Sequence[Tok], i: int, kind: str) -> bool:
    """The word ``toks[i]`` of ``kind`` ("given", "surname" or "eponym") stands where only a person does: its own
    kind's places and the other kinds' (a given name that is a word in the surname's places, a surname that is a word
    in the given name's, an eponym in both and the predicate's), each kind's own guards still applying to the places
    it borrows: a given name's mass nouns, months, adjectives (:func:`_adjective_given`) and voices never in the
    surname's; a surname's adjectives (:func:`adjective_like`) never in the given name's."""
    key = toks[i].key
    if kind == "given":
        return given_place(text, toks, i) or key not in MASS and key not in MONTH_NAMES and key not in VOICES \
            and not _adjective_given(key) and surname_place(text, toks, i)
    if kind == "surname":
        return surname_place(text, toks, i) or not _adjective_surname(key) and given_place(text, toks, i)
    return predicate_place(text, toks, i) or given_place(text, toks, i) or surname_place(text, toks, i)


def lower_words_in_places(text: str, toks: Sequence[Tok], word: Callable[[str], bool],
                          place: Callable[[str, Sequence[Tok], int], bool],
                          no_person_at: Callable[[str, int, int], bool]) -> list[Tok]:
    """The lower-case words of ``toks`` whose key passes ``word`` (a kind's word test), standing where ``place``
    says only a person does and ``no_person_at`` allows one: the loop of :mod:`.name_given_words`,
    :mod:`.name_surname_places` and :mod:`.name_person_predicates`. Each distinct key is tested once, and only the
    places of the words that pass are read (no step in Python for the others)."""
    wanted = {k for k in set(keys_of(toks)) if word(k)}
    return [toks[i] for i in key_indices(toks, wanted)
            if toks[i].text.islower() and place(text, toks, i) and not no_person_at(text, toks[i].start, toks[i].end)]
