"""An eleventh development set of the by-origin de-identification benchmark (issue 50, ninth session): more names
of the five origins the held-out half still loses most (Samoan, cased and lower case; Haitian, Korean, Punjabi in
lower case), and of Tongan beside Samoan.

Written by hand from how people of each origin are named (not from Faker, names-dataset, ``deid_names.py`` or the
detector's lists), of every kind ``deid_dev8.py`` has too few of: Samoan chiefly titles and long compound surnames
(with an apostrophe, an ʻokina or neither), Samoan names that are Samoan or English words or places, Christianised
Samoan and Tongan names (Ioane, Tavita, Malia); Haitian French and Creole compound names (hyphenated, written apart
and run together, "Ti" before a name, names of virtues, saints and days); Korean names written joined, hyphenated
and apart, one-syllable given names that are English words, surnames in each romanisation; Punjabi names that are
words, nicknames or titles and Jat clan surnames. A draft of about 60 given names and 60 surnames an origin was
written first; every name with a part that is any of ``deid_names.py``'s (either half), ``deid_dev2.py``'s,
``deid_dev3_names.py``'s, ``deid_dev4.py``'s, ``deid_dev6.py``'s, ``deid_dev8.py``'s or ``deid_dev9.py``'s, or of an
earlier name of this set, was left out by a script that printed only counts (so no held-out name was seen).
``tests/test_deid_dev11.py`` checks that no part is shared with those sets, without printing them.

**26 new sentence forms** no other set has (a person as the subject or object of an everyday verb, after a title,
a relation or "auntie", a vocative, a possessive, a name given then the full name, a name read off a card in
capitals). ``python benchmarks/bench_deid_origin.py --dev-only --dev11 --no-before --no-real`` reports it per origin
as the ``dev11`` half. Same layout as ``deid_dev8.py``; ``{g}`` given name, ``{s}`` surname, ``{G}``/``{S}`` in
capitals, ``{gf}``/``{sf}`` without diacritics."""

from __future__ import annotations

DEV11_FORMS: tuple[tuple[str, str], ...] = (
    ("P", "{g} {s} is my emergency contact, she's my sister."),
    ("D", "And who's {g}? Your partner?"),
    ("P", "I was staying at my auntie {g}'s house when it started."),
    ("P", "The nurse, {g} I think her name was, gave me the shot."),
    ("D", "I see Dr. {s} saw you last time for the knee."),
    ("P", "It's {s}, {S}, the last name, I can spell it for you."),
    ("P", "My brother {g} and his wife brought me in."),
    ("D", "Mr. {s}, can you hear me okay?"),
    ("P", "We call her {g} but her full name is {g} {s}."),
    ("P", "{g}'s been feeling off since the weekend too."),
    ("D", "Tell {g} she can come back in with you if she wants."),
    ("P", "Ask for {g} {s} at the front, he knows my history."),
    ("P", "I've got my grandson {g} living with me now."),
    ("D", "Does {g} know how to use the glucometer?"),
    ("P", "Yeah, {g} was the one who drove, I was in the passenger seat."),
    ("P", "Father {s} from our church visits on Sundays."),
    ("D", "Mrs. {s} is here with you today, is that your mother?"),
    ("P", "The form's under {s}, my married name, not my maiden name."),
    ("P", "My wife {g} says I snore and stop breathing at night."),
    ("D", "Good morning, {g}, what brings you in today?"),
    ("P", "Me, {g}, and the kids all had the flu last month."),
    ("P", "Oh, that's {g} calling, can I just tell her I'll call back?"),
    ("P", "Her name's {g} {s} and she works nights at the hospital."),
    ("D", "Is {g} {s} still the one picking up your prescriptions?"),
    ("P", "Auntie {g} raised me, she's diabetic too, {gf} {sf} on the chart."),
    ("P", "{G} {S}, that's what's on the insurance card."),
)

