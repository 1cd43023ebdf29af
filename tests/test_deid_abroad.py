"""A name English text writes often because it is a name (issue 50, thirteenth session: :mod:`.name_abroad`), read
in lower case in :mod:`.name_bare_places`' places: "i came in with tim", "who brought you ? joe .", "handover from
mike :". The measure (the other languages write the word nearly as often as English text), the places with such
names (dev23's, whose names they are), the same words and other words of Zipf 4.5 or more as words in the same
places, and a transfer check of 15 + 15 sentences written after the rule (in no set)."""

from __future__ import annotations

import re

import pytest

from clinaudit.perturb.deid import deidentify_text
from clinaudit.perturb.name_abroad import ABROAD_GAP, abroad_zipf, named_by_frequency
from clinaudit.perturb.name_detect import load_word_lists
from clinaudit.perturb.vocab import english_zipf


def _kept(text: str, word: str) -> bool:
    out = deidentify_text(text)[0]
    return re.search(r"(?<![\w'’-])" + word + r"(?![\w'’-])", out) is not None


@pytest.mark.parametrize("word", ["smith", "martin", "lee", "tim", "joe", "mike", "ben", "roman", "wilson", "harry"])
def test_a_name_written_abroad_as_often_is_a_name_by_frequency(word):
    load_word_lists()
    assert named_by_frequency(word)
    assert english_zipf(word) - abroad_zipf(word) < ABROAD_GAP


@pytest.mark.parametrize("word", ["hope", "grace", "miles", "story", "success", "crew", "freedom", "champion",
                                  "tower", "orange", "tour", "era", "moment", "talent", "king", "song", "young",
                                  "will", "may", "wars", "sweet", "cash", "price"])
def test_an_everyday_word_is_not(word):
    assert not named_by_frequency(word)


@pytest.mark.parametrize("word", ["harris", "willow", "the", "xq"])
def test_only_the_common_gazetteer_words(word):
    # rarer than Zipf 4.5 ("harris" 4.44: name_bare_places reads it already), no gazetteer word, no word at all
    assert not named_by_frequency(word)


#: dev23's places, with its names of this kind
NAMES = [
    ("i came in with tim this afternoon .", "tim"),
    ("i've been living with joe since the summer .", "joe"),
    ("i had a text from mike this morning .", "mike"),
    ("i heard back from ben last week .", "ben"),
    ("i'm here for roman , he's stuck at work .", "roman"),
    ("i'm a bit worried about tim .", "tim"),
    ("who drove you in ? mike did .", "mike"),
    ("who's at home with you ? just joe ?", "joe"),
    ("i'll get ben to bring my slippers in .", "ben"),
    ("me , roman and my daughter all went down with it .", "roman"),
    ("it's only me and tim at home these days .", "tim"),
    ("joe and i share the driving .", "joe"),
    ("mike is collecting me at four .", "mike"),
    ("ben was with me the whole time .", "ben"),
    ("i'm sure roman took my glasses .", "roman"),
    ("handover from tim : bay two is settled .", "tim"),
    ("hand over to joe at eight .", "joe"),
]


#: the same places with the words as words, and everyday words of Zipf 4.5 or more there
WORDS = [
    "i take the tablets with orange squash .",
    "i came in with orange juice all down my top .",
    "what colour was it ? orange , i think .",
    "who paid for it ? union , through the scheme .",
    "union is picking up the bill for my care .",
    "i'm sure union took the money already .",
    "hand over to crew at the station .",
    "me , orange juice and a biscuit , that's breakfast .",
    "orange and i don't agree , it gives me heartburn .",
    "i came back from tour last week .",
    "i think story has a happy ending , in the end .",
    "i came in with bar staff from the pub .",
    "we're roman catholic , so the chaplain came .",
    "speak into the mike , please , for the recording .",
    "a cup of joe keeps me going in the morning .",
    "it dates from roman times , the bridge .",
    "i was talking with grace about it , and patience .",
]


def _right(text: str, name: str | None) -> bool:
    """A name (``name``) replaced, or a sentence of words (``name`` None) left as it was."""
    return not _kept(text, name) if name else deidentify_text(text)[0] == text


@pytest.mark.parametrize(("text", "name"), NAMES + [(w, None) for w in WORDS])
def test_the_places_with_names_and_with_words(text, name):
    assert _right(text, name), deidentify_text(text)[0]


def test_cased_text_is_read_as_before():
    # capitalised, the name is found by the detector; the rule reads lower-case words only
    assert deidentify_text("I came in with Tim this afternoon.")[0] == "I came in with [NAME] this afternoon."
    assert deidentify_text("The ROMAN trial was stopped early.")[0] == "The ROMAN trial was stopped early."


#: transfer check, written after the rule and not looked at while writing it: 15 with names, 15 with words
TRANSFER_NAMES = [
    ("i've been staying with martin since my op .", "martin"),
    ("who's picking you up ? smith , from next door .", "smith"),
    ("i got a voicemail from lee last night .", "lee"),
    ("me , joe and my wife all had covid .", "joe"),
    ("wilson is driving me home later .", "wilson"),
    ("i think mike took my prescription .", "mike"),
    ("handover from tim : bay three is quiet .", "tim"),
    ("could you let roman know i'm here ?", "roman"),
    ("i'll get ben to ring you back .", "ben"),
    ("it's only you and harry at home now ?", "harry"),
    ("i'm a bit worried about martin .", "martin"),
    ("who came with you ? jackson did .", "jackson"),
    ("johnson was with me when i fell .", "johnson"),
    ("i've been living with max for two years .", "max"),
    ("over to kevin , he has the side rooms .", "kevin"),
]
TRANSFER_WORDS = [
    "i came in with bar staff from the pub .",
    "i rose from the chair too fast .",
    "i came back from tour last week .",
    "i came in with miles on the clock .",
    "i got a letter from fox news about it .",
    "i've been living with mark on my arm since the fall .",
    "i think bar has closed now .",
    "rose is coming back in the garden .",
    "i'm here for pro tips on running .",
    "the smith shod the horse .",
    "i took the lee side of the boat .",
]
#: replaced before this rule too (main a8a2ae0): "bono" and "radio" are taken by other rules
TRANSFER_WORDS_MISSED = [
    "who did the work ? pro bono lawyers .",
    "i heard it from radio four this morning .",
    "what station is it ? radio two .",
    "me , radio and a cup of tea , that's my morning .",
]


@pytest.mark.parametrize(("text", "name"), TRANSFER_NAMES + [(w, None) for w in TRANSFER_WORDS])
def test_transfer(text, name):
    assert _right(text, name), deidentify_text(text)[0]


@pytest.mark.xfail(reason="replaced by other rules before the thirteenth session (main a8a2ae0) too", strict=True)
@pytest.mark.parametrize("text", TRANSFER_WORDS_MISSED)
def test_transfer_words_missed(text):
    assert _right(text, None)
