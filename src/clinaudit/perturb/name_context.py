"""Names found by how they are used (source ``rule`` of :mod:`.name_detect`): after a title ("Dr. José García",
"doctor white"), in a self-introduction ("my name is john smith", "call me Fadipe"), in a greeting or sign-off
addressed to a person ("thank you, Fang."), after a relative ("my husband X"), as a dictated note's subject ("so
john is a 61-year-old male"), and then in the same word's other mentions."""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import compress

from .deid_rules import case_sensitive, lines_holding, lower_view, scan_lines
from .name_tokens import Tok as _Tok
from .name_tokens import key_indices, keys_of, tokens, word_before
from .name_neighbour_words import lower_foreign_word, open_surname
from .name_word import DETERMINERS as _DETERMINERS
from .name_word import RELATIVES, after
from .name_word import SEP_COMMA as _SEP_COMMA
from .name_word import SEP_PERIOD as _SEP_PERIOD
from .name_word import SEP_SPACE as _SEP_SPACE
from .name_word import blocked as _blocked
from .name_word import sep as _sep
from .name_word import Word, address_word_name
from .name_word import word_facts as _word
from .name_cased import rare_headword
from .name_rare_slots import HEADWORD_ZIPF
from .name_clause_subject import PERSON_VERBS
from .name_frames import VERBS_AFTER_A_PERSON, frame_at, is_cased
from .vocab import POSSESSIVES, english_zipf

__all__ = ["context_spans"]

#: titles written as abbreviations ("Dr.", "mrs .", "Mx") and in full ("Doctor", "mister", "Miss")
_TITLE_ABBR = frozenset("mr mrs ms mx dr prof messrs".split())
_TITLE_FULL = frozenset("doctor professor mister missus miss madam madame".split())
#: what opens a greeting or sign-off addressed to a person ("hi X", "good morning X", "thank you, X")
_GREETINGS = frozenset("hi hello hey morning afternoon evening night thanks bye goodbye welcome congratulations "
                       "congrats dear cheers".split())
_YOU_AFTER = frozenset("thank meet".split())  # "thank you X", "nice to meet you X"
#: words that make "name is" a thing's name ("the brand name is"; a possessive before a relative: vocab.POSSESSIVES)
_THING_NAME = frozenset("""another other brand generic medical scientific technical fancy common street trade drug
    medicine medication product pill tablet""".split())
#: the kinds of a person's name before "name" and the name itself, a form read out ("first name kettlie", "last name,
#: jolibois"): a weak context, a word in no list (issue 50, tenth session)
_NAME_KINDS = frozenset("first last middle maiden given family married".split())
#: a person before "named" or "called", whose name follows ("a friend named dean", "a nurse called rose", "my son
#: called mark": either sense names a person; issue 50, twenty-fifth session)
_NAMED_PERSONS = RELATIVES | frozenset("""friend friends guy guys man men woman women lady ladies girl girls boy boys bloke
    fellow chap kid kids child someone somebody person people doctor doctors nurse nurses neighbour neighbor colleague
    coworker gentleman student students therapist surgeon specialist patient physician midwife pharmacist carer
    caregiver dude lad lass receptionist consultant registrar resident intern physio paramedic counsellor counselor
    psychiatrist psychologist dentist vet teacher pastor priest chaplain worker""".split())
#: what "my name is" says of a name, no name ("my name is spelled wrong": issue 50, thirteenth session, dev21; "my
#: name was called twice", twenty-ninth session)
_NAME_IS_WORDS = frozenset("""spelled spelt misspelled written listed printed called changed given mentioned added
    removed taken missed read announced entered recorded""".split())
_CLAUSE_END = re.compile(r"[ \t]*(?:[.,!?;:)]|\n|$)")


def _clause_end_after(text: str, t: _Tok) -> bool:
    """``t`` ends its clause (a possessive "'s" may follow)."""
    rest = after(text, t.end)
    rest = rest[2:] if rest[:2] in ("'s", "’s") else rest
    return bool(_CLAUSE_END.match(rest))


