"""Pacific words said as words (issue 50, seventeenth session): a small, documented vocabulary of the Māori, Samoan,
Tongan, Cook Islands, Fijian and Hawaiian words that New Zealand, Australian and Pacific English speak in a clinic —
food ("kava", "taro", "kumara", "palusami"), kin ("whanau", "aiga", "kainga"), greetings ("kia ora", "talofa",
"malo e lelei", "bula", "faafetai"), places and things ("marae", "fale", "lavalava", "tangi", "fono"), and "grandad",
a kin word the lists lack — and the places where such a word is a thing, not a person.

On main 3f9b790 the detector took most of them as names (``benchmarks/deid_dev43.py``: 261 words of 492 sentences
replaced; "kava", "taro", "sago", "marae": the detector's lists, a given name or a rare word; "whanau", "kumara",
"mahalo", "talofa": the residual, a word no list holds; "ora", "lava", "poi", "fritters": the rules that take a word
beside a name found, ``capital_neighbours``, ``surnames_beside``; "kumara hangi", "tino rangatiratanga":
``polynesian_pairs``). A Samoan or Māori patient's dialog lost its own words; an English speaker's did not.

:func:`pacific_word_spans` says which of a text's words are so used, judged by the word and its place, never by any
set's names:

* :data:`PACIFIC_WORDS` — words that are not persons' names: a word of this list is a word wherever it stands,
  unless a title or a person's word stands before it ("aunty", "Mrs") or a name found stands beside it (:func:`
  restore_beside`: "Sione [Fale]" stays a name);
* :data:`NAME_LIKE` — words that are also given names or surnames ("aroha", "mana", "moana", "kai", "tangi", "taro",
  "fono", "tapu"): a word only in a thing's place — after "some / the / a / eat / ate / drink", before a thing's word
  ("taro chips", "kava tea"), before or after a word of :data:`PACIFIC_WORDS` ("taro poi"; not another name-like
  word nor a word of a phrase only: "fono lava", "moana tapu" may be a full name), or a
  greeting at a sentence's start before a comma, "doctor" or the sentence's end ("Bula, doctor", "Faafetai, doctor":
  "faafetai" and Tongan "fakafetai", thank you, are Samoan and Tongan given names too; a word wherever it stood until
  the twenty-ninth session, so "my son faafetai is here" and "Faafetai came with me" kept the name);
* :data:`PHRASES` — greetings and sayings of two or more words ("kia ora", "tena koe", "malo e lelei", "kai moana",
  "tino rangatiratanga"): words wherever they stand.

No name of a development set is a word of the vocabulary (``tests/test_name_pacific_words.py``, counts only).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .name_no_person import sentence_start
from .name_tokens import Tok

__all__ = ["NAME_LIKE", "PACIFIC_WORDS", "PHRASES", "pacific_word_spans", "restore_beside"]

#: Pacific words that are not persons' names (keys: lower case, diacritics folded)
PACIFIC_WORDS = frozenset("""
    kava yaqona kumara kumala umala sago poi puha paua pipi kina tuatua kaimoana hangi umu lovo palusami luau 
    kokoda rourou panipopo sapasui pisupo faikakai rewena paraoa kamokamo kawakawa harakeke rongoa laulau
    haupia dalo tavioka
    whanau kainga hapu iwi tamariki mokopuna tupuna tipuna kuia kaumatua koroua whaea palagi papalagi
    tangata wahine fanau ohana keiki kupuna mataqali grandad
    marae wharenui urupa koha tangihanga karakia waiata haka powhiri hongi whakapapa tikanga kaupapa taonga
    siapo ngatu lavalava puletasi tupenu taovala kiekie pareu pareo bure lali sevusevu talanoa meke
    tivaevae kokua akamai wikiwiki haole pupu lanai puku mamae tutae aue hauora whenua
    talofa mahalo vinaka vakalevu kerekere moce meitaki fakaalofa tenei koutou korua kaha
""".split())

#: Pacific words that are also persons' names: a word only in a thing's place or a greeting's
NAME_LIKE = frozenset("""
    aroha mana moana kai tangi hui taro kava fono fale matai tapu tabua mauri tane wairua alofa ofa aloha bula malo
    mimi pepe marama aiga sulu fiafia kalo whare manuka pakeha faafetai fakafetai
