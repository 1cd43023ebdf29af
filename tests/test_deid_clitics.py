"""A name before a clitic ("tyler'll pick me up", "siobhan'd know", "o'brien've"): the tokens leave the clitic out
as they leave a possessive "'s" out (issue 50, fifteenth session: such a name was one word in no list, so every name
of every origin was lost there); a pronoun's or a function word's clitic stays part of its word."""

from __future__ import annotations

import pytest

from clinaudit.perturb.deid import deidentify_text
from clinaudit.perturb.name_tokens import tokens


def _out(text: str) -> str:
    return deidentify_text(text)[0]


@pytest.mark.parametrize("text,expected", [
    ("tyler'll pick me up after .", "[NAME]'ll pick me up after ."),
    ("siobhan'd know where it is .", "[NAME]'d know where it is ."),
    ("i think gurpreet've got the forms .", "i think [NAME]'ve got the forms ."),
    ("tuilagi’ll be here at five .", "[NAME]’ll be here at five ."),
    ("Seojun'll drive me home.", "[NAME]'ll drive me home."),
    ("o'brien'll pick me up .", "[NAME]'ll pick me up ."),
    ("O'Neill'd know.", "[NAME]'d know."),
    # a pronoun's, a function word's and a common word's clitic: the words stay as written
    ("they'll come later , who'd know .", "they'll come later , who'd know ."),
    ("the doctor'll see you now .", "the doctor'll see you now ."),
    ("it must've been the pills , this'll hurt .", "it must've been the pills , this'll hurt ."),
    ("the results'll be back friday .", "the results'll be back friday ."),
])
def test_a_name_before_a_clitic(text, expected):
    assert _out(text) == expected


def test_the_tokens_leave_a_clitic_out_after_a_stem_only():
    toks = tokens("tyler'll and they'll , mom'd , it'd , sandhu've")
    assert [t.text for t in toks] == ["tyler", "and", "they'll", "mom'd", "it'd", "sandhu"]
    assert toks[0].end == len("tyler")
