"""Finding people's names in dialogs, lower-case speech included (de-identification, :mod:`.deid`).

Three sources, each span tagged with the one that found it (the de-identification table counts
them per source):

* ``metadata`` — names the data lists (ACI-Bench's ``patient_firstname`` / ``patient_familyname``
  / ``doctor_name``, a CSV's ``identifiers:`` columns): every occurrence, case-insensitive, whole
  words, in any form the transcript uses — possessive ("roy's"), the parts of a multi-part name
  alone or joined by spaces, hyphens, apostrophes or dots ("o brien" for "O'Brien"), and spelling
  variants that differ by doubled letters or a plural "s" ("philip" for "Phillip", "hill" for
  "Hills");
* ``detector`` — a word of the name gazetteer (:func:`.vocab.first_names`, :func:`.vocab.surnames`)
  that is not a common English or medical word (:func:`.vocab.common_words`) and not in the
  clinical vocabulary (:func:`.vocab.clinical_category`: drugs, conditions, specialties,
  facilities' words, places), nor right before a facility's generic word ("the Mercy clinic");
  a capitalised word inside a sentence counts when it is in the
  gazetteer even if it is also a common word ("... said Hope"); an eponym before "disease",
  "syndrome", "palsy", ... is never a name;
* ``rule`` — a gazetteer word that is also a common word ("will", "mark", "white") counts in a
  naming context: after a title (mr, mrs, ms, miss, dr, doctor), a greeting or thanks ("hi",
  "morning", "thank you", "bye"), or "my name is" / "this is" / "call me" (:mod:`.name_context`).

What the word lists say about a word is :func:`.name_word.word_facts`; the rules for cased prose, lower-case speech
and words that are no name live in :mod:`.name_cased`, :mod:`.name_frequency`, :mod:`.name_slots`,
:mod:`.name_writing` and :mod:`.not_a_name` and the other ``name_*`` modules. The rules of source ``rule`` are an
ordered registry, :data:`.name_rules.RULES` (seventeenth session): :func:`find_names` finds the metadata names, the
detector's words and the naming contexts', runs each entry in its order (each reads what its parameters name,
computed once a text by :class:`_RuleInputs`; the spans found so far included) and drops a capitalised dictionary
headword at the end. **A new rule is one entry** there (:mod:`.name_rules`' docstring says how), not a call here. Where no person stands whatever the word is
:mod:`.name_no_person` (:func:`no_person_at`); what the place rules ask of a word itself is :mod:`.name_slot_kinds`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from bisect import bisect_left
from itertools import compress

from .name_accented import foreign_spelling
from .name_cased import (condition_name_inside, coordinated_with_a_person, inside_prose,
                         non_english_letter, speaker_at_start)
from .name_frequency import webster_proper
from .name_context import context_spans
from .name_korean import aspirated_romanisation
from .name_syllables_apart import syllable_words
from .name_parts_apart import preload_heads
from .name_letters import open_syllables, polynesian_unlisted, polynesian_word
from .name_prep import rare_lines
from .name_rare_slots import HEADWORD_ZIPF
from . import name_rules
from .name_bare_person import BareWords, bare_word_places
from .name_pacific_words import pacific_word_spans, restore_beside
from .name_abroad import named_by_frequency
from .name_given_words import plain_word_name
from .name_guarded_kinds import may_be_kept
from .name_notation import notation_span
from .name_no_person import clinical_word_after, facility_after, no_person_at, not_a_person, sentence_start
from .name_slot_kinds import (rare_common, rare_slot_word, slot_word)
from .name_tokens import WORD, Toks, fold, keys_of, texts_of, tokens, word_before
from .name_tokens import Tok as _Tok
from .name_determiner_persons import PLURAL_BEFORE, owner_of_a_thing, strong_plural, strong_word
from .not_a_name import (clinical_form, person_after_determiner, thing_after_determiner)
from .name_writing import (capital_at_start, misspelt_drug, rare_condition_noun_at_start,
                           written_as_name)
from .vocab import FUNCTION_WORDS as _FUNCTION_WORDS
from .vocab import SPOKEN_WORDS as _SPOKEN_WORDS
from .vocab import clinical_terms, common_words
from .vocab import english_zipf, first_names, surnames, whitelist_words, written_acronym
from .name_word import DETERMINERS as _DETERMINERS, OWNERS as _OWNERS, RELATIVES, WINDOW, after
from .name_word import Word as _Word
from .name_word import word_facts as _word
from .word_known import is_prefix_of_known, known, known_exact, known_sorted, looks_like_a_word
from .word_parts import longest, two_words
from .word_pos import modifier_or_verb_form

__all__ = ["NameSpan", "WORD", "WINDOW", "after", "unknown_word", "no_person_at", "clinical_word_after", "RELATIVES", "find_names", "known_name_spans", "name_variants_key", "detector_candidates",
           "context_spans", "tokens", "fold", "load_word_lists"]

#: Span sources, in the order the de-identification table lists them (``residual``: a word in no list, issue 50).
SOURCES = ("metadata", "detector", "rule", "residual")


@dataclass(frozen=True)
class NameSpan:
    start: int
    end: int
    source: str  # metadata | detector | rule


_TOKEN = re.compile(r"(?<![\w\[])[A-Za-z]+(?:['’][A-Za-z]+)*(?![\w\]])")


def _norm(word: str) -> str:
    """Spelling-variant key: lower case, possessive and plural "s" dropped, doubled letters collapsed."""
    w = word.lower().replace("’", "'")
    if w.endswith("'s"):
        w = w[:-2]
    if len(w) > 3 and w.endswith("s") and not w.endswith("ss"):
        w = w[:-1]
    return re.sub(r"(.)\1+", r"\1", w)


def name_variants_key(name: str) -> str:
    """The key :func:`known_name_spans` compares transcript words with (lower case, doubled letters collapsed)."""
    return _norm(name)


def known_name_spans(text: str, names: Iterable[str]) -> list[NameSpan]:
    """Every occurrence of the listed ``names`` in ``text`` (source ``metadata``)."""
    parts_of: list[list[str]] = []
    for n in names:
        parts = re.findall(r"[A-Za-z]+", str(n or ""))
        if parts:
            parts_of.append(parts)
    if not parts_of:
        return []
    spans: list[NameSpan] = []
    alts = sorted({r"[\s\-'’.]*".join(re.escape(p) for p in parts) for parts in parts_of}, key=len, reverse=True)
    for m in re.finditer(r"(?i)(?<![\w\[])(?:" + "|".join(alts) + r")(?![A-Za-z\]])", text):
        spans.append(NameSpan(m.start(), m.end(), "metadata"))
    keys = {_norm(p) for parts in parts_of for p in parts if len(p) >= 2}
    for m in _TOKEN.finditer(text):
        if _norm(m.group(0)) in keys:
            base = re.sub(r"['’]s$", "", m.group(0))  # "[NAME]'s"
            spans.append(NameSpan(m.start(), m.start() + len(base), "metadata"))
    return sorted(set(spans), key=lambda s: (s.start, s.end))








def detector_candidates(text: str, toks: Sequence[_Tok] | None = None) -> Iterable[tuple[int, int, str, str]]:
    """``(start, end, word, "detector")`` for every gazetteer word of ``text`` the detector takes for a name: not a
    common word (any case), or capitalised inside a sentence; never a clinical-vocabulary word, an eponym before
    "disease", "sign", ..., a word before a facility's generic word, a function or demographic word."""
    unknown: list[_Tok] = []
    found: list[tuple[_Tok, str]] = []
    things: set[str] = set()
    toks_list = tokens(text) if toks is None else toks
    # only the words it may take are read (:func:`_may_take`, once a distinct word): 8,300 of the 1 MB dialog's 174,000
    if isinstance(toks_list, Toks):  # asked once a distinct word as written, whose key is fold(word).lower()
        taken = {w for w in toks_list.distinct if _may_take(w, fold(w).lower())}  # (eleventh session: not once a
        may_take: Iterable[bool] = map(taken.__contains__, toks_list.texts)  # word through the cache, 174,000 asks)
    else:
        may_take = map(_may_take, texts_of(toks_list), keys_of(toks_list))
    for i in compress(range(len(toks_list)), may_take):
        t = toks_list[i]
        w = _word(t.key)
        if i > 0 and toks_list[i - 1].key in PLURAL_BEFORE and not t.capital and strong_plural(t.text, t.key):
            unknown.append(t)  # a strong name's plural after a determiner: "the kowalczyks" (eleventh session)
            continue
        if not w.gazetteer and not t.text.isupper() and (unknown_word(t.key, w) or _unlisted_at_start(text, t, w)
                                                         or _rare_inside(text, t, w) or _polynesian_inside(text, t, w)
                                                         or foreign_spelling(t.text)
                                                         and not (w.clinical or w.function or w.eponym)):  # "Åsa", "Síle"
            if thing_after_determiner(text, toks_list, i) \
                    and not _strong_after_article(text, toks_list, i):  # "the wixela": a thing; not "the kjær way"
                things.add(t.key)
            else:
                unknown.append(t)  # a word no list knows and no misspelling of one: a name ("subhajit", "nomvula")
            continue
        if w.gazetteer and non_english_letter(t.text) and not (w.function or w.demographic or w.eponym):
            unknown.append(t)  # a gazetteer name written with a letter no English word has: "věra" (not "vera")
            continue
        clinical = "condition" if w.everyday else w.clinical  # "South Beach Diet", "Lap Band": as it was
        if not w.gazetteer or w.function or w.demographic or clinical is not None and not (
                clinical == "condition" and (rare_condition_noun_at_start(text, t, sentence_start)  # "Sander drove"
                                               or w.first and not w.eponym and (condition_name_inside(  # "seeing Shin"
                                                   text, t, _DETERMINERS, _FUNCTION_WORDS) or _speaker(text, t)))):
            continue
        if w.rare and not t.capital and any(j >= 0 and _determines(text, toks_list, j, i) for j in (i - 1, i - 2)) \
                and not person_after_determiner(text, t.end, t.key):  # not "a day. muller at ...", "a phoebe who called"
            continue  # a dictionary word rare in English after a determiner ("our patio", "a good cadence"): a thing
        thing = thing_after_determiner(text, toks_list, i) \
            and not _strong_after_article(text, toks_list, i)  # "a venti", "the alfredo sauce"; not "the kowalczyk way"
        if not thing and not (not w.common or (t.capital and not sentence_start(text, t.start))
                              or written_as_name(text, t, sentence_start, _pair_ok) or _speaker(text, t)):
            continue  # neither a thing nor a name: its neighbours are not read (issue 50, Build 3)
        rest = after(text, t.end)
        if clinical_word_after(rest) or facility_after(rest) or not_a_person(text, t):
            continue  # no person here (an eponym's disease, a facility, a place, ...): neither a thing nor a name
        if thing:
            things.add(t.key)  # a thing, in lower case here and elsewhere
        else:
            found.append((t, "detector"))
    for t in unknown:  # source "residual": what the residual check calls a possible name, found in any case
        rest = after(text, t.end)
        if not (clinical_word_after(rest) or facility_after(rest) or not_a_person(text, t)):
            found.append((t, "residual"))
    for t, source in found:  # a lower-case word the dialog writes after an article elsewhere is a thing ("wixela")
        if (t.capital or t.key not in things) and not written_acronym(t.text):
            yield t.start, t.end, t.text, source


