"""A surname that is a clinical eponym (a disease's, a sign's, a test's or a procedure's name: "Parkinson", "Cushing",
"Kawasaki", "Merkel", "Whipple"), where a person stands (issue 50, seventeenth session: ``benchmarks/deid_dev40.py``).

Every rule refuses a word the lists hold as a condition that ICD-10-CM writes only capitalised (an eponym) or that
:data:`.vocab.EPONYMS` holds: so a relative, carer or neighbour whose surname is such a word was kept wherever no
title stood before it, in both cases: "parkinson sends her love .", "my carer is cushing .", "i came with merkel
today .", "Whipple booked this appointment for me.", and even after a given name when the eponym is one of
:data:`.vocab.EPONYMS` ("trevor parkinson is my carer"). Clinic speech puts the same words in other places: before a
condition's, a sign's, a test's, a clinic's or a procedure's word ("parkinson's disease", "the parkinson nurse",
"kawasaki disease", "merkel cell carcinoma", "a whipple procedure"), with the possessive a condition takes ("his
parkinson's", "cushing's"), after an article, a possessive or a result's word ("they did a whipple", "positive
hashimoto antibodies"). This rule takes such a word only where a person and no condition stands:

* **after a given name found** (any rule's, a one-word name of the first-name gazetteer, one space between, written
  in the same case): "trevor parkinson", "Helga Merkel" (the other places of the same person are then
  :func:`.name_same_person.full_name_mentions`' to find: "trevor parkinson drove me here . parkinson is outside");
* **alone, in the strongest places a person has**, which other rules read for other words
  (:mod:`.name_strong_places`: after a relative's or a carer's word, addressed after a greeting, next of kin, the
  subject of what only a person does; :mod:`.name_person_predicates`: "sends her love", "can't come", "that was X on
  the phone"; and the given-name and surname rules' places, by :func:`.name_person_places.person_place`: "telling X
  about", "say hello to X", "X fetched my prescription"), and a few of this rule's own: "my carer is X ,", "i came
  (in) with X today", a clause's subject before a person's errand ("X booked this appointment", "X picks up my
  prescriptions", "X rang me", "X from church visits", "X is my husband's brother"), the object of a verb of reaching before a person's next step ("ring X if", "would you
  like X to stay", "let X know").

Never when the word is followed by a possessive or a hyphen ("parkinson's", "vogt-koyanagi"), by a condition's,
sign's, test's, clinic's, nurse's or procedure's word (:data:`_CLINICAL_AFTER`, or any word the lists hold as a
condition: "hodgkin lymphoma"), nor right after an article, a possessive, a result's word or "non"
(:data:`_CONDITION_BEFORE`); never where the detector says no person stands.

The word (:func:`eponym_surname`): letters only, three or more, in :data:`.vocab.EPONYMS` or a surname of the
gazetteer that ICD-10-CM writes only capitalised inside a condition's description (``clinical_category`` is
``condition`` and :func:`.vocab.condition_noun` is false), that English writes less often than Zipf 3.7 ("Glasgow",
"Singer", "Masters", "Pacific", "Teacher" are words or places first) unless no list of common words holds it
("Schmidt", 3.73: a surname that often; twenty-eighth session). Only the places of such words are read
(:func:`.name_tokens.key_indices`; none in most dialogs), each by a bounded window around it: linear in the text.
An entry of :data:`.name_rules.RULES` after ``surnames_beside`` (source ``rule``)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import lru_cache

from .name_clause_opens import opens_clause
from .name_person_places import person_place
from .name_pronoun_pairs import AND, ME_AND, verbs
from .name_strong_places import strong_place
from .name_tokens import WORD_END, Tok, indices_within, key_indices, keys_of
from .name_word import SEP_SPACE, word_facts
from .vocab import (EPONYMS, RELATIVES, clinical_category, condition_noun, english_zipf, first_names, is_common,
                    surnames)

__all__ = ["eponym_surname", "eponym_person_names"]

_W = WORD_END
_S = r"[ \t]+"
#: how often English writes a word at most for it to be read as an eponym surname here (Zipf)
EPONYM_ZIPF = 3.7
#: how often English writes a given name that is also a common word at most, for it to be read before an eponym
GIVEN_ZIPF = 3.5
#: before a given name the lists keep, right before an eponym: a condition's two names may stand there ("screened
#: for tay sachs")
_PAIR_BEFORE = frozenset("""for with from like called and or about ruled out tested screened screen excluded
    check checked""".split())
#: after the word: what makes it the condition's, the sign's, the test's or the service's name
_CLINICAL_AFTER = frozenset("""disease diseases syndrome syndromes sign signs test tests testing nurse nurses clinic
    clinics procedure procedures operation op surgery lymphoma fracture fractures palsy cell cells tear tears lesion
    lesions antibody antibodies thyroiditis score scale scales maneuver manoeuvre reflex phenomenon disorder tumour
    tumor carcinoma type virus screen screening triad criteria classification ulcer cyst node nodes meds medication
    medications tablets pills team specialist specialists patients patient society uk foundation research symptoms
    symptom tremor tremors like related type-1 type-2 stage grade drugs treatment therapy diagnosis risk gene genes
    mutation variant level levels markers marker protocol repair resection point points stockings position positions
    manoeuvres maneuvers sequence lines line carrier carriers""".split())
#: before the word: an article, a possessive, a result's or a degree's word: a condition stands there
_CONDITION_BEFORE = frozenset("""a an the his her my your our their its positive negative non no any some this that
    classic classical typical atypical early late advanced mild severe juvenile idiopathic suspected possible
    probable of has had have having got diagnosed treated""".split())
#: a relative's, a carer's or a neighbour's word (the word after it and "is" names a person)
_KIN = RELATIVES | frozenset("""worker keyworker carer helper eldest youngest landlord landlady lodger companion
    advocate guardian godmother godfather godson goddaughter warden mate pal neighbour neighbor""".split())
_KIN_PATTERN = "|".join(sorted((re.escape(k) for k in _KIN), key=len, reverse=True))
#: "my carer is X": a possessive, at most one word, a relative's or carer's word, "is" / "was", right before the word
_KIN_IS = re.compile(r"(?<![\w'’\-])(?:my|his|her|our|their|your)[ \t]+(?:[a-z\-]+[ \t]+)?(?:" + _KIN_PATTERN
                     + r")[ \t]+(?:is|was|['’]s)[ \t]+(?:called[ \t]+)?$")
#: "i came with X": the speaker who came, lives or stays with a person
_CAME_WITH = re.compile(r"(?<![\w'’\-])(?:i|we)(?:['’](?:ve|m))?[ \t]+(?:came|come|live|lived|stay|stayed|staying|"
                        r"living|am[ \t]+staying|went|go)(?:[ \t]+(?:in|here|up|down|along|over|round))?[ \t]+with[ \t]+$")
#: after "came with X": the clause's end, a comma or a time
_TIME_OR_END = re.compile(r"[ \t]*(?:today|tonight|this[ \t]+(?:morning|afternoon|evening|time)|[,.!?;]|$|\n)"
                          r"(?![\w'’\-])|[ \t]*[,.!?;]")
#: after the word opening a clause: a person's errand or what a person is to the speaker
_SUBJECT_NEXT = re.compile(
    _S + r"(?:booked|books|picks[ \t]+up|picked[ \t]+up|collects|collected|keeps[ \t]+an[ \t]+eye|kept[ \t]+an[ \t]+eye|"
    r"checks[ \t]+on|checked[ \t]+on|looks[ \t]+after|looked[ \t]+after|rang|rings|phoned|phones|texted|texts|drove|"
    r"drives|brought|brings|told|tells|said|says|sorted|sorts|visits|visited|popped|pops|helps[ \t]+me|helped[ \t]+me|"
    r"can[ \t]+vouch|found[ \t]+me|lives[ \t]+(?:next|two|three|down|up|across|opposite|round|with|upstairs|"
    r"downstairs)|from[ \t]+(?:church|work|next[ \t]+door|across|down[ \t]+the[ \t]+road|up[ \t]+the[ \t]+road|"
    r"number|the[ \t]+(?:church|choir|club|allotment|pub|chapel|mosque|temple|gym))|"
    r"(?:is|was|['’]s)[ \t]+(?:down[ \t]+as[ \t]+)?(?:my|our|your|his|her|their)[ \t]+(?:[a-z]+['’]s[ \t]+|[a-z\-]+[ \t]+)?"
    r"(?:" + _KIN_PATTERN + r"|next[ \t]+of[ \t]+kin|emergency[ \t]+contact))" + _W)
#: "me and X", "X and i": the speaker's companion, before what the two do or are
_ME_AND = re.compile(r"(?<![\w'’\-])" + ME_AND + "$")
#: the verbs after the pair: :data:`.name_pronoun_pairs.PAIR_VERBS` and this rule's own
_TWO_VERBS = ("go", "are", "used", "get", "got", "still", "always", "often")
_AND_I = re.compile(AND + r"(?:i|me)" + _S + verbs(*_TWO_VERBS, "'ve", "’ve") + _W)
_TWO_DO = re.compile(_S + verbs(*_TWO_VERBS, "play", "played", "walk", "walked") + _W)
#: a possessive and a relative's, a carer's or a friend's word right before the word
_KIN_BEFORE = re.compile(r"(?<![\w'’\-])(?:my|his|her|our|their|your)[ \t]+(?:[a-z\-]+[ \t]+)?(?:" + _KIN_PATTERN
                         + r")[ \t]*,?[ \t]*$")
#: before the word: a verb of reaching a person; after it: the person's next step
_REACH_BEFORE = re.compile(r"(?<![\w'’\-])(?:ring|call|phone|text|like|want|ask|tell|let|get)[ \t]+$")
_REACH_NEXT = re.compile(_S + r"(?:to[ \t]+(?:stay|come|sit|wait|bring|pick|ring|call|drive|collect|know|help)|if|when|"
                         r"know|back|tonight|later|tomorrow)" + _W)
_WINDOW = 72


@lru_cache(maxsize=8192)
def eponym_surname(key: str) -> bool:
    """``key`` (lower case) is a surname that is a clinical eponym (the module's docstring)."""
    if len(key) < 3 or not key.isalpha() or english_zipf(key) >= EPONYM_ZIPF and is_common(key) or key in _KIN:
        return False
    if key in EPONYMS:
        return True
    if key not in surnames() or word_facts(key).demographic:
        return False
    return clinical_category(key) == "condition" and not condition_noun(key)


def _condition_here(text: str, toks: Sequence[Tok], i: int) -> bool:
    """The word ``toks[i]`` is the condition's: a possessive or a hyphen right after it, a clinical word next, or an
    article, a possessive or a result's word right before it."""
    t = toks[i]
    if text.startswith(("'", "’", "-"), t.end):
        return True
    if i + 1 < len(toks) and SEP_SPACE.fullmatch(text[t.end:toks[i + 1].start]):
        nxt = toks[i + 1].key
        if nxt in _CLINICAL_AFTER or _condition_word(nxt):
            return True
    return i > 0 and toks[i - 1].key in _CONDITION_BEFORE and SEP_SPACE.fullmatch(text[toks[i - 1].end:t.start]) is not None


@lru_cache(maxsize=8192)
def _condition_word(key: str) -> bool:
    """A condition's word no common or function word is ("lymphoma", "thyroiditis"; not "still", "from", "who")."""
    w = word_facts(key)
    return w.clinical == "condition" and not (w.common or w.function) and not eponym_surname(key)


def _own_place(text: str, toks: Sequence[Tok], i: int) -> bool:
    """This rule's own places for the word alone (the module's docstring)."""
    t = toks[i]
    before = text[max(0, t.start - _WINDOW):t.start].lower()
    if _KIN_IS.search(before):
        return re.match(r"[ \t]*(?:[,.!?;]|$|\n)", text[t.end:t.end + 4]) is not None
    if _CAME_WITH.search(before):
        return _TIME_OR_END.match(text[t.end:t.end + _WINDOW].lower()) is not None
    if _REACH_BEFORE.search(before):
        return _REACH_NEXT.match(text[t.end:t.end + _WINDOW].lower()) is not None
    after = text[t.end:t.end + _WINDOW].lower()
    if _ME_AND.search(before):
        return _TWO_DO.match(after) is not None
    if _AND_I.match(after):
        return opens_clause(text, toks, i)
    return (opens_clause(text, toks, i) or _KIN_BEFORE.search(before) is not None) \
        and _SUBJECT_NEXT.match(after) is not None


def eponym_person_names(text: str, toks: Sequence[Tok], found: Sequence[tuple[int, int]],
                        no_person_at: Callable[[str, int, int], bool]) -> list[Tok]:
    """The words of :func:`eponym_surname` where a person stands (the module's docstring). ``found``: the names found
    so far (start, end)."""
    wanted = {k for k in set(keys_of(toks)) if eponym_surname(k)}
    if not wanted:
        return []
    cov = indices_within(toks, found)
    out: list[Tok] = []
    pairs: set[str] = set()  # the eponyms found after a given name: the same person's surname again
    rest: list[int] = []  # the other places of such words
    for i in key_indices(toks, wanted):
        t = toks[i]
        if i in cov:  # found already: after a given name found, the person's surname
            if i - 1 in cov and SEP_SPACE.fullmatch(text[toks[i - 1].end:t.start]):
                pairs.add(t.key)
            continue
        if t.text.isupper() or _condition_here(text, toks, i):
            continue
        g = i - 1
        given = g >= 0 and toks[g].capital == t.capital and _given_name(toks[g].key) \
            and SEP_SPACE.fullmatch(text[toks[g].end:t.start]) is not None and g - 1 not in cov \
            and not _eponym_next(text, toks, i)  # not "wolff parkinson white"
        if given and g not in cov:  # a given name the eponym after it kept ("trevor parkinson"): both, where no
            # condition's word stands before the pair
            if g > 0 and (toks[g - 1].key in _CONDITION_BEFORE or toks[g - 1].key in _PAIR_BEFORE) \
                    or no_person_at(text, toks[g].start, t.end):
                continue
            out += [toks[g], t]
            pairs.add(t.key)
        elif given or strong_place(text, t.start, t.end) or person_place(text, toks, i, "eponym") or _own_place(text, toks, i):
            if not no_person_at(text, t.start, t.end):
                out.append(t)
                pairs.update([t.key] if given else [])
        else:
            rest.append(i)
    # the same person again alone, where a clause opens before a word of what the person does, or a comma or the
    # sentence's end follows: "[trevor parkinson] had a fall too . [parkinson] broke her wrist ."
    out += [toks[i] for i in rest if toks[i].key in pairs and _again(text, toks, i)
            and not no_person_at(text, toks[i].start, toks[i].end)]
    return out


def _eponym_next(text: str, toks: Sequence[Tok], i: int) -> bool:
    """Another eponym's word right after ``toks[i]`` (only spaces between): one condition's names ("wolff parkinson
    white")."""
    return i + 1 < len(toks) and eponym_surname(toks[i + 1].key) \
        and SEP_SPACE.fullmatch(text[toks[i].end:toks[i + 1].start]) is not None


def _again(text: str, toks: Sequence[Tok], i: int) -> bool:
    """``toks[i]`` alone where the same person's surname stands again: a clause opening before a lower-case word,
    a comma, or the sentence's end."""
    t = toks[i]
    if re.match(r"[ \t]*(?:[,.!?;]|$|\n)", text[t.end:t.end + 3]):
        return True
    return opens_clause(text, toks, i) and i + 1 < len(toks) and toks[i + 1].text.islower() \
        and SEP_SPACE.fullmatch(text[t.end:toks[i + 1].start]) is not None

@lru_cache(maxsize=8192)
def _given_name(key: str) -> bool:
    """``key`` is a given name of the gazetteer that is no common or clinical word, no eponym and no relative's word."""
    if key not in first_names() or key in _KIN or eponym_surname(key):
        return False
    w = word_facts(key)
    return not (w.function or w.demographic or w.eponym or w.clinical is not None) \
        and (not w.common or english_zipf(key) < GIVEN_ZIPF)  # "dieter" is a word English seldom writes
