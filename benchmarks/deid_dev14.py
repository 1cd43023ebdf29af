"""A fourteenth development set of the by-origin de-identification benchmark (issue 50, tenth session): more names
of the four origins the held-out half loses most in lower case (Samoan 84.8 %, Haitian 88.9, Korean 90.9, Punjabi
93.9 there), of the kinds the other sets keep most in lower case.

Before writing it, every lower-case name part of these origins (and Tongan, Fijian, Māori, Nigerian) in dev2, dev3,
dev4, dev6, dev8 and dev11 was put into each set's forms and the parts kept were sorted by why the detector keeps
them (its own helpers: ``word_facts``, ``english_zipf``, ``word_known``): Korean, short surnames and given names of
three letters or fewer (42 of 60 Korean parts kept), surnames that are English or clinical words ("hong", "song",
"chin"), given names run together that begin a longer word; Haitian, made-up given names one letter from a common
word (11 of 32) and French compounds run together (6); Punjabi, nicknames that are words and short names, Jat clan
surnames; Samoan, short names and names that are words.

Written by hand (not from Faker, names-dataset, ``deid_names.py`` or the detector's lists): Samoan given names that
are Samoan words and short names, surnames of chiefly titles and words; Haitian made-up given names near French and
English words (-line, -ly, -ens, -son endings), virtue and day names, French surnames that are words (a month, a
day, a virtue); Korean given names run together, in Revised and McCune-Reischauer romanisation (with and without
breves) and as Korean Americans write them, one-syllable given names, surnames in every romanisation; Punjabi Sikh
compounds (-preet, -jeet, -jot, -deep, -inder), Muslim Punjabi names, nicknames, Jat and Arain clan surnames. A
draft of about 60 given names and 60 surnames an origin was written first; every name with a part that is any of
``deid_names.py``'s (either half), ``deid_dev2.py``'s, ``deid_dev3_names.py``'s, ``deid_dev4.py``'s,
``deid_dev6.py``'s, ``deid_dev8.py``'s, ``deid_dev9.py``'s, ``deid_dev11.py``'s, ``deid_dev12.py``'s, or of an
earlier name of this set, was left out by a script that printed only counts (279 left out; no held-out name seen).
``tests/test_deid_dev14.py`` checks that no part is shared with those sets, without printing them.

**24 new sentence forms** no other set has, worded as lower-case speech is (a person as the subject of an everyday
verb, after "me and", "over at ...'s", a relative or a housemate, a vocative after "hi", "oh", a surname given
alone, "Mister" and "Coach" before a surname). ``python benchmarks/bench_deid_origin.py --dev-only --dev14
--no-before --no-real`` reports it per origin as the ``dev14`` half. Same layout as ``deid_dev11.py``; ``{g}`` given
name, ``{s}`` surname.

On main a0139a2 (b37c55c and a benchmark set), before any rule of this session (45 dialogs, 3 forms each; 56 cased
and 83 lower-case names an origin): cased 97.3 % (Samoan 94.6, Haitian 98.2, Korean 100.0, Punjabi 96.4), lower case
94.9 % (Samoan 94.0, Haitian 94.0, Korean 94.0, Punjabi 97.6).
"""

from __future__ import annotations

DEV14_FORMS: tuple[tuple[str, str], ...] = (
    ("P", "So {g} picked me up from work and brought me straight here."),
    ("D", "And is {g} still doing your insulin shots in the evening?"),
    ("P", "{g} and I both work at the warehouse, same shift."),
    ("P", "My roommate {g} heard me fall and called the ambulance."),
    ("D", "Did {g} come with you today or did you drive yourself?"),
    ("P", "Yeah, {g} {s}, she's my case worker at the clinic."),
    ("P", "I was over at {g}'s when my chest started hurting."),
    ("D", "I'll have {g} from the front desk set up the follow up."),
    ("P", "The last name is {s}, first name {g}."),
    ("P", "{s} is my husband's last name, I took it when we married."),
    ("D", "So {g} lives with you and helps with the meals?"),
    ("P", "My mom, {g}, she had the same thing at my age."),
    ("P", "Oh {g} always tells me I don't drink enough water."),
    ("D", "Hi {g}, nice to meet you, I'm the resident today."),
    ("P", "{g} {s} from church drops off dinner on Tuesdays."),
    ("P", "We went to {g}'s wedding and I ate way too much."),
    ("D", "Can {g} bring in the list of your medications next time?"),
    ("P", "It was {s}, the coach, who told me to get it looked at."),
    ("P", "My little brother {g} has asthma too, worse than me."),
    ("D", "Mister {s}, I'm going to press on your belly now, okay?"),
    ("P", "{g} texted me that you were running late, so no worries."),
    ("P", "Me and {g} split the rent, so she's around most nights."),
    ("D", "Is {s} spelled the way it is on your insurance?"),
    ("P", "Coach {s} made me sit out the rest of the game."),
)

