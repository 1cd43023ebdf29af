"""A given name or surname that is the name of a country, a US state or a region, where a place cannot stand (issue
50, sixteenth session: ``benchmarks/deid_dev36.py``).

The clinical lists file the names of countries, US states, regions and languages as places
(:data:`.vocab.PLACE_WORDS`, category ``place``), and every rule reads a word of a clinical category as no name. So a
person called Georgia, India, Jordan, Israel, Kenya, Chad or Montana, or surnamed England, Wales, Holland, York or
Washington, was lost in lower case and in cased text alike wherever no title, relative or greeting stood before the
name ("georgia came with me today", "i talked to georgia yesterday", "me and york went to the shop"). A place stands
after "in", "from", "to", "at" ("we moved from georgia", "she lives in jordan"), as a clause's subject before what a
place is or has ("egypt was amazing", "maine gets so cold"), before a noun ("a georgia peach", "holland park"), and a
country as a team or a government before what teams and governments do ("england lost again", "ireland beat
france", "washington approved the funding"). None of these is a place of this module; in lower case such a word is a
name only where a place cannot stand:

* :func:`.name_guarded_words.only_person`'s places: "it was X who", the bare subject before says / told / rang /
  thinks / knows, "tell X i said", "ask X to", "let X know", "we'll call X later", "X and her husband", the one
  addressed ("thanks for waiting , X ."), "X came with me", "i talked to X yesterday", "give this to X"; before says
  / told / thinks only when a person, a clause or a greeting follows (:data:`.name_guarded_words.SAYS_WHAT`: "X says
  hi", not "washington says the budget is");
* :func:`.name_everyday_places.everyday_place_at`'s places: the bare subject before what only a person does
  ("X was worried sick", "X popped round", "X took me to", "X would know"), known or seen ("do you know X from"),
  "without X , honestly", "everyone except X had", "both X and her son", an apposition after a role ("my carer , X
  ,"), a possessive before a relative or what a person has at a clause's start ("X's boyfriend", "X's car"), a
  label, "X here , calling";
* **"me and X"** at a clause's start, **"X and i"** at a clause's start and **"X and me"** before a verb ("me and X
  walk the dog", "X and i share the house", "X and me went"): English puts no place beside the speaker there;
* **a clause's bare subject before what no place, team or government does** (cry, laugh, hug, fetch, cook, forget,
  faint, nag, want the speaker to: "X cried when she heard", "X wanted me to ask"; not "england wanted a win");
* **a person's name said**: "my sister is called X", "she's called X", "her name is X";
* **beside another name** (:func:`place_beside_names`, read after the other rules): a place word that is a given name
  right before a gazetteer surname, or a surname right after a given name, where the other word is found by another
  rule, is a gazetteer name no list calls a common word, or is a place word of the other kind ("georgia walsh",
  "sarah wales", "chad holland"; not "holland park", "india pale ale", "a georgia peach", "york ham", nor after a
  preposition of place: "to york england", "to columbus georgia").

The word: lower case, a gazetteer given name or surname whose clinical category is a place (:func:`may_be_place`),
no function, demographic, relative's or spoken word, no word of address; never where the detector says no person
stands ("new york", "north carolina", "dallas , georgia"). Words first: the words are read in
:func:`.name_bare_person.bare_word_places`' one scan (with :mod:`.name_guarded_words`' words,
:func:`.name_guarded_kinds.may_be_kept`), and at each place the words right around it first. Used by
:mod:`.name_detect` (source ``rule``)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import lru_cache
from itertools import compress

from .name_bare_person import BareWords, plain_word
from .name_bare_places import bare_place_at
from .name_everyday_places import everyday_place_at
from .name_guarded_words import SAYS_WHAT, only_person, words_placed
from .name_person_only import clause_start
from .name_pronoun_pairs import AND, ME_AND, verbs
from .name_tokens import WORD_END, Tok, distinct_texts, ends_of, starts_of, texts_of
from .name_word import word_facts
from .vocab import RELATIVES, first_names, surnames

__all__ = ["may_be_place", "place_beside_names", "place_word_names"]

#: "me and X" at a clause's start
_ME_AND = re.compile(r"(?:^|[\n,.!?:;]|(?<![\w'’\-])(?:and|but|so|then|yeah|well|oh|because|cos))[ \t]*" + ME_AND + "$")
#: "X and i" (at a clause's start), "X and me" before a verb: the shared pair verbs and this rule's own, the modals
#: ("X and me will", "can", "could") and "share", "walk", "used", "go", "are", "got"
_AND_I = re.compile(AND + r"(?:i" + WORD_END + r"|me[ \t]+" + verbs("go", "are", "got", "used", "will", "would", "can",
                    "could", "walk", "walked", "share", "shared") + WORD_END + ")")
#: the words right after a word that open one of this module's own places
_AND = frozenset({"and"})
#: what a country or a government says, tells, thinks or knows ("washington says the budget is", "england knows
#: how"): read only before a person, a clause or a greeting (:data:`.name_guarded_words.SAYS_WHAT`)
_VOICED = frozenset("says said tells told thinks knows knew reckons reckoned insisted promised explained".split())
#: the prepositions before a place ("back from georgia", "news from india", "talking about wales")
_PLACE_PREPS = frozenset({"from", "about"})
#: the words before a place: two words side by side after them are a town and its state or country ("to york
#: england", "to columbus georgia")
_TO_A_PLACE = frozenset("""in from to at near around across into through via visit visited visiting
    outside""".split())
#: a person's name said: "my sister is called X", "she's called X", "her name is X"
_CALLED = re.compile(r"(?<![\w'’\-])(?:(?:she|he|who)[ \t]*(?:['’][ \t]*s|is|was)[ \t]+(?:called|named)|(?:my|her|his|our|"
                     r"their|your)[ \t]+(?:" + "|".join(sorted(RELATIVES, key=len, reverse=True)) + r")[ \t]+(?:is|was|"
                     r"['’][ \t]*s)[ \t]+(?:called|named)|(?:her|his)[ \t]+name[ \t]*(?:is|was|['’][ \t]*s))[ \t]+$")
_END = re.compile(r"[ \t]*(?:[.!?,;]|\n|$)")
#: what no place, team or government does, right after a clause's bare subject: cry, laugh, hug, fetch, cook, forget,
#: faint, nag, want the speaker to ("X cried when she heard", "X fetched my glasses", "X wanted me to ask"; not
#: "england wanted a win", "egypt gave me a bug")
_ONLY_A_PERSON = re.compile(r"[ \t]+(?:(?:just|then|also|always|never|even|actually)[ \t]+)?(?:cried|laughed|smiled|"
                            r"hugged|kissed|fetched|cooked|forgot|fainted|panicked|nagged|(?:keeps|kept)[ \t]+nagging|"
                            r"(?:wanted|wants)[ \t]+(?:me|us)[ \t]+to)(?![\w'’\-])")


@lru_cache(maxsize=20_000)
def may_be_place(word: str) -> bool:
    """``word`` may be a name of this module: :func:`.name_bare_person.plain_word` (three lower-case letters or more,
    no relative's, spoken word, word of address, modal, day or month), a gazetteer given name or surname whose only
    clinical category is a place (:data:`.vocab.PLACE_WORDS`), no function or demographic word, no eponym."""
    if not plain_word(word):
        return False
    w = word_facts(word)
    return w.gazetteer and w.clinical == "place" and not (w.function or w.demographic or w.eponym)


def place_word_names(text: str, toks: Sequence[Tok], bare: BareWords,
                     nobody: Callable[[str, int, int], bool]) -> list[Tok]:
    """The lower-case names of places that stand where a place cannot (the module's docstring). ``toks``: the text's
    words; ``bare``: :func:`.name_bare_person.bare_word_places` read with ``guarded``
    :func:`.name_guarded_kinds.may_be_kept` (which takes :func:`may_be_place`'s words); ``nobody(text, start, end)``:
    the detector says no person stands there."""
    words = {w for w in bare.guarded if may_be_place(w)}
    return words_placed(text, toks, bare, words, _person_place, nobody)


def _person_place(text: str, texts: list[str], starts: list[int], ends: list[int], i: int) -> bool:
    """Word ``i`` stands where a place cannot (the module's docstring); the words right around it first."""
    nxt = texts[i + 1] if i + 1 < len(texts) else ""
    prev = texts[i - 1] if i else ""
    if nxt in _VOICED and SAYS_WHAT.match(text, ends[i + 1]) is None:
        return False  # "washington says the budget ...", "england thinks otherwise"
    if only_person(text, texts, starts, ends, i) or everyday_place_at(text, texts, starts, ends, i):
        return True
    if prev not in _PLACE_PREPS and bare_place_at(text, texts, starts, ends, i):
        return True  # "i came in with X .", "who ? oh , X .", "get X to ring"; not "back from X"
    if _ONLY_A_PERSON.match(text, ends[i]) is not None and clause_start(text, texts, starts, ends, i):
        return True
    if prev in ("called", "named", "is", "s", "was") and _END.match(text, ends[i]) is not None:
        return _CALLED.search(text, max(0, starts[i] - 40), starts[i]) is not None
    if i >= 2 and texts[i - 1] == "and" and texts[i - 2] == "me":
        return _ME_AND.search(text, max(0, starts[i] - 24), starts[i]) is not None
    return nxt in _AND and _AND_I.match(text, ends[i]) is not None and clause_start(text, texts, starts, ends, i)


def place_beside_names(text: str, toks: Sequence[Tok], found: Sequence[tuple[int, int]],
                       nobody: Callable[[str, int, int], bool]) -> list[Tok]:
    """The names of places that stand right beside another name, as a full name's given name or surname (the
    module's docstring): a place word that is a given name right before a surname, or a surname right after a given
    name, the other word found by another rule, a gazetteer name no list calls a common word ("georgia walsh",
    "sarah wales"), or a place word of the other kind itself ("chad holland"); never after a preposition of place
    ("we went to york england", "down to columbus georgia"); both words are returned. Not "holland
    park", "india pale ale", "a georgia peach", "york ham": the other word is a common word no rule found there."""
    placed = {w for w in distinct_texts(toks) if w.islower() and may_be_place(w)}
    if not placed:
        return []
    texts, starts, ends = texts_of(toks), starts_of(toks), ends_of(toks)
    spans = set(found)
    first, sur = first_names(), surnames()
    out: list[Tok] = []
    # only the pairs with a place word in them (a set look-up a word, no step in Python for the others)
    at = compress(range(len(texts)), map(placed.__contains__, texts))
    for i in sorted({k for j in at for k in (j - 1, j) if 0 <= k < len(texts) - 1}):
        a, b = texts[i], texts[i + 1]
        pa, pb = a in placed, b in placed
        if not (pa or pb) or text[ends[i]:starts[i + 1]] != " " or a not in first or b not in sur:
            continue
        if i and texts[i - 1] in _TO_A_PLACE:
            continue  # "we went to york england", "down to columbus georgia": a town and its state or country
        if pa and pb or pa and _beside(b, (starts[i + 1], ends[i + 1]) in spans) \
                or pb and _beside(a, (starts[i], ends[i]) in spans):
            if nobody(text, starts[i], ends[i + 1]):
                continue
            out += [Tok(starts[k], ends[k], texts[k], texts[k]) for k in (i, i + 1)
                    if (starts[k], ends[k]) not in spans]
    return out


def _beside(word: str, found: bool) -> bool:
    """``word`` (lower case), beside a place word, makes it a full name: found by another rule, or a gazetteer name no
    list calls a common word, no clinical, function or demographic word."""
    if found:
        return True
    if not plain_word(word):
        return False
    w = word_facts(word)
    return w.gazetteer and not w.common and w.clinical is None and not (w.function or w.demographic or w.eponym)
