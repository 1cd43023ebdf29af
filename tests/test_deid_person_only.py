"""A name that is an everyday word (Zipf 4.5 or more), bare where only a person can stand, in lower case (issue 50,
twelfth session, :mod:`clinaudit.perturb.name_person_only`): "it was X who", a clause's subject before a verb only a
person does, a question's subject before "tell", "told", "like to", the one told, asked or let know before a clause,
"X and her husband", the one addressed after a greeting, thanks or a sign-off or before a request. Hand-written
examples: the dev20 places the rule was written from (with the lead's probe names, in no set), a transfer check of 15
names and 15 words as words in the same places, written after the rule and looked at only to be run, and the
negatives (the same places with words as words: mass nouns, voices, adjectives, institutions)."""

from __future__ import annotations

import pytest

from clinaudit.perturb.deid import deidentify_text


def _out(text: str) -> str:
    return deidentify_text(text)[0]


#: dev20's places the rule was written from, with probe names in no set
WRITTEN_FROM = [
    ("[patient] mark says hello , by the way .", "mark"),
    ("[patient] then rose rang the surgery for me .", "rose"),
    ("[patient] only hope knows where i keep the key .", "hope"),
    ("[patient] miles drove me here today .", "miles"),
    ("[patient] grace wants me to get it looked at .", "grace"),
    ("[patient] it was king who found me on the floor .", "king"),
    ("[patient] actually it's moon who does my tablets now .", "moon"),
    ("[doctor] did song tell you about the new dose ?", "song"),
    ("[doctor] has lucky told you the results ?", "lucky"),
    ("[doctor] tell grace to bring your inhalers next time .", "grace"),
    ("[patient] i'll ask mark if he can drive me .", "mark"),
    ("[patient] let rose know i'm okay , would you ?", "rose"),
    ("[patient] joy and her husband brought me in .", "joy"),
    ("[doctor] thanks for that , miles .", "miles"),
    ("[doctor] mark , could you slip your shoes off for me ?", "mark"),
    ("[doctor] hi grace , what brings you in today ?", "grace"),
    # negatives of test_deid_clause_subject.py and test_deid_bare_person.py until this session ("rose" too frequent a
    # word for those rules): a name where only a person stands
    ("[patient] and rose said nothing about it .", "rose"),
    ("[patient] thank you so much , rose .", "rose"),
]

#: the transfer check: written after the rule, in no set, run once: 14 of 15 right (the miss, "see you next week ,
#: rose .": the sign-off read one word after "see you"; two since); "tell miles i'll be late ." (right then) is a
#: miss since plurals of common words are no longer read after "tell" (test_a_plural_name_told_is_missed)
TRANSFER = [
    ("[patient] honestly mark thinks i'm overdoing it .", "mark"),
    ("[patient] so grace told me to ring you .", "grace"),
    ("[patient] it was lucky who called the ambulance .", "lucky"),
    ("[doctor] has moon mentioned the side effects ?", "moon"),
    ("[patient] i asked song whether she'd seen it .", "song"),
    ("[patient] fox and his wife live across the road .", "fox"),
    ("[doctor] see you next week , rose .", "rose"),
    ("[doctor] king , can you pop your coat off ?", "king"),
    ("[patient] but joy reckons it's my diet .", "joy"),
    ("[patient] let lovely know the appointment moved .", "lovely"),
    ("[doctor] would hope like to sit in ?", "hope"),
    ("[patient] morning , mark , sorry i'm late .", "mark"),
    ("[patient] because moon noticed the rash first .", "moon"),
    ("[patient] it's king who sorts my pills out .", "king"),
]

#: the transfer check's words as words in the same places, written with it (15 of 15 stay)
TRANSFER_WORDS = [
    "[patient] honestly gold looks better on me .",
    "[patient] so steel bends if you heat it .",
    "[patient] it was luck that saved me .",
    "[doctor] has rest helped at all ?",
    "[patient] tell time by the clock , i can't anymore .",
    "[patient] i asked questions about it .",
    "[patient] salt and pepper are on the table .",
    "[doctor] see you next week , then .",
    "[doctor] great , can you pop your coat off ?",
    "[patient] but winter makes it worse .",
    "[patient] let time do its thing .",
    "[doctor] would rice be okay for dinner ?",
    "[patient] morning , noon and night it aches .",
    "[patient] because gold never irritates my skin .",
    "[patient] it's church that keeps me going .",
]

