"""An eighth development set of the by-origin de-identification benchmark (issue 50, eighth session): many more
names of the origins the held-out half still loses.

The held-out dialogs lose names of Samoan origin (cased 90.5 %, lower case 81.8 %) and, in lower case, of Haitian,
Zulu, Korean, Akan, Czech and Punjabi origin (88.9-93.9 %), while every development set removes its own names of
these origins at about 100 %: so the held-out names are of *kinds* the development names lack. This set gives the
rules many names of 11 origins (Samoan, Tongan, Hawaiian/Māori, Haitian, Zulu, Xhosa, Akan, Yoruba/Igbo/Hausa,
Korean, Punjabi, Czech), 25 to 39 given names and surnames each, hand-written here from how people of each origin
are named (not from Faker, names-dataset or the detector's lists), of every kind: the ʻokina (U+02BB) or an
apostrophe (straight or curly) inside a word ("Kuʻulei", "Pa'u"), very long names, short names of 2-4 letters
that are English words or abbreviations, Korean given names written joined, hyphenated and apart, Haitian French
and Creole names (hyphenated, with accents), Zulu, Xhosa, Akan and Nigerian names that are English words
("Gift", "Wisdom", "Marvellous"), Akan day-names, Punjabi names that are words, titles or nicknames, Czech names with
háčky and feminine -ová/-ná forms, which the benchmark also puts in without their diacritics. A draft of more names
was written first; every name with a part that is any of ``deid_names.py``'s (either half), ``deid_dev2.py``'s,
``deid_dev3_names.py``'s, ``deid_dev4.py``'s or ``deid_dev6.py``'s was left out by a script that printed only counts
(so no held-out name was seen), and a part used by an earlier origin of this set too (then two of
``deid_dev9.py``'s, which landed the same day). ``tests/test_deid_dev8.py``
checks that no part is shared with those sets, without printing them.

**32 new sentence forms** in the shapes of ``deid_dev5.py``'s (a person as the object or the subject of an
ordinary verb, a vocative, a relation or a role before the name, a possessive, a full name then the given name
again, a name on a card in capitals) that no other set has; six write the name again without its diacritics
(``{gf}``, ``{sf}``) or in deaccented capitals (``{GF}``, ``{SF}``). ``python benchmarks/bench_deid_origin.py
--dev-only --dev8 --no-before --no-real`` reports it per origin as the ``dev8`` half. Same layout as
``deid_dev.py``; ``{g}`` given name, ``{s}`` surname."""

from __future__ import annotations

DEV8_FORMS: tuple[tuple[str, str], ...] = (
    ("P", "My neighbour {g} {s} drove me here this morning."),
    ("D", "Has {g} been helping you with the dressings at home?"),
    ("P", "{s} from the pharmacy called to say the refill was ready."),
    ("D", "I'll ask {g} at reception to book you in for two weeks."),
    ("P", "Me and {g} {s} went fishing on Saturday and I got sunburned."),
    ("P", "{g} told me to come in because my ankles were swelling."),
    ("D", "Okay {g}, lie back for me and take a deep breath."),
    ("P", "My son {g} is the one who noticed I was slurring."),
    ("P", "I live with my cousin {g} {s}; {gf} does the shopping."),
    ("D", "The referral says {GF} {SF}, is that spelled right?"),
    ("P", "Pastor {s} came by the hospital every day when I was in."),
    ("D", "Thank you {g}, we'll see you back in a month."),
    ("P", "My daughter-in-law {g} keeps track of my sugars in a notebook."),
    ("P", "Sorry I'm late, {g} had to drop me off on the way to work."),
    ("D", "So {g} is the person we can call in an emergency?"),
    ("P", "I went with {g} to her appointment and the doctor there said I looked pale."),
    ("P", "Mister {s} upstairs found me on the floor and called my son."),
    ("P", "We stayed at {g} {s}'s place while the heat was out."),
    ("D", "You came in with {g} last time, right?"),
    ("P", "It's {g} {s}, or {sf} without the accents, if you're typing it in."),
    ("P", "Every Sunday {g} cooks for the whole family, so I eat a lot of salt."),
    ("D", "Let's get {g} in here too so she hears the plan."),
    ("P", "I think {s} the physio said to ice it twice a day."),
    ("P", "Last week {g} and I had the same stomach bug."),
    ("D", "Would {g} be able to stay with you for a few days after the surgery?"),
    ("P", "My granddaughter {g} {s} is studying to be a nurse."),
    ("P", "Uncle {g} had sugar too, he lost a toe to it."),
    ("P", "I gave {g} my spare key in case I fall again."),
    ("D", "Your daughter {g} called about the results; is {gf} on your release form?"),
    ("P", "My husband's name is {g}, {g} {s}, he usually comes with me."),
    ("P", "Hi, {g} here, I'm calling for my aunt."),
    ("P", "{SF} {GF} is what it says on my ID card, but {g} is fine."),
)

