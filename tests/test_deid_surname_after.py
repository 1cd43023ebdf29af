"""A surname that is a word right after a given name found, where what follows says the name ended (issue 50,
thirteenth session; ``perturb/name_surname_after.py``): positives, the same words as words, and a transfer check
written after the rule."""

from __future__ import annotations

import pytest

from clinaudit.perturb.deid import deidentify_text


def _out(text: str) -> str:
    return deidentify_text(text)[0]


@pytest.mark.parametrize(("text", "want"), [
    ("fenella hill is my sister .", "[NAME] is my sister ."),
    ("krista rich says you changed my tablets .", "[NAME] says you changed my tablets ."),
    ("i live with fenella wood .", "i live with [NAME] ."),
    ("my neighbour is alistair hill .", "my neighbour is [NAME] ."),
    ("sorry , tavon rich couldn't make it .", "sorry , [NAME] couldn't make it ."),
    ("it was fenella wood who rang the ambulance .", "it was [NAME] who rang the ambulance ."),
    ("xiaoling wan will pick me up after .", "[NAME] will pick me up after ."),
    ("baljinder pal rang the pharmacy .", "[NAME] rang the pharmacy ."),
    # a function word ("pal" is one in the lists) only before a verb: "from" is not enough
    ("baljinder pal from the pharmacy called .", "[NAME] pal from the pharmacy called ."),
    ("i was referred by harjinder bath .", "i was referred by [NAME] ."),
    ("seo-yeon park is my daughter .", "[NAME] is my daughter ."),
    ("who's fenella hill ?", "who's [NAME] ?"),
    ("me and jiho oh went together .", "me and [NAME] went together ."),
])
def test_a_word_surname_after_a_given_name_is_taken(text, want):
    assert _out(text) == want


@pytest.mark.parametrize("text", [
    "i gave oskar rice with his soup .",
    "is priya young ?",
    "is priya young enough for the trial ?",
    "keep bruno strong , he needs it .",
    "i think marisol will be fine .",
    "marisol may come along too .",
    "i saw ingrid an hour ago .",
    "thanks marisol oh and one more thing .",
    "let priya page the doctor .",
    "we sent dmitri love from all of us .",
    "i haven't known aurelie long .",
    "ring zofia monday , she's off till then .",
])
def test_the_same_words_as_words_after_a_name_stay(text):
    word = {"rice", "young", "strong", "will", "may", "an", "oh", "page", "love", "long", "monday"}
    kept = [w for w in text.split() if w in word]
    out = _out(text).split()
    assert all(w in out for w in kept), _out(text)


#: written after the rule, not looked at while writing it (thirteenth session): 15 names, 15 words. Four names were
#: lost: "with leopold cook this week" (no time word after the name but "today", "tonight", ...), "ottilie page" and
#: "ambrose long" (no gazetteer surname), "it was henrike ward who" (the given name is not found); since the sixteenth
#: session :mod:`.name_word_surnames` takes "with leopold cook this week" (a preposition's object before a time)
TRANSFER_NAMES = [
    "dagny stone has the spare keys .", "i'm staying with leopold cook this week .", "eszter young was with me .",
    "the letter came from rasmus white .", "thanks , ottilie page .", "magnus king told me to come in .",
    "ask for ingeborg hill at the desk .", "torvald brown and i came together .", "it was henrike ward who called .",
    "my friend is sigrun lee .", "ludmila short rang earlier .", "we heard from berit little yesterday .",
    "ambrose long is my son-in-law .", "who is cordelia bell ?", "sorry , ilse hope is running late .",
]
TRANSFER_WORDS = [
    "i bought leopold rice for tea .", "is dagny young enough ?", "make eszter happy .", "let rasmus cook tonight .",
    "i think magnus will be okay .", "give torvald hope .", "i like henrike best .", "is sigrun well ?",
    "we left berit alone .", "tell ambrose good luck .", "keep cordelia warm .", "did ilse do it ?",
    "i saw ottilie an hour ago .", "show ingeborg page three .", "i've known ludmila long .",
]