def _first_ok(text: str, t: _Tok, strength: str) -> bool:
    """Whether ``t`` is a name in a naming context of ``strength``: ``strong`` / ``intro`` (after "Dr.", "Mrs." /
    "my name is": any word that is not a function word, a drug, a specialty or an eponym; after "Dr.", "Mrs." also
    "young" in lower case before no person's noun, :func:`.name_neighbour_words.open_surname`), ``vocative`` (after
    a greeting or thanks: also a common word that ends its clause, "thank you, Fang."), ``title`` (after "doctor",
    "miss": as ``medium``, and a demographic word, "doctor white", and "young" but after "miss"), ``medium`` (after a
    relative: a word that is not a common word, a gazetteer name, or a capitalised word), ``weak`` (after "I'm",
    "this is": not a common word), ``kind`` (after "first name", "last name": as ``weak``, and a common word that ends
    its clause, "last name [NAME] , first name ana ."); in lower case, after a greeting, "named" or a relative, also
    a word English writes seldom and no lexicon reads (:func:`.name_neighbour_words.lower_foreign_word`)."""
    if len(t.key) < 2 or t.key == "name" or strength == "intro" and t.key in _NAME_IS_WORDS:
        return False
    w = _word(t.key)
    # "Dr. Graves", "Mrs. Park", "Mr. White": an eponym, a condition word too; capitalised after a title, a word of
    # address or feeling the gazetteer holds ("Mrs. Love", "Mr. Happy"; not "Dr. Then": .name_word.address_word_name)
    if strength in ("strong", "intro"):
        # "my name is young ." read out: "young" ending its clause (twenty-ninth session)
        return not (w.function and not (strength == "strong" and (t.capital and address_word_name(t.key, w)
                                                                   or open_surname(text, t))
                                        or strength == "intro" and open_surname(text, t)
                                        and _clause_end_after(text, t))
                    or w.clinical == "specialty")  # a drug list holds names too ("hana")
    if _blocked(w) and not (strength == "title" and (w.demographic and not w.function or open_surname(text, t)
                                                      and word_before(text, t.start).lower() != "miss")):
        return False  # "doctor white", "mister young"; not "i miss young people"
    if w.clinical is not None and not w.gazetteer:  # a condition, facility or place word that is no name
        return False
    if strength == "weak":
        return not w.common
    if strength == "kind":  # "first name ana ." read out: a common word too where it ends its clause (27th session)
        return not w.common or _clause_end_after(text, t)
    if strength == "gazetteer":
        return w.gazetteer
    if not w.common or t.capital or (w.gazetteer and strength == "title"):
        return True
    if strength == "medium" and w.first:  # a relative is named by a given name ("my daughter harry drove me")
        return True
    if strength in ("vocative", "title", "medium") and t.text.islower() and lower_foreign_word(t.key, w):
        return True  # a word English writes seldom and no lexicon reads: "thanks , ese ." (twenty-seventh session)
    if strength == "vocative" and _rare_headword(t.key, w):  # "hey birthe how are you" (eighth session)
        return True
    # a gazetteer name that is also a common word ("hope", "park", "made"): only addressed or set off, where it
    # ends its clause ("thank you, hope .", "my husband, Park."; not "my wife made me", "my mom fell."); in cased
    # prose written capitalised (twenty-first session: not "Harriet Brown, my friend, came.")
    return strength == "vocative" and w.gazetteer and _clause_end_after(text, t) and (t.capital or not is_cased(text))


def _rare_headword(key: str, w: Word) -> bool:
    """A common word only as a rare dictionary headword (:func:`.name_cased.rare_headword`), no function,
    demographic, relative's word or eponym, and a gazetteer name or rarer in English than
    :data:`.name_rare_slots.HEADWORD_ZIPF` ("birthe", "thais"; issue 50, eighth session: real greetings, "hey birthe
    how are you today", "hi thais what brings you in")."""
    return w.common and not (w.function or w.demographic or w.eponym) and key not in RELATIVES \
        and rare_headword(key) and (w.gazetteer or english_zipf(key) < HEADWORD_ZIPF)


#: a verb a person does right after their name (lower case): never a further word of the name, though the surname
#: gazetteer holds "came", "went", "rang", "brought", "said", "made", "met" (fifteenth session)
_VERB_AFTER = VERBS_AFTER_A_PERSON | PERSON_VERBS | frozenset("went goes got ran sat stood felt made paid met heard fell".split())


def _next_ok(text: str, prev: _Tok, t: _Tok, strength: str) -> bool:
    """A further word of the name ("Dr. José García", "my name is john smith"): a word that is not a common word, a
    surname of the gazetteer (in a strong context, or ending its clause), or capitalised after a capitalised name;
    only spaces between them."""
    if not _SEP_SPACE.fullmatch(_sep(text, prev, t)) or len(t.key) < 2 or not t.capital and t.key in _VERB_AFTER:
        return False  # "mrs okafor came .", "dr. lee rang": the verb after the name, which gazetteers list as a surname
    w = _word(t.key)
    if _blocked(w) or (w.clinical is not None and not w.gazetteer):
        return False
    if not w.common:
        return True
    if t.capital and prev.capital:
        return True
    if prev.capital and not t.capital:  # cased: a lower-case word ends a capitalised name ("John Smith came.")
        return False
    if strength == "intro":  # "my name is john smith", "my name is [NAME] groß .", "... al-farsi ."
        return w.gazetteer or _clause_end_after(text, t)
    if strength == "strong":  # "Dr. José García"; not "Dr. Lee agrees."
        return w.gazetteer or ("-" in t.key and _clause_end_after(text, t))
    return w.gazetteer and _clause_end_after(text, t)