def _pair_ok(text: str, start: int, end: int, lower: str | None) -> bool:
    """"Gillian [Thorn] came": a name after a capital at a sentence's start (:func:`.name_writing.capital_pair_at_start`):
    a gazetteer name, no function or demographic word ("Merry Christmas to you"), where a person may stand ("Stevens
    Johnson syndrome"), before a word that is no clinical one rarer than "has" or "was" ("Rocky Mountain spotted
    fever")."""
    w = _word(text[start:end].lower())
    if not w.gazetteer or w.function or w.demographic or no_person_at(text, start, end):
        return False
    return lower is None or _word(lower).clinical is None or english_zipf(lower) >= _CLINICAL_FREQUENT


#: a clinical word English text writes this often is no sign of a clinical phrase after a name ("has", "was")
_CLINICAL_FREQUENT = 5.5


def _strong_after_article(text: str, toks: Sequence[_Tok], i: int) -> bool:
    """A strong name (:func:`.name_determiner_persons.strong_word`), a name after an article too ("the kjær way",
    "the kowalczyk way"), but before a possessive after "a" ("a yankie's fan")."""
    t = toks[i]
    return not t.capital and strong_word(t.text, t.key) and not owner_of_a_thing(text, toks[i - 1].key, t.end)


_CLAUSE_MARK = re.compile(r"[.!?,;:]")
#: a determiner's "'s": "that's", "this's" stand for "that is" (a pronoun, no determiner)
_IS_AFTER = re.compile(r"['’]s\b")


