"""A surname or given name of the Cantonese prefix "Ah" and one syllable, as Chinese families of Samoa, Tonga, Fiji,
Hawaiʻi and Aotearoa write theirs (issue 50, sixteenth session, :mod:`clinaudit.perturb.name_cantonese_prefix`).
Hand-written examples: the places the rule was written from (names in no set), a transfer check of 15 names and 15
words as words written after the rule and looked at only to be run, and "ah" as a word of speech."""

from __future__ import annotations

import re
import time

import pytest

from clinaudit.perturb.deid import deidentify_text
from clinaudit.perturb.name_cantonese_prefix import MAX_READ, prefixed_names, syllable
from clinaudit.perturb.name_detect import find_names
from clinaudit.perturb.name_no_person import no_person_at
from clinaudit.perturb.name_tokens import tokens


def _out(text: str) -> str:
    return deidentify_text(text)[0]


def _left(out: str, name: str) -> list[str]:
    return [p for p in name.split() if re.search(rf"(?i)(?<![\w']){p}(?!\w)", out)]


#: the places the rule was written from, with names in no set
WRITTEN_FROM = [
    ("[patient] i talked to ah chong about the tablets .", "ah chong"),
    ("[patient] ah wai is my next of kin .", "ah wai"),
    ("[patient] we stay with ah lam on weekends .", "ah lam"),
    ("[patient] thanks ah sue , see you next week .", "ah sue"),
    ("[patient] i came in with ah tong .", "ah tong"),
    ("[patient] mele ah sam drove me here .", "mele ah sam"),
    ("[patient] Ah Chong from the church brought me in.", "ah chong"),
]

#: written after the rule, looked at only to be run (names in none of the sets or the probes): 11 of 15 taken (main
#: 4: the title "mrs", "her married name is", "dr", and cased "Did Ah Tin" take the whole name on main too)
TRANSFER = [
    ("[patient] my brother-in-law , ah kum , does the driving .", "ah kum"),
    ("[patient] we get our veges from ah pang's shop .", "ah pang"),
    ("[patient] mrs ah tsoi from church says hello .", "ah tsoi"),
    ("[patient] ah keung came with me last time .", "ah keung"),
    ("[doctor] the form says ah ngan but it's one word ?", "ah ngan"),
    ("[patient] her married name is ah siu .", "ah siu"),
    ("[patient] i'm picking my niece up from ah fai's place .", "ah fai"),
    ("[doctor] is ah kwan still your next of kin ?", "ah kwan"),
    ("[patient] tevita ah yip is my cousin .", "tevita ah yip"),
    ("[doctor] Did Ah Tin drop you off today?", "ah tin"),
    ("[patient] the doctor at the clinic , dr ah wing , sent me .", "ah wing"),
]
#: the transfer check's names left: a stem that is an everyday word where the sentence without the prefix keeps it
#: ("ask fat if", "stay with hang", "soon told me"), and cased "Pastor [Ah] Toy" (the prefix taken by the cased rules
#: already, so this rule does not read it, and "Toy" a word)
TRANSFER_LEFT = [
    ("[patient] ask ah fat if he can bring the forms .", "fat"),
    ("[patient] i stay with ah hang most weekends .", "hang"),
    ("[patient] Pastor Ah Toy is coming to visit.", "Toy"),
    ("[patient] ah soon told me to come in early .", "soon"),
]

#: "ah" as a word of speech, written after the rule, looked at only to be run: 15 of 15 kept, as on main (the
#: gender rewrite's "she" -> "the patient" aside)
TRANSFER_WORDS = [
    "[patient] ah , that's much better .",
    "[patient] ah i remember now , it was the red one .",
    "[patient] ah ten past three , i think .",
    "[patient] it was ah march when it started .",
    "[patient] i had ah bit of a cough .",
    "[patient] ah fine , i'll try it .",
    "[patient] ah bless you .",
    "[patient] we went ah long way round .",
    "[patient] i need ah top up of my inhaler .",
    "[patient] ah hang on a sec .",
    "[patient] ah sun's out today .",
    "[patient] my back is ah sore again .",
    "[patient] ah fat chance of that .",
    "[patient] the dog ah bit me on the hand .",
]
TRANSFER_WORD_REWRITTEN = ("[patient] she said ah not to worry .", "[patient] the patient said ah not to worry .")