def _context(text: str, toks: Sequence[_Tok], i: int) -> str | None:
    """The naming context right before ``toks[i]``: ``strong``, ``intro``, ``title``, ``gazetteer``, ``vocative``,
    ``medium``, ``weak``, ``kind`` or None."""
    if i == 0 or toks[i - 1].key not in _CONTEXT_WORDS:
        return None
    p = toks[i - 1]
    sep = _sep(text, p, toks[i])
    k = p.key
    if k in _TITLE_ABBR and _SEP_PERIOD.fullmatch(sep):
        # without a dot, "ms" is also multiple sclerosis ("ms flare") and "mr" magnetic resonance ("mr arthrogram"):
        # only a gazetteer name follows then
        return "gazetteer" if k in ("ms", "mr") and "." not in sep and not toks[i].capital else "strong"
    if k in _TITLE_FULL and _SEP_SPACE.fullmatch(sep):
        # "any other Doctor mention", "the doctor said": a determiner makes "doctor" a noun, not a title
        return None if i >= 2 and toks[i - 2].key in _DETERMINERS else "title"
    if k in ("named", "called"):  # "a friend named dean", "a nurse called rose" (either sense: a person)
        return "title" if _SEP_SPACE.fullmatch(sep) and i >= 2 and toks[i - 2].key in _NAMED_PERSONS \
            and _SEP_SPACE.fullmatch(_sep(text, toks[i - 2], p)) else None
    if not _SEP_COMMA.fullmatch(sep):
        return None
    if k in _GREETINGS or (k == "you" and i >= 2 and toks[i - 2].key in _YOU_AFTER):
        return "vocative"
    if i >= 2 and _SEP_SPACE.fullmatch(_sep(text, toks[i - 2], p)):
        k2 = toks[i - 2].key
        # not a thing's name: "another name is farmer's lung", "the brand name is"
        if k in ("is", "was") and k2 == "name":
            return None if i >= 3 and toks[i - 3].key in _THING_NAME else "intro"
        if k == "me" and k2 == "call":  # "call me Fadipe"; not "call me immediately"
            return "medium"
        if k in RELATIVES and k2 in POSSESSIVES:  # "my sister, Park," may end its clause; "my mom fell." not
            return "vocative" if "," in sep else "medium"
        if k == "is" and k2 == "this":
            return "weak"
        if k == "name" and k2 in _NAME_KINDS:  # "last name is jolibois , first name kettlie" (tenth session)
            return "kind"
    if k in ("name's", "i'm") or (k == "am" and i >= 2 and toks[i - 2].key == "i"):
        return "intro" if k == "name's" else "weak"
    return None


#: Every word after which :func:`_context` may find a naming context (the others are skipped at once; add a word
#: here when a rule there starts to read it).
_CONTEXT_WORDS = _TITLE_ABBR | _TITLE_FULL | _GREETINGS | RELATIVES | frozenset(
    "you is was me name's i'm am name nurse care named called".split())
#: the words where only :func:`.name_frames.frame_at` reads a frame ("nurse X will", "sister X is", "my name's X",
#: "take care , X"; issue 50, thirteenth session)
_FRAME_ONLY = frozenset("nurse sister name care".split())

#: the frequent words of _CONTEXT_WORDS that give a context only after one of a few words ("my name is", "this is",
#: "thank you", "meet you", "call me", "i am"; :func:`_context`): the others are passed over without asking it
#: (issue 50, ninth session: most of the 18,000 words read in a 1 MB dialog)
_ONLY_AFTER = {"is": frozenset(("name", "this")), "was": frozenset(("name",)), "you": _YOU_AFTER,
               "me": frozenset(("call",)), "am": frozenset(("i",)),
               "name": _NAME_KINDS | frozenset("my his her our your their".split()), "care": frozenset(("take",)),
               "named": _NAMED_PERSONS, "called": _NAMED_PERSONS}

_NUMBER = (r"(?:\d{1,3}|(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:[- ](?:one|two|three|four|five|"
           r"six|seven|eight|nine))?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|"
           r"fourteen|fifteen|sixteen|seventeen|eighteen|nineteen)")
#: What follows a patient's name in a dictated note: "john is a 61-year-old male", "donna torres , date of birth";
#: also "was" and the contraction ("so crawford's a 59 year old", issue 50, eighth session: real dictation)
_SUBJECT_AFTER = re.compile(rf"(?i)(?:[ \t]+(?:is|was)|['’]s)[ \t]+an?[ \t]+{_NUMBER}[ \t]*-?[ \t]*(?:years?|yrs?|months?)[- ]old\b"
                            r"|[ \t]*,?[ \t]*(?:date of birth|dob)\b")