def _determines(text: str, toks: Sequence[_Tok], j: int, i: int) -> bool:
    """``toks[j]``, one or two words before ``toks[i]``, is a determiner of it: no clause mark between, no "'s" of
    "that's" after it ("that's amit ."), no relative's word between ("my friend amit"; twenty-second session)."""
    return toks[j].key in _DETERMINERS and not _CLAUSE_MARK.search(text, toks[j].end, toks[i].start) \
        and not _IS_AFTER.match(text, toks[j].end) and not (j < i - 1 and toks[i - 1].key in RELATIVES)


@lru_cache(maxsize=200_000)
def _may_take(word: str, key: str) -> bool:
    """Whether :func:`detector_candidates` may take a word written ``word`` (``key``: its key) anywhere: False where
    each of its tests passes the word over whatever stands around it (a function word; a common word that is no
    gazetteer name, no rare headword, no word with a letter English lacks; a drug). Decided once a distinct word
    (issue 50, Build 3): the word tests of :func:`detector_candidates`, which must stay in step with it (a test
    added there that takes a word this rejects needs its word's part here; ``tests/test_deid_generalise.py`` compares
    the detector with and without this filter)."""
    if len(key) < 2 or key == "name" or written_acronym(word):  # "HFrEF", "FOLFOX": a clinical acronym
        return False
    w = _word(key)
    if w.gazetteer:  # written with a letter no English word has ("věra"), or no function or demographic word nor a
        # clinical word other than a condition's
        return non_english_letter(word) and not (w.function or w.demographic or w.eponym) \
            or not (w.function or w.demographic) and w.clinical in (None, "condition")
    return not word.isupper() and (unknown_word(key, w) or _unlisted(key, w) or rare_common(key, w)
                                   or polynesian_unlisted(key, w, 3 if word[1:].islower() else 4)
                                   or foreign_spelling(word) and not (w.clinical or w.function or w.eponym))


