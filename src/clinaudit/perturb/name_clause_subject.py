"""A name that is a word, standing bare as the subject of a verb only a person does, at the start of a clause inside a
turn (issue 50, eleventh session). In lower-case speech a name that is also a word ("penny", "hunter", "baxter")
carries no capital, and a count noun needs a determiner before it as a subject ("the hunter said"), a mass noun says,
thinks and reckons nothing. So, in lower case, such a word with nothing before it but the start of a clause, and a
verb of saying, knowing, wanting or messaging after it (an adverb maybe between), is a person, whatever the words
around say:

* **after a word that opens a clause**: a conjunction ("but penny said it was fine", "because hunter wants ..."),
  a filler or a sentence adverb ("apparently baxter thinks", "even penny noticed", "only penny knows", "well ,
  penny thinks", "um , penny said"), a verb that reports a clause ("she said penny had ...": "had" is no such verb,
  "my husband says hunter told him", "they told me baxter rang");
* **after a comma, a full stop or at a turn's start** before a quotative ("penny goes , you need ...", "penny was
  all , ...", "hunter was like , ...": a comma after the verb), or before one of the verbs above that
  :mod:`.name_slots` does not read at a sentence's start ("penny reckons", "penny noticed", "baxter explained").

The word: a gazetteer given name or surname English text uses less than Zipf 4.5, no clinical, function,
demographic, relative's or spoken word, no eponym (:func:`.name_word.word_name`), or, in lower-case text, an English
word no name list holds (:func:`.name_given_words.plain_word_name`: "but peg said it was fine"; twenty-fourth
session); never a word of address ("honey said"), a day or a month; never where the detector says no person stands
(``kind`` None); a word in no list is not read (other rules take it: no dev17 form loses one in lower case). Not "the hunter said", "my penny thinks" (a determiner: another module's), "and rose
said" ("rose" is too frequent a word), "the pain goes , then ..." (no name), "and salt knows" (no name). Words first:
only the places of the words that may be such a name, followed by such a verb, are read. Used by :mod:`.name_detect`
(source ``rule``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from .name_bare_person import BareWords, bare_word_places
from .name_clause_opens import gap_opens_clause
from .name_tokens import Tok, ends_of, starts_of, texts_of

__all__ = ["PERSON_VERBS", "clause_subject_names"]

#: verbs only a person does, after their subject (:mod:`.name_detect` takes none of them, in lower case, for a
#: surname after a name found: "[holly] rang the ward")
PERSON_VERBS = _VERBS = frozenset("""said says told tells thinks thought reckons reckoned knows knew wants wanted mentioned mentions
    suggested suggests asked asks noticed notices explained explains promised promises decided decides insisted
    insists agreed agrees complained complains texted texts phoned phones rang rings emailed messaged drove drives
    worries reckon""".split())
#: quotatives: a person's speech follows after a comma ("penny goes , you need", "penny was all , ...")
_QUOTE = re.compile(r"[ \t]+(?:goes|went|was[ \t]+(?:like|all)|is[ \t]+(?:like|all))[ \t]*,")
#: adverbs that may stand between the subject and its verb ("penny usually says", "hunter never told me")
_ADVERBS = frozenset("usually always never just also even still actually really already apparently probably".split())
#: the words that may follow the name in these slots: a verb, an adverb, a quotative's first word (read first)
_FOLLOW = _VERBS | _ADVERBS | {"goes", "went", "was", "is"}
#: words after which a clause starts (its subject next): conjunctions, fillers, sentence adverbs, verbs reporting a
#: clause and the "me" of "told me"; this rule's own, measured with it (not :data:`.name_clause_opens.OPENERS`)
_OPENERS = frozenset("""and but that because cause cos since before after when while until if so once unless though
    although whereas then also apparently honestly anyway plus even only well oh like um uh er erm hmm mean know said
    says saying think thought guess reckon remember heard hope me""".split())


def _verb_after(texts: list[str], text: str, ends: list[int], starts: list[int], i: int) -> str | None:
    """``"verb"`` when a verb of :data:`_VERBS` follows word ``i`` (an adverb maybe between, spaces only), ``"quote"``
    when a quotative does, else None."""
    if _QUOTE.match(text, ends[i]):
        return "quote"
    j = i + 1
    if j < len(texts) and texts[j] in _ADVERBS and not text[ends[i]:starts[j]].strip():
        j += 1
    if j < len(texts) and texts[j] in _VERBS and not text[ends[j - 1]:starts[j]].strip():
        return "verb"
    return None


def clause_subject_names(text: str, toks: Sequence[Tok], kind: Callable[[str, Tok], str | None],
                         unlisted: Callable[[str], bool], bare: BareWords | None = None) -> list[Tok]:
    """The lower-case words that stand bare as a clause's subject before a person's verb (the module's docstring).
    ``toks``: the text's words; ``kind``: what the detector knows of a word where it stands
    (:func:`.name_slots.person_slots`'s); ``unlisted(word)``: a word in no list."""
    bare = bare or bare_word_places(toks, unlisted)
    named, places = bare.clause | bare.plain, bare.places
    if not places:
        return []
    texts = texts_of(toks)
    starts, ends = starts_of(toks), ends_of(toks)
    n = len(texts)
    out: list[Tok] = []
    for i in places:
        if texts[i] not in named or i + 1 >= n or texts[i + 1] not in _FOLLOW:  # not only name_bare_person's word
            continue
        verb = _verb_after(texts, text, ends, starts, i)
        if verb is None:
            continue
        s, e, word = starts[i], ends[i], texts[i]
        if not gap_opens_clause(text, texts, starts, ends, i, _OPENERS):  # "anyway , penny", "[patient] penny"
            continue
        t = Tok(s, e, word, word)
        if kind(text, t) in ("gazetteer", "word"):  # "word": one of ``bare.plain``, in lower-case text
            out.append(t)
    return out
