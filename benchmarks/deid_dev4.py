"""A fourth development set of the by-origin de-identification benchmark (issue 50, sixth session): how names are
*written*.

The held-out cased dialogs lose names of two origins (Czech, Samoan) while every development set removes its Czech
and Samoan names in cased text, so this set gives the rules names of 15 origins whose *writing* is what sets them
apart, hand-written here (not from Faker, names-dataset or the detector's lists), 12 given names and 12 surnames an
origin: Polynesian names with the ʻokina (U+02BB) inside a word, some written with a straight or curly apostrophe
instead (Samoan, Tongan, Hawaiian), long vowel-rich names and macrons (Māori, Tahitian, Fijian); Czech, Slovak,
Polish, Croatian, Slovenian, Lithuanian, Latvian and Hungarian names with háček, ogonek, ring, double acute and
the feminine surname forms (-ová, -ská, -ienė, -aitė, -iņa), which the benchmark also puts in without their
diacritics (half of the dialogs: Dvořák/Dvorak, Jiří/Jiri); Welsh names with letter sequences no English word
has (Llwyd, Ffion, Rhydderch). No part of a name is any of ``deid_names.py``'s (either half), ``deid_dev2.py``'s or
``deid_dev3_names.py``'s (checked by ``tests/test_deid_dev4.py`` without printing them).

**24 new sentence forms** of everyday clinic conversation that no other set has: a name spelled out or asked
about, on a form or a card, in a list of several people, with a kin or church title (auntie, pastor), as a
possessive of a possessive, the patient's own name in capitals as a form writes it (``{G}``, ``{S}``: the name in
upper case), a name as a short answer or a greeting at the end of a visit. ``python benchmarks/bench_deid_origin.py
--dev-only --dev4 --no-before --no-real`` reports it per origin as the ``dev4`` half. Same layout as
``deid_dev.py``; ``{g}`` given name, ``{s}`` surname."""

from __future__ import annotations

DEV4_FORMS: tuple[tuple[str, str], ...] = (
    ("P", "Auntie {g} makes me take my pills with breakfast."),
    ("D", "I have {g} {s} listed as your emergency contact, is that still right?"),
    ("P", "The form says {S}, {G} but everybody calls me by my middle name."),
    ("D", "Can you spell {s} for me so I get it right in the chart?"),
    ("P", "My grandkids, {g}, Tommy and Ana, all had the chickenpox this winter."),
    ("P", "Pastor {s} prayed with me the night before the surgery."),
    ("D", "Thanks, {g}. We'll see you again in two weeks."),
    ("P", "{s} is the name on the insurance card, not my maiden name."),
    ("P", "I've known {g} {s} since we were kids back home."),
    ("D", "Has {g} been able to come along to any of your appointments?"),
    ("P", "We named the baby {g}, after my grandmother."),
    ("P", "Oh, that's {g}, my niece, she's translating for me today."),
    ("P", "It was {g}'s idea to bring me in, not mine."),
    ("P", "The appointment might be under {G} {S}, it's the same person."),
    ("D", "Who is {g}? Is that your husband or your son?"),
    ("P", "{g}? No, {g} is my sister's girl, she lives in Auckland."),
    ("P", "Both {g} and her brother have asthma too."),
    ("P", "We call him {g} at home, but his full name is longer."),
    ("P", "My mother-in-law, Mrs. {s}, had the same knee replaced."),
    ("P", "{g} {s}'s wife is the one who found me on the floor."),
    ("D", "So {g}, {s}'s boy, is the one who gives you the shots?"),
    ("P", "Everybody at the dialysis center knows {g}, he drives half of us."),
    ("D", "Is {s} spelled with an apostrophe, or all one word?"),
    ("P", "I left a message with {g} at the front desk, {g} said you would call."),
)

