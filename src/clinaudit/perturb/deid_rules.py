"""Two de-identification rules of :func:`clinaudit.perturb.deid.deidentify_text` (issue 31):

* :func:`address_spans` — gendered forms of address ("sir", "ma'am", "madam", "mister", "missus"; "miss",
  "young man", "young lady" only where they address someone) are gendered titles: they are removed as
  "Mr."/"Mrs." are, keeping the sentence readable ("Good afternoon, sir." → "Good afternoon.", "Yes sir, it
  hurts" → "Yes, it hurts", "Ma'am, are you okay?" → "Are you okay?", "mister [NAME]" → "[NAME]").
* :func:`first_person_age_spans` — a speaker's own age ("I'm 45", "I am forty five years old", "I just turned
  60", "I'll be sixty") is an explicit age: the number becomes ``[AGE]``. Numbers that are not ages are left:
  a measure or unit after the number ("I'm 5 foot 6", "I'm 150 pounds", "I'm 120 over 80", "I'm eight years
  out from surgery"), another number after it ("I'm five ten", "I am two eighty four"), a time ("I'm 10:30"),
  a number under ten unless "years old" follows ("I'm one of them", "I'm two doors down"), a decimal.
  :func:`birthday_age_spans`: the ordinal of a birthday ("your forty first birthday") is an age too.

Both return spans on the text; :func:`~clinaudit.perturb.deid.deidentify_text` applies them with its other
rules and records each replacement (category ``address`` / ``age``, source ``rule``).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from bisect import bisect_right
from functools import lru_cache
from itertools import accumulate
from typing import cast

from .text_scan import by_first_letter, letter_first, remembered

__all__ = ["NUM_WORD", "NUM", "ADDRESS_RESIDUAL", "ADDRESS_RESIDUAL_LOWER", "INVISIBLE", "Positions", "normalise", "pattern_spans", "pattern_set_spans", "lower_view", "case_sensitive", "lines_holding", "scan_lines", "address_spans", "first_person_age_spans", "birthday_age_spans", "find_first_person_ages"]

#: A number written in words (up to ninety-nine, "hundred").
NUM_WORD = (
    r"(?:(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:[- ](?:one|two|three|four|five|six|seven|eight|nine))?"
    r"|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|"
    r"eighteen|nineteen|hundred(?: and \w+)?)"
)
#: A number in digits (1–3) or words.
NUM = rf"(?:\d{{1,3}}|{NUM_WORD})"

# --------------------------------------------------------------------------- forms of address

#: Words that are forms of address wherever they stand: sir, ma'am / ma’am / maam, madam / madame, mister, missus.
_ALWAYS_WORDS = ("sir", "ma['’]?am", "madame?", "mister", "missus")
_ALWAYS = f"(?:{'|'.join(_ALWAYS_WORDS)})"
_NOT_BEFORE_ADDRESS = r"\w'-"
# Address only in a vocative position (they are also ordinary words: "I miss work", "a young man").
_VOCATIVE_ONLY = r"(?:miss|young man|young lady)"
_WORD_END = r"(?![\w'’-])"
# What may follow a vocative at the end of its clause: punctuation (ACI's tokenised text puts a space before it)
# or the end of the line.
_CLAUSE_END = r"(?=[ \t]*(?:[.,!?;:]|$))"
_GREETING = (r"(?:hi|hello|hey|thanks|thank you|yes|no|yeah|yep|nope|sorry|pardon|morning|afternoon|evening|"
             r"night|okay|ok|alright|welcome|bye|goodbye|excuse me)")
# after a word: ", sir." / " sir?" / ", sir, and ..." -> the separator and the word go
_AFTER_ALWAYS = re.compile(rf"(?im)(?<=[\w\])'’])(?P<x>[ \t]*,[ \t]*|[ \t]+)(?P<w>{_ALWAYS}){_WORD_END}{_CLAUSE_END}")
_AFTER_VOCATIVE = re.compile(rf"(?im)(?<=[\w\])'’])(?P<x>[ \t]*,[ \t]*)(?P<w>{_VOCATIVE_ONLY}){_WORD_END}{_CLAUSE_END}")
# right after a greeting: "thank you miss.", "Hello, miss how can I help?", "hi miss X Y Z"
_AFTER_GREETING = re.compile(rf"(?im)\b{_GREETING}(?P<x>[ \t]*,[ \t]*|[ \t]+)(?P<w>{_VOCATIVE_ONLY}){_WORD_END}")
# at the start of an utterance or sentence: "Ma'am, are you ..." / "[doctor] sir , let ..." -> the word, its
# punctuation and spaces go; the next word is capitalised when the form of address was
_START = re.compile(
    rf"(?im)(?:^|(?<=[.!?:\]])[ \t]+|^[ \t]+)(?P<w>{_ALWAYS}|{_VOCATIVE_ONLY}){_WORD_END}"
    r"(?P<post>[ \t]*[,.!?;:]+[ \t]*|[ \t]*$)"
)
_START_BARE = re.compile(rf"(?im)(?:^|(?<=[.!?:\]])[ \t]+)(?P<w>{_ALWAYS}){_WORD_END}(?P<post>[ \t]+)")
_CLAUSE_END_RE = re.compile(_CLAUSE_END, re.MULTILINE)
_AFTER_PLACEHOLDER = re.compile(r"\[(?:NAME|AGE)\][ \t]*$")
_ANY_ALWAYS = re.compile(rf"(?i)(?<![\w'’-]){_ALWAYS}{_WORD_END}")
#: The residual check's pattern for those words (deid.find_residual_identifiers: reported as ``gendered_term``);
#: a straight apostrophe or hyphen next to the word makes it part of another word, a curly one does not
#: ("sir’s" is reported, though :func:`address_spans` leaves it in place).
ADDRESS_RESIDUAL = re.compile(rf"(?i)(?<![{_NOT_BEFORE_ADDRESS}]){_ALWAYS}(?![\w'-])")
_TITLE_MISS = re.compile(r"(?<![\w'’-])Miss(?=[ \t]+(?:[A-Z]|\[NAME\]))")


def address_spans(text: str, lower: str | None = None) -> list[tuple[int, int, bool]]:
    """Gendered forms of address in ``text``: ``(start, end, capitalise_next)`` to delete, sorted, no overlaps.

    A span after a word takes the separator before it (", sir" in "Yes, sir, it hurts"); at the start of an
    utterance or sentence it takes the punctuation and spaces after it, and ``capitalise_next`` says the next
    word was capitalised there ("Sir, are you" → "Are you"); elsewhere the word alone (the caller deletes one
    adjacent space: "mister [NAME]", "yes ma'am i did" in unpunctuated speech). "miss", "young man" and
    "young lady" count only as a vocative: after a comma or a greeting ("thank you miss.", "Good morning, young
    man.") and before punctuation or the line's end, or at an utterance's start before a comma; and "Miss"
    before a name ("Miss XYZ"). ``lower``: :func:`lower_view` of ``text`` when the caller made it."""
    spans: list[tuple[int, int, bool]] = []
    # the case-insensitive patterns read case-sensitively on the lower-case view, which matches at the same places
    # (issue 50, Build 3: several times faster; a capital is read on the text)
    view = lower_view(text) if lower is None else lower
    on, (start_rx, start_bare, after_always, after_vocative, after_greeting, any_always) = (
        (text, _CASED) if view is None else (view, _ON_LOWER))
    lines = lines_holding(on, _ADDRESS_WORD if view is None else _ADDRESS_WORD_LOWER)
    for m in scan_lines(start_rx, on, lines):
        w, post = m.group("w"), m.group("post")
        if (re.fullmatch(_VOCATIVE_ONLY, w, re.IGNORECASE) and "," not in post) or _AFTER_PLACEHOLDER.search(
                text, max(0, m.start("w") - 40), m.start("w")):
            continue  # "[NAME] sir." is a vocative after a word (below), not an utterance's start
        # nothing follows on its line: the spaces before it go too ("[patient] ma'am" -> "[patient]")
        start, end = (m.start("w") if text[m.end("post"):m.end("post") + 1].strip() else m.start()), m.end("post")
        spans.append((start, end, text[m.start("w")].isupper()))
    for m in scan_lines(start_bare, on, lines):
        spans.append((m.start("w"), m.end("post"), text[m.start("w")].isupper()))
    for m in scan_lines(after_always, on, lines):
        spans.append((m.start("x"), m.end("w"), False))
    for m in scan_lines(after_vocative, on, lines):
        spans.append((m.start("x"), m.end("w"), False))
    for m in scan_lines(after_greeting, on, lines):  # "Hello, miss how" -> "Hello, how"; "Hi miss." -> "Hi."
        end_clause = _CLAUSE_END_RE.match(text, m.end("w"))  # not on a copy of the rest of the text
        spans.append((m.start("x"), m.end("w"), False) if end_clause else (m.start("w"), m.end("w"), False))
    for m in scan_lines(any_always, on, lines):
        spans.append((m.start(), m.end(), False))
    for m in scan_lines(_TITLE_MISS, text, lines):
        spans.append((m.start(), m.end(), False))
    spans.sort(key=lambda s: (s[0], -(s[1] - s[0])))
    out: list[tuple[int, int, bool]] = []
    for s in spans:
        if out and s[0] < out[-1][1]:
            continue
        out.append(s)
    return out


#: A piece of every form of address (each match of the patterns above holds one, on one line).
_ADDRESS_WORD = re.compile(r"sir|mis|ma['’]?am|madam|young", re.IGNORECASE)


def lines_holding(on: str, word: re.Pattern[str]) -> list[tuple[int, int]]:
    """The lines of ``on`` (start, end after the newline) that hold a match of ``word``: a piece of a form of address
    (:func:`address_spans`) or of another pattern that spans no line, the only places that pattern can match, read
    instead of the whole text (:func:`scan_lines`; issue 50, Build 3: the address patterns, a look-behind first,
    were tried at each of the 1,000,000 positions of a 1 MB dialog)."""
    lines: list[tuple[int, int]] = []
    for m in word.finditer(on):
        p = m.start()
        if lines and p < lines[-1][1]:
            continue
        end = on.find("\n", p)
        lines.append((on.rfind("\n", 0, p) + 1, len(on) if end < 0 else end + 1))
    return lines


def scan_lines(rx: re.Pattern[str], on: str, lines: list[tuple[int, int]]) -> Iterable[re.Match[str]]:
    """``rx.finditer(on)`` on ``lines`` only (its look-behinds and "^" read the text before a line as before)."""
    for a, b in lines:
        yield from rx.finditer(on, a, b)


def case_sensitive(rx: re.Pattern[str]) -> re.Pattern[str]:
    """``rx`` without its case-insensitive flag (inline or not), to read :func:`lower_view`'s text: a pattern written
    in lower case matches there where ``rx`` matches the text (the tests check it over every code point)."""
    pattern = re.sub(r"^\(\?([a-z]*)\)", lambda m: f"(?{m.group(1).replace('i', '')})" if m.group(1) != "i" else "",
                     rx.pattern)
    return re.compile(pattern, rx.flags & ~re.IGNORECASE)


_CASED = (_START, _START_BARE, _AFTER_ALWAYS, _AFTER_VOCATIVE, _AFTER_GREETING, _ANY_ALWAYS)
_ON_LOWER = tuple(map(case_sensitive, _CASED))
_ADDRESS_WORD_LOWER = case_sensitive(_ADDRESS_WORD)


# --------------------------------------------------------------------------- first-person ages

# "I'm", "I am (only/almost/...)", "I (just) turned", "I'll be", "I'm going to be"
_AGE_LEAD = (
    r"\bi(?:['’]m|\s+am)(?:\s+(?:almost|nearly|about|around|only|just|now|still|over|actually|already))?"
    r"|\bi\s+(?:just\s+|recently\s+|only\s+)?turned|\bi(?:['’]ll|\s+will)\s+(?:be|turn)"
    r"|\bi(?:['’]m|\s+am)\s+(?:going\s+to|gonna|gon\s+na|about\s+to)\s+(?:be|turn)"
)
# an age without "years old": ten or more (a number under ten after "I'm" is rarely an age: "I'm one of them")
_AGE_NUM = (r"(?:1[01]\d|[1-9]\d|(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)"
            r"(?:[- ](?:one|two|three|four|five|six|seven|eight|nine))?|ten|eleven|twelve|thirteen|fourteen|"
            r"fifteen|sixteen|seventeen|eighteen|nineteen)")
_YEARS_OLD = r"[ \t]*-?[ \t]*(?:years?|yrs?)(?:[- ](?:old|young)|\s+of\s+age)"
# what after the number says it is not an age
_NOT_AGE = (
    r"(?![ \t]*(?:%|[/:.,]\d|-\w|['’\"]|\d|\w*\d))"  # 5'6", 120/80, 10:30, 98.6, 45-50
    rf"(?![ \t]+(?:{NUM_WORD}|percent|per|pounds?|lbs?|kg|kilos?|kilograms?|stones?|grams?|g|mg|milligrams?|mcg|"
    r"ml|cc|units?|feet|foot|ft|inch(?:es)?|cm|centimet(?:er|re)s?|met(?:er|re)s?|miles?|km|degrees?|times|x|"
    r"o['’]?clock|am|pm|a\.m|p\.m|minutes?|mins?|hours?|hrs?|seconds?|secs?|days?|weeks?|months?|years?|yrs?|"
    r"over|out|of|for|point|and\s+a\s+half|to|or|through|thru|plus|weeks?|steps|floors?|blocks?|doors?|drinks?|"
    r"cigarettes?|packs?|beers?|cups?|glasses|pills?|tablets?|puffs?|sessions?|visits?|kids|children)\b)"
)
_FIRST_PERSON_AGE = re.compile(
    rf"(?i)(?:{_AGE_LEAD})[ \t]+(?P<age>{NUM}{_YEARS_OLD}|{_AGE_NUM}(?:{_YEARS_OLD})?)\b{_NOT_AGE}"
)


def first_person_age_spans(text: str, lower: str | None = None) -> list[tuple[int, int]]:
    """The age in each first-person statement of age (the number, with "years old" / "years of age" when it
    follows): ``(start, end)``, sorted (read on :func:`lower_view`, ``lower`` when the caller made it)."""
    view = lower_view(text) if lower is None else lower
    if view is None:
        return [m.span("age") for m in _FIRST_PERSON_AGE.finditer(text)]
    return [m.span("age") for m in _FIRST_PERSON_AGE_LOWER.finditer(view)]


_ORDINAL = (
    r"(?:(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)[- ](?:first|second|third|fourth|fifth|sixth|"
    r"seventh|eighth|ninth)|(?:twent|thirt|fort|fift|sixt|sevent|eight|ninet)ieth|tenth|eleventh|twelfth|"
    r"(?:thir|four|fif|six|seven|eigh|nine)teenth|[1-9]\d(?:st|nd|rd|th)|1[01]\d(?:st|nd|rd|th))"
)
_BIRTHDAY_AGE = re.compile(rf"(?i)(?<![\w-])(?P<age>{_ORDINAL})(?=[ \t]+birthday\b)")


def birthday_age_spans(text: str, lower: str | None = None) -> list[tuple[int, int]]:
    """The ordinal of a birthday ("your forty first birthday", "her 36th birthday"): an explicit age (read on
    :func:`lower_view`, ``lower`` when the caller made it)."""
    view = lower_view(text) if lower is None else lower
    if view is None:
        return [m.span("age") for m in _BIRTHDAY_AGE.finditer(text)]
    # only the lines that hold "birthday" (the pattern spans no line; issue 50, Build 3: not the whole text)
    return [m.span("age") for m in scan_lines(_BIRTHDAY_AGE_LOWER, view, lines_holding(view, _BIRTHDAY))]


_BIRTHDAY_AGE_LOWER = case_sensitive(_BIRTHDAY_AGE)
_BIRTHDAY = re.compile("birthday")


def find_first_person_ages(text: str, lower: str | None = None) -> list[tuple[int, int]]:
    """Whole first-person age statements ("I'm forty two"): ``(start, end)``, for the residual check (read on
    :func:`lower_view`, ``lower`` when the caller made it)."""
    view = lower_view(text) if lower is None else lower
    if view is None:
        return [m.span() for m in _FIRST_PERSON_AGE.finditer(text)]
    return [m.span() for m in _FIRST_PERSON_AGE_LOWER.finditer(view)]


# "\bi" written "i(?<!\wi)": the pattern begins with the letter, which the engine searches for (issue 50, ninth session)
_FIRST_PERSON_AGE_LOWER = case_sensitive(re.compile(_FIRST_PERSON_AGE.pattern.replace(r"\bi", r"i(?<!\wi)")))
#: :data:`ADDRESS_RESIDUAL` on :func:`lower_view` (its letters first: :func:`.text_scan.letter_first`)
ADDRESS_RESIDUAL_LOWER = re.compile(rf"{letter_first(_ALWAYS_WORDS, _NOT_BEFORE_ADDRESS)}(?![\w'-])")


# --------------------------------------------------------------------------- reading the text (issue 50)

#: Characters that hide inside a word without showing: zero-width spaces and joiners, the soft hyphen, the
#: bidirectional controls (LRM/RLM, embeddings, overrides, isolates), word joiners, variation selectors, the BOM.
INVISIBLE = re.compile("[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e"
                       "\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0]")
_NON_ASCII = re.compile(r"[^\x00-\x7f]+")


class Positions:
    """For each character of a normalised text, a position in the original (:func:`normalise`), kept as runs: a
    stretch of unchanged text maps position for position, the characters of one changed cluster all to one position
    (issue 50, Build 3: not a number a character, two lists of a million numbers for a 1 MB dialog)."""

    def __init__(self) -> None:
        self._at: list[int] = []  # where each run starts in the normalised text
        self._to: list[int] = []  # the original position of the run's first character
        self._step: list[int] = []  # 1: unchanged text, position for position; 0: one cluster's characters
        self._len = 0

    def add(self, to: int, n: int, step: int) -> None:
        """``n`` more characters, the first mapped to ``to``, each next one ``step`` further."""
        if n > 0:
            self._at.append(self._len)
            self._to.append(to)
            self._step.append(step)
            self._len += n

    def __len__(self) -> int:
        return self._len

    def __getitem__(self, i: int) -> int:
        if i < 0:
            i += self._len
        if not 0 <= i < self._len:
            raise IndexError(i)
        k = bisect_right(self._at, i) - 1
        return self._to[k] + (i - self._at[k]) * self._step[k]


def normalise(text: str) -> tuple[str, Positions, Positions] | None:
    """``text`` as de-identification reads it: characters that hide inside a word (:data:`INVISIBLE`) dropped, each
    letter with its combining marks in NFKC form ("Ｎｇｕｙｅｎ" -> "Nguyen", "e" + U+0301 -> "é"); with, for each of
    its characters, the start and end of the original characters it comes from (:class:`Positions`). None when
    nothing changes (ASCII text, the common case). Linear in the text's length."""
    if text.isascii():
        return None
    pieces: list[str] = []
    starts, ends = Positions(), Positions()
    pos = 0
    changed = False
    for m in _NON_ASCII.finditer(text):
        a, b = m.span()
        if a > 0 and unicodedata.combining(text[a]):
            a -= 1  # the letter before a combining mark joins its cluster
        if a > pos:
            pieces.append(text[pos:a])
            starts.add(pos, a - pos, 1)
            ends.add(pos + 1, a - pos, 1)
        i = a
        while i < b:  # one cluster: a character, its combining marks (invisible characters inside skipped)
            j = i + 1
            while j < b and (unicodedata.combining(text[j]) or INVISIBLE.match(text[j])):
                j += 1
            raw = text[i:j]
            visible = INVISIBLE.sub("", raw)
            form = unicodedata.normalize("NFKC", visible) if visible else ""
            changed = changed or form != raw
            pieces.append(form)
            starts.add(i, len(form), 0)
            ends.add(j, len(form), 0)
            i = j
        pos = b
    if not changed:
        return None
    pieces.append(text[pos:])
    starts.add(pos, len(text) - pos, 1)
    ends.add(pos + 1, len(text) - pos, 1)
    return "".join(pieces), starts, ends


def pattern_spans(text: str, patterns: tuple[str, ...], lower: str | None = None) -> list[tuple[int, int]]:
    """Every match of every pattern in ``text`` (whole words; each pattern on its own, so matches of two patterns may
    overlap and the caller keeps the longest; a pattern's ``x`` group, when it has one, is the span). One scan finds
    the word starts where some pattern may match (:func:`_compiled`); each pattern is tried there only, which keeps
    the time linear in the text (issue 50: 80 patterns scanned the whole text one after another). ``lower``:
    :func:`lower_view` of ``text`` when the caller made it."""
    return pattern_set_spans(text, (patterns,), lower)[0]


def pattern_set_spans(text: str, sets: Sequence[tuple[str, ...]], lower: str | None = None
                      ) -> list[list[tuple[int, int]]]:
    """:func:`pattern_spans` of each of ``sets`` (the age, life-stage and origin patterns), the word starts where one
    of them may match found by one scan for all (issue 50, Build 3: one scan of a 1 MB dialog, not three); a
    set's patterns tried at another set's word starts match nothing there (each word start is found by the patterns
    themselves, a superset of their matches)."""
    patterns = tuple(p for ps in sets for p in ps)
    compiled, view_starts, others = _compiled(patterns)
    view = lower_view(text) if lower is None else lower
    if view is None or view_starts is None:
        positions: Iterable[int] = (m.start() for m in _any_case_starts(patterns).finditer(text))
    else:
        # the word starts read case-sensitively on the lower-case view (issue 50, Build 3: the case-insensitive
        # alternation of 60 words tried at each of the 190,000 words of a 1 MB dialog was six times slower)
        found = [m.start() for m in view_starts.finditer(view)]
        if others is not None:
            found = sorted(set(found).union(m.start() for m in others.finditer(text)))
        positions = (p for p in found if _WORD_START.match(text, p))
    out: list[list[tuple[int, int]]] = [[] for _ in sets]
    bounds = list(accumulate(map(len, sets), initial=0))  # set k's patterns: compiled[bounds[k]:bounds[k + 1]]
    for pos in positions:
        for k, spans in enumerate(out):
            for pat in compiled[bounds[k]:bounds[k + 1]]:
                mm = pat.match(text, pos)
                if mm is not None:
                    spans.append(mm.span("x") if "x" in mm.groupdict() else mm.span())
    return out


_WORD_START = re.compile(r"(?<![\w-])(?=\w)")
# the characters that a case-insensitive pattern's "i" or "s" matches and str.lower() does not make one (checked by
# the tests over every code point): a lower-case view with them mapped matches where the pattern does
_CASE_EXTRA = str.maketrans({"\u0130": "i", "\u0131": "i", "\u017f": "s"})


def lower_view(text: str) -> str | None:
    """``text`` in lower case, position for position (:func:`pattern_spans` finds where its patterns may match
    there); None when lower-casing changes a length (never in practice: "İ" is mapped to "i" first). Made once a
    text (:func:`.text_scan.remembered`: the rules asked for it again; issue 50, eleventh session)."""
    answers = remembered(text)
    if "lower_view" not in answers:
        answers["lower_view"] = _lower_view(text)
    return cast("str | None", answers["lower_view"])


def _lower_view(text: str) -> str | None:
    if not text.isascii() and ("\u0130" in text or "\u0131" in text or "\u017f" in text):
        text = text.translate(_CASE_EXTRA)
    low = text.lower()
    return low if len(low) == len(text) else None


def _alternation(patterns: Iterable[str]) -> str:
    return "|".join(f"(?:{p.replace('(?P<x>', '(?:')})" for p in patterns)


@lru_cache(maxsize=16)
def _any_case_starts(patterns: tuple[str, ...]) -> re.Pattern[str]:
    """One pattern whose (empty) matches are the word starts where any of ``patterns`` may match (case-insensitive,
    group names dropped; one scan in the regex engine, not a call per word): for a text without a lower-case view
    (compiled only then: issue 50, eleventh session)."""
    return re.compile(rf"(?<![\w-])(?=\w)(?=(?:{_alternation(patterns)}))", re.IGNORECASE)


@lru_cache(maxsize=16)
def _compiled(patterns: tuple[str, ...]) -> tuple[list[re.Pattern[str]], re.Pattern[str] | None,
                                                  re.Pattern[str] | None]:
    """Each of ``patterns`` compiled (case-insensitive unless it has an ``x`` group: "from Mexico" must be
    capitalised); then the word starts where one may match (:func:`_any_case_starts`'s) found faster (issue 50,
    Build 3): the patterns written in lower case read case-sensitively on :func:`lower_view` (a class ``[A-Z]`` read
    as ``[A-Za-z]``: a superset of the word starts), the others case-insensitively on the text (None when there are
    none)."""
    compiled = [re.compile(rf"(?:{p})(?![\w])", re.IGNORECASE if "(?P<x>" not in p else 0) for p in patterns]
    lower = [p for p in patterns if not re.search(r"[A-Z]", re.sub(r"\\.|\[A-Z\]|\(\?P<\w+>", "", p))]
    rest = [p for p in patterns if p not in lower]
    # grouped by first letter (:func:`.text_scan.by_first_letter`; issue 50, eleventh session: 1.6 times faster)
    in_view = by_first_letter(p.replace("(?P<x>", "(?:").replace("[A-Z]", "[A-Za-z]") for p in lower)
    view_starts = re.compile(rf"(?<![\w-])(?=\w)(?=(?:{in_view}))")
    others = re.compile(rf"(?<![\w-])(?=\w)(?=(?:{_alternation(rest)}))", re.IGNORECASE) if rest else None
    return compiled, view_starts if lower else None, others