def _plain_subject(key: str) -> bool:
    """A word of the bare-word scan that :mod:`.name_clause_subject` reads as a clause's subject though no name list
    holds it (:func:`.name_given_words.plain_word_name`, adjectives too: English puts none bare there)."""
    return plain_word_name(key, adjective=True)


def _unlisted(key: str, w: _Word) -> bool:
    """In no list and no drug written wrong: :func:`_unlisted_at_start`'s word test."""
    return not (w.common or w.clinical or w.function or w.demographic or w.eponym) and len(key) >= 3 \
        and key.isalpha() and not misspelt_drug(key)


def _unlisted_at_start(text: str, t: _Tok, w: _Word) -> bool:
    """In no list, capitalised at a sentence's start in cased prose: a name, as inside a sentence, even if it looks
    like words run together or misspelt ("Thembile drove", "Hamisi drove"), but for a drug written wrong."""
    return _unlisted(t.key, w) and capital_at_start(text, t, sentence_start)


def _speaker(text: str, t: _Tok) -> bool:
    """A gazetteer name at a sentence's start before a verb of speech ("Shin says"), or before "and I", "or my son"
    (:func:`.name_cased.coordinated_with_a_person`), no relative's word (:func:`.name_cased.speaker_at_start`)."""
    return t.key not in RELATIVES and t.key not in _SPOKEN_WORDS and (
        speaker_at_start(text, t, sentence_start) or coordinated_with_a_person(text, t, RELATIVES))


