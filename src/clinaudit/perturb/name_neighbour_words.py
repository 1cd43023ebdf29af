"""Given names and surnames that are also words, right next to another part of a name found (issue 50, sixth
session; the third development set's "Sunday", "Per", "Ali", "Young Jae"). The neighbour rule of
:func:`.name_capital_neighbours.capital_neighbours` takes a word beside a name found unless the word lists call it never
a name (a function, demographic or drug word) or, in lower case, an everyday word; many names are such words in some
language: "ali", "mohamed", "sri", "tal", "blessing", "patience", "ho", "bo" (philter-ucsf's whitelist), "Per",
"Sunday", "Young", "Brown", "White", "Macula", "Arvin". Beside a name they are its part:

* lower case: a given name that English text uses less than Zipf 4.5 (:data:`.vocab.WORD_NAME_ZIPF`), no spoken
  form, even when the whitelist holds it ("my neighbour [fatima] ali", "is sri [wahyuni] your doctor");
  not "will", "may", "mark", "hope", "young", "smith" (used too often as words to be taken on a neighbour alone);
* cased text, inside a sentence: a capitalised word between two parts of a name ("[Kim] Young [Jae]"); a
  demographic word that is a gazetteer surname after a name ("[Fatima] Brown", "[Adaeze] White"), not before a
  person's noun ("[Mary] White woman"); a drug word that is a gazetteer name ("[Arvin] Santos", "[Rahul] Saha", not
  "[Mary] Tylenol"); before a name, a common or condition word capitalised where English writes it in lower case
  ("with Per [Hansen]", "Macula [Pierre]") and a day's name unless a time word stands before it ("with Sunday
  [Okafor]", not "On Sunday [Hansen] came"). Never a function word but a day's, "Young" or "Old"; never a specialty,
  an eponym, a relative's word or a spoken form.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .name_tokens import Tok, word_before
from .name_word import RELATIVES, Word, address_word_name, word_name
from .vocab import DAY_NAMES, OPEN_SURNAMES, SPOKEN_WORDS, english_zipf
from .word_pos import unread, verb_form

__all__ = ["NAME_FUNCTION", "PERSON_NOUNS", "cased_word_name", "lower_foreign_word", "lower_rare_word",
           "lower_word_name", "open_surname"]


#: function words that are also names, taken beside a name in cased text ("Kim Young Jae", "Sunday Okafor")
NAME_FUNCTION = DAY_NAMES | {"young", "old"}
#: before a day's name: a time, not a person ("on Sunday", "last Sunday", "every Sunday")
_TIME_BEFORE = frozenset("""on last next this every since until till by from before after of that each one a the
    since through thru or and""".split())
#: after a demographic word or "young": it describes a person ("a White woman", "dr . young man"), it is no surname
#: (also read by :mod:`.name_context` and :mod:`.name_roles`)
PERSON_NOUNS = frozenset("""man men woman women male males female females people person persons patient patients boy
    boys girl girls guy guys gentleman lady ladies adult adults child children kid kids family community american
    americans""".split())
#: before a capitalised word: a thing's or a place's name follows ("a Yellow Jacket Wasp", "to Healing Waters"); the
#: determiners with prepositions, unlike the determiner sets of name_mentions and name_prep (see name_mentions)
_THING_BEFORE = frozenset("""a an the this that these those my your his her our their its some any every no to at in
    into from of by near for per our""".split())
_WORD_AFTER = re.compile(r"^[ \t]+([A-Za-z]+)")


def open_surname(text: str, t: Tok) -> bool:
    """In lower case, ``t`` is a function word among the commonest surnames (:data:`.vocab.OPEN_SURNAMES`) that no
    person's noun follows: after a title or a role it is the surname ("mr . young next door", "coach young had us";
    not "dr . young man"; issue 50, twenty-seventh session)."""
    if t.key not in OPEN_SURNAMES or not t.text.islower():
        return False
    m = _WORD_AFTER.match(text[t.end:t.end + 30])
    return m is None or m.group(1).lower() not in PERSON_NOUNS


def lower_word_name(key: str) -> bool:
    """In lower case, ``key`` beside a name found is its part: a one-word given name English text uses less than
    :data:`.vocab.WORD_NAME_ZIPF` (whitelist or not), no clinical word nor spoken form (:func:`.name_word.word_name`)."""
    return word_name(key, given=True)


#: In lower case, a word the whitelist holds that English text writes less often than this is a name's part right
#: beside a name found ("we stayed at [eti] leota's", "my neighbour [nav] dhillon", "[ibe] okafor": short names of
#: many origins that philter-ucsf's whitelist lists as abbreviations or foreign words; issue 50, eighth session)
RARE_NEIGHBOUR_ZIPF = 3.0


def lower_rare_word(key: str, w: Word) -> bool:
    """In lower case, ``key`` (``w``: what the lists say of it) beside a name found is its part: a word of letters
    that no gazetteer holds, rarer in English text than :data:`RARE_NEIGHBOUR_ZIPF`, no clinical, function,
    demographic, relative's or spoken word, and no verb form a lexicon reads (:func:`.word_pos.verb_form`: "i faxed
    [qwertz] the form", "i paged [qwertz]": the verb; issue 50, twenty-seventh session)."""
    return key.isalpha() and len(key) >= 2 and not (w.gazetteer or w.clinical is not None or w.function
                                                     or w.demographic or w.eponym) \
        and key not in RELATIVES and key not in SPOKEN_WORDS and english_zipf(key) < RARE_NEIGHBOUR_ZIPF \
        and not verb_form(key)