""".split()) - PACIFIC_WORDS

#: greetings and sayings of two or more words: words wherever they stand
PHRASES: tuple[tuple[str, ...], ...] = tuple(tuple(p.split()) for p in (
    "kia ora", "kia orana", "kia kaha", "kia ora koe", "tena koe", "tena koutou", "tena korua", "talofa lava",
    "malo e lelei", "malo lelei", "malo aupito", "bula vinaka", "ni sa bula", "vinaka vakalevu", "mahalo nui loa",
    "mahalo nui", "aroha nui", "arohanui", "ka pai", "kei te pai", "kai moana", "tino rangatiratanga", "haere mai",
    "ka kite ano", "ka kite", "mauri ora", "ie toga", "ie lavalava", "fakaalofa lahi atu", "kava kava", "noho ora mai",
    "aloha nui", "aloha kakahiaka", "ofa atu", "alofa atu", "manuia le aso", "faafetai lava", "faafetai tele lava",
    "faafetai tele", "meitaki maata",
))

_PHRASE_WORDS = frozenset(w for p in PHRASES for w in p)
VOCAB = PACIFIC_WORDS | NAME_LIKE | _PHRASE_WORDS

#: a person's word or a title before a word makes it a name ("aunty [Fale]", "Mrs [Tapu]")
_PERSON_BEFORE = frozenset("""
    mr mrs ms miss dr doctor nurse aunty auntie aunt uncle pastor reverend rev father sister brother cousin nana nan
    papa mama called named
""".split())
#: the words before which a word of the vocabulary is a thing
_THING_BEFORE = frozenset("""
    some the a an eat eats ate eating drink drinks drank drinking more any our cook cooked cooking
""".split())
#: a thing's word after a word of the vocabulary ("kava tea", "taro chips")
_THING_AFTER = frozenset("""
    tea pudding fritters honey chips soup leaves leaf root roots bowl ceremony party drink drinks session circle
    night gel cream bread pie cake salad curry stew paste powder juice oil balm plant tree bush pills capsules
""".split())
#: after "the X", a person's group: "the [Fono] family"
_PERSONS_AFTER = frozenset({"family", "families", "household", "boys", "girls", "kids", "twins", "brothers", "sisters",
                            "clan", "lot", "family's"})
_GREETING_END = re.compile(r"\s*(?:,|!|\.|\?|$|doctor\b|doc\b|nurse\b|everyone\b)", re.IGNORECASE)
_GREETINGS = frozenset({"aloha", "bula", "malo", "talofa", "mahalo", "fakaalofa", "meitaki", "vinaka", "faafetai",
                        "fakafetai"})


def _phrase_at(keys: Sequence[str], i: int) -> int:
    """The length of the longest phrase of :data:`PHRASES` starting at word ``i`` (0: none)."""
    best = 0
    for p in PHRASES:
        if len(p) > best and tuple(keys[i:i + len(p)]) == p:
            best = len(p)
    return best


def _between(text: str, a: Tok, b: Tok) -> bool:
    """``a`` and ``b`` stand side by side: only spaces (or a hyphen) between them."""
    return text[a.end:b.start].strip(" -") == ""


def pacific_word_spans(text: str, toks: Sequence[Tok]) -> set[tuple[int, int]]:
    """The spans ``(start, end)`` of ``text``'s words (``toks``) that are Pacific words said as words (the module's
    docstring); empty, and cheap, for a text without a word of the vocabulary."""
    keys = getattr(toks, "keys", None) or [t.key for t in toks]
    if VOCAB.isdisjoint(keys):
        return set()
    out: set[tuple[int, int]] = set()
    n = len(toks)
    for i in range(n):
        key = keys[i]
        if key not in VOCAB:
            continue
        t = toks[i]
        prev = toks[i - 1] if i and _between(text, toks[i - 1], t) else None
        nxt = toks[i + 1] if i + 1 < n and _between(text, t, toks[i + 1]) else None
        if prev is not None and prev.key in _PERSON_BEFORE:
            continue
        length = _phrase_at(keys, i)
        if length:
            for j in range(i, i + length):
                out.add((toks[j].start, toks[j].end))
            continue
        if key in PACIFIC_WORDS:
            out.add((t.start, t.end))
            continue
        if key not in NAME_LIKE:
            continue
        if nxt is not None and nxt.key in _PERSONS_AFTER:
            continue
        thing = (prev is not None and (prev.key in _THING_BEFORE or prev.key in PACIFIC_WORDS)
                 or nxt is not None and (nxt.key in _THING_AFTER or nxt.key in PACIFIC_WORDS))
        greeting = key in _GREETINGS and sentence_start(text, t.start) and _GREETING_END.match(text, t.end)
        if thing or greeting:
            out.add((t.start, t.end))
    return out


def restore_beside(text: str, dropped: Sequence[tuple[int, int]],
                   kept: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """Of the spans ``dropped`` as Pacific words, those a kept name span stands beside (one space between): "Sione
    [Fale]", "[Tapu] Fifita" are names."""
    starts = {s for s, _ in kept}
    ends = {e for _, e in kept}
    return [(s, e) for s, e in dropped
            if (s - 1 in ends and text[s - 1:s] == " ") or (e + 1 in starts and text[e:e + 1] == " ")]
