"""A second development set of the by-origin de-identification benchmark (issue 50, cased names that generalise).

The first development half (``deid_dev.py`` with the even positions of ``deid_names.py``) no longer shows what the
held-out half misses (cased: development 99.8 %, held-out 99.0 % with its lowest origin at 86.5 %), so this set
gives the rules more to be checked on, written apart from both: **new names** (none of ``deid_names.py``'s, checked
by ``tests/test_deid_dev2.py`` without printing them), 4 given names and 4 surnames for each of the benchmark's 46
origins and for 6 more (Norwegian, Danish, Icelandic, Slovak, Hawaiian, Tongan), written as people of that origin
write them — every diacritic and special letter (ř ů ě š č ž ď ť ň, å ä ö ø æ, ß ü, ł, ð þ, the ʻokina and the
apostrophe of Samoan, Hawaiian and Tongan names, long vowels ā ē ī ō ū), feminine surname forms (-ová, -ská,
-dóttir), hyphens, particles and given names of two parts — and **16 new sentence forms** of everyday clinical
conversation, written without looking at the rules or at the held-out forms (a name beside ordinary words, after a
possessive and a role, one of two people, as a possessive, opening a sentence before a verb, in reported speech).
``python benchmarks/bench_deid_origin.py --dev2 --no-before --no-real`` reports it per origin (``dev2`` half) next to
the development half. Same layout as ``deid_dev.py``; ``{g}`` given name, ``{s}`` surname."""

from __future__ import annotations

DEV2_FORMS: tuple[tuple[str, str], ...] = (
    ("P", "My neighbour {g} {s} came by yesterday with soup."),
    ("P", "{g}'s mother had the same thing last spring."),
    ("D", "Your wife {g} mentioned the dizziness on the phone."),
    ("P", "Me and {g} {s} both caught it at work."),
    ("P", "{s} says I should cut back on salt."),
    ("D", "Did {g} tell you about the new dose?"),
    ("P", "My daughter-in-law, {g}, keeps my pill box."),
    ("P", "She said, \"{g}, you need to rest.\""),
    ("D", "I spoke with {g} {s} from the lab this morning."),
    ("P", "It was {g} who noticed the swelling first."),
    ("P", "I've been seeing {s} for physical therapy."),
    ("D", "Please ask {g} to bring your medication list."),
    ("P", "{g} {s}'s number is in my phone."),
    ("P", "We were at {g}'s house when it started."),
    ("D", "According to {s}, the cast can come off soon."),
    ("P", "I came in with {g} and my son."),
)