#: A piece of every match of :data:`_SUBJECT_AFTER` (issue 50, Build 3: only the lines with one are read)
_SUBJECT_WORD = re.compile(r"(?i)date of birth|dob|[- ]old")
_SUBJECT_AFTER_LOWER, _SUBJECT_WORD_LOWER = case_sensitive(_SUBJECT_AFTER), case_sensitive(_SUBJECT_WORD)


def _subject_spans(text: str, toks: Sequence[_Tok], found: set[str]) -> list[tuple[int, int]]:
    """A name dictated as the subject of a note: the word (and a name word right before it) before "is a 61-year-old"
    or ", date of birth" ("so john is a 61-year-old male", "karen nelson is a 3-year-old", "donna torres, date of
    birth"): a word that is not a common word, a given name of the gazetteer, or capitalised."""
    import bisect

    view = lower_view(text)  # read on the lines that hold "dob", "date of birth" or "old" (none spans a line)
    on, rx = (text, _SUBJECT_AFTER) if view is None else (view, _SUBJECT_AFTER_LOWER)
    out: list[tuple[int, int]] = []
    for m in scan_lines(rx, on, lines_holding(on, _SUBJECT_WORD if view is None else _SUBJECT_WORD_LOWER)):
        i = bisect.bisect_left(toks, m.start(), key=lambda t: t.end)  # the word that ends there, if one does
        if i == len(toks) or toks[i].end != m.start():
            continue
        t = toks[i]
        w = _word(t.key)
        if t.key in RELATIVES or _blocked(w) or len(t.key) < 2 or (w.clinical is not None and not w.gazetteer):
            continue
        if not (not w.common or w.first or t.capital or w.gazetteer and not w.common):
            continue
        out.append((t.start, t.end))
        if not w.common:
            found.add(t.key)
        if i >= 1 and _SEP_SPACE.fullmatch(_sep(text, toks[i - 1], t)):
            p = toks[i - 1]
            wp = _word(p.key)
            if not (_blocked(wp) or p.key in RELATIVES or wp.clinical is not None) and (not wp.common or wp.first):
                out.append((p.start, p.end))
    return out


def context_spans(text: str, toks: Sequence[_Tok] | None = None) -> list[tuple[int, int]]:
    """Names found by how they are used: after a title, in a self-introduction, in a greeting or sign-off
    addressed to a person, after a relative ("my husband X"), with the following words of the same name; as a
    dictated note's subject ("so john is a 61-year-old male", "donna torres, date of birth"); then every other
    occurrence of a word so found that is not a common word ("thembile" again), or, found after a title or "my name
    is", not an everyday word of philter-ucsf's whitelist ("dr. baker ... baker called")."""
    from .vocab import whitelist_words
    toks = tokens(text) if toks is None else toks
    spans: list[tuple[int, int]] = []
    found: set[str] = set()
    free = 0  # the first word not yet part of a name found
    # only the words right after a word of _CONTEXT_WORDS are read (issue 50, Build 3: not every word)
    keys = keys_of(toks)
    cased = is_cased(text)
    for i in [i + 1 for i in compress(range(len(toks) - 1), map(_CONTEXT_WORDS.__contains__, keys))]:
        if i < free:
            continue
        only = _ONLY_AFTER.get(keys[i - 1])
        if only is not None and (i < 2 or keys[i - 2] not in only):
            continue  # "is", "you", "me", "am" not after their word: no context (what _context says, not asked)
        strength = _context(text, toks, i)
        if strength is None or not _first_ok(text, toks[i], strength):
            if strength is not None or keys[i - 1] in _FRAME_ONLY:  # a frame takes a guard's word there
                framed = frame_at(text, toks, keys, i - 1, cased)  # (issue 50, thirteenth session: .name_frames)
                spans += [(t.start, t.end) for t in framed]
                free = max(free, i + len(framed))
            continue
        j = i
        while j + 1 < len(toks) and j - i < 2 and _next_ok(text, toks[j], toks[j + 1], strength):
            j += 1
        spans += [(t.start, t.end) for t in toks[i:j + 1]]  # one span a word: a listed name wins its words
        for t in toks[i:j + 1]:  # a name after a title or "my name is" is one in its other mentions ("baker")
            if not _word(t.key).common or strength in ("strong", "intro") and t.key not in whitelist_words():
                found.add(t.key)
        free = j + 1
    spans += _subject_spans(text, toks, found)
    if found:
        taken = {s for s, _ in spans}
        spans += [(t.start, t.end) for i in key_indices(toks, found) if (t := toks[i]).start not in taken]
    return spans
