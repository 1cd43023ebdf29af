"""A name the dialog names once, said again: the other mentions of a lower-case word a naming context took ("my friend
peg came by", "hi tele"), where the word is an English word no name list holds (issue 50, twenty-third session:
:func:`clinaudit.perturb.name_mentions.other_mentions`, which read before only gazetteer names and rare words in no
list). Hand-written dialogs, not the by-origin benchmark's forms: pet names and short names that are English nouns
(Pip, Peg, Tele, Uso, Muffin), each left in its second mention before; and the same words used as words beside them."""

from __future__ import annotations

import re

import pytest

from clinaudit.perturb.deid import deidentify_text
from clinaudit.perturb.name_mentions import named_word


def _left(text: str, word: str) -> int:
    """How often ``word`` is left, as a whole word, after de-identification."""
    return len(re.findall(rf"(?<![\w'-]){word}(?![\w])", deidentify_text(text)[0]))


@pytest.mark.parametrize("text, name", [
    ("[patient] my husband pip had the same thing .\n[doctor] did pip see anyone for it ?", "pip"),
    ("[patient] my friend peg came by .\n[doctor] okay .\n[patient] peg thinks i should rest .", "peg"),
    ("[patient] my son tele is here .\n[doctor] hi tele .\n[patient] tele thinks it's worse at night .", "tele"),
    ("[patient] my niece muffin is staying with us .\n[doctor] okay .\n[patient] muffin cooks for me most days .",
     "muffin"),
    ("[patient] my cousin uso is here .\n[doctor] did uso drive you in ?", "uso"),
])
def test_a_word_the_dialog_named_is_a_name_again(text, name):
    assert _left(text, name) == 0


@pytest.mark.parametrize("text, word, kept", [
    # after a determiner or a possessive: a thing (the determiner guard of other_mentions)
    ("[patient] my friend peg came by .\n[doctor] okay .\n[patient] i hung my coat on a peg and fell .", "peg", 1),
    ("[patient] my brother pip is here .\n[doctor] any seeds ?\n[patient] i swallowed a pip from an orange .",
     "pip", 1),
    ("[patient] my sister pinky is here .\n[doctor] and the finger ?\n[patient] the pinky is swollen , my pinky hurts .",
     "pinky", 2),
    # an adjective is not read again, even where the dialog took it as a name
    ("[patient] my daughter silky brought soup .\n[doctor] okay .\n[patient] the rash feels silky and smooth now .",
     "silky", 1),
    # a word the dialog never named stays a word ("peg thinks i should rest ." was here: the subject of "thinks",
    # which the place rules read for a word no name list holds since the twenty-fourth session)
    ("[patient] the peg holds the tent down .\n[doctor] okay .", "peg", 1),
])
def test_the_same_word_used_as_a_word_stays(text, word, kept):
    assert _left(text, word) == kept


@pytest.mark.parametrize("key, expected", [
    ("peg", True), ("pip", True), ("tele", True),
    ("silky", False), ("bubbly", False),  # adjectives ("-y" of a word; "bubblier", "bubbliest")
    ("money", False),  # as common as "will", "mark" (vocab.WORD_NAME_ZIPF)
    ("son", False),  # a relative's word
    ("knee", False),  # a clinical word
    ("to", False), ("ok", False),
])
def test_which_words_a_naming_context_makes_a_name_again(key, expected):
    assert named_word(key) is expected
