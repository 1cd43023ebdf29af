"""name_rare_listed (issue 50, fourteenth session): a word the lists hold that English text hardly writes (a whitelist
word or a rare headword, in no gazetteer) is judged like a word in no list where a person stands, in lower case.

Thirtieth session: "eti" and "fetu", Samoan given names, are given names of the lists now
(:data:`clinaudit.perturb.vocab.ADDED_FIRST_NAMES`) and rare names as the gazetteer's are ("sefa", "tupai"), no longer
rare listed words: "my neighbour said eti would pick me up ." is taken, and "i read about fetu on the label ." and
"tom fetu label was wrong ." are taken as "i read about sefa on the label ." and "tom sefa label was wrong ." are."""

from __future__ import annotations

import pytest

from clinaudit.perturb.deid import deidentify_text
from clinaudit.perturb.name_rare_listed import rare_listed


@pytest.mark.parametrize("word", ["wisly", "sile", "brid", "teine", "peau"])
def test_rare_listed_words(word):
    assert rare_listed(word)


@pytest.mark.parametrize("word", [
    "jot", "nav", "har",  # words people write (Zipf 2.8 or more)
    "palpation", "augmentin", "percocet",  # six letters or more: the whitelist's medical words
    "hrt", "cdt",  # no vowel: abbreviations
    "osa", "prn",  # clinical acronyms
    "sione", "lupe", "eti", "fetu",  # gazetteer names (the last two added, thirtieth session): their own rules
    "fritznel",  # in no list: a name anywhere already
    "ahh", "june", "aunt", "it",  # spoken, month, relative's, function words
])
def test_not_rare_listed(word):
    assert not rare_listed(word)


@pytest.mark.parametrize("text", [
    "ask eti about it .", "fetu came with me today .", "wisly drove me here .", "ask sile to bring my coat .",
    "it was brid who found me .", "tell teine i said hi .",
])
def test_a_rare_listed_word_where_a_person_stands_is_a_name(text):
    assert "[NAME]" in deidentify_text(text)[0]


@pytest.mark.parametrize("text", [
    "the eti report came back normal .", "the sile on the tap is broken .",
    "i think ebi has shellfish in it , so no .", "the chemist said apoi is just a herbal thing .",
    "i came in with osa and reflux .", "we had poi at the luau .", "ask about the kowa cream .",
    # the whitelist's medical words of six letters or more, which the clinical lists lack (the real dialogs)
    "on palpation , it's tender .", "i've been taking percocet .", "we may need to intubate .",
])
def test_the_same_kind_of_word_as_a_word_stays(text):
    assert deidentify_text(text)[0] == text


# Transfer check: written after the rule and not looked at while writing it (fourteenth session): 11 of 15 names
# removed (main 4030b4a: 1), 13 of 15 words kept (main: 13; "wisly is not a word i know", "it was taro that upset my
# stomach" taken on both). Twenty-fourth session: 13 of 15 ("can you tell fetu the appointment moved ?", the one told,
# and "sile keeps an eye on my tablets .", a person's errand: name_given_words reads a lower-case word no name list
# holds since then). Thirtieth session: 14 of 15 names ("my neighbour said eti would pick me up ." taken: "eti" a given
# name of the lists), 12 of 15 words ("i read about fetu on the label ." taken, as "i read about sefa ..." is).
TRANSFER_NAMES = [
    ("eti came round to check on me last night .", True), ("can you tell fetu the appointment moved ?", True),
    ("wisly drove me here because i can't drive .", True), ("i'll ring sile when i get home .", True),
    ("it was brid who called the ambulance .", True), ("inder usually comes with me to these .", True),
    ("my neighbour said eti would pick me up .", True), ("thanks , fetu , that's everything .", True),
    ("i asked wisly to grab my inhaler .", True), ("sile keeps an eye on my tablets .", True),
    ("ask brid if she's got the letter .", True), ("inder thinks i should get a second opinion .", False),
    ("i told eti about the rash .", True), ("fetu phoned the surgery for me .", True),
    ("wisly and her husband are coming at two .", True),
]
TRANSFER_WORDS = [
    ("the eti report came back normal .", True), ("i read about fetu on the label .", False),
    ("wisly is not a word i know .", False), ("the sile on the tap is broken .", True),
    ("they call it brid in the dialect .", True), ("inder is the brand of the cream .", True),
    ("i ate some laau yesterday .", True), ("we had poi at the luau .", True), ("the kava made me drowsy .", True),
    ("apoi is a herbal tea .", True), ("my limi drops help .", True), ("it was taro that upset my stomach .", False),
    ("ask about the kowa cream .", True), ("tell me about the pika .", True), ("i think dodo is extinct .", True),
]