#: origin -> (4 given names, 4 surnames); the 46 origins of ``deid_names.py`` and 6 more
DEV2_NAMES: dict[str, tuple[list[str], list[str]]] = {
    "US": (["Brandon", "Courtney", "Hunter", "Shelby"], ["Whitfield", "Peterson", "Crawford", "Baxter"]),
    "UK": (["Ollie", "Isla", "Hamish", "Phoebe"], ["Pennington", "Ainsworth", "Shackleton", "Hughes"]),
    "Irish": (["Seán", "Caoimhe", "Eoin", "Róisín"], ["Ó Briain", "Ní Dhomhnaill", "McGettigan", "Ó Riordáin"]),
    "Mexican": (["Guillermo", "Lupita", "Ramón", "Itzel"], ["Zamudio", "Bustamante", "Ibarra", "Villaseñor"]),
    "Spanish": (["Íker", "Maite", "Ainhoa", "Joaquín"], ["Gutiérrez", "Echeverría", "Goikoetxea", "Sáez"]),
    "Brazilian": (["Cauã", "Júlia", "Vinícius", "Thaís"], ["Figueiredo", "Vasconcelos", "Damasceno", "Rebouças"]),
    "Haitian": (["Roseline", "Widlyne", "Dieunel", "Marc-Antoine"], ["Fleurimond", "Beauplan", "Dorsainvil", "Thélusma"]),
    "French": (["Timothée", "Clémence", "Loïc", "Mathilde"], ["Daguerre", "Giraud", "Vasseur", "Delacroix"]),
    "Dutch": (["Maarten", "Ilse", "Sjoerd", "Lieke"], ["van der Meulen", "Zwanenburg", "Hendriks", "van Leeuwen"]),
    "German": (["Jörn", "Hiltrud", "Günther", "Hannelore"], ["Weißhaupt", "Schwägerl", "Brückner-Lohse", "Kößler"]),
    "Swedish": (["Göran", "Märta", "Stellan", "Ebba"], ["Wahlström", "Åberg", "Törnqvist", "Ångström"]),
    "Finnish": (["Jyrki", "Sirkka", "Tapio", "Ritva"], ["Kärkkäinen", "Häkkinen", "Hyvönen", "Peltonen"]),
    "Italian": (["Ginevra", "Pasquale", "Benedetta", "Gennaro"], ["Scognamiglio", "De Luca", "Caruso", "D'Amico"]),
    "Polish": (["Krzysztof", "Bożena", "Przemysław", "Jolanta"], ["Grzybowski", "Kaźmierczak", "Dąbrowska",
                                                                  "Szczepańska"]),
    "Czech": (["Jiřina", "Bořivoj", "Věra", "Ondřej"], ["Dvořáková", "Růžička", "Němcová", "Kříž"]),
    "Romanian": (["Bogdan", "Ileana", "Răzvan", "Oana"], ["Vlădescu", "Bărbulescu", "Țurcanu", "Negoiță"]),
    "Hungarian": (["Ferenc", "Ágnes", "Csaba", "Enikő"], ["Szűcs", "Pásztor", "Fekete-Győr", "Gulyás"]),
    "Russian": (["Yevgeny", "Natalya", "Boris", "Oksana"], ["Belousov", "Shcherbakova", "Volkov", "Sokolova"]),
    "Greek": (["Stavros", "Despina", "Charalambos", "Evangelia"], ["Tsakalidis", "Chatzigeorgiou", "Mavromatis", "Vlachou"]),
    "Armenian": (["Aram", "Nune", "Gevorg", "Lilit"], ["Khachaturian", "Mkrtchyan", "Ohanian", "Avetisyan"]),
    "Turkish": (["Emre", "Gökçe", "Barış", "Şebnem"], ["Yıldız", "Karaağaç", "Güneşli", "Bayraktar"]),
    "Hebrew": (["Moshe", "Ayelet", "Yehuda", "Michal"], ["Ashkenazi", "Dahan", "Avital", "Ben-Ami"]),
    "Arabic": (["Omar", "Mariam", "Hamza", "Yasmin"], ["Al-Qahtani", "Bazzi", "Tamimi", "Zoubi"]),
    "Persian": (["Arash", "Golnaz", "Babak", "Niloufar"], ["Sadeghpour", "Rezaei", "Jafarzadeh", "Farahani"]),
    "Hindi": (["Rahul", "Sneha", "Amit", "Deepika"], ["Tripathi", "Awasthi", "Bhardwaj", "Chaturvedi"]),
    "Punjabi": (["Navdeep", "Rajinder", "Sukhwinder", "Harleen"], ["Bhullar", "Pannu", "Cheema", "Toor"]),
    "Tamil": (["Sathish", "Revathi", "Ganesan", "Anitha"], ["Chidambaram", "Anbazhagan", "Thirunavukkarasu", "Kandasamy"]),
    "Pakistani": (["Faisal", "Rabia", "Kamran", "Saima"], ["Abbasi", "Bhatti", "Lodhi", "Niazi"]),
    "Bengali": (["Sayantan", "Paromita", "Anirban", "Sreeja"], ["Bandyopadhyay", "Mazumdar", "Dasgupta", "Ganguly"]),
    "Nepali": (["Suman", "Binita", "Rajendra", "Kamala"], ["Pokharel", "Bhandari", "Dahal", "Khadka"]),
    "Chinese": (["Hao", "Xiaolin", "Jianguo", "Yuqing"], ["Qiu", "Guo", "Cao", "Deng"]),
    "Japanese": (["Daisuke", "Naoko", "Ryōta", "Emiko"], ["Ōkubo", "Matsumoto", "Nishimura", "Kōno"]),
    "Korean": (["Jiwoo", "Soyeon", "Hyunwoo", "Minji"], ["Bae", "Hwang", "Seo", "Shin"]),
    "Vietnamese": (["Huy", "Ngọc", "Trang", "Khoa"], ["Quách", "Dương", "Đặng", "Hồ"]),
    "Thai": (["Somsak", "Nittaya", "Chatchai", "Malee"], ["Saetang", "Charoensuk", "Thongdee", "Rattanawong"]),
    "Filipino": (["Jonel", "Lorna", "Rolando", "Divina"], ["Dela Cruz", "Macapagal", "Dimaculangan", "Pangilinan"]),
    "Indonesian": (["Bambang", "Sri", "Hendra", "Wulan"], ["Prasetyo", "Purnomo", "Susanto", "Hartono"]),
    "Samoan": (["Sefo", "Mele", "Falaniko", "Siʻaosi"], ["Tuiasosopo", "Faʻamausili", "Sāgapolutele", "Aumua"]),
    "Yoruba": (["Adérónkẹ́", "Túndé", "Oláolúwa", "Yétúndé"], ["Ọ̀ṣúntókun", "Ìdòwú", "Ajíbádé", "Fáṣọlá"]),
    "Igbo": (["Chidi", "Nneka", "Emeka", "Uchenna"], ["Iheanacho", "Obiora", "Anyanwu", "Ezeokafor"]),
    "Hausa": (["Aminu", "Maryam", "Tanko", "Rabi"], ["Dikko", "Tsafe", "Gwarzo", "Kurfi"]),
    "Akan": (["Kwaku", "Adwoa", "Kwesi", "Akua"], ["Ampofo", "Ofori-Atta", "Sarpong", "Amoako"]),
    "Somali": (["Cabdi", "Hibo", "Liban", "Idil"], ["Samatar", "Abtidoon", "Cilmi", "Dualeh"]),
    "Zulu": (["Sifiso", "Nokuthula", "Themba", "Lindiwe"], ["Shezi", "Zungu", "Mkhize", "Ngcobo"]),
    "Amharic": (["Getachew", "Almaz", "Bereket", "Mulu"], ["Tessema", "Demissie", "Gebremariam", "Ayele"]),
    "Swahili": (["Rashidi", "Mwanaisha", "Salim", "Amina"], ["Mwakilema", "Mfinanga", "Ngowi", "Massawe"]),
    "Norwegian": (["Øystein", "Solveig", "Torbjørn", "Sigrid"], ["Bjørnstad", "Håland", "Løvås", "Ødegård"]),
    "Danish": (["Søren", "Mette", "Jørgen", "Birthe"], ["Sørensen", "Kjær", "Mølgaard", "Frederiksen"]),
    "Icelandic": (["Þórður", "Guðrún", "Sigurður", "Ástríður"], ["Jónsdóttir", "Þórsson", "Guðmundsson",
                                                                 "Sigurðardóttir"]),
    "Slovak": (["Ľubomír", "Zdenka", "Miroslav", "Ľudmila"], ["Horňák", "Kováčová", "Šťastný", "Slobodová"]),
    "Hawaiian": (["Kaleo", "Noelani", "Keoni", "Pualani"], ["Kahananui", "Kealoha", "Kaʻaihue", "Nāone"]),
    "Tongan": (["Viliami", "Tevita", "Mele-Ana", "Losaline"], ["Fifita", "Vainikolo", "Tuʻipulotu", "Havili"]),
}