def _rare_inside(text: str, t: _Tok, w: _Word) -> bool:
    """Capitalised inside cased prose, a word only as a rare dictionary headword ("ask Birthe to"):
    :func:`.name_cased.inside_prose`, :func:`.name_cased.rare_headword`."""
    return t.capital and rare_common(t.key, w) \
        and (inside_prose(text, t, _DETERMINERS, _FUNCTION_WORDS) or coordinated_with_a_person(text, t, RELATIVES))




def _polynesian_inside(text: str, t: _Tok, w: _Word) -> bool:
    """Capitalised (only its first letter) inside a sentence of cased text, a word as the Polynesian languages write
    one that English seldom writes, even one the lists hold ("Father Peseta", "who's Apia?", "Me, Apia, and the kids";
    issue 50, ninth session; of three letters too, "Did Eti tell you", twenty-eighth session); not after a
    determiner, a possessive or a preposition of place ("the Kimono", "flew to Upolu": a thing or a place)."""
    if not (t.capital and t.text[1:].islower() and polynesian_unlisted(t.key, w, 3)) or sentence_start(text, t.start):
        return False
    return word_before(text, t.start).lower() not in _THING_OR_PLACE_BEFORE


#: before a capitalised word: a thing's or a place's name follows, not a person's ("the Kimono", "flew to Upolu")
_THING_OR_PLACE_BEFORE = _OWNERS | frozenset("to at in into from near on of around through via".split())




def unknown_word(key: str, w: _Word | None = None) -> bool:
    """``key`` (lower case, folded) is in no word list (common, clinical, gazetteer, function words) and does not
    look like a word of them (:func:`looks_like_a_word`): it is taken for a name. ``w``: ``_word(key)``, which the
    answer is cached with (once a word)."""
    return _unknown(key)


@lru_cache(maxsize=200_000)
def _unknown(key: str) -> bool:
    if len(key) < 3 or not key.isalpha() and not re.fullmatch(r"[a-z]+(?:-[a-z]+)+", key):
        return aspirated_romanisation(key)  # "ch'olsu", "ch'oe": McCune-Reischauer (tenth session)
    w = _word(key)
    if w.gazetteer or w.clinical is not None or w.function or w.demographic or w.eponym:
        return False
    if w.common:  # only GCIDE's headword, rare in English, as the Polynesian languages write a word: "apia"
        return _headword_only(key) and polynesian_word(key) and english_zipf(key) < HEADWORD_ZIPF \
            and not re.search(r"(?:[^aeiou]|e)e$", key)  # not "tisane", "legatee": the silent "e" of English
    # "radicularopathy" looks like a word; "pesamino", "timoci" of open syllables only are names (:mod:`.name_letters`)
    return (open_syllables(key) or not looks_like_a_word(key) or _polynesian_misspelling(key)) and not clinical_form(key)


def _polynesian_misspelling(key: str) -> bool:
    """A word of five letters or more written as the Polynesian languages write one (:func:`.name_letters
    .polynesian_word`: open syllables only, no b, c, d, j, q, x, y, z) that :func:`.word_known.looks_like_a_word`
    reads only as one edit away from a word: a Samoan name ("aolele": "allele", "malele"), not an English word
    misspelt, which seldom has that shape (twenty-fifth session); never a word cut short, two words run together or a
    word with an "e" added ("potatoe")."""
    return len(key) >= 5 and polynesian_word(key) and not is_prefix_of_known(key) and not two_words(key, known, ()) \
        and not (key.endswith("e") and known(key[:-1]))  # "potatoe", "tomatoe": an English word with an "e" added