def lower_foreign_word(key: str, w: Word) -> bool:
    """In lower case, :func:`lower_rare_word` that no English lexicon reads either (:func:`.word_pos.unread`): a word
    English writes seldom and never as its own ("eti", "ese", "sulu"; philter-ucsf's whitelist holds many such foreign
    words and abbreviations); a name where a person is named, not only beside a name found: after a role or a kin
    title ("auntie [eti]"), a greeting, "named" or a relative ("thanks , [ese] .", "my niece [ese]"), at a sentence's
    start before a name found ("[ese] [tuilagi] drove me"; twenty-seventh session)."""
    return lower_rare_word(key, w) and unread(key)


def cased_word_name(text: str, toks: Sequence[Tok], i: int, prev: bool, nxt: bool, w: Word) -> bool:
    """In cased text, the capitalised ``toks[i]`` (``w``: what the lists say of it), inside a sentence, right after
    (``prev``) and/or before (``nxt``) a name found, is the name's part though the lists call it a word that is never
    a name (the module's docstring)."""
    t = toks[i]
    # a given name of address or feeling before a name found: "Happy [Sandhu]", "Honey [Kaur]"
    addressed = w.function and nxt and not prev and address_word_name(t.key, w, beside=True)
    if not (t.capital and t.text[1:].islower()) or t.key in RELATIVES or t.key in SPOKEN_WORDS or w.eponym \
            or w.clinical == "specialty" or (w.function and t.key not in NAME_FUNCTION and not addressed):
        return False  # a function word but "Happy [Sandhu]", "Honey [Kaur]" (a given name of address or feeling)
    if prev and nxt:  # "[Kim] Young [Jae]"
        return True
    if w.clinical == "drug":  # "[Arvin] Santos", "[Rahul] Saha"; not "gave [Mary] Tylenol"
        return w.gazetteer
    before = word_before(text, t.start)  # the word right before, only spaces between
    if t.key in DAY_NAMES:  # "with Sunday [Okafor]"; not "On Sunday [Hansen] came", "[Okafor] Sunday"
        return nxt and not prev and before.islower() and before not in _TIME_BEFORE
    if addressed:
        return before.lower() not in _THING_BEFORE  # "Happy [Sandhu] drives me", "with Honey [Kaur]"; not "the Happy [Kelly]"
    if w.demographic or w.function:  # "[Fatima] Brown", "[Adaeze] White"; not "[Mary] White woman"
        a = _WORD_AFTER.match(text[t.end:t.end + 30])
        return prev and w.gazetteer and (a is None or a.group(1).lower() not in PERSON_NOUNS)
    # a common or condition word capitalised inside a sentence before a name, after a lower-case word that puts no
    # thing or place there: "with Per [Hansen]", "spoke with Macula [Pierre]"; not "a Yellow Jacket [Wasp]", "went to
    # Healing [Waters]", "a Codman [Hakim] shunt"
    return nxt and not prev and (w.common or w.clinical is not None) and before.islower() \
        and before not in _THING_BEFORE
