"""A name that is a word, standing bare as the object of a verb whose object is a person (issue 50, eleventh session).
In lower-case speech a name that is also a word ("penny", "hunter", "holly") carries no capital; a count noun as an
object needs a determiner ("i called the hunter", "gave the penny to"), and a mass noun is not called, texted,
invited, trusted or missed, nor given something. So, in lower case, such a word right after such a verb, the verb
said by someone ("i", "we", "you", "she", "i'll", "can", "to", "please": not "it's called holly"), is a person:

* **contacted, invited, trusted, missed, met** (called, phoned, rang, texted, emailed, messaged, paged, invited,
  bothered, trusted, missed, met, thanked, reminded, warned; any tense; not "help", which takes a verb, "help
  moisturize", nor "visit", which takes a place, "visited chester"), before the
  clause's end or a word that ends the object ("i called penny as soon as", "i'll page baxter and see", "i don't
  want to bother penny with this", "we can invite holly to the meeting", "i miss ivy a lot");
* **given something** (give, send, show, hand, pass, lend, bring, buy, get, teach, text, email; any tense) before a
  possessive, "the", "some", "this" or "how", "what", "where", "when" ("i gave penny my spare key", "can you text
  holly the time", "please send baxter a copy": "a" only after a verb that is no "give", whose "give X a try" gives a
  thing; "i'll show penny how to use it").

The word: a gazetteer given name or surname English text uses less than Zipf 4.5, no clinical, function,
demographic, relative's or spoken word, no eponym (:func:`.name_word.word_name`); never a word of address ("give
honey a ...", "thanks love"), a day or a month; never where the detector says no person stands (``kind`` None); a
word in no list is not read (other rules take it where a person stands; a first version took the real dialogs' "which
we call hyperaldosterone" and "help moisturize"). Not "it's called holly", "i called the hunter", "give ginger a
try", "i miss rose" ("rose" is too frequent a word). Words first: only the places of the words that may be such a name,
right after such a verb, are read. Used by :mod:`.name_detect` (source ``rule``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from .name_bare_person import ADDRESS_WORDS, BareWords, bare_word_places
from .name_tokens import Tok, ends_of, starts_of, texts_of

__all__ = ["bare_object_names"]

#: verbs whose object is a person (contacted, invited, trusted, missed, met)
_CONTACT = frozenset("""call calls called calling phone phones phoned phoning ring rings rang ringing text texts texted
    texting email emails emailed emailing message messages messaged messaging page pages paged paging invite invites
    invited inviting bother bothers bothered bothering trust trusts trusted miss misses missed missing meet meets met
    meeting thank thanks thanked thanking remind reminds
    reminded reminding warn warns warned warning""".split())
#: verbs of giving: a person, then what is given
_GIVE = frozenset("""give gives gave given giving send sends sent sending show shows showed shown showing hand hands
    handed handing pass passes passed passing lend lends lent lending bring brings brought bringing buy buys bought
    buying get gets got getting teach teaches taught teaching text texts texted texting email emails emailed
    emailing""".split())
#: "give X a try": a thing is given a try; only these verbs take "a"/"an" after the person
_GIVE_NO_A = frozenset("give gives gave given giving".split())
_VERBS = _CONTACT | _GIVE
#: who says the verb: a pronoun, a modal, "to", "please", an adverb ("i called", "i'll page", "to invite", "please send")
_SAYER = frozenset("""i we you he she they i'll we'll you'll he'll she'll they'll i'd we'd you'd i've we've you've
    can could will would should might must to please just also then never always already even don't didn't can't
    won't couldn't wouldn't""".split())
#: what ends the object of a contact verb right after the word
_ENDS = re.compile(r"[ \t]*(?:[.,!?;:]|\n|$)|[ \t]+(?:as|and|about|to|yesterday|today|tonight|tomorrow|last|back|"
                   r"again|earlier|first|when|if|but|for|because|on|at|after|before|since|too|up|every|this|with|"
                   r"instead|now|later|so|or|a[ \t]+lot|twice|once)(?![\w'’\-])")
#: what follows the person a verb of giving gives to ("gave penny my key", "show penny how")
_GIVEN = re.compile(r"[ \t]+(?:my|your|his|her|our|their|the|some|this|these|those|how|what|where|when)(?![\w'’\-])")
_GIVEN_A = re.compile(r"[ \t]+an?(?![\w'’\-])")


def bare_object_names(text: str, toks: Sequence[Tok], kind: Callable[[str, Tok], str | None],
                      unlisted: Callable[[str], bool], bare: BareWords | None = None) -> list[Tok]:
    """The lower-case words that stand bare as a person's object (the module's docstring). ``toks``: the text's
    words; ``kind``: what the detector knows of a word where it stands; ``unlisted(word)``: a word in no list."""
    bare = bare or bare_word_places(toks, unlisted)
    texts, starts, ends = texts_of(toks), starts_of(toks), ends_of(toks)
    out: list[Tok] = []
    # the verb and who says it first: "i called [penny]", "please send [baxter]"
    for i in (j for j in bare.places if j >= 2 and texts[j] in bare.clause and texts[j - 1] in _VERBS
              and texts[j - 2] in _SAYER):  # this module's words only, not name_bare_person's
        if texts[i] in ADDRESS_WORDS or text[ends[i - 1]:starts[i]].strip() or text[ends[i - 2]:starts[i - 1]].strip():
            continue
        verb, e = texts[i - 1], ends[i]
        ok = verb in _CONTACT and _ENDS.match(text, e) is not None or verb in _GIVE and (
            _GIVEN.match(text, e) is not None or verb not in _GIVE_NO_A and _GIVEN_A.match(text, e) is not None)
        if not ok:
            continue
        t = Tok(starts[i], e, texts[i], texts[i])
        if kind(text, t) == "gazetteer":
            out.append(t)
    return out
