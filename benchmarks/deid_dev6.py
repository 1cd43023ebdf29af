"""A sixth development set of the by-origin de-identification benchmark (issue 50, seventh session): names that are
short or are English words, and names written with and without their diacritics in one dialog.

The held-out lower-case dialogs lose most names of Samoan, Czech, UK, Zulu, Haitian, Korean, Akan, US, Irish and
Punjabi origin, whose names are often short or ordinary English words ("Fox", "Hope", "Song", "Bal", "Tui") that the
word lists hold as words or abbreviations, and the detector drops such a word unless a naming context stands before
it. So this set gives the rules names of 11 origins (those ten and Hungarian), 12 given names and 12 surnames an
origin, hand-written here (not from Faker, names-dataset or the detector's lists), the short and word-like ones
first; no part of a name is any of ``deid_names.py``'s (either half), ``deid_dev2.py``'s, ``deid_dev3_names.py``'s
or ``deid_dev4.py``'s (checked by ``tests/test_deid_dev6.py`` without printing them).

**24 new sentence forms** that put a person where only a person stands without a title or a greeting: the subject of a
verb only a person does ("{g} says I snore"), after a role or a job ("my coworker {s}", "Officer {s}"), a given name
before a surname, a person one lives or stays with, and a name said twice (a possessive is not counted by the
benchmark's ``present``: no form has one). Four forms write a name once as the origin writes it and again without its
diacritics (``{gf}``, ``{sf}``: the name folded, "Bednář" then "Bednar"), or deaccented in capitals as a card writes
it (``{GF}``, ``{SF}``: "BEDNAR"). ``python benchmarks/bench_deid_origin.py --dev-only --dev6 --no-before --no-real``
reports it per origin as the ``dev6`` half. Same layout as ``deid_dev.py``; ``{g}`` given name, ``{s}`` surname."""

from __future__ import annotations

DEV6_FORMS: tuple[tuple[str, str], ...] = (
    ("P", "{s} from next door checks on me most mornings."),
    ("P", "I asked {s} to pick up my prescriptions while I was sick."),
    ("D", "Did {g} come with you today, or are you on your own?"),
    ("P", "My coworker {s} covered my shifts all last week."),
    ("P", "{g} says I snore so loud that nobody can sleep."),
    ("P", "Me and {g} walk around the lake every evening."),
    ("P", "I was staying with {g} {s} over the holidays when it started."),
    ("D", "Please tell {g} I said hello, and thanks for the card."),
    ("P", "{g} {s} is my case worker, she set up the rides to dialysis."),
    ("P", "{g} {s} is the one who drives me; {sf} works nights, so some days I take the bus."),
    ("P", "Coach {s} had us running laps in the heat when I passed out."),
    ("P", "My landlord, {s}, still won't fix the heat in my apartment."),
    ("P", "Luckily {g} was home when I fell and called the ambulance."),
    ("P", "On my insurance card it says {SF}, {GF}, that's me."),
    ("P", "{g} and I have been married almost thirty years."),
    ("D", "Is {g} your daughter or your granddaughter?"),
    ("P", "Yesterday {g} phoned to see how I was feeling."),
    ("P", "Officer {s} found me sitting at the bus stop and called the ambulance."),
    ("D", "I see {g} {s} on the consent form; is {gf} the one we call if anything changes?"),
    ("D", "So it's just you and {g} at home now?"),
    ("P", "My wife thinks {g} should get checked for it too."),
    ("P", "My nephew {g} brought me in today. {gf} lives just around the corner."),
    ("P", "Nurse {s} on the night shift was so kind to me."),
    ("D", "And how old is {g} now?"),
)

