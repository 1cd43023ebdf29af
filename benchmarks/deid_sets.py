"""The development sets of ``bench_deid_origin.py``, one row a set: its flag, its forms, its names, the words it
puts in as words, how often each form goes in, and its ``--help`` line. A new set is one module and one row here.

``names`` is ``None`` for the sets that use ``deid_names.py``'s names (the development and held-out halves, by
position); ``forms`` is ``None`` for dev7, whose forms are built at run time from the shared dialogs
(``deid_dev7.build``). Rows are in the order the benchmark prints the sets."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the set modules, when a test loads this file by path
from deid_dev import DEV_FORMS  # noqa: E402
from deid_dev2 import DEV2_FORMS, DEV2_NAMES  # noqa: E402
from deid_dev3_names import DEV3_NAMES  # noqa: E402
from deid_dev4 import DEV4_FORMS, DEV4_NAMES  # noqa: E402
from deid_dev5 import DEV5_FORMS  # noqa: E402
from deid_dev6 import DEV6_FORMS, DEV6_NAMES  # noqa: E402
from deid_dev8 import DEV8_FORMS, DEV8_NAMES  # noqa: E402
from deid_dev9 import DEV9_FORMS, DEV9_NAMES, DEV9_WORD_USES  # noqa: E402
from deid_dev10 import DEV10_FORMS, DEV10_REPEAT  # noqa: E402
from deid_dev11 import DEV11_FORMS, DEV11_NAMES  # noqa: E402
from deid_dev12 import DEV12_FORMS, DEV12_NAMES, DEV12_WORD_USES  # noqa: E402
from deid_dev13 import DEV13_FORMS, DEV13_REPEAT  # noqa: E402
from deid_dev14 import DEV14_FORMS, DEV14_NAMES  # noqa: E402
from deid_dev15 import DEV15_FORMS, DEV15_NAMES, DEV15_WORD_USES  # noqa: E402
from deid_dev16 import DEV16_FORMS, DEV16_REPEAT, DEV16_WORD_USES  # noqa: E402
from deid_dev17 import DEV17_FORMS, DEV17_REPEAT  # noqa: E402
from deid_dev18 import DEV18_NAMES, DEV18_WORD_USES  # noqa: E402
from deid_dev19 import DEV19_FORMS, DEV19_NAMES, DEV19_REPEAT, DEV19_WORD_USES  # noqa: E402
from deid_dev20 import DEV20_FORMS, DEV20_NAMES, DEV20_WORD_USES  # noqa: E402
from deid_dev21 import DEV21_FORMS, DEV21_NAMES, DEV21_WORD_USES  # noqa: E402
from deid_dev22 import DEV22_FORMS, DEV22_NAMES, DEV22_WORD_USES  # noqa: E402
from deid_dev23 import DEV23_FORMS, DEV23_NAMES, DEV23_REPEAT, DEV23_WORD_USES  # noqa: E402
from deid_dev24 import DEV24_FORMS, DEV24_NAMES, DEV24_PERSONS, DEV24_WORD_USES  # noqa: E402
from deid_dev25 import DEV25_FORMS, DEV25_NAMES, DEV25_WORD_USES  # noqa: E402
from deid_dev26 import DEV26_FORMS, DEV26_NAMES, DEV26_WORD_USES  # noqa: E402
from deid_dev27 import DEV27_FORMS, DEV27_NAMES, DEV27_WORD_USES  # noqa: E402
from deid_dev28 import DEV28_FORMS, DEV28_NAMES, DEV28_WORD_USES  # noqa: E402
from deid_dev29 import DEV29_FORMS, DEV29_NAMES, DEV29_WORD_USES  # noqa: E402
from deid_dev30 import DEV30_FORMS, DEV30_NAMES, DEV30_WORD_USES  # noqa: E402
from deid_dev31 import DEV31_FORMS, DEV31_NAMES, DEV31_WORD_USES  # noqa: E402
from deid_dev32 import DEV32_FORMS, DEV32_NAMES, DEV32_WORD_USES  # noqa: E402
from deid_dev33 import DEV33_FORMS, DEV33_NAMES, DEV33_WORD_USES  # noqa: E402
from deid_dev34 import DEV34_FORMS, DEV34_NAMES, DEV34_WORD_USES  # noqa: E402
from deid_dev35 import DEV35_FORMS, DEV35_NAMES, DEV35_PERSONS, DEV35_WORD_USES  # noqa: E402
from deid_dev36 import DEV36_FORMS, DEV36_NAMES, DEV36_WORD_USES  # noqa: E402
from deid_dev37 import DEV37_FORMS, DEV37_NAMES, DEV37_PERSONS, DEV37_WORD_USES  # noqa: E402
from deid_dev38 import DEV38_FORMS, DEV38_NAMES, DEV38_WORD_USES  # noqa: E402
from deid_dev39 import DEV39_FORMS, DEV39_NAMES, DEV39_WORD_USES  # noqa: E402
from deid_dev40 import DEV40_FORMS, DEV40_NAMES, DEV40_WORD_USES  # noqa: E402
from deid_dev41 import DEV41_FORMS, DEV41_NAMES, DEV41_WORD_USES  # noqa: E402
from deid_dev42 import DEV42_FORMS, DEV42_NAMES, DEV42_WORD_USES  # noqa: E402
from deid_dev43 import DEV43_FORMS, DEV43_NAMES, DEV43_WORD_USES  # noqa: E402
from deid_dev44 import DEV44_FORMS, DEV44_NAMES, DEV44_WORD_USES  # noqa: E402
from deid_dev_prep import PREP_FORMS  # noqa: E402
from deid_dev_prep2 import PREP2_FORMS  # noqa: E402

Forms = tuple[tuple[str, str], ...]


def word_uses_for(uses: Forms, index: int, avoid: set[str], k: int = 2) -> list[tuple[str, str]]:
    """``k`` sentences of a set's ``word_uses`` for the dialog ``index``, the next ones of the list when one holds a
    word of ``avoid`` (the lower-case parts of the names put into the same dialog: the benchmark counts a name part
    left anywhere in the dialog as a name missed)."""
    out: list[tuple[str, str]] = []
    n = len(uses)
    for j in range(n):
        who, sentence = uses[(index * k + j) % n]
        if not set(re.findall(r"[a-z]+", sentence.lower())) & avoid:
            out.append((who, sentence))
            if len(out) == k:
                break
    return out


class DevSet(NamedTuple):
    forms: Forms | None  # None: built at run time (dev7)
    names: dict | None  # origin -> (given names, surnames); None: deid_names.py's
    help: str
    word_uses: Forms | None = None  # sentences using the names' words as words, two a dialog (word_uses_for)
    repeat: int = 0  # each form put in this many times (0: three forms a dialog, once through the dialogs)
    plurals: bool = False  # a name with "s"/"es" after it ("the kowalczyks") is the name, left (dev16)
    persons: frozenset[str] = frozenset()  # persons' names in the word_uses, not counted when replaced (dev24)


SETS: dict[str, DevSet] = {
    "dev2": DevSet(DEV2_FORMS, DEV2_NAMES, "also the second development set (deid_dev2.py: its own forms and names, "
                   "52 origins)"),
    "dev3": DevSet(DEV_FORMS, DEV3_NAMES, "also names-dataset's most frequent names of 45 countries in the development "
                   "and dev2 forms (deid_dev3)"),
    "prep": DevSet(PREP_FORMS, DEV2_NAMES, "also persons after a preposition or an article (deid_dev_prep.py: its own "
                   "forms, dev2's names)"),
    "dev4": DevSet(DEV4_FORMS, DEV4_NAMES, "also names set apart by how they are written (deid_dev4.py: its own forms "
                   "and names, 15 origins)"),
    "prep2": DevSet(PREP2_FORMS, DEV2_NAMES, "also persons after a preposition, an article or in a list, other "
                    "wordings (deid_dev_prep2.py)"),
    "dev5": DevSet(DEV5_FORMS, DEV2_NAMES, "also everyday forms no other set has (deid_dev5.py: its own forms, dev2's "
                   "names)"),
    "dev6": DevSet(DEV6_FORMS, DEV6_NAMES, "also short or English-word names, with and without diacritics "
                   "(deid_dev6.py: 11 origins)"),
    "dev7": DevSet(None, DEV2_NAMES, "also forms taken from real speech (deid_dev7.py: sentences of shared dialogs "
                   "that host no form)", repeat=1),
    "dev8": DevSet(DEV8_FORMS, DEV8_NAMES, "also many more names of 11 origins the held-out half loses, of every kind "
                   "(deid_dev8.py)"),
    "dev9": DevSet(DEV9_FORMS, DEV9_NAMES, "also English-word names the dialog says are names, beside the same words "
                   "as words (deid_dev9.py)", DEV9_WORD_USES),
    "dev10": DevSet(DEV10_FORMS, DEV2_NAMES, "also what stands beside a name (deid_dev10.py)", repeat=DEV10_REPEAT),
    "dev11": DevSet(DEV11_FORMS, DEV11_NAMES, "also more names of the 5 origins the held-out half loses most, of "
                    "every kind (deid_dev11.py)"),
    "dev12": DevSet(DEV12_FORMS, DEV12_NAMES, "also UK and Irish names that are words or have a particle, beside words "
                    "as words (deid_dev12.py)", DEV12_WORD_USES),
    "dev13": DevSet(DEV13_FORMS, DEV2_NAMES, "also plain forms of clinic speech that may lose any origin's name "
                    "(deid_dev13.py)", repeat=DEV13_REPEAT),
    "dev14": DevSet(DEV14_FORMS, DEV14_NAMES, "also more lower-case names of Samoan, Haitian, Korean, Punjabi, of the "
                    "kinds the sets keep most (deid_dev14.py)"),
    "dev15": DevSet(DEV15_FORMS, DEV15_NAMES, "also UK, Irish, US and Australian names that are words where the grammar "
                    "puts a person, beside the same words as words in the same frames (deid_dev15.py)", DEV15_WORD_USES),
    "dev16": DevSet(DEV16_FORMS, DEV2_NAMES, "also a person after an article or a determiner, beside things in the same "
                    "places (deid_dev16.py)", DEV16_WORD_USES, repeat=DEV16_REPEAT, plurals=True),
    "dev17": DevSet(DEV17_FORMS, DEV2_NAMES, "also plain forms of clinic conversation written blind, a name in every "
                    "place but after an article (deid_dev17.py)", repeat=DEV17_REPEAT),
    "dev18": DevSet(DEV17_FORMS, DEV18_NAMES, "also names the lists call words only through a dictionary's headword, in "
                    "dev17's forms, beside words of that kind as words (deid_dev18.py)", DEV18_WORD_USES,
                    repeat=DEV17_REPEAT),
    "dev19": DevSet(DEV19_FORMS, DEV19_NAMES, "also names that are words in the places no rule read: after a "
                    "preposition, answering who, let/have/get, a list with me, a progressive subject, a hand-over "
                    "(deid_dev19.py)", DEV19_WORD_USES, repeat=DEV19_REPEAT),
    "dev20": DevSet(DEV20_FORMS, DEV20_NAMES, "also names that are everyday words (Zipf 4.5 or more) where only a "
                    "person can stand, beside the same words as words (deid_dev20.py)", DEV20_WORD_USES),
    "dev21": DevSet(DEV21_FORMS, DEV21_NAMES, "also names the guards call words in the frames that name a person "
                    "(a title, a self-introduction, a greeting, a relative in apposition), beside words in the same "
                    "frames (deid_dev21.py)", DEV21_WORD_USES),
    "dev22": DevSet(DEV22_FORMS, DEV22_NAMES, "also names ICD-10-CM holds only in its external-cause or factors "
                    "chapter, beside the same words as words (deid_dev22.py)", DEV22_WORD_USES),
    "dev23": DevSet(DEV23_FORMS, DEV23_NAMES, "also names of Zipf 4.5 or more the lists call words, in the places no "
                    "rule reads them (after with/from, answering who, a list with me, a progressive subject, a "
                    "hand-over), beside the same words as words (deid_dev23.py)", DEV23_WORD_USES, repeat=DEV23_REPEAT),
    "dev24": DevSet(DEV24_FORMS, DEV24_NAMES, "also surnames that are words right after the given name, beside the same "
                    "words as words after a given name (deid_dev24.py)", DEV24_WORD_USES,
                    persons=DEV24_PERSONS),
    "dev25": DevSet(DEV25_FORMS, DEV25_NAMES, "also given names of two parts, hyphenated or apart, a part a word the "
                    "lists hold, beside hyphenated words and eponyms as words (deid_dev25.py)", DEV25_WORD_USES),
    "dev26": DevSet(DEV26_FORMS, DEV26_NAMES, "also Irish and Scottish Gaelic surnames of a particle and a stem written "
                    "apart, with an apostrophe or joined, and Gaelic given names with and without accents, beside the "
                    "particles as words (deid_dev26.py)", DEV26_WORD_USES),
    "dev27": DevSet(DEV27_FORMS, DEV27_NAMES, "also names that are words the guards block (clinical in a chapter of "
                    "conditions, or in no gazetteer) where only a person stands, beside the same words as words "
                    "(deid_dev27.py)", DEV27_WORD_USES),
    "dev28": DevSet(DEV28_FORMS, DEV28_NAMES, "also names the lists hold only as words English hardly writes (a "
                    "whitelist or rare headword word, in no gazetteer), where a person stands (deid_dev28.py)",
                    DEV28_WORD_USES),
    "dev29": DevSet(DEV29_FORMS, DEV29_NAMES, "also Korean names of one-syllable parts (a bare surname, a full name "
                    "surname first or its given name apart) and Chinese and Vietnamese one-syllable names, beside the "
                    "same words as words (deid_dev29.py)", DEV29_WORD_USES),
    "dev30": DevSet(DEV30_FORMS, DEV30_NAMES, "also full names of two unlisted or rare words and given names written "
                    "apart, in appositions, lists, labels and after a preposition, beside two-word phrases that are no "
                    "names in the same places (deid_dev30.py)", DEV30_WORD_USES),
    "dev31": DevSet(DEV31_FORMS, DEV31_NAMES, "also names the guards keep as words (function words of address, "
                    "approval or time, days, months, adjectives of virtue) where only a person stands, beside the same "
                    "words and the race, day, month and modal words as words (deid_dev31.py)", DEV31_WORD_USES),
    "dev32": DevSet(DEV32_FORMS, DEV32_NAMES, "also names that are everyday English words the gazetteers hold "
                    "(occupations, birds, virtues) in everyday places no rule frames (a bare subject, after a filler, "
                    "known or seen, without / except, apposition, a possessive, a label), beside the same words and "
                    "mass nouns as words (deid_dev32.py)", DEV32_WORD_USES),
    "dev33": DevSet(DEV33_FORMS, DEV33_NAMES, "also Polynesian surnames of the Cantonese prefix \"Ah\" and a syllable "
                    "(\"ah kuoi\") and short Polynesian given names the lists hold as words, in everyday forms, beside "
                    "\"ah\" and the same words as words (deid_dev33.py)", DEV33_WORD_USES),
    "dev34": DevSet(DEV34_FORMS, DEV34_NAMES, "also Punjabi, Hindi, Korean and Vietnamese names of short parts "
                    "English writes as words or fragments (a given name as two words apart, a bare short part), "
                    "beside the same words as words (deid_dev34.py)", DEV34_WORD_USES),
    "dev35": DevSet(DEV35_FORMS, DEV35_NAMES, "also UK, Irish, Scottish and Australian surnames that are common "
                    "English adjectives, nouns or verbs, after their given name and alone, beside the same words as "
                    "words in the same places (deid_dev35.py)", DEV35_WORD_USES,
                    persons=DEV35_PERSONS),
    "dev36": DevSet(DEV36_FORMS, DEV36_NAMES, "also names that are the names of countries, US states and regions "
                    "(Georgia, Wales, Holland) and Gaelic surnames of several parts (Mag Uidhir), beside the same words "
                    "as places, teams and words (deid_dev36.py)", DEV36_WORD_USES),
    "dev37": DevSet(DEV37_FORMS, DEV37_NAMES, "also a full name whose surname is an English word (its given name a "
                    "built-in first name or a rare one) and the same person's surname or given name again alone, "
                    "beside the same words as words (deid_dev37.py)", DEV37_WORD_USES, persons=DEV37_PERSONS),
    "dev38": DevSet(DEV38_FORMS, DEV38_NAMES, "also UK, Irish, US, Australian and Scottish given names and surnames "
                    "that are common words, alone as the subject of a person's predicate, the object of a verb of "
                    "contacting, after 'that was' or 'i was with', beside the same words as words (deid_dev38.py)",
                    DEV38_WORD_USES),
    "dev39": DevSet(DEV39_FORMS, DEV39_NAMES, "also short given names the lists hold as words or clinical "
                    "abbreviations (Samoan, Tongan, Maori, Spanish, Filipino, UK) where only a person stands (a "
                    "relative's word before, a greeting, next of kin, a person's verb), beside the same words as "
                    "words and abbreviations (deid_dev39.py)", DEV39_WORD_USES),
    "dev40": DevSet(DEV40_FORMS, DEV40_NAMES, "also surnames that are clinical eponyms (Parkinson, Cushing, Kawasaki; "
                    "UK, US, German, Japanese, Italian, US Jewish) as a full name, alone where only a person stands and "
                    "the same person twice, beside the same words as eponyms of conditions, signs and procedures "
                    "(deid_dev40.py)", DEV40_WORD_USES),
    "dev41": DevSet(DEV41_FORMS, DEV41_NAMES, "also given names that are English words (flowers, gems, colours, "
                    "virtues, weather and pet words; UK, US, Irish, Australian, Filipino, Nigerian) where a person "
                    "stands in an everyday sentence (the subject of a person's errand, 'my carer is X , she', 'i was "
                    "telling X about', 'going to X's after'), beside the same words as words (deid_dev41.py)",
                    DEV41_WORD_USES),
    "dev42": DevSet(DEV42_FORMS, DEV42_NAMES, "also UK, Irish, Punjabi, Scottish and German surnames that are English "
                    "words, bare and after a given name, as the subject of a person's day, after 'my carer is', the "
                    "object of a preposition or a verb that takes a person, in apposition, thanked or greeted, beside "
                    "the same words as words (deid_dev42.py)", DEV42_WORD_USES),
    "dev43": DevSet(DEV43_FORMS, DEV43_NAMES, "also Polynesian and Fijian names of two Polynesian-shaped parts that "
                    "the lists hold as rare words or read as words (Samoan, Tongan, Maori, Cook Islands, Hawaiian, "
                    "Fijian), in everyday places, beside the same words and pairs of Polynesian words as words "
                    "(deid_dev43.py)", DEV43_WORD_USES),
    "dev44": DevSet(DEV44_FORMS, DEV44_NAMES, "also given names that are English words or headwords (13 origins: "
                    "English, US, Irish, Welsh, Punjabi, Yoruba, Japanese, ...) addressed in spoken greetings and "
                    "questions without punctuation around the name ('hi X how are you', 'so X tell me'), beside the "
                    "same slots holding terms of address, adverbs, fillers and the names' words as words "
                    "(deid_dev44.py)", DEV44_WORD_USES),
}
