"""The transfer check of the sixteenth session's rule for name parts apart (``name_parts_apart``): 15 sentences with
names of the kind (Punjabi and Hindi given names written as two words apart, Korean surnames the guards keep as
words) and 15 with the same kinds of word as words, written after the rule and run once, not tuned on afterwards. One part is shared with the development set
the rule was written on (dev34's "Inder", in "dev inder": an oversight, left as written). The one run: 12 of 15
names taken (main 98e6248, before the rule: 6), 15 of 15 words kept (main: 15); lost "har bans", "dev inder", "sun
dar" (their joinings are no gazetteer given name English hardly writes)."""

from __future__ import annotations

import re

from script_modules import dev_parts_shared

from clinaudit.perturb.deid import deidentify_text

NAMES = [
    ("i came in with jas want today , he drove .", "jas want"),
    ("kul want rang the surgery for me .", "kul want"),
    ("my husband man jit is on nights .", "man jit"),
    ("ask param jit , she has my list .", "param jit"),
    ("har bans and i went to the temple .", "har bans"),
    ("my sister-in-law raj want brought me .", "raj want"),
    ("i talked to dev inder about the tablets .", "dev inder"),
    ("nir mal picks me up on fridays .", "nir mal"),
    ("sun dar is my emergency contact .", "sun dar"),
    ("i live with pra deep and the kids .", "pra deep"),
    ("shin hye jin came with me .", "shin hye jin"),
    ("i was with son da eun when i fell .", "son da eun"),
    ("dr oh came round this morning .", "oh"),
    ("my neighbour an seo yeon has a key .", "an seo yeon"),
    ("tell ma eun ji i'll ring later .", "ma eun ji"),
]
WORDS = [
    ("dr , do you know what it is ?", "do"),
    ("oh no , not again .", "oh"),
    ("my son seo-jun brought me in .", "son"),
    ("an ice pack helped the swelling .", "an"),
    ("no one told me about the results .", "no"),
    ("ha , that's funny .", "ha"),
    ("i need a new hip , they said .", "hip"),
    ("it was an odd pain in my side .", "odd"),
    ("the dog ran off into the road .", "ran"),
    ("i had a hot bath and felt better .", "hot"),
    ("she won a prize at bingo .", "won"),
    ("shin splints from running , the physio said .", "shin"),
    ("we sat by the sea side all day .", "sea"),
    ("mr and mrs lee came to visit .", "and"),
    ("deep vein thrombosis was ruled out .", "deep"),
]


def test_the_transfer_names_share_one_part_with_dev34():
    table = {"transfer": ([n for _, n in NAMES], ["zz"])}
    assert dev_parts_shared(table, 34) == {34: 1}  # "inder" (module docstring)


def _taken(text: str, name: str) -> bool:
    out = deidentify_text(text)[0]
    return not any(re.search(rf"(?<![\w-]){p}(?![\w-])", out) for p in name.split())


def _kept(text: str, word: str) -> bool:
    return re.search(rf"(?<![\w-]){word}(?![\w-])", deidentify_text(text)[0]) is not None


def test_transfer_counts():
    taken = sum(_taken(t, n) for t, n in NAMES)
    kept = sum(_kept(t, w) for t, w in WORDS)
    print(f"transfer: {taken} of {len(NAMES)} names taken, {kept} of {len(WORDS)} words kept")
    assert (taken, kept) == (TAKEN, KEPT)


#: the one run's counts (module docstring)
TAKEN, KEPT = 13, 15  # 12 until the twenty-fifth session's unread given names (name_word)