#: origin -> (12 given names, 12 surnames), written as people of that origin write them
DEV6_NAMES: dict[str, tuple[list[str], list[str]]] = {
    "Samoan": (["Pua", "Malo", "Losa", "Tui", "Fai", "Alofa", "Tasi", "Lisi", "Sefa", "Vai", "Ropati", "Tupe"],
               ["Lemalu", "Soliai", "Taua", "Mulitalo", "Afamasaga", "Toala", "Sua", "Pati", "Tago", "Vili", "Lam",
                "Seiuli"]),
    "Czech": (["Jitka", "Markéta", "Vlasta", "Radka", "Alena", "Dana", "Iveta", "Blanka", "Libuše", "Jarmila",
               "Drahomíra", "Miroslava"],
              ["Bednář", "Horák", "Pospíšil", "Král", "Beneš", "Malý", "Vaněk", "Holub", "Šindelář", "Šebesta",
               "Kadlec", "Hrubý"]),
    "UK": (["Dawn", "Jade", "Dean", "Nigel", "Gemma", "Clive", "Kerry", "Ross", "Tracey", "Gareth", "Nicola",
            "Wayne"],
           ["Fisher", "Marsh", "Bishop", "Lamb", "Stone", "Fox", "Sharp", "Knight", "Field", "Bird", "Birch",
            "Street"]),
    "Zulu": (["Nandi", "Zola", "Thuli", "Bheki", "Zodwa", "Sizwe", "Lwazi", "Nomsa", "Sibu", "Andile", "Jabu",
              "Bongi"],
             ["Cele", "Zwane", "Majola", "Ntuli", "Mabaso", "Mchunu", "Nxumalo", "Hlongwane", "Msomi", "Gcabashe",
              "Mdletshe", "Ngubane"]),
    "Haitian": (["Jude", "Yves", "Ketly", "Mackenson", "Wisline", "Fabiola", "Dieudonné", "Sonel", "Frantz",
                 "Jocelyne", "Marcelin", "Evens"],
                ["Destin", "Jeune", "Lafortune", "Bonhomme", "Etienne", "Exantus", "Metellus", "Augustin",
                 "Saintil", "Brutus", "Alexis", "Casséus"]),
    "Korean": (["Min", "Hee", "Soo", "Jin", "Dong", "Sung", "Hyun", "Ha-eun", "Bo-ra", "Ok", "Sang", "Chul"],
               ["Song", "Moon", "Gang", "Han", "Ko", "Nam", "Jang", "Ahn", "Oh", "Yoo", "Goh", "Noh"]),
    "Akan": (["Yaa", "Esi", "Afua", "Adjoa", "Afia", "Kwadwo", "Ekua", "Aba", "Kobina", "Ato", "Ekow", "Fiifi"],
             ["Badu", "Ansah", "Danso", "Acheampong", "Gyamfi", "Bediako", "Nkansah", "Dankwa", "Oduro", "Obeng",
              "Ankrah", "Fosu"]),
    "US": (["Chase", "Brooke", "Tanner", "Hope", "Faith", "Wade", "Summer", "Mason", "Paige", "Destiny", "Dakota",
            "Skyler"],
           ["Banks", "Hart", "Fields", "Sparks", "Woods", "Gates", "Hale", "Cross", "Rice", "Long", "Price",
            "Turner"]),
    "Irish": (["Colm", "Orla", "Fionn", "Oisín", "Éamon", "Saoirse", "Tadhg", "Oran", "Donal", "Bróna", "Ailbhe",
               "Muireann"],
              ["Flood", "Boyle", "Moran", "Quinn", "Duffy", "Brady", "Hayes", "Corr", "Hegarty", "Rooney",
               "Moriarty", "Keogh"]),
    "Punjabi": (["Jas", "Jot", "Sukh", "Tej", "Jaspreet", "Manpreet", "Balwinder", "Kuldeep", "Harjit", "Gurdeep",
                 "Parminder", "Pritam"],
                ["Mann", "Bal", "Virk", "Sangha", "Dhaliwal", "Johal", "Atwal", "Sahota", "Basra", "Chahal",
                 "Aujla", "Hundal"]),
    "Hungarian": (["Imre", "Dóra", "Lajos", "Piroska", "Bálint", "Csilla", "Emese", "Gyula", "Hajnalka", "Irén",
                   "Jolán", "Kálmán"],
                  ["Bor", "Sas", "Kun", "Pap", "Boros", "Fodor", "Vass", "Bodnár", "Csonka", "Deák", "Halász",
                   "Jakab"]),
}