#: origin -> (given names, surnames), written as people of that origin write them
DEV14_NAMES: dict[str, tuple[list[str], list[str]]] = {
    "Samoan": ([
        "Mafutaga", "Fealofani", "Talalelei", "Lata", "Peni", "Sio", "Aukuso", "Telesia", "Sala", "Masina",
        "Mana", "Lemau", "Fou", "Pito", "Ese", "Faiga", "Lole", "Tapu", "Lefaga", "Mamea", "Nofo", "Sami",
        "Lua", "Filo", "Vaelua", "Tofi", "Saili", "Fagu", "Lafi"],
        [
        "Faleafa", "Taase", "Ete", "Faamausili", "Lafaele", "Suafoa", "Autagavaia", "Pau", "Tiatia", "Poutoa",
        "Ainuu", "Ioelu", "Pele", "Lologo", "Maiava", "Falepapalagi", "Lepou", "Tuimalealiifano", "Ioapo",
        "Sila", "Tone", "Papa", "Tafa", "Moto'otua", "Fanene", "Alo"]),
    "Haitian": ([
        "Kettlie", "Rosenaud", "Cassandre", "Gerda", "Loveline", "Medgine", "Sherley", "Rodeline", "Phanie",
        "Fedline", "Wislet", "Judelin", "Ketsia", "Jhonny", "Wilguens", "Mackenley", "Woodson", "Marvens",
        "Steevens", "Witchna", "Nerlande", "Mideline", "Ludnie", "Enock", "Blandine", "Clermise", "Kenold",
        "Benite", "Bonté", "Espérancia", "Merite", "Charitable", "Plésius", "Manno", "Solanj", "Jislèn",
        "Djenane", "Tifrè", "Rosemila", "Lovena"],
        [
        "Délice", "Cadichon", "Valcourt", "Jolibois", "Janvier", "Avril", "Beauvoir", "Sanon", "Orélus",
        "Bonheur", "Bontemps", "Maxime", "Innocent", "Cherenfant", "Bellevue", "Sainvilus", "Dessalines",
        "Philemond", "Mérilus", "Dorismond", "Mathurin", "Gédéon", "Bastien", "Démosthène", "Lafleur",
        "Dumerzier", "Fanfan", "Destiné", "Jeudy", "Samedi", "Mardi", "Présumé", "Zéphirin", "Octavius",
        "Durandisse", "Dorval", "Bréus", "Nazaire", "Siméon", "Polynice"]),
    "Korean": ([
        "Yejin", "Dohyun", "Eunbi", "Sooyoung", "Yerim", "Hanbyul", "Ch'ŏlsu", "Kyŏnghŭi", "Sŏnmi", "Hyŏnu",
        "Dabin", "Sohee", "Jihun", "Hwan", "Yul", "Suk", "Yeonwoo", "Seoyun", "Joowon", "Hajin", "Siwoo",
        "Eunwoo", "Doyoon", "Sujin", "Chulsoo", "Younghee", "Jeongmin", "Myungsoo", "Kwangho", "Sunhee",
        "Okja", "Bokja", "Yongsu", "Daehyun"],
        [
        "Chey", "Lyu", "Roe", "Seoh", "Sohn", "Whang", "Uhm", "Eum", "Tark", "Pong", "Pang", "Tong", "Yuh",
        "Namkung", "Chi", "Kee", "Gee", "Ohn", "Bahng", "Chŏng", "Kahng", "Gho", "Youn", "Ihm", "Nahm",
        "Phyo", "Rou", "Jhang", "Hahn", "Hann", "Her", "Oum", "Yon", "Pai", "Byon", "Kweon", "Mok", "Muk",
        "Keum"]),
    "Punjabi": ([
        "Simranjeet", "Jasmeet", "Navneet", "Ravinder", "Taranjot", "Arshdeep", "Gurjot", "Harjot",
        "Sehajpreet", "Jaskaran", "Kirandeep", "Gurbaksh", "Raheel", "Shahid", "Tariq", "Nasreen", "Rukhsana",
        "Azhar", "Sajid", "Naveed", "Bunty", "Monu", "Bittu", "Guddi", "Pappu", "Chintu", "Nikku", "Sukhi",
        "Kuki", "Mintu", "Jolly", "Sweety", "Nimmi", "Kaki", "Har", "Gurpal", "Maninder", "Manjot",
        "Prabhjot", "Ishpreet"],
        [
        "Maan", "Saggu", "Ghotra", "Sanghera", "Hothi", "Rakkar", "Gakhal", "Warraich", "Gondal", "Tarar",
        "Kandola", "Lidder", "Mattu", "Pooni", "Bhogal", "Jhaj", "Chhina", "Dhugga", "Kailey", "Mudhar",
        "Bhamra", "Sagoo", "Kler", "Manhas", "Sumal", "Dulai", "Phagura", "Jawanda", "Pandori", "Bhinder",
        "Ladhar", "Riar", "Chohan", "Rattu", "Birdi", "Khunkhun", "Gujjar", "Arain", "Minhas", "Sulehri"]),
}