def test_transfer_check_counts():
    names = sum(_out(t).count("[NAME]") == 1 and not any(w in _out(t).split() for w in
                ("stone", "cook", "young", "white", "page", "king", "hill", "brown", "ward", "lee", "short", "little",
                 "long", "bell", "hope")) for t in TRANSFER_NAMES)
    words = sum(t.split()[t.split().index(w)] in _out(t).split() for t in TRANSFER_WORDS for w in t.split()
                if w in ("rice", "young", "happy", "cook", "will", "hope", "best", "well", "alone", "good", "warm", "do",
                         "an", "page", "long"))
    assert (names, words) == (12, 15)


@pytest.mark.parametrize(("text", "want"), [
    ("will kowalczyk is my brother .", "[NAME] is my brother ."),
    ("my neighbour is june szabo .", "my neighbour is [NAME] ."),
    ("thanks , june mbeki .", "thanks , [NAME] ."),
    ("i live with hope okonkwo .", "i live with [NAME] ."),
    ("i live with mark okonkwo .", "i live with [NAME] ."),
    ("sorry , frank nakamura couldn't make it .", "sorry , [NAME] couldn't make it ."),
    # the word is a verb, a question's modal, an opener or an interjection: it stays
    ("i hope kowalczyk is okay .", "i hope [NAME] is okay ."),
    ("hope kowalczyk is okay .", "hope [NAME] is okay ."),
    ("oh kowalczyk is here .", "oh [NAME] is here ."),
    ("mark kowalczyk as absent .", "mark [NAME] as absent ."),
    ("will kowalczyk be there ?", "will [NAME] be there ?"),
    ("is will kowalczyk here ?", "is will [NAME] here ?"),
    ("doctor: meet harjit , our new nurse .", "doctor: meet [NAME] , our new nurse ."),  # "meet": a given name too
    ("welcome kowalczyk , come in .", "welcome [NAME] , come in ."),
])
def test_a_word_given_name_before_a_surname_found(text, want):
    assert _out(text) == want


#: given names before a surname found, written after the rule and not looked at while writing it: 15 names, 15 words
TRANSFER_GIVEN = [
    "will abernathy is my carer .", "i came with june vasquez .", "it's april nakashima here .",
    "rose okafor was with me .", "my son is mark delacroix .", "thanks , faith oyelaran .",
    "frank castellanos rang earlier .", "i'm staying with honey gurung .", "young pereira has the keys .",
    "we had a card from grace ferreira .", "happy sandoval came along .", "the referral is from bill ostrowski .",
    "my sister , hope achterberg , is here .", "sorry , dawn kirkpatrick is late .", "my daughter is joy nwosu .",
]
TRANSFER_GIVEN_WORDS = [
    "i will abernathy it .", "i hope vasquez is fine .", "oh nakashima is here .", "mark delacroix as seen .",
    "will okafor be there ?", "can frank castellanos come ?", "i'm happy sandoval came .", "so gurung is here .",
    "i guess pereira is right .", "we rose early .", "may i see ferreira ?", "frankly ostrowski is fine .",
    "the young achterberg boy", "i'll mark kirkpatrick down .", "is will nwosu there ?",
]


def test_transfer_check_given_before_counts():
    given = ["will", "june", "april", "rose", "mark", "faith", "frank", "honey", "young", "grace", "happy", "bill",
             "hope", "dawn", "joy"]
    names = sum(g not in _out(t).split() for g, t in zip(given, TRANSFER_GIVEN, strict=True))
    kept = ["will", "hope", "oh", "mark", "will", "frank", "happy", "so", "guess", "rose", "may", "frankly", "young",
            "mark", "will"]
    words = sum(w in _out(t).split() for w, t in zip(kept, TRANSFER_GIVEN_WORDS, strict=True))
    # lost: "my sister , hope achterberg ," ("hope" opens a clause after a comma); replaced by older rules (main
    # ed6dfca too): "i guess pereira is right", "frankly ostrowski is fine"
    assert (names, words) == (14, 13)


def test_a_verb_after_a_name_is_no_surname_before_its_end():
    assert "helps" in _out("courage helps , but the pain is still there .").split()
    assert _out("fenella woods is my sister .") == "[NAME] is my sister ."


@pytest.mark.parametrize(("text", "want"), [
    ("doctor brown is on call today .", "doctor [NAME] is on call today ."),
    ("ask doctor white about it .", "ask doctor [NAME] about it ."),
])
def test_a_title_before_a_surname_is_no_given_name(text, want):
    assert _out(text) == want