#: "ah" as a word of speech in the rule's places
NEGATIVES = [
    "[patient] ah look , that hurts .",
    "[patient] ah okay , so it started on monday .",
    "[patient] ah see , i told you it was my knee .",
    "[patient] me and ah my sister came too .",
    "[patient] i gave ah the nurse my key .",
    "[patient] ah yo , i almost forgot the form .",
    "[patient] ah right , and the swelling ?",
    "[patient] ah you poor thing .",
    "[patient] i think ah it was monday .",
    "[patient] ah well it can't be helped .",
]


#: twenty-ninth session (names in no set): a name found after "ah" whatever its shape ("liki", two syllables, Samoan),
#: and "Po" ("Po Ching", a Chinese-Samoan surname) before a syllable found; each kept its prefix on main 7957a5f
ANY_SHAPE = [
    ("[patient] i asked ah liki to pick up my pills .", "ah liki"),
    ("[patient] Ah Liki from next door checks on me.", "ah liki"),
    ("[patient] my neighbour sione ah liki came by .", "sione ah liki"),
    ("[patient] i spoke to mr po ching yesterday .", "po ching"),
    ("[patient] i asked po ching to pick up my pills .", "po ching"),
    ("[patient] Po Ching from next door checks on me.", "po ching"),
]
#: "po", by mouth, and "Po" at a sentence's start: no name found after it
PO_KEPT = [
    "[doctor] take 500 mg po bid .",
    "[doctor] Tylenol 650 mg PO q6h prn.",
    "[doctor] po intake was poor .",
    "[doctor] Po intake has been poor since Monday.",
    "[doctor] we can give it po or iv , whichever .",
]


@pytest.mark.parametrize("text,name", WRITTEN_FROM + TRANSFER + ANY_SHAPE)
def test_the_prefix_and_its_syllable_go(text, name):
    out = _out(text)
    assert not _left(out, name) and "[NAME]" in out, out


@pytest.mark.parametrize("text,left", TRANSFER_LEFT)
def test_the_transfer_names_left(text, left):
    assert left in _out(text).split()


@pytest.mark.parametrize("text", TRANSFER_WORDS + NEGATIVES + PO_KEPT)
def test_ah_as_a_word_stays(text):
    assert _out(text) == text


def test_the_transfer_word_the_gender_rewrite_changes():
    assert _out(TRANSFER_WORD_REWRITTEN[0]) == TRANSFER_WORD_REWRITTEN[1]


def test_the_interjection_before_a_name_set_off_stays():
    assert _out("[patient] ah kuoi , come in .") == "[patient] ah [NAME] , come in ."
    assert _out("[doctor] the pharmacist , ah kuoi , rang .") == "[doctor] the pharmacist , [NAME] , rang ."
    assert _out("[patient] ah liki , come in .") == "[patient] ah [NAME] , come in ."  # any shape: the same guard


def test_one_syllable_as_cantonese_is_romanised():
    assert all(map(syllable, "kuoi hoy ching mow puck yuen quin kiong fook leong wah".split()))
    assert not any(map(syllable, "john sorry okay well you my the ah hmm bugger".split()))


def find_names_spans(text: str) -> list[tuple[int, int]]:
    return [(sp.start, sp.end) for sp in find_names(text, pairs=False)]


def test_a_sentence_read_once_and_at_most_max_read_a_text():
    calls: list[str] = []

    def detect(text: str) -> list[tuple[int, int]]:
        calls.append(text)
        return find_names_spans(text)

    same = "i talked to ah hoy about it . " * 300  # one sentence, 300 times: read once
    out = prefixed_names(same, tokens(same), [], detect, no_person_at)
    assert len(calls) == 2 and len(out) == 600  # the first sentence, then the others (a space before each)
    calls.clear()
    other = "".join(f"on day {i} i talked to ah hoy about it . " for i in range(300))  # 300 sentences: 64 read
    out = prefixed_names(other, tokens(other), [], detect, no_person_at)
    assert len(calls) == MAX_READ and len(out) == 2 * MAX_READ


def test_thousands_of_prefixed_names_stay_fast():
    text = "".join(f"on day {i} i talked to ah hoy and ah kuoi , ah well . " for i in range(4_000))  # 200 kB
    start = time.process_time()
    out = deidentify_text(text)[0]
    assert time.process_time() - start < 10
    assert out.count("[NAME]") >= 4_000
