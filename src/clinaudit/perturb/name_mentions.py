"""A name the word lists call a word, in lower-case speech, decided by the dialog (issue 50, sixth session: US
given names and surnames such as "hunter", "crawford", "baxter", "tanner", "mason" that are English words).

In lower case nothing in the word says whether "tanner" is a person; the dialog may:

* :func:`other_mentions` — a word taken once as a name in a lower-case dialog (a naming context: "my grandson
  tanner", "hi mason ,", "mr. fletcher") is the same person where the dialog writes it again in lower case ("tanner
  waited in the car"), but not after a determiner or a possessive ("a mason", "my tanner"), nor where no person
  stands (:func:`.name_no_person.no_person_at`); so is a word in no list that looks like a word, rare in English
  ("the jirina i work with ..., jirina swears by it"); and since the twenty-third session an English word no name
  list holds (:func:`named_word`: "my friend peg came by ..., peg thinks i should rest", "my son tele ... hi tele"),
  no adjective ("my daughter silky ... the rash feels silky"), in lower-case text only (a cased text that took a
  lower-case word took a word: "a grade 4/6 holodiastolic murmur");
* :func:`given_and_surname` — a given name of the gazetteer right before a surname of it, both words the lists call
  common ("signed by tanner fletcher", "with penny cooper on friday"), not after a determiner or a possessive, nor
  one word after it ("a halo vest", "a bremer halo vest"), nor before a plural of a common word ("cinnamon rolls",
  "diary sheets").

Only words English text uses less than Zipf :data:`.vocab.WORD_NAME_ZIPF` (not "will" 6.45, "mark" 5.05, "hope"), no function,
demographic or clinical word, no relative's or spoken word. Used by :mod:`.name_detect` (source ``rule``).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Sequence
from itertools import compress
from operator import and_

from .name_frames import is_cased
from .name_pairs import person_pair
from .name_person_places import adjective_like
from .name_tokens import Tok, key_indices, keys_of, starts_of
from .name_same_person import CLAUSE_END, PERSON_AFTER
from .name_word import OWNERS, RELATIVES, SEP_SPACE, unlisted_word, word_name, word_facts
from .vocab import SPOKEN_WORDS, WORD_NAME_ZIPF, y_adjective, english_zipf, first_names, surnames
from .word_pos import verb_base

__all__ = ["other_mentions", "given_and_surname", "named_word", "after_determiner"]

#: before a word, what makes it a thing ("a mason", "my tanner", "some penny"); not "that" or "this", which also
#: open a clause ("the rash that mason saw"). Not one set with name_prep's determiners before a thing (the, a, an,
#: possessives, "this", "that": the dialog's things, a veto on a word in no list) nor name_neighbour_words'
#: _THING_BEFORE (also prepositions: before a capitalised word): they differ in "that", "this", "any", "every",
#: "other", ..., each rule was measured with its own, and one set would change outputs (issue 50, seventh session)
_BEFORE_THING = OWNERS - {"that", "this"}


def after_determiner(toks: Sequence[Tok], i: int) -> bool:
    """A determiner or a possessive right before ``toks[i]`` ("a mason", "my tanner"; also read by
    :mod:`.name_cased_mentions`)."""
    return i > 0 and toks[i - 1].key in _BEFORE_THING


def _plural(key: str) -> bool:
    """A plural of a common word that is no given name or a very common word ("sheets", "rolls": "roll" 4.75; not
    "rogers": "roger" is a name, 3.9)."""
    stem = key[:-1]
    return key.endswith("s") and not key.endswith("ss") and word_facts(stem).common and english_zipf(stem) >= 3.5 \
        and (stem not in first_names() or english_zipf(stem) >= WORD_NAME_ZIPF)


def named_word(key: str) -> bool:
    """A common English word that a naming context may take as a name in lower case and :func:`other_mentions`
    then reads again, also where no name list holds it ("peg", "pip", "tele"): what :func:`.name_word.word_name` asks
    of a gazetteer name (letters, three or more, rarer than :data:`.vocab.WORD_NAME_ZIPF`, no clinical, function,
    demographic, relative's or spoken word, no eponym), and no adjective (:func:`.vocab.y_adjective`,
    :func:`.name_person_places.adjective_like`: "silky", "bubbly"), which the same dialog says of a thing as readily
    ("the rash feels silky")."""
    return word_name(key, listed=False) and not (y_adjective(key) or adjective_like(key))


def other_mentions(text: str, toks: Sequence[Tok], found: Sequence[tuple[int, int]],
                   no_person_at: Callable[[str, int, int], bool]) -> list[Tok]:
    """The lower-case words of ``toks`` that a span of ``found`` takes elsewhere as a whole lower-case word the
    lists call common (the module's docstring), not where a determiner or a possessive stands before them or no
    person stands (``no_person_at``)."""
    spans = set(found)
    starts = starts_of(toks)  # the words a span takes, found by bisection (not a look at each)
    taken = [toks[i] for s, e in spans if (i := bisect_left(starts, s)) < len(toks) and starts[i] == s
             and toks[i].end == e]
    lower = not is_cased(text)  # a word no list holds is read again only in lower-case speech, where it was taken
    keys = {t.key for t in taken if not t.capital and t.text.islower()
            and (word_name(t.key) or unlisted_word(t.key, rare=True) or lower and named_word(t.key))}
    # a name English text writes often as a word ("mark", "rose", "hope"): again only where a person stands
    frequent = {t.key for t in taken if lower and not t.capital and t.text.islower() and t.key not in keys
                and frequent_word_name(t.key)}
    if not keys and not frequent:
        return []
    at = key_indices(toks, keys | frequent)  # only the words of keys
    return [t for i in at if ((t := toks[i]).start, t.end) not in spans and t.text.islower()
            and not after_determiner(toks, i) and (t.key in keys or _person_place(text, toks, i))
            and not no_person_at(text, t.start, t.end)]


def frequent_word_name(key: str) -> bool:
    """A gazetteer name English text writes often as a word (Zipf :data:`.vocab.WORD_NAME_ZIPF` or more: "mark",
    "rose", "hope", "smith"): letters, three or more, no clinical, function, demographic, relative's or spoken word, no
    eponym."""
    if not key.isalpha() or len(key) < 3 or key in SPOKEN_WORDS or key in RELATIVES:
        return False
    w = word_facts(key)
    return w.gazetteer and w.clinical is None and not (w.function or w.demographic or w.eponym) \
        and english_zipf(key) >= WORD_NAME_ZIPF


#: before a person's name alone, in the same clause: a preposition or a verb whose object is a person
_PERSON_BEFORE = frozenset("""with for from beside besides behind like than except without about between tell told
    ask asked thank thanked call called ring rang text texted saw see seen met meet visit visited helped love miss
    missed and or to""".split())
#: before "to" and a person's name ("next to mark", "i talked to rose"): "to" opens no verb there ("i want to mark")
_TO_A_PERSON = frozenset("""next talk talked talking spoke speak speaking said say says married engaged gave give
    given sent send belongs belonged close nice kind mean rude listen listened introduced explained wrote write door
    related""".split())
#: after a person's name alone: what ends its phrase ("next to mark when it happened", "with rose at the front")
_AFTER_A_NAME = frozenset("""when while at on in but about after before yesterday today tonight tomorrow last
    too as for from over because so since until if who again recently earlier this every""".split())
#: after a name at a clause's start, besides name_same_person's verbs: what a person did ("mark wrote that ...")
_PERSON_DID = frozenset("wrote writes goes went came comes checks checked".split())


def _person_place(text: str, toks: Sequence[Tok], i: int) -> bool:
    """``toks[i]`` stands where a person's name stands alone: after a preposition or a verb whose object is a person
    ("next to mark .", "i stayed with rose when", "tell hope i said"; "to" only before a word with no verb reading: not
    "i want to mark it"), or at a clause's start before what a person does ("mark wrote", not "mark this down"); and
    before the phrase's end or a person's verb (not "with rose petals")."""
    t = toks[i]
    nxt = toks[i + 1] if i + 1 < len(toks) else None
    verb_next = nxt is not None and bool(SEP_SPACE.fullmatch(text, t.end, nxt.start)) \
        and (nxt.key in PERSON_AFTER or nxt.key in _PERSON_DID)
    after_ok = bool(CLAUSE_END.match(text, t.end)) or verb_next or nxt is not None \
        and bool(SEP_SPACE.fullmatch(text, t.end, nxt.start)) and nxt.key in _AFTER_A_NAME
    if not after_ok or i == 0:
        return False
    p = toks[i - 1]
    if not SEP_SPACE.fullmatch(text, p.end, t.start):  # a clause's start: a person's verb must follow
        return verb_next
    if p.key == "to" and verb_base(t.key) and not (i > 1 and toks[i - 2].key in _TO_A_PERSON):
        return False
    return p.key in _PERSON_BEFORE


def given_and_surname(text: str, toks: Sequence[Tok], no_person_at: Callable[[str, int, int], bool]) -> list[Tok]:
    """The two words of a gazetteer given name right before a gazetteer surname in lower case, both words the lists
    call common (the module's docstring), or both before what only a person does (:func:`.name_pairs.person_pair`:
    "fern moss drives me")."""
    given, sur = first_names(), surnames()
    out: list[Tok] = []
    keys = keys_of(toks)
    # only the given names right before a surname are read (issue 50, seventh session: not every pair of words)
    for i in compress(range(len(toks) - 1), map(and_, map(given.__contains__, keys[:-1]), map(sur.__contains__, keys[1:]))):
        if _common_pair(text, toks, i, no_person_at) or person_pair(text, toks, i, no_person_at):
            out += [toks[i], toks[i + 1]]
    return out


def _common_pair(text: str, toks: Sequence[Tok], i: int, no_person_at: Callable[[str, int, int], bool]) -> bool:
    """``toks[i]``, ``toks[i + 1]``: a given name and a surname, both words the lists call common, rare in English."""
    a, b = toks[i], toks[i + 1]
    wa, wb = word_facts(a.key), word_facts(b.key)
    if not (a.text.islower() and b.text.islower() and wa.common and wb.common) or wa.everyday or wb.everyday:
        return False  # an ICD-10-CM word of external causes beside another word is a thing: "apples cherry chocolate"
    if not SEP_SPACE.fullmatch(text, a.end, b.start) or after_determiner(toks, i) or _plural(b.key) \
            or i > 1 and toks[i - 2].key in _BEFORE_THING and SEP_SPACE.fullmatch(text, toks[i - 2].end,
                                                                                  toks[i - 1].start):
        return False  # "a halo vest", "a bremer halo vest", "cinnamon rolls"
    return word_name(a.key) and word_name(b.key) and not (no_person_at(text, a.start, a.end)
                                                          or no_person_at(text, b.start, b.end))
