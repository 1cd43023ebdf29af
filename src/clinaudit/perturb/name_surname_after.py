"""A surname that is a word, right after a given name found, where what follows says the name ended there (issue 50,
thirteenth session: ``benchmarks/deid_dev24.py``). The neighbour rule (:func:`.name_capital_neighbours.capital_neighbours`,
:mod:`.name_neighbour_words`) takes a word beside a name found only when the lists allow it (a given name rarer than
Zipf 4.5, a word in no list), so a surname that is a function, clinical, demographic or everyday word is left beside
its given name: "[NAME] young", "[NAME] oh", "[NAME] rice", "[NAME] Black". Such surnames are the commonest of the UK,
the US, Korea, Vietnam and China.

What stands after the word decides (:func:`surname_after`), since English puts a word right after a person's name
as a second object ("i gave oskar rice"), a complement ("keep bruno strong"), an adverb ("i like oskar best"), a
modal ("marisol will be fine"), an article ("i saw ingrid an hour ago") or an interjection ("thanks marisol oh and"):

* **what only a whole name is followed by**: a verb agreeing with a person as the clause's subject ("fenella hill is
  my sister", "krista black says", "tavon rich came", "thuy le told me", "ruairi day 's number", "xiaoling wan will
  pick me up", "who rang", "couldn't make it", "and i"), not after "let", "make", "have", "help", "see", "watch",
  "hear" ("let priya page the doctor"); never a modal after a modal ("marisol will will"), and after a function
  word or a spoken form ("will", "do", "an", "oh") only this;
* **the name's end** (the clause's end, a comma, "at", "from", "when", "today", ...) where the name is no verb's
  object: after a preposition ("i live with fenella hill ."), a clause boundary ("sorry , ruairi day couldn't"), a
  copula after its subject ("my neighbour is fenella hill ."), "who's", "it's", "thanks"; not after a verb ("i like
  oskar best .", "keep bruno strong ,", "we sent dmitri love from all of us"), not in a question that opens with a
  copula ("is priya young ?"), and "?" not right after a name at a clause's start ("marisol rich ?").

The word: a gazetteer surname of two letters or more, written in lower case or capitalised (not in capitals: an
acronym), no relative's word, hesitation ("[jiwoo] um said") or person's verb ("[holly] came"), not where the
detector says no person stands; before the name's end no inflected everyday word ("courage helps , but": the given
name's verb). The given name before it: a name found (any rule), only spaces between. Used by :mod:`.name_detect` (source ``rule``).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable, Sequence

from .name_clause_subject import PERSON_VERBS
from .name_frames import TITLE_WORDS
from .name_neighbour_words import open_surname
from .name_roles import ROLE_TITLES
from .name_tokens import S_BEFORE, WORD_END, Tok, starts_of
from .name_rare_listed import rare_listed
from .vocab import FUNCTION_WORDS, OPEN_SURNAMES, RELATIVES, SPOKEN_WORDS, first_names, inflected_everyday, surnames

__all__ = ["FILLERS", "MODAL_VERBS", "VERBS_AFTER_A_SURNAME", "surname_after", "given_before"]

_W = WORD_END
#: hesitations between a subject and its verb ("[jiwoo] um said"), never a surname here (also read by
#: :mod:`.name_word_surnames`)
FILLERS = frozenset("um umm uh uhm er erm hmm mm mhm ah eh like".split())
#: a person's verbs: after a name they are its verb, never its surname ("from [wojtaszek] came yesterday"); also read
#: by :mod:`.name_word_surnames` and :mod:`.name_same_person`
VERBS_AFTER_A_SURNAME = PERSON_VERBS | frozenset("""is was has had called calls came comes went goes brought took does
    did got gets left sent gave""".split())
#: the modal verbs, never a surname after a whole name (also read by :mod:`.name_word_surnames`)
MODAL_VERBS = frozenset("will would can could should might must may shall".split())
#: after a whole name as the clause's subject: a verb agreeing with a person, "'s", "who", "and i"
_STRONG = re.compile(r"(?:['’]s" + _W + r"|[ \t]+(?:is|was|has|had|says|said|told|tells|called|calls|rang|rings|"
                     r"phoned|texted|came|comes|went|goes|drove|brought|took|wants|wanted|thinks|thought|knows|knew|"
                     r"does|did|isn['’]t|wasn['’]t|doesn['’]t|didn['’]t|can['’]t|couldn['’]t|won['’]t|wouldn['’]t|"
                     r"(?P<modal>will|would|can|could|should|might|must|may)|who|and[ \t]+i|picking|bringing|"
                     r"driving|coming|ringing|calling)" + _W + ")")
#: the name's end: the clause's, a comma, a place or a time after the name
_END = re.compile(r"[ \t]*(?:(?P<ask>\?)|[.!;,:]|\n|$)|[ \t]+(?:at|from|when|today|yesterday|tomorrow|tonight|"
                  r"please|here|there)" + _W)
#: before the given name: its verb makes the next word a second object or a complement ("let priya page")
_CAUSE = frozenset("let lets make makes made have help helps see saw seen watch watched hear heard".split())
#: before the given name: it is no verb's object (a preposition, a boundary word, a copula after its subject)
_NOT_OBJECT = frozenset("""to with from by for of at about than and or but so is was are were 's who's it's that's
    thanks thank hi hello hey bye morning afternoon evening dear named called cc""".split())
_COPULA = frozenset("is was are were".split())
_BOUNDARY = re.compile(r"(?:^|[.!?;:,\n\"“(\]])[ \t]*$")  # "]": a speaker label's ("[patient] is priya brown ?")
_BREAK = re.compile(r"[.!?;:,\n\"“(]")


def _not_object(text: str, toks: Sequence[Tok], g: int) -> bool:
    """The given name ``toks[g]`` is no verb's object: a boundary, a preposition or a copula after its subject
    before it (not a question opening with the copula: "is priya young ?")."""
    gap = text[toks[g - 1].end if g else 0:toks[g].start]
    if not g or _BREAK.search(gap) or S_BEFORE.match(gap):  # "sorry , [ruairi]", "who's [fenella]"
        return True
    before = toks[g - 1].key
    if before not in _NOT_OBJECT:
        return False
    return before not in _COPULA or not _BOUNDARY.search(text, toks[g - 2].end if g > 1 else 0, toks[g - 1].start)


#: at a clause's start before a name, a word that opens the clause or a verb of its own ("oh [kowalczyk] is here",
#: "hope [kowalczyk] is okay", "meet [harjit] , our new nurse": "meet" is also a given name), not a given name
#: a title or a role before a name ("doctor [brown]", "mister [rath]"), never its given name
_TITLES = TITLE_WORDS | ROLE_TITLES | {"madam", "madame"}
#: the function words that are given names before a surname found ("will", "june"); no other ("like [cappuccino]")
_NAME_FUNCTION = frozenset("will may june april august young happy honey pal".split())
_OPENS = frozenset("""so and but well now then yes no right anyway also plus just maybe hi hey hello bye thanks please
    sure hope trust guess say wish bet reckon think know mean pray meet welcome""".split())


def given_before(text: str, toks: Sequence[Tok], found: Sequence[tuple[int, int]],
                 no_person_at: Callable[[str, int, int], bool]) -> list[Tok]:
    """The words right before a name of ``found`` that are its given name: a gazetteer given name the lists call a
    word ("will [kowalczyk] is my brother", "my neighbour is june [szabo] .", "thanks , hope [mbeki] ."), where the
    given name is no verb's object (:func:`_not_object`: "i hope [kowalczyk] is", "mark [kowalczyk] as absent"), and
    what follows the whole name says it ended (a person's verb; the name's end), no spoken form or opener at a
    clause's start ("oh [kowalczyk] is here"), no title or role ("doctor [brown]"), no function word but a name's
    ("will", "june", "young", "happy", "honey"; not "like [cappuccino]")."""
    ends = {e for _, e in found}
    reach: dict[int, int] = {}  # a name's start -> its longest end
    for s, e in found:
        reach[s] = max(e, reach.get(s, e))
    given = first_names()
    at = starts_of(toks)
    out: list[Tok] = []
    for i in sorted({i - 1 for s in reach if (i := bisect_left(at, s)) < len(toks) and i and at[i] == s}):
        t, n = toks[i], toks[i + 1]
        if t.end in ends or text[t.end:n.start] != " " or t.key not in given and not rare_listed(t.key) or len(t.key) < 2 \
                or not t.text.isalpha() or t.text.isupper() or t.key in RELATIVES or t.key in SPOKEN_WORDS \
                or t.key in _TITLES or t.key in FUNCTION_WORDS and t.key not in _NAME_FUNCTION:
            continue
        if not _not_object(text, toks, i) or t.key in _OPENS and (not i or _BREAK.search(text, toks[i - 1].end, t.start)):
            continue
        j = bisect_left(at, reach[n.start])  # the word after the whole name
        last = toks[j - 1]
        if _STRONG.match(text, last.end) or (end := _END.match(text, last.end)) is not None and not end.group("ask"):
            if not no_person_at(text, t.start, t.end):
                out.append(t)
    return out


#: before the given name: a verb that makes "young" after it a complement ("keep mum young", "she looks young")
_COMPLEMENT = _CAUSE | frozenset("""keep keeps kept keeping stay stays stayed feel feels felt look looks looked seem seems
    seemed consider considered""".split())
#: after "young": the adjective goes on ("sione young and healthy", "young again", "young at heart", "young for her age")
_ADJECTIVE_ON = frozenset("and again enough forever at for as or but".split())


def _open_after(text: str, toks: Sequence[Tok], i: int, before: str) -> bool:
    """``toks[i]``, a word of :data:`.vocab.OPEN_SURNAMES` ("young") right after a name found, is its surname
    whatever follows (twenty-eighth session: "i have sione young listed", "i've known sione young since"): in lower
    case, no person's noun after it (:func:`.name_neighbour_words.open_surname`), no word that carries the adjective on
    (:data:`_ADJECTIVE_ON`), no verb before the name that makes it a complement (:data:`_COMPLEMENT`), not in a
    question opening with a copula ("is sione young ?")."""
    t = toks[i]
    if not open_surname(text, t) or before in _COMPLEMENT or before in _COPULA and i > 1 \
            and _BOUNDARY.search(text, toks[i - 3].end if i > 2 else 0, toks[i - 2].start):
        return False
    m = _WORD_ON.match(text[t.end:t.end + 30])
    return m is None or m.group(1) not in _ADJECTIVE_ON or m.group(1) == "and" and m.group(2) is not None  # "and she"


#: the word after "young", and a pronoun or a possessive after "and" (a clause of its own follows: "and she works")
_WORD_ON = re.compile(r"[ \t]+([a-z]+)(?:[ \t]+(i|i'm|she|he|they|we|my|her|his|their|our)(?![\w'’\-]))?")


def surname_after(text: str, toks: Sequence[Tok], found: Sequence[tuple[int, int]],
                  no_person_at: Callable[[str, int, int], bool]) -> list[Tok]:
    """The words right after a name of ``found`` (spans) that are its surname (the module's docstring)."""
    starts, ends = {s for s, _ in found}, {e for _, e in found}
    sur = surnames()
    at = starts_of(toks)
    out: list[Tok] = []
    for i in sorted({i for _, e in found if (i := bisect_left(at, e)) < len(toks) and i}):  # the word after each
        t, g = toks[i], toks[i - 1]
        if g.end not in ends or t.start in starts or text[g.end:t.start] != " " or t.key not in sur and not rare_listed(t.key) \
                or len(t.key) < 2 or not t.text.isalpha() or t.text.isupper() or t.key in RELATIVES \
                or t.key in FILLERS or t.key in VERBS_AFTER_A_SURNAME:
            continue
        closed = t.key in FUNCTION_WORDS and t.key not in OPEN_SURNAMES or t.key in SPOKEN_WORDS
        strong = _STRONG.match(text, t.end)
        before = toks[i - 2].key if i > 1 and not _BOUNDARY.search(text, toks[i - 2].end, g.start) else ""
        if strong and before not in _CAUSE and not (strong.group("modal") and t.key in MODAL_VERBS):
            pass
        elif closed:
            continue
        elif t.key in OPEN_SURNAMES and _open_after(text, toks, i, before):
            pass
        else:
            end = _END.match(text, t.end)
            if end is None or inflected_everyday(t.key) or not _not_object(text, toks, i - 1) \
                    or end.group("ask") and _BOUNDARY.search(text, toks[i - 2].end if i > 1 else 0, g.start):
                continue
        if not no_person_at(text, t.start, t.end):
            out.append(t)
    return out
