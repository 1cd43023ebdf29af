"""Names of one-syllable words in lower case: a Korean given name written as two syllables apart, and a one-syllable
Korean, Chinese or Vietnamese surname beside a given name (issue 50, fifteenth session).

Korean given names are two syllables, written together ("sehun"), hyphenated ("se-hun": :func:`.name_letters.syllable_names`)
or apart ("se hun"); surnames are one syllable, and Chinese and Vietnamese names are one-syllable words too ("tee
ming", "tan"). Apart, in lower case, each syllable is a word of the lists ("se", "hun", "bin") and no rule read the
two as one name: "i talked to se bin before the appointment", "kuk se hun came along" kept the given name, "tee ming
is my emergency contact" the surname. In lower case only:

* **a given name apart** (:func:`syllables_apart`): two words in a row, each a syllable Korean given names are made
  of (:data:`GIVEN_SYLLABLES`, written here), neither a function, relative's, spoken, clinical, demographic word, day
  or month; not the same word twice ("ha ha", "da da"), not a rhyme or an ablaut pair ("hong kong", "ping pong"),
  not both English words of Zipf 4.5 or more; with a one-syllable surname right before or after it taken with it
  (a gazetteer surname as Korean surnames are written, :func:`.name_korean.korean_surname_shape`, or a word of
  :data:`WORD_SURNAMES`). The two are a name where a person stands: beside a name found, with a surname beside
  them, or in a frame of :data:`_BEFORE` ("talked to", "ask", "my wife", "thanks ,", "is this", "my name is") or
  :data:`_AFTER` ("came", "says", "is", "and i") -- and nowhere a determiner stands right before them ("the sun
  bin is full") or :func:`.name_no_person.no_person_at` says no person stands;
* **a surname beside a given name found** (:func:`surname_beside_given`): a word of :data:`WORD_SURNAMES` (one-syllable
  surnames that English writes as words, "sun", "song", "tee", "sum", written here) right before a one-syllable or
  Korean given name found, or right after a Korean one ("tee [ming]", "sun [ji-ho]", "[jiwoo] sun"), whatever its
  frequency (:mod:`.name_korean` reads only words rarer than Zipf 4.0), not before a verb's particle ("up", "out").

Never a function, relative's, spoken, clinical or demographic word ("young", "son", "shin", "do", "an" stay words
everywhere), a day or a month. Words first: the text's distinct words that may be a syllable or a surname are found by
set operations (:func:`syllable_words`), and their places in the bare-word rules' one scan of the words
(:func:`.name_bare_person.bare_word_places`): no scan of its own.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import lru_cache
from itertools import compress

from .name_korean import korean_given_shape, korean_surname_shape, particle_after
from .name_bare_person import BareWords
from .name_tokens import Tok, ends_of, starts_of, texts_of
from .name_word import word_facts
from .vocab import DAY_NAMES, MONTH_NAMES, RELATIVES, SPOKEN_WORDS, english_zipf, surnames

__all__ = ["GIVEN_SYLLABLES", "WORD_SURNAMES", "surname_beside_given", "syllable_word_names", "syllable_words",
           "syllables_apart"]

#: the syllables Korean given names are made of, as English writes them (Revised Romanization and the older
#: spellings): a word that is no syllable of this list is no part of a Korean given name written apart
GIVEN_SYLLABLES = frozenset("""ae bi bin bo bok byung chae chan cheol chul da dae dal dong doo du eun gi gil gu gyu ha
    hae han hee heon ho hoon hun hwa hwan hye hyo hyuk hyun hyung il ja jae jeong ji jin jong joo ju jun jung ki kwang
    kyu kyung mi min mo mun myung na nam ra rae ri rin ryung sa se seo seok seon seong seul seung si sik sol soo sook
    su suk sun sung tae un wan woo wook woong ya ye yeon yeong yong yoon yu yul yun""".split())
#: one-syllable Korean, Chinese and Vietnamese surnames that English writes as words (or as abbreviations), which
#: :mod:`.name_korean` leaves for their frequency; the guards still keep the function, relative's, spoken and
#: clinical ones ("an", "son", "oh", "shin", "low") words; none that English writes as a verb after a name ("go",
#: "won", "park", "ban", "pan", "long", "ping", "man": "dohyun go to the pharmacy")
WORD_SURNAMES = frozenset("""sun song moon min ha bang han yang jang nam ye yu ko gong kong bong tak pyo cha jin ji
    tae sung seong im lim yi tee sum yap chew low fang tang chan lam lau tam fung ho lee mak chow hui tan mai hai bao
    dao ly vu thai cao""".split())
_VOWEL = re.compile(r"[aeiouy]")
#: one syllable as Chinese (pinyin, Cantonese) and Vietnamese names are written without tones: "ming", "bei", "vinh"
_ONE_SYLLABLE = re.compile(r"(?:ch|sh|zh|th|tr|ng|nh|ph|kh|gi|qu|[bcdfghjklmnpqrstvwxz])?[wy]?[aeiouy]{1,3}"
                           r"(?:ng|nh|ch|n|m|p|t|c|k)?")
#: a verb's particle after the word ("... sun up"): the word is no surname (:data:`.name_korean.VERB_PARTICLES`; not
#: "in", "on", which :mod:`.name_korean` adds beside a Korean given name)
_PARTICLE_AFTER = particle_after()
#: what stands before a person: told, asked, spoken to, a relative, thanked, a title, "is this", "my name is"
_BEFORE = re.compile(r"(?<![\w'’\-])(?:to|with|ask|asked|tell|told|call|called|ring|rang|for|from|and|me[ \t]+and|"
                     r"is[ \t]+(?:this|that)|this[ \t]+is|name[ \t]+is|my[ \t]+(?:wife|husband|partner|daughter|son|mum|"
                     r"mom|dad|mother|father|sister|brother|cousin|friend|neighbour|neighbor|carer|aunt|uncle|"
                     r"grandson|granddaughter|niece|nephew|mother-in-law|father-in-law|sister-in-law|brother-in-law)|"
                     r"our[ \t]+(?:eldest|youngest)|thanks|thank[ \t]+you|bye(?:[ \t]+now)?|take[ \t]+care|sorry|"
                     r"hello|hi|dear|dr|mr|mrs|ms|miss|nurse)[ \t]*,?[ \t]*$")
#: what stands after a person: a person's verb, "and i", a comma before "my"
_AFTER = re.compile(r"[ \t]*(?:(?:came|comes|says|said|drove|drives|told|rang|called|couldn['’]t|can['’]t|lives|does|"
                    r"did|has|had|is|was|will|and[ \t]+i)(?![\w'’\-])|['’]s[ \t]|,[ \t]*(?:my|see|that['’]s)\b)")
#: a determiner right before: a thing ("the sun bin is full"), no person
_DETERMINER = re.compile(r"(?<![\w'’\-])(?:the|a|an|some|any|your|his|her|their|its|our|no|"
                         r"every|each)[ \t]+$")
#: how far before a run its frame is read
_WINDOW = 40


@lru_cache(maxsize=50_000)
def _plain(key: str) -> bool:
    """``key`` is a word the rules may take: lower case, two letters or more, no function, relative's, spoken,
    clinical or demographic word, day or month."""
    if len(key) < 2 or not key.isalpha() or not key.islower() or key in RELATIVES or key in SPOKEN_WORDS \
            or key in DAY_NAMES or key in MONTH_NAMES:
        return False
    w = word_facts(key)
    return not (w.function or w.demographic or w.clinical is not None or w.eponym)


def _syllable(key: str) -> bool:
    return key in GIVEN_SYLLABLES and _plain(key)


def _surname(key: str) -> bool:
    """A one-syllable surname beside a given name apart: a word of :data:`WORD_SURNAMES`, or a gazetteer surname
    as Korean surnames are written (:func:`.name_korean.korean_surname_shape`: "gan", "sok")."""
    return len(key) <= 4 and _plain(key) and (key in WORD_SURNAMES or korean_surname_shape(key) and key in surnames())


def _echo(a: str, b: str) -> bool:
    """The same word twice, a rhyme ("hong kong") or an ablaut pair, the same onset and coda ("ping pong", "hip
    hop"): no name."""
    ma, mb = _VOWEL.search(a), _VOWEL.search(b)
    if a == b or ma is None or mb is None:
        return True
    rhyme_a, rhyme_b = a[ma.start():], b[mb.start():]
    return rhyme_a == rhyme_b or a[:ma.start()] == b[:mb.start()] and _coda(a) == _coda(b)


def _coda(word: str) -> str:
    return word[len(word.rstrip("bcdfghjklmnpqrstvwxz")):]


def _spaces(text: str, end: int, start: int) -> bool:
    return end < start and text[end:start].strip(" \t") == ""


def syllable_words(distinct: set[str]) -> set[str]:
    """The words of ``distinct`` (a text's distinct words) this module reads: a given name's syllable or a surname of
    :data:`WORD_SURNAMES` (:func:`.name_bare_person.bare_word_places` finds their places in its one scan)."""
    return {w for w in distinct & GIVEN_SYLLABLES if _syllable(w)} | {w for w in distinct & WORD_SURNAMES if _plain(w)}


def syllable_word_names(text: str, toks: Sequence[Tok], found: Sequence[tuple[int, int]],
                        no_person_at: Callable[[str, int, int], bool], bare: BareWords) -> list[Tok]:
    """:func:`syllables_apart` and :func:`surname_beside_given` (module docstring); ``found``: the names found so far
    (start, end); ``bare``: the places of :func:`syllable_words` among others'
    (:func:`.name_bare_person.bare_word_places`), read once for both."""
    if not bare.extra:
        return []
    texts = texts_of(toks)
    places = list(compress(bare.places, map(bare.extra.__contains__, map(texts.__getitem__, bare.places))))
    return syllables_apart(text, toks, found, no_person_at, [i for i in places if texts[i] in GIVEN_SYLLABLES]) \
        + surname_beside_given(text, toks, found, [i for i in places if texts[i] in WORD_SURNAMES])


def syllables_apart(text: str, toks: Sequence[Tok], found: Sequence[tuple[int, int]],
                    no_person_at: Callable[[str, int, int], bool], places: list[int]) -> list[Tok]:
    """A Korean given name written as two syllables apart where a person stands, and the one-syllable surname
    beside it (module docstring); ``places``: where the text's words of :func:`syllable_words` that are syllables
    stand, in text order."""
    if len(places) < 2:
        return []
    texts, starts, ends = texts_of(toks), starts_of(toks), ends_of(toks)
    f_starts, f_ends = {s for s, _ in found}, {e for _, e in found}
    out: list[Tok] = []
    for i, j in zip(places, places[1:], strict=False):
        a, b = texts[i], texts[j]
        if j != i + 1 or not _spaces(text, ends[i], starts[j]) or _echo(a, b) \
                or english_zipf(a) >= 4.5 and english_zipf(b) >= 4.5:
            continue
        run = [i, j]
        if i > 0 and _spaces(text, ends[i - 1], starts[i]) and _surname(texts[i - 1]):
            run.insert(0, i - 1)  # "kim se hun"
        elif j + 1 < len(texts) and _spaces(text, ends[j], starts[j + 1]) and _surname(texts[j + 1]) \
                and not _PARTICLE_AFTER.match(text, ends[j + 1]):
            run.append(j + 1)  # "se hun gan"
        s, e = starts[run[0]], ends[run[-1]]
        anchored = len(run) == 3 or any(_spaces(text, fe, s) for fe in range(max(0, s - 3), s) if fe in f_ends) \
            or any(_spaces(text, e, fs) for fs in range(e + 1, e + 4) if fs in f_starts)
        if not anchored and not (_BEFORE.search(text, max(0, s - _WINDOW), s) or _AFTER.match(text, e)):
            continue
        if _DETERMINER.search(text, max(0, s - 8), s) or no_person_at(text, s, e):
            continue
        out += [Tok(starts[k], ends[k], texts[k], texts[k]) for k in run]
    return out


def surname_beside_given(text: str, toks: Sequence[Tok], found: Sequence[tuple[int, int]],
                         places: list[int]) -> list[Tok]:
    """A word of :data:`WORD_SURNAMES` right before a one-syllable or Korean given name found, or right after a
    Korean one (module docstring); ``places``: where the text's words of :func:`syllable_words` that are such
    surnames stand."""
    if not places or not found:
        return []
    texts, starts, ends = texts_of(toks), starts_of(toks), ends_of(toks)
    at_start = {s: e for s, e in found}
    at_end = {e: s for s, e in found}
    out: list[Tok] = []
    for i in places:
        nxt = i + 1 < len(texts) and starts[i + 1] in at_start and at_start[starts[i + 1]] == ends[i + 1] \
            and _spaces(text, ends[i], starts[i + 1]) and _given_shape(texts[i + 1])
        prev = i > 0 and ends[i - 1] in at_end and at_end[ends[i - 1]] == starts[i - 1] \
            and _spaces(text, ends[i - 1], starts[i]) and korean_given_shape(texts[i - 1]) \
            and not _PARTICLE_AFTER.match(text, ends[i])
        if nxt or prev:
            out.append(Tok(starts[i], ends[i], texts[i], texts[i]))
    return out


def _given_shape(key: str) -> bool:
    """A given name found that is Korean (:func:`.name_korean.korean_given_shape`) or one syllable as Chinese and
    Vietnamese names are written (:data:`_ONE_SYLLABLE`: "ming", "bei", "vinh")."""
    return key.islower() and (korean_given_shape(key) or len(key) >= 2 and _ONE_SYLLABLE.fullmatch(key) is not None)