def test_transfer_names():
    got = [(s, "[NAME]" in deidentify_text(s)[0]) for s, _ in TRANSFER_NAMES]
    assert got == TRANSFER_NAMES
    assert sum(found for _, found in got) == 14


def test_transfer_words():
    got = [(s, deidentify_text(s)[0] == s) for s, _ in TRANSFER_WORDS]
    assert got == TRANSFER_WORDS
    assert sum(kept for _, kept in got) == 12


@pytest.mark.parametrize("text", [
    "fetu tuilagi came with me today .", "eti leota is picking me up .", "sione fetu came with me .",
    "i talked to malia eti yesterday .",
])
def test_beside_a_name_found_as_its_given_name_or_surname(text):
    """name_surname_after reads such a word as a gazetteer name beside a name found (fourteenth session)."""
    out = deidentify_text(text)[0]
    assert not {"fetu", "eti"} & set(out.split()), out


# Transfer check of that reading, written after it (fourteenth session): 14 of 15 names (main 491e906: 5); the rare
# words beside a given name as words: 8 of 15 kept, as on main (older rules take "kava", "kowa", "limi", "taro",
# "poi", "laau" after a given name; the reading takes none more).
BESIDE_NAMES = ["eti sapolu rang this morning .", "fetu malietoa is my carer .", "i'm here with wisly joseph today .",
                "brid kavanagh drove me in .", "teine faleolo will call you .", "dembe okello says hi .",
                "my name is eti vaifale .", "it was fetu lauina who found me .", "ebi alagoa has the forms .",
                "tell sile brennan i'm fine .", "peau vaipulu brought my bag .", "thanks , brid donnelly .",
                "ahu kealoha is picking me up .", "wisly pierre couldn't come ."]
BESIDE_WORDS = [("my wife likes ebi tempura .", "ebi"),
                ("i think peter apoi tea helped .", "apoi"), ("ask anna if limi drops are okay .", "limi")]
#: a given name no modern lexicon reads ("anna", "james", "maria": name_word, twenty-fifth session) is found where
#: it stands, and a word of open syllables right after it is then read as its surname: the word is lost beside it
BESIDE_WORDS_LOST = [("i showed anna eti results .", "anna", "eti"), ("james dodo impressions are funny .", "james", "dodo"),
                     ("i gave maria poi for lunch .", "maria", "poi"),
                     ("tom fetu label was wrong .", "tom", "fetu")]  # "fetu" a given name (thirtieth session)


@pytest.mark.parametrize("text", BESIDE_NAMES)
def test_transfer_beside_names(text):
    out = deidentify_text(text)[0].split()
    assert not {"eti", "fetu", "wisly", "sile", "brid", "teine", "dembe", "ebi", "peau", "ahu"} & set(out), out


def test_transfer_beside_name_found_since():
    # the one lost until the twenty-fifth session: "murphy" is now a given name the lexicon does not read (name_word)
    assert deidentify_text("sile murphy was with me .")[0] == "[NAME] was with me ."


@pytest.mark.parametrize(("text", "name", "word"), BESIDE_WORDS_LOST)
def test_transfer_beside_words_lost_beside_a_name_found(text, name, word):
    out = deidentify_text(text)[0].split()
    assert name not in out and word not in out


@pytest.mark.parametrize(("text", "word"), BESIDE_WORDS)
def test_transfer_beside_words_kept(text, word):
    assert word in deidentify_text(text)[0].split()
