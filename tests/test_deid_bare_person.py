"""A given name that is a word, standing bare where English grammar puts a person, in lower case (issue 50, tenth
session, :mod:`clinaudit.perturb.name_bare_person`): the subject of a modal question before what a person does,
the one told, asked, texted or rung, "where's X living", "it was X who", said to after "thanks" or "cheers",
wanted to come, "our X reckons". Hand-written examples, each frame with its positives and its negatives (the same
words as words in the same frames, words of address)."""

from __future__ import annotations

import pytest

from clinaudit.perturb.deid import deidentify_text


def _out(text: str) -> str:
    return deidentify_text(text)[0]


@pytest.mark.parametrize("text, gone", [
    ("[doctor] would penny be able to collect the prescription for you ?", "penny"),
    ("[doctor] will blossom be picking you up after ?", "blossom"),
    ("[doctor] could saffron drive you home today ?", "saffron"),
    ("[patient] tell penny i was asking for her .", "penny"),
    ("[doctor] could you ask blossom to bring in all your inhalers ?", "blossom"),
    ("[patient] i'll text marigold when i'm done here .", "marigold"),
    ("[patient] i rang dolly about it .", "dolly"),
    ("[patient] where's hazel living now , is she still nearby ?", "hazel"),
    ("[patient] where's birdie staying these days ?", "birdie"),
    ("[patient] it was penny who found me on the kitchen floor .", "penny"),
    ("[doctor] thanks for waiting , hazel . come on through .", "hazel"),
    ("[patient] cheers , saffron , see you next week .", "saffron"),
    ("[doctor] okay , right , dolly . let's have a look at that knee .", "dolly"),
    ("[doctor] do you want penny to come in with you for the results ?", "penny"),
    ("[patient] our blossom reckons i should get it checked .", "blossom"),
    ("[patient] i'll ring shearer at the surgery tomorrow .", "shearer"),
    # said to after a sign-off (issue 50, eleventh session): dev17's forms it was written from, then a transfer check
    # of 15 sign-offs written after it and run once, the 11 it gets right (main 2; missed: "take care of yourself ,
    # dawn", "thanks very much , clay", "take care now , basil", "nice seeing you , dawn")
    ("[doctor] take care , penny .", "penny"),
    ("[doctor] thank you so much , hunter .", "hunter"),
    ("[doctor] good to see you again , baxter .", "baxter"),
    ("[doctor] welcome back , penny .", "penny"),
    ("[doctor] great to see you , wade .", "wade"),
    ("[patient] see you soon , basil .", "basil"),
    ("[doctor] bye bye , holly .", "holly"),
    ("[doctor] nice to see you again , sandy .", "sandy"),
    ("[patient] thank you very much , ivy , bye .", "ivy"),
    ("[doctor] welcome back , dawn , how was the trip ?", "dawn"),
    ("[doctor] goodbye , wade , and good luck .", "wade"),
    ("[patient] see you tomorrow , clay .", "clay"),
    ("[doctor] lovely to see you again , holly .", "holly"),
    ("[doctor] okay , see you then , sandy .", "sandy"),
    ("[patient] bye for now , ivy .", "ivy"),
])
def test_a_bare_name_where_a_person_stands(text, gone):
    out = _out(text)
    assert f" {gone} " not in out and "[NAME]" in out, out


@pytest.mark.parametrize("text", [
    "[doctor] will blossom be out by then , do you think ?",
    "[doctor] would cotton be alright against the skin ?",
    "[doctor] would you be able to come in on monday ?",
    "[patient] i can tell salt from sugar with my eyes shut .",
    "[doctor] tell me more about the pain .",
    "[patient] ask for the nurse if it gets worse .",
    "[patient] i'll ring ahead at the surgery .",
    "[doctor] where's blossom coming from , the trees outside ?",
    "[patient] where's patience gone , i've none left .",
    "[patient] where's home for you these days ?",
    "[patient] it was honey that soothed it .",
    "[patient] thanks , ace , that's great news .",
    "[patient] thanks for waiting , love .",
    "[doctor] okay , right , fine .",
    "[patient] thanks for the blossom , it's lovely .",
    "[doctor] do you want cotton to cover it or a plaster ?",
    "[doctor] do you want it to heal faster ?",
    "[patient] our kettle has limescale all through it .",
    "[patient] our insurance said it was not covered .",
    "[doctor] will sleep be a problem with these tablets ?",
    # "tell june i said hello ." is a name since the fifteenth session (name_guarded_kinds: a month where only a
    # person stands): tests/test_deid_guarded_kinds.py
    "[doctor] physical exam , auto text uri .",
    # after a sign-off: words of address and clauses (issue 50, eleventh session)
    "[doctor] take care , love .",
    "[doctor] see you next time , then .",
    "[doctor] welcome back , everyone .",
    "[doctor] good to see you again , doctor .",
    "[patient] bye , now .",
    "[doctor] take care , dear .",
    "[patient] see you later , mate .",
    "[doctor] welcome back , it's been a while .",
    "[doctor] take care , and call if it gets worse .",
])
def test_the_same_frames_with_words_stay(text):
    assert _out(text) == text


def test_only_lower_case_and_whole_words():
    # "bring" is no "ring"; a capitalised line is the cased rules' (unchanged here)
    assert _out("[patient] i'll bring hazel nuts when i come .") == "[patient] i'll bring hazel nuts when i come ."


def test_a_frame_verb_is_never_the_one_rung():
    """Issue 50, seventeenth session: "fergal ring rang ." took "rang" as the one rung after "ring". In "fergal ring
    rang" "ring" is the surname and "rang" its verb: a verb of the frame (ring, rang, tell, told, ...) is never the
    frame's word. The names in the same places are still taken."""
    assert _out("[patient] fergal ring rang .") == "[patient] fergal ring rang ."
    assert _out("[patient] fergal ring rang about the scan .") == "[patient] fergal ring rang about the scan ."
    # the surname after a given name found, before the same verb: still the surname, the verb kept
    assert _out("[patient] kirsty ring rang .") == "[patient] [NAME] rang ."
    # the one rung: still taken
    assert _out("[patient] can you ring fergal ?") == "[patient] can you ring [NAME] ?"
    assert _out("[patient] i'll ring shearer at the surgery tomorrow .") == \
        "[patient] i'll ring [NAME] at the surgery tomorrow ."
    assert _out("[patient] fergal rang .") == "[patient] [NAME] rang ."


@pytest.mark.xfail(strict=True, reason="left: 'fergal', a word in no list, is found alone but not before a surname "
                                       "that is a word (the sixteenth session's named loss)")
def test_a_given_name_in_no_list_before_a_word_surname():
    assert _out("[patient] fergal ring rang .") == "[patient] [NAME] rang ."