def _headword_only(key: str) -> bool:
    """A common word only as a GCIDE headword: no word of philter-ucsf's whitelist nor a spoken form."""
    return key not in whitelist_words() and key not in _SPOKEN_WORDS







def load_word_lists() -> None:
    """Read every word list the detector uses, once per process (later calls cost nothing; without it the first
    dialog that needs one pays for it)."""
    clinical_terms(), common_words(), first_names(), surnames(), known_sorted(), two_words("xxxx", known, ())
    english_zipf("the"), webster_proper("the"), misspelt_drug("xxxxx")  # the drugs a misspelling is measured against
    longest(known_exact())
    named_by_frequency("smith")  # the other languages' lists (name_bare_places, issue 50, thirteenth session)
    preload_heads()  # the given names' first letters (name_parts_apart, issue 50, sixteenth session)
    modifier_or_verb_form("xxxxx")  # lemminflect's lemma tables (word_pos, issue 50, twenty-fourth session)


def find_names(text: str, names: Sequence[str] = (), *, detector: bool = True,
               toks: Sequence[_Tok] | None = None, pairs: bool = True,
               firsts: Sequence[tuple[int, int]] = ()) -> list[NameSpan]:
    """Name spans of ``text``: the listed ``names`` (metadata) and, with ``detector=True``, the detector's finds
    and the naming contexts' (:func:`context_spans`, source ``rule``; a word both find is credited to the
    detector), then every rule of the registry :data:`.name_rules.RULES` in its order (source ``rule``); a Pacific
    word said as a word (:func:`.name_pacific_words.pacific_word_spans`) is dropped from all of them unless a name
    found stands beside it; overlapping spans are all returned (the caller keeps the longest). ``toks``: ``tokens(text)`` when
    the caller read them already; ``pairs=False``: no rule of ``pairs_only`` (:func:`.name_given_pairs.given_pairs`,
    :func:`.name_cantonese_prefix.prefixed_names`: they read sentences again); ``firsts``: given names found before
    (the rules' input ``found_firsts``)."""
    spans = known_name_spans(text, names)
    if detector:
        toks = tokens(text) if toks is None else toks
        det = [NameSpan(s, e, src) for s, e, _, src in detector_candidates(text, toks)]
        seen = {(d.start, d.end) for d in det}
        named = context_spans(text, toks)  # a title, a self-introduction, a greeting, a relative
        words = pacific_word_spans(text, toks)  # "kava", "whanau", "kia ora": Pacific words said as words
        dropped: list[NameSpan] = []
        order: list[tuple[int, int]] = []
        if words:
            order = sorted(words)
            det, dropped = _apart(text, det, words, order)
        spans += det + [NameSpan(s, e, "rule") for s, e in named if (s, e) not in seen
                                         and not _within(text, s, e, words, order)]
        inputs = _RuleInputs(text, toks, firsts, [(sp.start, sp.end) for sp in spans])
        for rule in name_rules.RULES:
            if rule.pairs_only and not pairs:
                continue
            got = [(t.start, t.end) for t in rule.find(**{r: inputs.read(r) for r in rule.reads})]
            if rule.not_detected:
                got = [se for se in got if se not in seen]
            if rule.person_here:
                got = [(s, e) for s, e in got if not no_person_at(text, s, e)]
            if words:
                kept, out = _apart(text, [NameSpan(s, e, "rule") for s, e in got], words, order)
                dropped += out
                got = [(sp.start, sp.end) for sp in kept]
            spans += [NameSpan(s, e, "rule") for s, e in got]
            inputs.found += got
        if dropped:  # "Sione [Fale]": a word of the vocabulary beside a name found is a name
            back = set(restore_beside(text, [(sp.start, sp.end) for sp in dropped], [(sp.start, sp.end) for sp in spans]))
            spans += [sp for sp in dropped if (sp.start, sp.end) in back]
        spans = [sp for sp in spans if sp.source == "metadata" or not notation_span(text, sp.start, sp.end)]
        if any(_caps_headword(text[sp.start:sp.end]) for sp in spans):  # "the TROY trial"; not "Dr. ERIC"
            named_at = set(named)
            spans = [sp for sp in spans if sp.source == "metadata" or (sp.start, sp.end) in named_at
                     or not _caps_headword(text[sp.start:sp.end])]
    return spans


