"""Words the name detector took for names on the real dialogs that are words or places (issue 50: "false replacements
no more than today's"): what a word is and where it stands says it is no person (:mod:`.name_detect` asks).

* :func:`clinical_form` — a word in no list that ends like a clinical word ("radicularopathy", "nohydronephrosis",
  "hydrocholorozide"): a misspelt or run-together clinical term, not a name (no name of eight letters or more of
  philter-ucsf's gazetteer ends so);
* :func:`inflected_common` — a surname that is an inflected form of a word English text uses often ("messing",
  "reining", "hotter", "redder", "burgers");
* :func:`thing_after_determiner` — a lower-case word after "the", "a", "those", ... ("the wixela", "a peloton",
  "an aircast"): a thing; names are not written after an article in speech;
* :func:`place_after_preposition` — a word right after "in" or "at" (and the capitalised words of a place's name
  after it: "at Taco Bell", "in Las Cruces"): a place, not a person, unless a possessive follows ("at Smith's").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from .name_place_persons import PERSON_IN_VERBS, shared_possessive
from .name_pronoun_pairs import AND, verbs
from .name_tokens import S_AFTER, Tok, fold
from .vocab import RELATIVES, common_words, english_zipf, first_names

__all__ = ["clinical_form", "inflected_common", "thing_after_determiner", "person_after_determiner", "PERSON_AT",
           "place_after_preposition", "person_verb_after"]

#: Endings of clinical words (conditions, procedures, drug classes) that no name of eight letters or more of
#: philter-ucsf's first-name or surname lists has ("-itis", "-emia", "-uria", "-osis" do: "adomaitis", "euphemia",
#: "kathuria", "theodosis"; only the "-osis" of "-rosis", "-nosis", "-tosis" is kept).
_CLINICAL_END = re.compile(r"(?:opathy|ectomy|otomy|ostomy|plasty|algia|cele|rrhea|rrhoea|plegia|paresis|flexia|"
                           r"trophy|megaly|zide|mide|ated|sive|graphy|scopy|rosis|nosis|tosis|iasis)$")


def clinical_form(key: str) -> bool:
    """``key`` (lower case, eight letters or more, in no list) ends like a clinical word: "radicularopathy",
    "hypperflexia", "lipomyomeningocele", "ifosphomide", "immensipated"."""
    return len(key) >= 8 and key.isalpha() and bool(_CLINICAL_END.search(key))


#: How common in English text (wordfreq Zipf) a stem must be for its inflected form to be a word, not a surname:
#: "mess" 4.57 ("messing"), "weld" 3.3 ("welding").
_STEM_ZIPF = 3.3
#: The inflected form itself must be used in English text ("redder" 2.44; not "rashed" 1.90, "shaked" 2.02).
_FORM_ZIPF = 2.3
#: A comparative with a doubled consonant after a stem of three letters ("hotter", "redder") only for a very common
#: stem ("manning" is no "-ing" of "man" here).
_SHORT_STEM_ZIPF = 4.5
#: A plural is a word when the singular is common and the plural itself is used ("burgers" 3.72 / "burger" 4.07;
#: a surname seldom is: "murphys" 2.23).
_PLURAL_ZIPF = 3.0


@lru_cache(maxsize=50_000)
def inflected_common(key: str) -> bool:
    """A gazetteer surname (no given name: the caller asks) that is an inflected form (-s, -es, -ies, -ing, -ed) of
    a dictionary word English text uses often, or a comparative with a doubled consonant of a very common word:
    "messing" (mess), "welding", "hotter" (hot), "redder" (red), "burgers" (burger, a surname too); not "visser"
    (vis), "pinter", "beyer" (no "-er" of a noun), "nunes" (no "-es" after a vowel), "mercier" (no "-ier")."""
    words, given = common_words(), first_names()
    if english_zipf(key) < _FORM_ZIPF:
        return False  # a form English text does not use ("rashed", "shaked"): a name
    for suffix, repl in (("ies", "y"), ("ied", "y"), ("es", ""), ("s", ""), ("ed", ""), ("ed", "e"), ("ing", ""),
                         ("ing", "e"), ("er", ""), ("est", "")):
        if not key.endswith(suffix) or len(key) - len(suffix) < 3:
            continue
        stem = key[: len(key) - len(suffix)]
        if suffix == "es" and not stem.endswith(("s", "x", "z", "ch", "sh")):
            continue  # "nunes" is no plural of "nun"
        if suffix in ("s", "es") and stem not in given and english_zipf(stem) >= 3.5 \
                and english_zipf(key) >= _PLURAL_ZIPF:
            return True  # "burgers": the plural of a word that is also a surname
        cand = stem + repl
        if suffix not in ("er", "est") and cand in words and cand not in given and english_zipf(cand) >= _STEM_ZIPF:
            return True
        if len(stem) == 4 and stem[-1] == stem[-2] and suffix in ("er", "est") \
                and stem[:-1] in words and english_zipf(stem[:-1]) >= _SHORT_STEM_ZIPF:
            return True  # "hotter", "redder"
    return False


#: Articles and demonstratives: "the wixela", "a peloton", "those cadboy eggs" (not possessives, "my jamal", nor
#: "that" and "this", which also end a clause or open one: "doing with that | jamal said", "i think that jamal")
_ARTICLES = frozenset("the a an some those these".split())
#: name_word.SEP_SPACE, written here: name_word imports this module (the import would be a cycle)
_SPACES = re.compile(r"[ \t]+")
#: After an article, a family's name: "the dlamini family", "the nguyen kids"
_FAMILY = frozenset("family families household house home kids children twins brothers sisters boys girls boy girl "
                    "kid".split())


#: After the word, a verb only a person does, maybe after where the person works ("a sipho from your office called
#: me", "the moore at the front desk said"): the word after the article is a person, not a thing
_PERSON_VERB_AFTER = re.compile(r"(?i)[ \t]+(?:(?:from|at|in|of)[ \t]+(?:the|your|my|our|his|her|their)[ \t]+"
                                r"(?:[a-z]+[ \t]+){0,2})?(?:said|says|told|tells|asked|asks|called|calls|phoned|texted|"
                                r"emailed|mentioned|mentions|suggested|suggests|thinks|thought|wants|wanted|knows|knew|"
                                r"explained|recommended|promised|agreed|insisted|warned|wrote|drove|drives)\b")
#: After the word, "and i" and what two persons do together ("those | jorn and i both caught it", "your metformin |
#: sneha and i went"): the word and the speaker are the subject; issue 50, seventh session
#: (the shared pair verbs and this rule's own; a word boundary after the verb, "\b", as measured in the seventh session)
_AND_I_AFTER = re.compile(AND + r"i[ \t]+" + verbs("got", "did", "used", "work", "worked", "always", "never", "just",
                          "also", "talked", "spoke", "met", "grew", "drove", "walked", "caught", "share", "shared") + r"\b")
#: After the word, a verb that neither a thing nor a place or an organisation does (an office says, tells, asks:
#: "my doctor at kaiser said"): "... as i came in | nokuthula drove me here", "those | sneha thinks i snore"
_PERSON_ONLY_AFTER = re.compile(r"[ \t]+(?:thinks|thought|drove|drives|knows|knew)\b")


def person_verb_after(text: str, end: int, organisation: bool = True) -> bool:
    """Right after a lower-case word (at ``end``) stands a verb only a person does, so the word opens a clause as its
    subject whatever stands before it: in speech written without punctuation a clause may open after an article, a
    drug or "in" that ends the one before ("are you taking your metformin | weisshaupt says i should ...", "one of
    those | jorn drove me here"). ``organisation``: also a verb an office does ("said", "told", "called"), which
    :func:`place_after_preposition` does not take ("my doctor at kaiser said")."""
    if organisation and _AND_I_AFTER.match(text, end):
        return True  # "your metformin | sneha and i went"
    return (_PERSON_VERB_AFTER if organisation else _PERSON_ONLY_AFTER).match(text, end) is not None


#: After the word, a relative clause only a person heads: "who", "whom", "whose" (not "who is", "who's": "a peloton
#: who is your favorite instructor" asks), or a person's pronoun and a verb one says of a person one knows ("the
#: hamish that you met", "the peterson i work with", "the okafor we grew up with")
_PERSON_CLAUSE_AFTER = re.compile(
    r"(?i)[ \t]+(?:(?:who|whom)\b(?![ \t]*(?:is|are|['’]s)\b)|whose\b|(?:that[ \t]+)?(?:i|you|we|he|she|they)"
    r"[ \t]+(?:(?:was|were|am|are|have|had|just|also|already|used[ \t]+to)[ \t]+)?(?:met|meet|work|worked|working|"
    r"live|lived|living|know|knew|dated|dating|babysit|babysat|grew[ \t]+up|went[ \t]+to[ \t]+school)\b)")
#: After the word, a relative clause of mention ("the isla i told you about", "the lupe that i mentioned", "the
#: wixela you mentioned"): a thing as often as a person, so the dialog's other mentions decide
#: (:func:`_subject_elsewhere`)
_MENTION_CLAUSE_AFTER = re.compile(
    r"(?i)[ \t]+(?:that[ \t]+)?(?:i|you|we|he|she|they)[ \t]+(?:(?:was|were|am|are|have|had|just|also|already)"
    r"[ \t]+)?(?:told[ \t]+you[ \t]+about|telling[ \t]+you[ \t]+about|mentioned|talked[ \t]+about|"
    r"talking[ \t]+about|spoke[ \t]+about)\b")
_ASKED_ROLE = "|".join(sorted(RELATIVES | {"landlord", "landlady", "tenant", "nurse", "doctor", "pharmacist",
                                            "therapist", "surgeon", "dentist", "counselor", "teacher", "pastor",
                                            "priest", "sponsor", "lawyer", "employer", "manager"}, key=len, reverse=True))
#: After a relative clause of mention, the sentence goes on about a person: a question whether that is a relative or
#: a role, or "he"/"she" ("and the whitfield you mentioned , is that your landlord ?", "the ramos i told you about ,
#: she drives me"); issue 50, seventh session
_PERSON_ASKED_AFTER = re.compile(
    rf"(?i)[^.?!\n]{{0,40}}?[,?.][ \t]*(?:(?:and|so)[ \t]+)?(?:(?:is|was)[ \t]+(?:that|he|she|this)[ \t]+(?:your|the|a|an|"
    rf"his|her|their|our)[ \t]+(?:[a-z]+[ \t]+)?(?:{_ASKED_ROLE})\b|(?:he|she)[ \t]+(?:is|was|has|had|said|says|told|"
    rf"lives|lived|works|worked|came|comes|will|would|can|could|does|did|drove|drives|knows|wants)\b|"
    rf"(?:is|was|does|did|has)[ \t]+(?:he|she)\b)")
#: A word that opens a clause (a turn's or a sentence's start, after a comma, "and", "but", "so") before a
#: lower-case word: the subject of a verb ("isla never misses a day", ", isla drives me")
_CLAUSE_OPENER = re.compile(r"(?:^|\n|\]|[:.,!?;][ \t]*|\b(?:and|but|so|because)[ \t]+)[ \t]*([^\W\d_A-Z][\w\-]*)[ \t]+[a-z]")


@lru_cache(maxsize=4)
def _clause_openers(text: str) -> frozenset[str]:
    """The lower-case words that open a clause of ``text`` before another word (read once a text)."""
    return frozenset(fold(w).lower() for w in _CLAUSE_OPENER.findall(text))


def person_after_determiner(text: str, end: int, key: str = "") -> bool:
    """What follows a word after an article (at ``end``; ``key``: the word) says it is a person: a verb only a
    person does ("a sipho from your office called me"), a relative clause only a person heads ("the hamish who came
    with you", "the peterson i work with"), or a relative clause of mention when the dialog also writes the word
    bare as a clause's subject ("the isla i told you about is the one who drives me , isla never misses a day") or
    the sentence goes on about a person ("the whitfield you mentioned , is that your landlord ?", ", she ...")."""
    if _PERSON_VERB_AFTER.match(text, end) or _PERSON_CLAUSE_AFTER.match(text, end) or _AND_I_AFTER.match(text, end):
        return True
    m = _MENTION_CLAUSE_AFTER.match(text, end)
    return m is not None and (_PERSON_ASKED_AFTER.match(text, m.end()) is not None
                              or bool(key) and key in _clause_openers(text))


def thing_after_determiner(text: str, toks: Sequence[Tok], i: int) -> bool:
    """``toks[i]`` is a lower-case word right after an article or demonstrative, only spaces between: a thing ("the
    wixela", "an aircast", "a goodrx coupon"), but a family's name ("the dlamini family") and a person who says,
    asks, calls or thinks or whom a relative clause names (:func:`person_after_determiner`: "a sipho from your office
    called me", "the isla i told you about")."""
    return i > 0 and not toks[i].capital and toks[i - 1].key in _ARTICLES \
        and bool(_SPACES.fullmatch(text, toks[i - 1].end, toks[i].start)) \
        and not (i + 1 < len(toks) and toks[i + 1].key in _FAMILY) \
        and not person_after_determiner(text, toks[i].end, toks[i].key)  # "a sipho from your office called"


#: the word before "in" or "at" (1), "in" (2), "the" (3), the capitalised words of a place's name before ``t`` (4)
_PLACE_PREP = re.compile(r"(?:^|[^\w'’])(?:([A-Za-z]+)[ \t]+)?(?i:(in)|at)[ \t]+(?:((?i:the))[ \t]+)?"
                         r"((?:[A-Z][\w'’\-]*[ \t]+){0,2})$")
#: Words before "at" or "in" that take a person ("angry at Sipho", "looked at him", "confided in Thandeka"): verbs
#: that aim a look, a gesture, a sound or a throw at someone (every inflection, :func:`_inflections`: "waved at",
#: "glaring at", "swore at"), feelings one has at or in a person ("mad at", "disappointed in"), and trust put in one
_AIMED_VERBS = """look stare glance gaze peek peer point aim wave wink nod smile grin beam laugh giggle chuckle smirk
    frown glare scowl sneer yell shout scream holler swear curse bark snap snarl growl hiss whistle honk wave throw
    toss hurl fling lunge swing swat poke jab spit grab claw nag rage rail lash confide believe trust""".split()
_IRREGULAR = "threw thrown swore sworn flung swung spat shot".split()
_FEELINGS = """mad angry upset annoyed furious frustrated irritated cross pissed livid disappointed interested
    snappy rude mean nasty""".split()


def _inflections(base: str) -> set[str]:
    """A regular verb's forms ("wave": waves, waved, waving; "nod": nodded, nodding; "cry": cries, cried)."""
    e = base.endswith("e")
    out = {base, base + "s", base + ("d" if e else "ed"), (base[:-1] if e else base) + "ing"}
    if base.endswith(("s", "sh", "ch", "x", "z")):
        out.add(base + "es")  # "hisses", "lashes"
    if base.endswith("y") and base[-2] not in "aeiou":
        out |= {base[:-1] + "ies", base[:-1] + "ied"}
    if len(base) <= 4 and base[-1] not in "aeiouwy" and base[-2] in "aeiou" and base[-3] not in "aeiou":
        out |= {base + base[-1] + "ed", base + base[-1] + "ing"}  # "nodded", "grinning", "snapped"
    return out


_PERSON_PREP = frozenset().union(*(_inflections(b) for b in _AIMED_VERBS), _IRREGULAR, _FEELINGS)
#: the words before "at" that take a person (public: :mod:`.name_prep` reads a person there)
PERSON_AT = _PERSON_PREP
#: a possessive "'s" (:data:`.name_tokens.S_AFTER`), also written apart the way ACI-Bench's transcripts write it ("at
#: jyrki 's house"); the next word a possessive (a given name before its surname's: "at dale archer's", "at dale archer 's"), not
#: "it's", "that's", ...
_NEXT_POSSESSIVE = re.compile(r"(?i)[ \t]+(?!(?:it|that|there|who|what|he|she|here|where|how|let|one|this)[ \t]?['’]s\b)"
                              r"[^\W\d_][\w\-]*[ \t]?['’]s\b")


def place_after_preposition(text: str, t: Tok) -> bool:
    """``t`` stands right after "in" or "at" ("at dewey beach", "in kennesaw", "at the Hilton"), or is a capitalised
    word of a place's name so introduced ("at Taco Bell", "in Las Cruces"): a place, not a person; not before a
    possessive ("at Smith's", "in Jamal's room", "at dale archer's", ACI's "at jyrki 's house") nor before more
    persons and the last one's possessive ("at maria and jyrki's", "in Maria and her husband's room"), nor after
    a word that takes a person ("angry at Sipho", "confided in Thandeka", "loop in okafor")."""
    if S_AFTER.match(text, t.end) or _NEXT_POSSESSIVE.match(text, t.end):
        return False  # "at smith's", "at dale archer's barbecue"
    if shared_possessive(text, t.end):
        return False  # "at maria and jyrki's", "in maria and her husband's spare room"
    if not t.capital and _PERSON_ONLY_AFTER.match(text, t.end):
        return False  # a clause run on after "in": "as fast as i came in | nokuthula drove me here"
    m = _PLACE_PREP.search(text, max(0, t.start - 60), t.start)
    if m is None:
        return False
    before = (m.group(1) or "").lower()
    if before in _PERSON_PREP or m.group(2) and not m.group(3) and before in PERSON_IN_VERBS:
        return False  # "angry at Sipho", "loop in okafor"
    return not m.group(4) or t.capital