#: origin -> (given names, surnames), written as people of that origin write them
DEV8_NAMES: dict[str, tuple[list[str], list[str]]] = {
    "Samoan": (["Nu'u", "Siueni", "Ailini", "Salamasina", "Manu", "Tala", "Fiti", "Eti", "Toa", "Ulu", "Seu",
                "Vaea", "Tusi", "Asi", "Sale", "Mose", "Matagi", "Lemi", "Fiso", "Fualaʻau", "Pa'u", "Letava",
                "Sulu", "Lefaoseu", "Sinapati", "Folasa", "Tauese", "Mo'a", "Sailiemanu", "Peleti", "Nofoaiga",
                "Atoa", "Kolone", "Ane", "Lefa", "Sapati", "Leʻaupepe", "Pu'e"],
               ["Tuimaleali'ifano", "Amituana'i", "Salave'a", "Tapusoa", "Tofilau", "Iosia", "Pulu", "Mulipola",
                "Lemusu", "Lefiti", "Pouono", "Tavana", "Time", "Lolo", "Mapu", "Sene", "Polu", "Tuiloma",
                "Ale", "Pese", "Lealaitafea", "Laulu", "Matautia", "Tuiletufuga", "Sinapaʻi", "Alaimoana",
                "Tupua", "Leapai", "Sopoaga", "Tautolo", "Ulugia", "Lavea'i", "Tuliau", "Vaeluaga", "Tiumalu",
                "Tuiaʻi", "Lealaʻi'i"]),
    "Tongan": (["Sela", "Siaosi", "Kalisi", "Lesieli", "Kapeli", "Semisi", "Tomasi", "Fatai", "Nau", "Mafi",
                "Sisi", "Lose", "Pola", "Lavinia", "Hola", "Fine", "Lisiate", "Tavite", "Sosaia", "Melesiu'a",
                "Fifilina", "Sāmiuela", "Haloti", "Fekitoa", "Pelenaise", "Siale", "Tonga", "Vika", "Nive",
                "Hopo", "Palu", "Moli", "Fusi", "Penisimani", "Kolo", "ʻAlisi", "Ma'ata"],
               ["Mahe", "Hufanga", "Kata", "Latu", "Fusituʻa", "Helu", "Vaka", "Ika", "Kioa", "Fotu", "'Aho",
                "Kauhalalalo", "Tangitau", "Piutau", "Funaki", "Folau", "Taione", "Vea", "Lea", "Pale", "Tuku",
                "Tau'alupe", "Mateaki", "Fakaʻosi", "Pulotu", "Maile", "Taufahema", "Fe'ao", "Vake", "Hala",
                "Hopoate"]),
    "Hawaiian/Māori": (["Keali'i", "Mālie", "Kaimana", "Ikaika", "Mahina", "Hōkū", "Ānuhea", "Kai", "Hine",
                        "Mīria", "Tāne", "Huia", "Kiri", "Anahera", "Manaia", "Pono", "Lani", "Iwa",
                        "Kealohilani", "Leimomi", "Kaulana", "Kalani", "Kamalei", "Hekili", "Wairua", "Rāhera",
                        "Aperahama", "Mākere", "Pania", "Pare", "Kuʻulei", "Nāʻāina"],
                       ["Kalama", "Kanoho", "Mahoe", "Ngata", "Waaka", "Kereama", "Herewini", "Tawhiri", "Paki",
                        "Tuhiwai", "Nikora", "Hetaraka", "Rewi", "Hohaia", "Pōtae", "Kapa", "Hau", "Kekumu",
                        "Mahi", "Nāpōʻo", "Kahoʻohanohano", "Kauwē", "Akaka", "Makaʻike", "Te Whata", "Rēweti",
                        "Tāwhiao", "Wharehoka", "Kāwhia", "Tuhi", "Piki"]),
    "Haitian": (["Frantzy", "Islande", "Rose-Merline", "Wesner", "Yolène", "Lovely", "Dieuseul", "Ketia",
                 "Rony", "Fedner", "Judeline", "Max", "Chrismène", "Jésula", "Mimose", "Anouse", "Fortuné",
                 "Espérance", "Merveille", "Bélizaire", "Kenson", "Wisly", "Evenson", "Ernso", "Bernadette",
                 "Darline", "Wideline", "Nickenson", "Jacqueson", "Mackenzy", "Daphnée", "Youvens", "Fabienne",
                 "Dieula", "Gesner"],
                ["Dorélien", "Noël", "Delva", "Lamour", "Mondésir", "Pierrelus", "Valcin", "Ambroise",
                 "Louissaint", "Théodore", "Occilus", "Fleurant", "Labissière", "Dumorné", "Nérestant",
                 "Séraphin", "Cadet", "Joachim", "Ulysse", "Saintilus", "Estimé", "Fils", "Beauvais",
                 "Beaubrun", "Lindor", "Bazile", "Charlemagne", "Pétion", "Ducasse", "Mérisier", "Vilsaint",
                 "Simeus", "Bruny"]),
    "Zulu": (["Ntombizodwa", "Thabani", "Nkosinathi", "Nhlanhla", "Mthunzi", "Nomthandazo", "Thembeka",
              "Sanele", "Lungile", "Zinhle", "Nomzamo", "Thulani", "Khanyisile", "Mondli", "Sbu", "Zama",
              "Nomusa", "Sakhile", "Fikile", "Gift", "Thando", "Ntokozo", "Nokwanda", "Phumzile", "Mpume",
              "Nomathemba", "Mxolisi"],
             ["Mthethwa", "Mazibuko", "Ndaba", "Ntshangase", "Mabuza", "Hadebe", "Magwaza", "Xulu", "Sibiya",
              "Ngema", "Mngadi", "Shange", "Ximba", "Langa", "Bhengu", "Mkhwanazi", "Masondo", "Zondi",
              "Cebekhulu", "Mtshali", "Mngomezulu", "Ngubeni", "Msweli", "Zikalala", "Mdlalose", "Ntanzi",
              "Khanyile", "Dladla", "Mzimela", "Nzama", "Mtolo", "Manqele", "Shandu"]),
    "Xhosa": (["Nandipha", "Siyabonga", "Lwandile", "Ayabonga", "Xolani", "Vuyo", "Vuyisile", "Nomonde",
               "Sinazo", "Luthando", "Lulama", "Unathi", "Zukisa", "Zintle", "Mzwandile", "Bulelani", "Nosipho",
               "Onke", "Athi", "Asanda", "Yonela", "Anathi", "Khwezi", "Lihle", "Mandisa", "Monde", "Phila",
               "Sonwabo", "Andiswa", "Noxolo", "Simphiwe", "Nomakhosazana", "Siphokazi", "Ntsikelelo",
               "Vuyokazi", "Mihlali", "Lona", "Olwethu"],
              ["Mbeki", "Sisulu", "Ngcukana", "Mgijima", "Nqakula", "Mabandla", "Madikizela", "Ntlabathi",
               "Mqhayi", "Ngqondo", "Nkwinti", "Matiwane", "Gqirana", "Mxenge", "Sobukwe", "Dyantyi", "Mbotho",
               "Gxowa", "Mkhonto", "Msutu", "Ndamase", "Bam", "Gaba", "Jali", "Nkohla", "Ntshona",
               "Qoboshiyane", "Sono", "Tutu", "Zenani", "Maqubela", "Mandela", "Makeba", "Gqola", "Nojoko",
               "Mahlathi"]),
    "Akan": (["Kwasi", "Akwasi", "Kwamena", "Kukua", "Araba", "Ewurama", "Serwaa", "Kakra", "Panyin", "Kwadjo",
              "Yao", "Ewurabena", "Amma", "Efia", "Kwamina", "Baaba", "Dufie", "Agyeiwaa", "Ohemaa", "Ebo",
              "Kwakye", "Akwele", "Esaaba", "Nyamekye", "Adoma", "Afrakoma", "Nhyira", "Aseda", "Kwabla",
              "Kobby", "Ekuwa", "Abenaa", "Owusuaa"],
             ["Kyei", "Boadu", "Amponsah", "Baffoe", "Donkor", "Kusi", "Mireku", "Nkrumah", "Twum", "Kuffour",
              "Sarfo", "Agyapong", "Ofosu", "Bonsu", "Nti", "Amankwah", "Bekoe", "Akoto", "Ababio", "Gyasi",
              "Wiredu", "Bosompem", "Afriyie", "Ansong", "Kyeremeh", "Oppong", "Nyantakyi", "Okyere", "Tawiah",
              "Amofa", "Duah", "Tabi", "Kumi", "Adomako", "Nketia"]),
    "Yoruba/Igbo/Hausa": (["Chinonso", "Olumide", "Temitope", "Folake", "Bukola", "Uche", "Bisi", "Yemi",
                           "Sade", "Kemi", "Dayo", "Femi", "Bola", "Tayo", "Amaka", "Ikenna", "Halima", "Ayo",
                           "Ola", "Ebuka", "Somto", "Kelechi", "Chioma", "Goodluck", "Wisdom", "Oluwatobiloba",
                           "Ayomide", "Chidinma", "Nkechi", "Ugochukwu", "Funmilayo", "Gbenga", "Jide", "Lanre",
                           "Ladi", "Marvellous", "Peace"],
                          ["Balogun", "Adeleke", "Chukwu", "Okeke", "Akinola", "Afolabi", "Ojo", "Ige", "Oni",
                           "Uba", "Ibe", "Odu", "Agu", "Audu", "Sule", "Bako", "Ekwueme", "Okoro", "Ogbu",
                           "Tijani", "Ade", "Ogundipe", "Adegoke", "Olaniyan", "Ezeani", "Nwankwo", "Onuoha",
                           "Okolie", "Ikwuemesi", "Akande", "Olatunji", "Ani"]),
    "Korean": (["Hye-won", "Sangwoo", "Yuna", "Seojun", "Mi-rae", "Taeyang", "Gyu-ri", "Hae-il", "Ga-in", "Bom",
                "Seul", "Minseo", "Dohee", "Ara", "Hoon", "Seok", "Seungwoo", "Dongwook", "Sooyeon", "Jaehyun",
                "Haeun", "Yejun", "Kyungmin", "Seunghee", "Junho", "Eunseo", "Jong Su", "Soon-ja", "Chun-hwa",
                "Dal", "Byul"],
               ["Cha", "Do", "Gu", "Heo", "Hong", "Im", "Jeon", "Jo", "Ju", "Kwon", "Lim", "Mun", "Pyo", "Ryu",
                "Seong", "Sim", "Son", "Tak", "Woo", "Yeo", "Yu", "Byun", "Chae", "Go", "Gong", "Kook",
                "Maeng", "Pyeon", "Ye", "Jegal", "Hwangbo", "Sagong", "Dokgo", "Seonu"]),
    "Punjabi": (["Navjot", "Rajvir", "Daljit", "Hardeep", "Inderjit", "Kiranjit", "Mandeep", "Rupinder",
                 "Satnam", "Taranjit", "Amandeep", "Baljeet", "Charanjit", "Gurinder", "Jagdeep", "Karamjit",
                 "Lakhwinder", "Paramjit", "Ravneet", "Sarbjit", "Jasleen", "Gagan", "Jeet", "Bhupinder",
                 "Sukhdev", "Preet", "Noor", "Deep", "Amar", "Bir", "Dil", "Avtar", "Nav", "Happy", "Pinky",
                 "Goldy", "Honey", "Rocky"],
                ["Kaur", "Sekhon", "Bajwa", "Khaira", "Deol", "Sran", "Sohal", "Uppal", "Ghuman", "Hayer",
                 "Kalsi", "Lally", "Matharu", "Nijjar", "Purewal", "Saini", "Thind", "Walia", "Chatha", "Dhami",
                 "Jhutti", "Kooner", "Mangat", "Samra", "Tiwana", "Dosanjh", "Heer", "Jassal", "Dhanoa",
                 "Rehal", "Shergill", "Kahlon", "Pandher", "Bhangu", "Sahi", "Sall"]),
    "Czech": (["Pavla", "Jaroslav", "Milan", "Bohumil", "Květa", "Vít", "Ivo", "Eliška", "Zbyněk", "Dalibor",
               "Stanislava", "Růžena", "Kamil", "Hynek", "Ota", "Bořek", "Libor", "Vladimíra", "Jindřich",
               "Vendula", "Taťána", "Ilona", "Kvido", "Jaromír", "Radim", "Svatopluk", "Ctirad", "Vlastimil",
               "Zdislava", "Vavřinec", "Ludvík", "Alžběta", "Nela", "Dita", "Zina", "Ema"],
              ["Zeman", "Kolář", "Navrátil", "Čermák", "Urban", "Jelínek", "Doležal", "Zelenka", "Vlček",
               "Polák", "Kopecký", "Musil", "Šimek", "Konečná", "Staněk", "Kratochvíl", "Blažek", "Tichý",
               "Řezníček", "Hrdlička", "Souček", "Mach", "Kos", "Vrba", "Pták", "Sova", "Rak", "Pech", "Kalina",
               "Pavlík", "Bureš", "Čapek", "Brož", "Mareš", "Klíma", "Bláha", "Kraus", "Vlk"]),
}
