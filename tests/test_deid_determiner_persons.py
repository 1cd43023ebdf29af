"""A strong name after an article or a determiner, in lower case (issue 50, eleventh session;
perturb/name_determiner_persons.py, benchmarks/deid_dev16.py): a gazetteer name no list calls a word and English
text barely uses, and its plural, is a person wherever a determiner stands before it; brands, shops, drugs, places
and the words of the lists stay. Hand-written examples (no part of a benchmark set's names: checked by counts)."""

from __future__ import annotations

import pytest
from script_modules import NAME_TABLES, parts_shared

from clinaudit.perturb.deid import deidentify_text
from clinaudit.perturb.name_determiner_persons import STRONG_ZIPF, strong_name, strong_plural

_NAMES = ["wawrzyniak", "grabowska", "akinwande", "oyewole", "adesanya", "okoronkwo", "ifunanya", "matuszewski",
          "kaminska", "zawadzki"]


def test_the_names_here_are_no_set_s():
    shared = parts_shared({"tests": ([n.capitalize() for n in _NAMES], [])}, *NAME_TABLES)
    assert shared == dict.fromkeys(shared, 0)  # counts only


@pytest.mark.parametrize("text, expected", [
    ("[patient] the wawrzyniaks came over on sunday .", "[patient] the [NAME] came over on sunday ."),
    ("[patient] she's a grabowska by marriage .", "[patient] she's a [NAME] by marriage ."),
    ("[patient] he was a grabowska before he changed it .", "[patient] he was a [NAME] before he changed it ."),
    ("[patient] it's the akinwande way , we never complain .", "[patient] it's the [NAME] way , we never complain ."),
    ("[patient] the oyewole thing happened again last night .",
     "[patient] the [NAME] thing happened again last night ."),
    ("[patient] the adesanya's dog bit me on the leg .", "[patient] the [NAME]'s dog bit me on the leg ."),
    ("[patient] i'm staying with the okoronkwos for a while .", "[patient] i'm staying with the [NAME] for a while ."),
    ("[patient] there's an ifunanya at my work too .", "[patient] there's an [NAME] at my work too ."),
    ("[patient] those matuszewskis never call me back .", "[patient] those [NAME] never call me back ."),
    ("[patient] a kaminska from billing rang me .", "[patient] a [NAME] from billing rang me ."),
    ("[patient] the zawadzkis' dog knocked me over .", "[patient] the [NAME]' dog knocked me over ."),
    ("[patient] some zawadzki from the insurance keeps calling .",
     "[patient] some [NAME] from the insurance keeps calling ."),
    ("[patient] it's the kjær way .", "[patient] it's the [NAME] way ."),
])
def test_a_strong_name_after_a_determiner(text, expected):
    assert deidentify_text(text, gender=False)[0] == expected


@pytest.mark.parametrize("text", [
    "[patient] the walgreens on main was out .",
    "[patient] we bought a honda last year .",
    "[patient] the toyota's brakes went .",
    "[patient] i fell in the kroger's parking lot .",
    "[patient] the tylenols don't help .",
    "[patient] they sent it to the mayo clinic .",
    "[patient] the hilton bed was too soft .",
    "[patient] the wawrzyniak clinic called me .",  # a facility's word after it, as before
    "[patient] the akinwande pharmacy has it .",
    "[patient] it's the hunter thing again .",  # a word of the lists
    "[patient] the wixela made me shaky .",  # in no list: a brand as likely as a name
    "[patient] the keppra made me dizzy .",
    "[patient] we bought a subaru in may .",
    "[patient] the manchester one was cheaper .",  # a place Webster's capitalises
    "[patient] the ikea chair hurts my back .",
    "[patient] the marriott near the hospital .",
    "[patient] a heineken at the party .",
    "[patient] the aetna card is in my wallet .",
    "[doctor] are you a yankie's fan ?",  # "a" before a possessive: the next noun's article (real dialogs)
    "[patient] we go to the venti place .",  # English text uses it (Zipf 2.41)
])
def test_a_thing_after_a_determiner_stays(text):
    assert deidentify_text(text, gender=False)[0] == text


def test_what_a_strong_name_is():
    assert STRONG_ZIPF == 2.3
    assert all(strong_name(n) for n in _NAMES)
    # brands English text uses more, words of the lists, clinical words, relatives, places
    assert not any(strong_name(w) for w in ("honda", "toyota", "kroger", "subaru", "hilton", "hunter", "baxter",
                                            "keppra", "walgreens", "manchester", "cousin", "wixela"))
    assert strong_plural("okoronkwos", "okoronkwos") and strong_plural("szczepańskas", "szczepanskas")
    assert not strong_plural("hondas", "hondas") and not strong_plural("tylenols", "tylenols")


#: the transfer check (eleventh session): 15 sentences written after the rule, not looked at while writing it, each
#: with 3 strong names (no part of a benchmark set's) and 3 brands; main ca26486 removed 12 of the 45 names, this
#: rule 45; the brands stay as on main (41 of 45: "aldi" after "that", "some", "new" and in "all the aldis" is
#: replaced on main by older rules, left out here)
_TRANSFER = [
    "[patient] the {x}s next to us have a dog .",
    "[patient] i was at the {x}'s all afternoon .",
    "[patient] it's a {x} thing , i guess .",
    "[patient] the {x} near my house closed .",
    "[patient] my sister swears by the {x} .",
    "[patient] the {x} people were really nice about it .",
    "[patient] that {x} from last year was a mess .",
    "[patient] some {x} called about the bill .",
    "[patient] we went with the {x} in the end .",
    "[patient] the new {x} is a lot better .",
    "[patient] all the {x}s i know are like that .",
    "[patient] there's a {x} by the school .",
    "[patient] the {x}'s son drove me .",
    "[patient] i'd rather the {x} than nothing .",
    "[patient] ask the {x} about it next time .",
]
_TRANSFER_NAMES = ["wierzbicki", "akintola", "stachowiak"]
_TRANSFER_BRANDS = ["mazda", "aldi", "humira"]
_MAIN_REPLACES = {(6, "aldi"), (7, "aldi"), (9, "aldi"), (10, "aldi")}


def test_the_transfer_names_are_no_set_s():
    shared = parts_shared({"tests": ([n.capitalize() for n in _TRANSFER_NAMES], [])}, *NAME_TABLES)
    assert shared == dict.fromkeys(shared, 0)


@pytest.mark.parametrize("form", _TRANSFER)
@pytest.mark.parametrize("name", _TRANSFER_NAMES)
def test_transfer_a_strong_name_is_removed(form, name):
    out = deidentify_text(form.format(x=name), gender=False)[0]
    assert name not in out and "[NAME]" in out


@pytest.mark.parametrize("k, form, brand", [
    pytest.param(k, form, brand, marks=pytest.mark.xfail(strict=True, reason="replaced on main ca26486 already, by "
                                                          "older rules")) if (k, brand) in _MAIN_REPLACES
    else (k, form, brand) for k, form in enumerate(_TRANSFER) for brand in _TRANSFER_BRANDS])
def test_transfer_a_brand_stays(k, form, brand):
    text = form.format(x=brand)
    assert deidentify_text(text, gender=False)[0] == text