#: the frames new here read the rarer word names too (the other rules' words): a transfer check written after that
#: step, run once (5 of 5 right; 4 of 5 words stay, "let ginger steep" is replaced on main f61e529 already, by older
#: rules: a strict xfail)
RARER = [
    ("[doctor] has hazel told you about the scan ?", "hazel"),
    ("[patient] let ivy know i'm here .", "ivy"),
    ("[patient] dawn and her husband came too .", "dawn"),
    ("[doctor] holly , could you pop up on the bed ?", "holly"),
    ("[doctor] come on through , penny .", "penny"),
]
RARER_WORDS = [
    "[doctor] has salt been a problem for you ?",
    "[patient] salt and vinegar are my weakness .",
    "[doctor] sorry , could you repeat that ?",
    "[doctor] come on through , please .",
]

#: the one rung, called or texted, and "ask X about" (added after the first full measure, from dev20's "call {g} and
#: let her know", "phone {g} for me" and the slice's "we'll call moon later", "ask frank about it"): a transfer check
#: written before that step was run (5 of 5 right, 5 of 5 words stay; "i'll ask miles about it ." a miss since, below)
CALLED = [
    ("[patient] i'll ring mark later .", "mark"),
    ("[doctor] can you text rose and let her know ?", "rose"),
    ("[patient] we called grace back straight away .", "grace"),
    ("[patient] could you phone king for me ?", "king"),
]
CALLED_WORDS = [
    "[patient] we'll call it a day .",
    "[patient] i rang church for a lift .",
    "[patient] you can email price quotes later .",
    "[patient] i'll phone round later .",
    "[patient] we call hope the best medicine .",
]

#: the same places with the words as words: mass nouns, voices ("god knows", "law says"), institutions, adjectives
#: said on their own ("okay , perfect ."), a verb that is a noun too ("gold rings"), "that" after "it was"
NEGATIVES = [
    "[patient] gold costs a fortune these days .",
    "[patient] steel rusts if you leave it out .",
    "[patient] church helps me cope .",
    "[patient] hope helps .",
    "[patient] it was gold that gave me the rash .",
    "[patient] i can't tell north from south .",
    "[doctor] okay , perfect .",
    "[patient] thanks , great .",
    "[patient] god knows what it is .",
    "[patient] time will tell .",
    "[patient] law says you have to wear it .",
    "[doctor] perfect , could you sign here ?",
    "[doctor] great , can you sit up for me ?",
    "[patient] police said it was an accident .",
    "[patient] news says it's going round .",
    "[patient] ask for help at the desk .",
    "[patient] i told lies about it .",
    "[patient] they asked questions about my drinking .",
    "[doctor] did time help ?",
    "[doctor] first , can you roll your sleeve up ?",
    "[patient] gold rings irritate my skin .",
    "[patient] winter drove the prices up .",
    "[doctor] come on in , sit down .",
    "[patient] thanks for that , brilliant .",
]


@pytest.mark.parametrize("text, gone", WRITTEN_FROM + TRANSFER + RARER + CALLED)
def test_a_word_name_where_only_a_person_stands(text, gone):
    out = _out(text)
    assert f" {gone} " not in out and "[NAME]" in out, out


@pytest.mark.parametrize("text", TRANSFER_WORDS + RARER_WORDS + CALLED_WORDS + NEGATIVES)
def test_the_word_as_a_word_stays(text):
    assert _out(text) == text


@pytest.mark.xfail(strict=True, reason="replaced on main f61e529 already, by older rules (ginger steep: a full name)")
def test_let_a_word_stays():
    assert _out("[patient] let ginger steep for a bit .") == "[patient] let ginger steep for a bit ."


#: misses by design, written in the transfer checks above and right when run first: a plural of a common word is no
#: bare object of "tell", "ask", "call" ("i told lies about it" stays), so "miles" is not taken there
@pytest.mark.xfail(strict=True, reason="a plural of a common word is never the one told or asked")
@pytest.mark.parametrize("text", ["[patient] tell miles i'll be late .", "[patient] i'll ask miles about it ."])
def test_a_plural_name_told_is_missed(text):
    assert " miles " not in _out(text)


def test_only_the_name_goes():
    assert _out("[patient] it was king who found me on the floor .") == "[patient] it was [NAME] who found me on the floor ."
    assert _out("[doctor] has lucky told you the results ?") == "[doctor] has [NAME] told you the results ?"
    assert _out("[patient] joy and his wife brought me in .").startswith("[patient] [NAME] and ")


def test_modals_months_and_cased_text_stay():
    # a modal or a month is never read as a name by this rule (may_be_high); since the fifteenth session
    # name_guarded_kinds reads them in these places ("it was may who", "will says": tests/test_deid_guarded_kinds.py)
    from clinaudit.perturb.name_bare_person import may_be_high
    assert not may_be_high("may") and not may_be_high("will")
    assert _out("[patient] it was may who found me .") == "[patient] it was [NAME] who found me ."
    assert _out("[patient] will says it's fine .") == "[patient] [NAME] says it's fine ."
