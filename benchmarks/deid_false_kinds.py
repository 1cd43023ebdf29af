"""What a word that de-identification replaced in a real dialog is (issue 50: an honest false-replacement count).

The benchmark (``bench_deid_origin.py``) de-identifies every shared real dialog with no metadata and nothing put in;
every word it replaces as a name is either a true name the dialog has (a doctor, a relative, a friend) or a false
replacement. Each is sorted by the rule below, read off the original text around the word, independent of the
detector's own rules (a few word lists only: philter-ucsf's given names and surnames):

**name** — one of

* ``title``: after a title (Dr, Mr, Mrs, Ms, Mx, Miss, Mister, Missus, Prof, Professor, Doctor);
* ``naming``: in a naming context: after a greeting or thanks ("hi", "hello", "thank you"), "my name is", "this is",
  "call me", "I'm", "named"; after a relative, friend or staff word ("my son", "your friend ,", "the scheduler ,"); before
  a person's verb ("said", "called", "told", "asked", "ran", "thinks", "will") or "'s office"; addressed at an
  utterance's start ("dino , you're doing so good");
* ``multi-word``: a span of two words or more, each a given name or surname of the gazetteer ("Vincent Sanchez"),
  not in a place's context (below: "in Santa Cruz");
* ``known name``: one word capitalised in the original, not at a sentence's start, that is a given name of the
  gazetteer, not after a place's preposition ("in", "from", "near", "at", "to", "around", "outside", "visit");

* ``other mention``: the same word is a name by one of the rules above elsewhere in the dialog ("pamela said ...
  i saw pamela").

**non-name** — the rest, by kind: ``place`` (after a place's preposition, or before a place's word: "in Dallas",
"Dewey beach", "Columbus Georgia"), ``no list`` (the word is in none of the detector's lists: brands, misspellings,
small places: "wixela", "Asprin", "kennesaw"), ``gazetteer`` (a given name or surname with none of the contexts above:
"mcdonald's", "alfredo sauce"), ``common`` (another word).

The rule is a reading aid, not ground truth: docs/deidentification.md gives how many of each group were checked by
eye and how many were misread.
"""

from __future__ import annotations

import re

TITLES = r"dr|mr|mrs|ms|mx|miss|mister|missus|prof|professor|doctor"
_TITLE = re.compile(rf"(?i)\b(?:{TITLES})[ \t]*\.?[ \t]*$")
_NAMING_BEFORE = re.compile(
    r"(?i)(?:\b(?:hi|hello|hey|morning|afternoon|evening|thanks|bye|goodbye|welcome|named)|\bthank you|\bmy name is|"
    r"\bname's|\bthis is|\bcall me|\bi'm|\bi am|\b(?:my|his|her|our|your|their|the)[ \t]+(?:husband|wife|son|daughter|"
    r"mother|mom|mum|father|dad|brother|sister|aunt|uncle|cousin|niece|nephew|grandson|granddaughter|grandmother|"
    r"grandma|grandfather|grandpa|friend|boyfriend|girlfriend|partner|fiance|neighbor|neighbour|coworker|boss|"
    r"caregiver|nurse|assistant|scheduler|pa|np|therapist|surgeon|physician|doctor)|\b(?:friend|nurse|assistant|"
    r"scheduler|therapist|coordinator|pa|np)[ \t]*,)[ \t]*,?[ \t]*$")
#: addressed at an utterance's start: "dino , you're doing so good"
_VOCATIVE_AFTER = re.compile(r"(?i)^[ \t]*,[ \t]*(?:you|i|we|can|could|how|let's|let|are|do|did)\b")
_NAMING_AFTER = re.compile(r"(?i)^(?:['’]s)?[ \t]+(?:said|says|called|calls|told|tells|asked|ran|thinks|thought|"
                           r"recommended|referred|sent|will)\b|^['’]s[ \t]+office\b")
_PLACE_BEFORE = re.compile(r"(?i)\b(?:in|from|near|at|to|around|outside|visit|visiting)[ \t]+(?:the[ \t]+)?$")
_PLACE_AFTER = re.compile(r"(?i)^[ \t]*,?[ \t]*(?:beach|city|county|street|avenue|road|lake|park|river|island|"
                          r"georgia|texas|florida|california|ohio|virginia|carolina|washington|arizona|new york)\b")
_SENTENCE_START = re.compile(r"(?:^|[.!?:\]\n])[ \t\"'“(]*$")


def classify(text: str, start: int, end: int, first_names: frozenset[str], surnames: frozenset[str],
             in_a_list: bool) -> tuple[str, str]:
    """``(group, kind)`` of the word(s) ``text[start:end]`` that were replaced as a name: group ``name`` or
    ``non-name``, kind as in the module's docstring. ``in_a_list``: the word is in one of the detector's word lists
    (common, clinical, gazetteer); a word in none is ``no list`` unless a name's context says otherwise."""
    before, after, span = text[max(0, start - 60):start], text[end:end + 40], text[start:end]
    words = [w.lower() for w in re.findall(r"[^\W\d_]+(?:['’-][^\W\d_]+)*", span)]
    words = [re.sub(r"['’]s$", "", w) for w in words]
    if _TITLE.search(before):
        return "name", "title"
    if _NAMING_BEFORE.search(before) or _NAMING_AFTER.search(after) or (
            _VOCATIVE_AFTER.search(after) and _SENTENCE_START.search(before)):
        return "name", "naming"
    place = bool(_PLACE_BEFORE.search(before) or _PLACE_AFTER.search(after))
    if len(words) >= 2 and all(w in first_names or w in surnames for w in words) and not place:
        return "name", "multi-word"
    if (len(words) == 1 and span[:1].isupper() and not span.isupper() and words[0] in first_names and not place
            and not _SENTENCE_START.search(before)):
        return "name", "known name"
    if place:
        return "non-name", "place"
    if not in_a_list:
        return "non-name", "no list"
    if any(w in first_names or w in surnames for w in words):
        return "non-name", "gazetteer"
    return "non-name", "common"