#: origin -> (12 given names, 12 surnames), written as people of that origin write them
DEV4_NAMES: dict[str, tuple[list[str], list[str]]] = {
    "Samoan": (["Sina", "Ioane", "Pesamino", "Fetuao", "Eseta", "Peniamina", "Taʻalolo", "Aolele", "Vaʻaiga",
                "Fuaʻava", "Tuala", "Saʻili"],
               ["Leaupepe", "Fonoti", "Mata'afa", "Leiataua", "Tauiliili", "So’oaemalelagi", "Toleafoa", "Lauina",
                "Vaifale", "Lealaiauloto", "Masoe", "Aumavae"]),
    "Tongan": (["Siosaia", "Lupe", "Taniela", "Sioeli", "Salote", "ʻOfa", "Kalolaine", "Saia", "Heilala", "Sitani",
                "Manase", "Kulupi"],
               ["Taufaʻahau", "Tupou", "Lolohea", "Kaufusi", "Fonua", "Moala", "Vaipulu", "Halaholo", "Naufahu",
                "Veikune", "Taumoepeau", "Fakatava"]),
    "Hawaiian": (["Keʻalohi", "Makana", "Leilani", "Kawika", "Pōmaikaʻi", "Kainoa", "Haunani", "Iolani", "Nohea",
                  "Kapono", "Kekoa", "Lokelani"],
                 ["Kamakana", "Kahale", "Kauhane", "Akana", "Kealamakia", "Kamakau", "Nakoa", "Kaleikini", "Keawe",
                  "Kahikina", "Kanahele", "Kauwila"]),
    "Māori": (["Wiremu", "Ngaio", "Hēmi", "Tama", "Aroha", "Mere", "Rāwiri", "Hōhepa", "Kahurangi", "Manaaki",
               "Tīpene", "Whetū"],
              ["Te Whiu", "Parata", "Tāwhai", "Ngāwati", "Rangihuna", "Tamihana", "Te Rangi", "Pōmare", "Waititi",
               "Horomona", "Karaka", "Ruatapu"]),
    "Tahitian": (["Teva", "Hinano", "Tiare", "Manutea", "Vaimiti", "Heiarii", "Tehani", "Raiarii", "Poerava", "Teiki",
                  "Hereiti", "Vaite"],
                 ["Teriitahi", "Tetuanui", "Temauri", "Tauraa", "Amaru", "Tehaamoana", "Faatau", "Teriierooiterai",
                  "Taputu", "Maiotui", "Tuheiava", "Teihotu"]),
    "Fijian": (["Sainimere", "Epeli", "Jone", "Ilisapeci", "Sakiusa", "Josaia", "Vasemaca", "Isikeli", "Salanieta",
                "Waisale", "Timoci", "Kelera"],
               ["Qarase", "Bainimarama", "Cakobau", "Vunibaka", "Raduva", "Waqairatu", "Nawalowalo", "Tabua",
                "Seruvatu", "Ravuvu", "Delai", "Tuivaga"]),
    "Czech": (["Květoslava", "Radek", "Dagmar", "Zdeněk", "Šárka", "Jaroslava", "Čeněk", "Miloš", "Blažena",
               "Vratislav", "Radovan", "Bohuslav"],
              ["Šťastná", "Pokorný", "Říha", "Hájek", "Bartoš", "Kolářová", "Sedláček", "Štěpánek", "Vávra",
               "Zelenková", "Fiala", "Doležalová"]),
    "Slovak": (["Ľubica", "Dušan", "Marián", "Anežka", "Ľuboš", "Viera", "Mariena", "Drahomír", "Ľudovít", "Bohdana",
                "Dobroslav", "Matúš"],
               ["Horváthová", "Baláž", "Molnárová", "Lukáč", "Hudák", "Oravcová", "Šimko", "Kollárová", "Blaho",
                "Nemčok", "Ďurica", "Hrušovská"]),
    "Polish": (["Żaneta", "Jędrzej", "Urszula", "Mieczysław", "Halina", "Ryszard", "Wiesława", "Bożydar", "Grażyna",
                "Bolesław", "Teodozja", "Wiesław"],
               ["Szymańska", "Kozłowski", "Jabłońska", "Piotrowska", "Pawlak", "Michalska", "Nowicka", "Żółtowski",
                "Chrząszcz", "Brzęczyszczykiewicz", "Przybylski", "Szczęsna"]),
    "Croatian": (["Željka", "Krešimir", "Mirjana", "Dražen", "Snježana", "Zvonimir", "Vesna", "Hrvoje", "Ljiljana",
                  "Đurđica", "Dubravka", "Mladen"],
                 ["Božić", "Perković", "Blažević", "Lovrić", "Pavičić", "Radić", "Bošnjak", "Vidović", "Jelčić",
                  "Filipović", "Antolović", "Mikulić"]),
    "Slovenian": (["Matej", "Urška", "Primož", "Špela", "Rok", "Nataša", "Jure", "Mojca", "Blaž", "Tjaša", "Gašper",
                   "Andreja"],
                  ["Kranjc", "Zupančič", "Potočnik", "Mlakar", "Vidmar", "Golob", "Žagar", "Hribar", "Zajc",
                   "Korošec", "Kuhar", "Pečnik"]),
    "Lithuanian": (["Rūta", "Gintaras", "Aušra", "Žydrūnas", "Vaida", "Arūnas", "Dalia", "Eglė", "Giedrė", "Rimantas",
                    "Ugnė", "Kęstutis"],
                   ["Jankauskienė", "Stankevičius", "Vasiliauskaitė", "Žukauskas", "Paulauskienė", "Navickaitė",
                    "Šimkus", "Balčiūnas", "Vaitkevičiūtė", "Grigonis", "Mockevičienė", "Sabaliauskas"]),
    "Latvian": (["Jānis", "Ilze", "Andris", "Līga", "Māris", "Inese", "Edgars", "Dace", "Kārlis", "Gunārs", "Zane",
                 "Valdis"],
                ["Bērziņš", "Kalniņa", "Ozoliņš", "Liepiņa", "Krūmiņš", "Zariņa", "Pētersons", "Vītols", "Kļaviņa",
                 "Jansons", "Ābols", "Eglītis"]),
    "Hungarian": (["Gergő", "Levente", "Bence", "Gyöngyi", "Tibor", "Réka", "Szabolcs", "Orsolya", "Bernadett",
                   "Győző", "Gáspár", "Boglárka"],
                  ["Oláh", "Szőke", "Fülöp", "Gergely", "Bíró", "Pintér", "Vörös", "Hegedűs", "Fazekas", "Sipos",
                   "Kocsis", "Rácz"]),
    "Welsh": (["Llewelyn", "Gwenllian", "Dafydd", "Angharad", "Iorwerth", "Siân", "Gruffydd", "Eirlys", "Rhodri",
               "Ffion", "Cadwaladr", "Nerys"],
              ["Llwyd", "Pryce", "Gruffudd", "Vaughan", "Bowen", "Parry", "Pugh", "Llewellyn", "Prosser", "Gwynne",
               "Bevan", "Pritchard"]),
}
