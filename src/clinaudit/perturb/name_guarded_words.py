"""A name that the guards call a word, standing bare where only a person stands (issue 50, fourteenth session).

:mod:`.name_person_only` reads an everyday word as a name in the places that exclude the word's uses as a word ("it
was X who", a clause's bare subject before a verb only a person does, "tell X i said", "we'll call X later", "X and
her husband", the one addressed), but only a gazetteer name and no clinical word. Two kinds of names were then lost
in lower case wherever only the grammar says "person":

* **a gazetteer name ICD-10-CM writes in lower case in a chapter of conditions** (the clinical guard:
  :mod:`.name_clinical` frees only the external-cause and factors chapters' words): "glass", "garden", "copper",
  "crystal", "stone", "wood", "brown", "walker";
* **an everyday word no gazetteer holds as a name** (philter-ucsf's lists leave out the names that are frequent
  words): "salmon", "sugar", "page", "fair", "rich", "silver", "smart".

Here such a word is a name in :func:`.name_person_only.person_only_at`'s places (the one addressed only for a given
name of the gazetteer): the places themselves exclude the word's uses as a word: a count noun needs a determiner
there ("the stone came out", "a kidney stone"), a mass noun says, tells, rings and texts nothing, an adjective is no
bare subject, "it was pink that", "ask simple questions". Never a relative's, spoken, function or demographic word,
a drug, specialty, facility or eponym, a word of address, a modal, a day or a month, the plural of a common word, a
body part, symptom or finding (:data:`NOT_PERSONS`), a role, an institution or a thing that writes or rings ("label
says", "work rang", "reception told me": :data:`NOT_PERSONS`), a word written in capitals (lower case only), nor
where the detector says no person stands. Words first: the words are read in
:func:`.name_bare_person.bare_word_places`' one scan (``guarded``: :func:`may_be_guarded`), and at each of their
places the words right around it first. Used by :mod:`.name_detect` (source ``rule``)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import lru_cache

from .name_bare_person import BareWords, plain_word
from .name_person_only import SAYS, clause_start, person_only_at
from .name_tokens import Tok, ends_of, starts_of, texts_of
from .name_word import blocked, word_facts
from .vocab import english_zipf, plural_of_common

__all__ = ["NOT_PERSONS", "UNLISTED_NAME_ZIPF", "guarded_word_names", "may_be_guarded", "only_person", "SAYS_WHAT",
           "words_placed"]

#: never a person here: body parts, symptoms and findings ICD-10-CM writes (and the gazetteer holds: "lump", "cheek"),
#: roles, institutions, things that write, say or ring ("label says", "work rang", "reception told me"), particles
#: and adverbs after "call" ("i'll call back later"), collective words ("people", "staff"), reflexive pronouns ("ask
#: yourself if"), and the prepositions, conjunctions, quantifiers and adverbs the function words leave out ("i can't
#: tell whether i", "ask either of them")
NOT_PERSONS = frozenset("""
    arm arms back belly bile blink blood bodily body bone bones bottom bowel brain breast brow burn burns bust calf
    cheek chest chin cough cramp cramps ear ears eye eyes face fat fever finger fingers foot gland gum gums gut hair
    hand hands head heads heart hip hips iris jaw kidney knee knot leg legs limb lip lips liver lobes lump lung mole
    mouth muscle nail nails neck nerve nipple nose organ pain palm palms piles rash retina rib saliva shin shingles
    shock shoulder shoulders sick sickness skin skull smell sole soles sore spine stiff sting stomach swallow swelling
    taste teeth temple thigh throat thumb tip toe toes tongue tooth trunk vein vessel waist wax weak weight womb worm
    wrist coma death grief anger agent carrier person teacher patient
    doctor nurse physio consultant surgeon midwife carer chemist pharmacist dentist boss manager staff team crew
    people everyone everybody someone somebody anyone anybody nobody folk folks family friend friends neighbour
    neighbor partner colleague work school college office home hospital surgery clinic pharmacy reception admin
    security management council insurance company church chapel housing ward unit desk lab
    label packet bottle box leaflet letter paper papers sign form website internet app phone telly radio screen
    machine monitor scale scales watch meter test result results report note notes card book chart
    round over again later soon first direct ahead straight apart twice nicely around anywhere everywhere somewhere
    charity science research court bed emergency casualty maternity finance legal payroll admissions accounts scan
    myself yourself himself herself itself ourselves yourselves themselves oneself whoever whatever
    whether whom whose unless above below under between among against upon already yet often quite rather either
    neither each every any some none many less least few several other another same own enough somehow nowhere second
    last next right left away off along instead anyway therefore otherwise thus hence however despite except beyond
    throughout via plus nor whenever wherever whichever towards toward beside besides behind inside outside near
    upstairs downstairs together alone medical meanwhile also overall
    """.split())
#: how often English writes a word no gazetteer holds, at least, to be read here (Zipf: "salmon" 4.0, "page" 5.1;
#: not the departments and procedures clinic speech names bare, "triage" 2.9, "ultrasound" 3.5, "dispatch" 3.8)
UNLISTED_NAME_ZIPF = 4.0

#: a clause's bare subject before coming with, picking up or bringing in the speaker ("glass came with me today",
#: "copper is picking me up"; not "summer came early", "glass came through the windscreen")
_CAME = re.compile(r"[ \t]+(?:came[ \t]+(?:in[ \t]+|along[ \t]+|down[ \t]+)?with[ \t]+(?:me|us)|(?:is|was)[ \t]+picking[ \t]+"
                   r"(?:me|us)[ \t]+up|picked[ \t]+(?:me|us)[ \t]+up|brought[ \t]+(?:me|us)[ \t]+in)(?![\w'’\-])")
#: the words right after a subject that open :data:`_CAME`
_NEXT = frozenset("came is was picked brought".split())
#: talked or spoke to the word, before a time, "on the phone" or "about" ("i talked to copper yesterday"; not "i talked
#: to street pastors")
_TALKED = re.compile(r"(?<![\w'’\-])(?:talked|spoke|spoken|talking|speaking|chatted)[ \t]+to[ \t]+$")
_TALKED_AFTER = re.compile(r"[ \t]+(?:yesterday|today|earlier|tonight|this[ \t]+(?:morning|afternoon)|last[ \t]+(?:night|"
                           r"week)|on[ \t]+the[ \t]+phone|about)(?![\w'’\-])")
#: how far before a word its frame is read
_BEFORE = 24
#: given or handed to the word, before the sentence's end, "for me" or "please" ("can you give this to copper ?"; not
#: "give this to glass recycling")
_GIVEN = re.compile(r"(?<![\w'’\-])(?:give|hand|handed|gave)[ \t]+(?:this|that|these|those|it|them)[ \t]+to[ \t]+$")
_GIVEN_AFTER = re.compile(r"[ \t]*[?.!]|[ \t]*$|[ \t]+(?:for[ \t]+me|please)(?![\w'’\-])")
#: what follows a person's verb after a bare subject (:data:`.name_person_only.SAYS`) when the subject is a word no
#: gazetteer holds: a person, a clause or a greeting ("page says hi", "salmon rang me", "sugar reckons i"; not "sugar
#: says a lot on the label", "label says take two")
SAYS_WHAT = re.compile(r"[ \t]+(?:hi|hello|that|i|i'm|i'd|i'll|i've|you|he|she|we|they|me|us|him|her|them|to|so|where|"
                       r"when|if|how)(?![\w'’\-])")


@lru_cache(maxsize=100_000)
def may_be_guarded(word: str) -> bool:
    """``word`` may be a name of this module: :func:`.name_bare_person.plain_word`, none of :data:`NOT_PERSONS`, no
    function, demographic, drug, specialty word nor eponym; either a gazetteer name whose only clinical category is
    a condition of ICD-10-CM, or a common word no gazetteer holds whose clinical category is none or a condition, no
    plural of a common word, no word ending like a verb's or an adverb's forms ("-ing", "-ed", "-ly"), English writes
    at least :data:`UNLISTED_NAME_ZIPF`."""
    if not plain_word(word) or word in NOT_PERSONS:
        return False
    w = word_facts(word)
    if blocked(w) or w.function or w.demographic or w.eponym:
        return False
    if w.gazetteer:
        return w.clinical == "condition"
    return w.common and w.clinical in (None, "condition") and not plural_of_common(word) \
        and not word.endswith(("ing", "ed", "ly")) and english_zipf(word) >= UNLISTED_NAME_ZIPF


def guarded_word_names(text: str, toks: Sequence[Tok], bare: BareWords,
                       nobody: Callable[[str, int, int], bool]) -> list[Tok]:
    """The lower-case words the guards call words that stand bare where only a person stands (the module's
    docstring). ``toks``: the text's words; ``bare``: :func:`.name_bare_person.bare_word_places` read with
    ``guarded=may_be_guarded`` (its ``guarded`` words and their places); ``nobody(text, start, end)``: the detector
    says no person stands there."""
    words = {w for w in bare.guarded if may_be_guarded(w)}  # the scan reads name_guarded_kinds' words too
    return words_placed(text, toks, bare, words, only_person, nobody)


#: a place test: word ``i`` of the text (its words' texts, starts and ends) stands where the rule reads a name
Place = Callable[[str, list[str], list[int], list[int], int], bool]


def words_placed(text: str, toks: Sequence[Tok], bare: BareWords, words: set[str], place: Place,
                 nobody: Callable[[str, int, int], bool]) -> list[Tok]:
    """The words of ``words`` at ``bare``'s places that stand in a ``place`` where the detector finds a person (not
    ``nobody``): this module's and :mod:`.name_guarded_kinds`' loop."""
    if not words:
        return []
    texts, starts, ends = texts_of(toks), starts_of(toks), ends_of(toks)
    out: list[Tok] = []
    for i in bare.places:
        word = texts[i]
        if word in words and place(text, texts, starts, ends, i) and not nobody(text, starts[i], ends[i]):
            out.append(Tok(starts[i], ends[i], word, word))
    return out


def only_person(text: str, texts: list[str], starts: list[int], ends: list[int], i: int) -> bool:
    """Word ``i`` stands where only a person stands: :func:`.name_person_only.person_only_at`'s places, or a clause's
    bare subject before coming with the speaker, or talked to or given to before a time or the sentence's end; a word
    no gazetteer holds before a person's verb only when a person, a clause or a greeting follows (:data:`.name_person_only.SAYS`)."""
    if person_only_at(text, texts, starts, ends, i, True):
        return i + 1 == len(texts) or texts[i + 1] not in SAYS or word_facts(texts[i]).gazetteer \
            or SAYS_WHAT.match(text, ends[i + 1]) is not None
    s, e, prev = starts[i], ends[i], texts[i - 1] if i else ""
    if prev == "to":
        lo = max(0, s - _BEFORE)
        return _TALKED_AFTER.match(text, e) is not None and _TALKED.search(text, lo, s) is not None \
            or _GIVEN_AFTER.match(text, e) is not None and _GIVEN.search(text, lo, s) is not None
    return i + 1 < len(texts) and texts[i + 1] in _NEXT and _CAME.match(text, e) is not None \
        and clause_start(text, texts, starts, ends, i)