def _within(text: str, start: int, end: int, words: set[tuple[int, int]], order: list[tuple[int, int]]) -> bool:
    """Every word of ``text[start:end]`` is one of ``words`` (:func:`.name_pacific_words.pacific_word_spans`;
    ``order``: the same, sorted: a span reads only the words inside it, not all of them)."""
    if (start, end) in words:
        return True
    pos, k = start, bisect_left(order, (start, -1))
    if k == len(order) or order[k][0] != start:
        return False
    while k < len(order) and order[k][1] <= end:
        s, e = order[k]
        if any(ch.isalnum() for ch in text[pos:s]):
            return False
        pos, k = e, k + 1
    return pos > start and not any(ch.isalnum() for ch in text[pos:end])


def _apart(text: str, spans: list[NameSpan], words: set[tuple[int, int]],
           order: list[tuple[int, int]]) -> tuple[list[NameSpan], list[NameSpan]]:
    """``spans`` split into those kept and those that are Pacific words said as words (``words``, sorted ``order``)."""
    kept: list[NameSpan] = []
    dropped: list[NameSpan] = []
    for sp in spans:
        (dropped if _within(text, sp.start, sp.end, words, order) else kept).append(sp)
    return kept, dropped


def _again(text: str) -> list[tuple[int, int]]:
    """The rules' input ``again``: :func:`find_names` of another text without the rules that read sentences again."""
    return [(sp.start, sp.end) for sp in find_names(text, pairs=False)]


class _RuleInputs:
    """What the name rules read (:data:`.name_rules.INPUTS`), each computed once a text when first read; ``found``:
    the spans found so far, which :func:`find_names` extends after each rule."""

    def __init__(self, text: str, toks: Sequence[_Tok], firsts: Sequence[tuple[int, int]],
                 found: list[tuple[int, int]]) -> None:
        self.text, self.toks, self.firsts, self.found = text, toks, firsts, found
        self._bare: BareWords | None = None
        self._rare: tuple[list[tuple[int, int]], frozenset[str]] | None = None

    def read(self, name: str) -> object:
        if name == "text":
            return self.text
        if name == "toks":
            return self.toks
        if name == "no_person_at":
            return no_person_at
        if name == "found":
            return list(self.found)
        if name == "found_firsts":
            return self.found + list(self.firsts)
        if name == "again":
            return _again
        if name == "bare":
            if self._bare is None:  # the bare-word places, one scan
                self._bare = bare_word_places(self.toks, slot_word, may_be_kept, syllable_words, _plain_subject)
            return self._bare
        if name not in ("lines", "rare"):
            raise KeyError(f"no name rule input {name!r} (name_rules.INPUTS: {sorted(name_rules.INPUTS)})")
        if self._rare is None:  # the lines with a rare word (the rules of "lines" and "rare" read only them)
            self._rare = rare_lines(self.text, self.toks, rare_slot_word)
        return self._rare[0] if name == "lines" else self._rare[1]


def _caps_headword(word: str) -> bool:
    """A given name only a dictionary's headword calls a word (``Word.headword``), written in capitals: an acronym
    ("the TROY trial", "searched ERIC"; twelfth session)."""
    return len(word) > 1 and word.isupper() and _word(word.lower()).headword