#: "young" (the US census's 26th surname) is a function word of the lists (an address: "young lady"); after a given name
#: found, the name's end now reads it as a surname too, not only a person's verb (twenty-sixth session); and a
#: speaker's label opens a clause, so "[patient] is priya brown ?" is the copula's question, as at a text's start
@pytest.mark.parametrize(("text", "want"), [
    ("i live with my partner , sione young .", "i live with my partner , [NAME] ."),
    ("the pharmacist , sione young , switched the brand on me .", "the pharmacist , [NAME] , switched the brand on me ."),
    ("thanks , eszter young .", "thanks , [NAME] ."),
    ("[patient] is priya brown ?", "[patient] is [NAME] brown ?"),
    ("[patient] is priya young ?", "[patient] is [NAME] young ?"),
    ("[doctor] okay .\n[patient] is dagny young enough ?", "[doctor] okay .\n[patient] is [NAME] young enough ?"),
    # the places of a word surname after a given name (name_word_surnames) read "young" too (OPEN_SURNAMES); "young"
    # as a word stays
    ("i stay with sione young on weekends .", "i stay with [NAME] on weekends ."),
    ("i'll ask sione young to call you back .", "i'll ask [NAME] to call you back ."),
    ("young and old alike got sick .", "young and old alike got sick ."),
    ("ask young people about it .", "ask young people about it ."),
    ("when i was young i had asthma .", "when i was young i had asthma ."),
    ("i was young and foolish .", "i was young and foolish ."),
])
def test_young_after_a_given_name_and_a_speakers_question(text, want):
    assert _out(text) == want


#: after a title of address or a role in lower case, "young" is the surname unless a person's noun follows
#: (name_neighbour_words.open_surname, read by name_context and name_roles; twenty-seventh session)
@pytest.mark.parametrize(("text", "want"), [
    ("mr . young next door drove me here .", "mr . [NAME] next door drove me here ."),
    ("mrs . young upstairs noticed i was limping .", "mrs . [NAME] upstairs noticed i was limping ."),
    ("dr . young .", "dr . [NAME] ."),
    ("doctor young came in .", "doctor [NAME] came in ."),
    ("coach young had us running laps .", "coach [NAME] had us running laps ."),
    ("officer young found me at the bus stop .", "officer [NAME] found me at the bus stop ."),
    # a word: an address before a person's noun, a verb's object, a determiner before the title, a role before no verb
    ("i miss young people .", "i miss young people ."),
    ("the doctor young enough to be my son", "the doctor young enough to be my son"),
    ("coach young kids to stretch .", "coach young kids to stretch ."),
    ("mr . young people are fine .", "mr . young people are fine ."),
    ("doctor young children get it too .", "doctor young children get it too ."),
])
def test_young_after_a_title_or_a_role(text, want):
    assert _out(text) == want


#: "young" right after a name found is its surname whatever follows, but a word that carries the adjective on, a verb
#: that makes it a complement, a copula's question (name_surname_after._open_after); after a possessive and a
#: relative or a job before a person's verb too (name_roles.relative_names; twenty-eighth session)
@pytest.mark.parametrize(("text", "want"), [
    ("i've known sione young since we were kids .", "i've known [NAME] since we were kids ."),
    ("hi doctor , i'm sione young , i have the ten o'clock .", "hi doctor , i'm [NAME] , i have the ten o'clock ."),
    ("i keep a spare key with sione young junior .", "i keep a spare key with [NAME] junior ."),
    ("i saw mele young at church .", "i saw [NAME] at church ."),
    ("mele young and i went .", "[NAME] and i went ."),
    ("my coworker young covered my shifts all last week .", "my coworker [NAME] covered my shifts all last week ."),
    ("the nurse young took my blood .", "the nurse [NAME] took my blood ."),
    # the adjective
    ("keep mele young and healthy .", "keep [NAME] young and healthy ."),
    ("is mele young enough to get it ?", "is [NAME] young enough to get it ?"),
    ("i made mele young again .", "i made [NAME] young again ."),
    ("my young son came by .", "my young son came by ."),
])
def test_young_after_a_name_found_or_a_relative(text, want):
    assert _out(text) == want