#: origin -> (given names, surnames), written as people of that origin write them
DEV11_NAMES: dict[str, tuple[list[str], list[str]]] = {
    "Samoan": (["Apia", "Lealofi", "Fiafia", "Luamanu", "Laumata", "Pepe", "Lagimaina", "Niu", "Fuifui", "Ti'a",
                "Setefano", "Mikaele", "Petelo", "Elisapeta", "Feleti", "Viliamu", "Maselino", "Aperila", "Lalelei",
                "Moana", "Seini", "Taulealea", "Ualesi", "Leilua", "Epenesa", "Iakopo", "Tausala", "Sieni", "Matiu",
                "Analosa", "Ulufale", "Tausagafou", "Taliilagi", "Alofaaga", "Lealamanu'a", "Mauʻu"],
               ["Tanuvasa", "Leavasa", "Tagaloa", "Malietoa", "Seumalo", "Tuitele", "Amosa", "Fepuleai", "Faumuina",
                "Tautua", "Taliaoa", "Savea", "Luatua", "Ah Mu", "Penitani", "Lefono", "Pouesi", "Afoa", "Iuli",
                "Tuatagaloa", "Lemisio", "Fruean", "Stowers", "Malae", "Fale", "Manono", "Solosolo", "Tuiolosega",
                "Puleiata", "Sau", "Alapati", "Tuimaseve", "Peseta", "Upolu", "Toomalatai", "Tafaoimalo",
                "Lemalualofa", "Aiolupotea", "Leulumoega", "Leutelemalo", "Tuiteleleapaga", "Lemaota'i", "Ulualofaiga",
                "Fonoimoana", "Tuilaepa", "Papaliʻi", "Asiata"]),
    "Tongan": (["Lupeti", "Pelesi", "Loseli", "Ake", "Mafile'o", "Talakai", "Malakai", "Luseane", "Fololeni",
                "Vaisima", "Meleane", "Makelesi", "Laisiasa", "Sosefo", "Kisione", "Salesi", "Siupeli", "Ilaisaane",
                "'Atelaite", "Sitiveni", "Pauliasi", "Kalo", "Lopeti", "Tokilupe", "Vailea", "Kuli", "Uini",
                "Kaveinga", "Mosiana", "Tupouto'a", "Heamasi", "Sefita", "Kasanita"],
               ["Kaufana", "Kupu", "Lavaka", "Mapa", "Tapueluelu", "Motuliki", "Hehea", "Fakatou", "Tuipulotu",
                "Fanua", "Kauvaka", "Tangi", "Sika", "Mokofisi", "Fusimalohi", "Pahulu", "Kivalu", "Paongo",
                "Moengangongo", "Katoa", "Latailakepa", "Ulufonua", "Lokotui", "Veikoso", "Hausia", "Sisifa",
                "Fonokalafi", "Tukuafu", "Moimoi", "Lotulelei", "Vaipunu", "Tevi", "Folaumahina", "Tatafu", "Havea",
                "Fonohema", "Mangisi", "Ahomana", "Fakalata"]),
    "Haitian": (["Dieumaitre", "Jeanclaude", "Rosemène", "Yvenel", "Kettly", "Ginette", "Lucner", "Clébert", "Guerda",
                 "Vierge", "Nativité", "Saintanise", "Lovelie", "Islène", "Woodly", "Wesly", "Sherline", "Nephtalie",
                 "Edeline", "Altagrâce", "Mikerlange", "Kervens", "Mardochée", "Rosenie", "Lourdenie", "Yveline",
                 "Ketteline", "Dieuveut", "Lamercie", "Emmanuela", "Guerlande", "Bernadin", "Jackenson", "Widmaer",
                 "Bertony", "Louimène", "Orphise", "Anoude", "Nerline", "Flaurine", "Lunie", "Sonise", "Mercilia",
                 "Edner", "Mackson", "Wilkens", "Roodly", "Medjine", "Dieufort", "Lovensky", "Yvrose", "Fritz-Gerald",
                 "Ginou-Mireille"],
                ["Dieujuste", "Jeanbaptiste", "Laguerre", "Cineus", "Bellegarde", "Bienaimé", "Saintvil", "Médard",
                 "Philogène", "Jolicoeur", "Desrosiers", "Mompremier", "Orélien", "Guerrier", "Elysée", "Désinor",
                 "Casimir", "Lubin", "Dorcely", "Sainvil", "Pierrilus", "Décius", "Desravines", "Fénelon", "Vertilus",
                 "Petitfrère", "Aristide", "Maxi", "Félix", "Alcindor", "Lafontant", "Fortilus", "Milord", "Calixte",
                 "Similien", "Compère", "Beaujour", "Delinois", "Altidor", "Charlot", "Clerveaux", "Jeanty",
                 "Louisjuste", "Prophète", "Romélus", "Senatus", "Vixama", "Zéphir", "Lhérisson", "Honorat",
                 "Desruisseaux", "Thermidor", "Février", "Dimanche", "Bon-Espoir", "Beau-Séjour", "Dieu-Merci",
                 "Mont-Fleury"]),
    "Korean": (["Sora", "Nari", "Chan", "Yong", "Geon", "Haneul", "Bitna", "Dasom", "Saebyeok", "Iseul", "Nabi",
                "Gaeul", "Taehoon", "Kyu", "Yeon", "Chaewon", "Wonbin", "Seulgi", "Dahyun", "Yerin", "Jisoo",
                "Sangchul", "Hyo Rin", "Areum", "Baram", "Haru", "Kkot-nim", "Sae-rom", "Nayeon", "Jeongyeon",
                "Donghae", "Sehun", "Jongin", "Taemin", "Kibum", "Sunmi", "Yubin", "Hyeri", "Jiyeon", "Soyou",
                "Hyolyn", "Byeol-i", "Sarang", "Haebin", "Gyeoul", "Nuri"],
               ["Rhee", "Pak", "Bak", "Choe", "Gim", "Chung", "Yun", "Chang", "Suh", "An", "Paik", "Roh", "Kwak",
                "Koo", "Rho", "Um", "Cheon", "Nah", "Yim", "Rim", "Kil", "Pi", "Hur", "Hyeon", "Ki", "Gi", "Ryoo",
                "Yum", "Tae", "Beom", "Chu", "Joo", "Kum", "Geum", "Seol", "Sol", "Gook", "Chin", "Kye", "Gye",
                "Myung", "Hahm", "Ham", "Pyun", "Yook", "Yuk", "Jee", "Ji", "Pae", "Paek", "Seomun", "Dongbang",
                "Namkoong", "Sunwoo", "Choo", "Soh", "Kong", "Shim", "Huh", "Hyon", "Pyon", "Ryang"]),
    "Punjabi": (["Bobby", "Jagjit", "Sukhjinder", "Harbhajan", "Gurmeet", "Tejinder", "Ranjit", "Jasbir", "Balbir",
                 "Harvinder", "Bindy", "Lovepreet", "Guri", "Jassi", "Rinku", "Pammi", "Titu", "Nikki", "Dimple",
                 "Babbu", "Manny", "Kam", "Raman", "Ekam", "Fateh", "Arjan", "Gurleen", "Japji", "Sehaj", "Mehtab",
                 "Sonu", "Pinda", "Kiran", "Param", "Shinda", "Billa", "Goldie"],
                ["Aulakh", "Sohi", "Khangura", "Boparai", "Gosal", "Dhindsa", "Garcha", "Nagra", "Kalra", "Ahluwalia",
                 "Bedi", "Chadha", "Kohli", "Sethi", "Bindra", "Sooch", "Jhajj", "Gidda", "Khela", "Dhesi", "Bassi",
                 "Malhi", "Pabla", "Sangra", "Takhar", "Badesha", "Heir", "Mahal", "Benipal", "Dhadda", "Lit"]),
}
