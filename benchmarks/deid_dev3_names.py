"""A third development set of the by-origin de-identification benchmark (issue 50): real names, many per origin.

Both hand-written development sets (``deid_names.py``'s even positions, ``deid_dev2.py``) have 4 given names and 4
surnames an origin and are near 100 % removed in cased text while the held-out half is not: too few names to show
what is missed. These are the most frequent names of 45 countries in **names-dataset 3.3.1** (PyPI
``names-dataset==3.3.1``, Philippe Rémy; package under the MIT license; its data were extracted from the 2021
Facebook leak of 533M accounts, and its README says that lists of names are generally not copyrightable), written
by ``benchmarks/deid_dev3_make.py`` (run once in a virtual environment of its own: the dataset is no dependency of
clinaudit) with one rule for every country:

* given names alternately female and male (the dataset's majority gender), each list by the dataset's rank in that
  country, 15 given names and 15 surnames a country;
* only names in Latin letters (the dataset's Cyrillic, Greek, Hebrew, Arabic, Hangul, kanji entries are left: an
  English transcript writes them in Latin letters), a vowel in every part (not "Md", "Sk", "Gh"), and held by at
  least a tenth of the dataset's bearers of that name in that country (so "John" is no Nigerian name, "Gujjar" no
  Greek one);
* **no part of any name of ``deid_names.py`` (either half) or ``deid_dev2.py``** (folded, case-insensitive; checked
  in code without printing them, and by ``tests/test_deid_dev3.py``), and one spelling of a name a country (the
  first of "Martin" and "Martín");
* the dataset's faults left out: its Iranian lists hold many Czech names (none of CZ's list is taken for IR), and
  words its users wrote in the name fields that are no name (a country, "Nesvarbu", "Aš", "Olen", "Om", "La
  Souriante", "Jjang", "Baby").

Spelling is the dataset's, as its users typed it: title case ("De Jong" style particles, "Mcdonald"), diacritics
where they typed them and none where they did not ("Rodriguez" of Mexico beside "Rodríguez" of Spain, Moldova's
"Cebotari"); no diacritic was added. Only four spellings were restored, where the dataset had dropped an apostrophe
or an inner capital and the spelling is certain: O'Brien, O'Connor, McCarthy, D'Angelo.

A country stands beside the benchmark origin it is closest to (``DEV3_COUNTRIES``): the lists are by the country
Facebook users gave, not by origin, so a country's list holds its minorities' and migrants' names too (Swiss
"Krasniqi", Nigerian "Ibrahim" and "Blessing", Hungarian given names written as surnames). Origins with no country in
the dataset: Armenian, Pakistani, Punjabi and Tamil (only as part of India), Nepali, Vietnamese, Thai, Samoan,
Tongan, Hawaiian (Fiji stands in for the Pacific), Swahili, Slovak; Yoruba, Igbo and Hausa share Nigeria, Zulu
stands with South Africa, Somali with Djibouti, Romanian with Moldova; Korean given names are written in Hangul there,
so Korea's given names are the romanised ones ranked lower. Seven countries no origin has (Fiji, Austria,
Switzerland, Portugal, Croatia, Lithuania, Estonia) add Pacific, German-speaking, Slavic and Baltic names.

``python benchmarks/bench_deid_origin.py --dev3 --no-before --no-real`` puts these names into the development forms
(``deid_dev.py``) and dev2's forms (``deid_dev2.py``), in the same dialogs and styles, and reports them as the
``dev3`` half beside the development half.
"""

from __future__ import annotations

#: dev3 key -> (names-dataset country, the benchmark origin it stands beside; '' for none)
DEV3_COUNTRIES: dict[str, tuple[str, str]] = {
    'US': ('US', 'US'),
    'UK': ('GB', 'UK'),
    'Irish': ('IE', 'Irish'),
    'Mexican': ('MX', 'Mexican'),
    'Spanish': ('ES', 'Spanish'),
    'Brazilian': ('BR', 'Brazilian'),
    'Haitian': ('HT', 'Haitian'),
    'French': ('FR', 'French'),
    'Dutch': ('NL', 'Dutch'),
    'German': ('DE', 'German'),
    'Swedish': ('SE', 'Swedish'),
    'Finnish': ('FI', 'Finnish'),
    'Italian': ('IT', 'Italian'),
    'Polish': ('PL', 'Polish'),
    'Czech': ('CZ', 'Czech'),
    'Moldovan': ('MD', 'Romanian'),
    'Hungarian': ('HU', 'Hungarian'),
    'Russian': ('RU', 'Russian'),
    'Greek': ('GR', 'Greek'),
    'Turkish': ('TR', 'Turkish'),
    'Israeli': ('IL', 'Hebrew'),
    'Egyptian': ('EG', 'Arabic'),
    'Iranian': ('IR', 'Persian'),
    'Indian': ('IN', 'Hindi'),
    'Bangladeshi': ('BD', 'Bengali'),
    'Chinese': ('CN', 'Chinese'),
    'Japanese': ('JP', 'Japanese'),
    'Korean': ('KR', 'Korean'),
    'Filipino': ('PH', 'Filipino'),
    'Indonesian': ('ID', 'Indonesian'),
    'Nigerian': ('NG', 'Yoruba, Igbo, Hausa'),
    'Ghanaian': ('GH', 'Akan'),
    'Djiboutian': ('DJ', 'Somali'),
    'South African': ('ZA', 'Zulu'),
    'Ethiopian': ('ET', 'Amharic'),
    'Norwegian': ('NO', 'Norwegian'),
    'Danish': ('DK', 'Danish'),
    'Icelandic': ('IS', 'Icelandic'),
    'Fijian': ('FJ', ''),
    'Austrian': ('AT', ''),
    'Swiss': ('CH', ''),
    'Portuguese': ('PT', ''),
    'Croatian': ('HR', ''),
    'Lithuanian': ('LT', ''),
    'Estonian': ('EE', ''),
}

#: dev3 key -> ([given names, alternately female and male, most frequent first], [surnames])
DEV3_NAMES: dict[str, tuple[list[str], list[str]]] = {
    'US': (
        [
            'Mary', 'Michael', 'Jennifer', 'John', 'Jessica', 'Juan', 'Michelle', 'Carlos', 'Lisa', 'Luis', 'Sarah',
            'Chris', 'Elizabeth', 'Alex', 'Laura',
        ],
        [
            'Rodriguez', 'Smith', 'Perez', 'Williams', 'Jones', 'Brown', 'Flores', 'Torres', 'Patel', 'Gomez',
            'Diaz', 'Rivera', 'Morales', 'Ortiz', 'Ramos',
        ],
    ),
    'UK': (
        [
            'Sarah', 'Paul', 'Emma', 'John', 'Lisa', 'James', 'Karen', 'Mark', 'Julie', 'Chris', 'Claire', 'Michael',
            'Helen', 'Andrew', 'Amy',
        ],
        [
            'Smith', 'Jones', 'Williams', 'Brown', 'Davies', 'Evans', 'Thomas', 'Roberts', 'Walker', 'Thompson',
            'Patel', 'Robinson', 'Wright', 'White', 'Green',
        ],
    ),
    'Irish': (
        [
            'Margaret', 'Conor', 'Ciara', 'Shane', 'Fiona', 'Liam', 'Pat', 'Niall', 'Sinead', 'Brendan', 'Deirdre',
            'Paddy', 'Aisling', 'Declan', 'Lorraine',
        ],
        [
            'Kelly', 'Byrne', 'Ryan', 'Walsh', 'Doyle', "O'Brien", 'Lynch', "O'Connor", 'Dunne', 'Murray',
            'McCarthy', 'Brennan', 'Daly', 'Burke', 'Nolan',
        ],
    ),
    'Mexican': (
        [
            'Alejandra', 'Juan', 'Mary', 'Luis', 'Carmen', 'Carlos', 'Karla', 'Jorge', 'Martha', 'Daniel', 'Diana',
            'Miguel', 'Claudia', 'Angel', 'Adriana',
        ],
        [
            'Rodriguez', 'Perez', 'Flores', 'Torres', 'Morales', 'Gomez', 'Vazquez', 'Diaz', 'Castillo', 'Aguilar',
            'Ortiz', 'Jimenez', 'Rivera', 'Romero', 'Moreno',
        ],
    ),
    'Spanish': (
        [
            'Carmen', 'Antonio', 'Laura', 'Juan', 'Isabel', 'Manuel', 'Cristina', 'Carlos', 'Pilar', 'Javier',
            'Rosa', 'Francisco', 'Elena', 'Miguel', 'Raquel',
        ],
        [
            'Martin', 'Moreno', 'Jimenez', 'Rodríguez', 'Alonso', 'Pérez', 'Serrano', 'Gómez', 'Blanco', 'Gil',
            'Rubio', 'Sanz', 'Garrido', 'Lozano', 'Cano',
        ],
    ),
    'Brazilian': (
        [
            'Fernanda', 'Lucas', 'Juliana', 'Marcos', 'Adriana', 'Paulo', 'Bruna', 'Francisco', 'Amanda', 'Gabriel',
            'Aline', 'Rafael', 'Vanessa', 'Pedro', 'Camila',
        ],
        [
            'Silva', 'Oliveira', 'Lima', 'Souza', 'Alves', 'Rodrigues', 'Sousa', 'Ferreira', 'Pereira', 'Gomes',
            'Costa', 'Martins', 'Soares', 'Ribeiro', 'Fernandes',
        ],
    ),
    'Haitian': (
        [
            'Milande', 'Mesidor', 'Dieuna', 'Presnel', 'Yslande', 'Roobens', 'Macula', 'Louima', 'Mirlène',
            'Clervil', 'Michelove', 'Petit-Homme', 'Rosedarline', 'Phanord', 'Meritha',
        ],
        [
            'Fritzner', 'Bien Aimé', 'Mackendy', 'Nahomie', 'Dorcé', 'Odney', 'Lineda', 'Alcimé', 'Sylvert',
            'Medjina', 'Mirlande', 'Duprevil', 'Sylvaince', 'Exilien', 'Kerline',
        ],
    ),
    'French': (
        [
            'Nathalie', 'Nicolas', 'Sylvie', 'Julien', 'Isabelle', 'Philippe', 'Sophie', 'Christophe', 'Sandrine',
            'Thomas', 'Dominique', 'Laurent', 'Julie', 'Michel', 'Christine',
        ],
        [
            'Martin', 'Bernard', 'Dubois', 'Thomas', 'Petit', 'Dupont', 'Durand', 'Michel', 'Richard', 'Laurent',
            'Diallo', 'Simon', 'Da Silva', 'Leroy', 'Moreau',
        ],
    ),
    'Dutch': (
        [
            'Monique', 'Jan', 'Yvonne', 'Peter', 'Petra', 'Hans', 'Jolanda', 'Henk', 'Ria', 'Jeroen', 'Esther',
            'Rob', 'Anita', 'Dennis', 'Joke',
        ],
        [
            'Janssen', 'Bos', 'Mulder', 'Peters', 'Vos', 'Dekker', 'Brouwer', 'Smits', 'Dijkstra', 'Jacobs', 'Kok',
            'Vermeulen', 'Schouten', 'Willems', 'Maas',
        ],
    ),
    'German': (
        [
            'Nicole', 'Michael', 'Sabine', 'Thomas', 'Petra', 'Andreas', 'Anja', 'Christian', 'Melanie', 'Peter',
            'Heike', 'Frank', 'Kerstin', 'Markus', 'Nadine',
        ],
        [
            'Schmidt', 'Schneider', 'Fischer', 'Meyer', 'Weber', 'Schulz', 'Wagner', 'Becker', 'Hoffmann', 'Richter',
            'Koch', 'Bauer', 'Klein', 'Wolf', 'Neumann',
        ],
    ),
    'Swedish': (
        [
            'Lena', 'Johan', 'Malin', 'Anders', 'Hanna', 'Fredrik', 'Elin', 'Mikael', 'Annika', 'Jonas', 'Susanne',
            'Per', 'Carina', 'Henrik', 'Birgitta',
        ],
        [
            'Andersson', 'Nilsson', 'Karlsson', 'Larsson', 'Eriksson', 'Persson', 'Svensson', 'Olsson', 'Gustafsson',
            'Pettersson', 'Jonsson', 'Carlsson', 'Jansson', 'Hansson', 'Bengtsson',
        ],
    ),
    'Finnish': (
        [
            'Minna', 'Antti', 'Tiina', 'Mika', 'Sari', 'Ville', 'Johanna', 'Janne', 'Sanna', 'Timo', 'Hanna', 'Jari',
            'Heidi', 'Jani', 'Kari',
        ],
        [
            'Mäkelä', 'Koskinen', 'Lehtonen', 'Lehtinen', 'Saarinen', 'Salminen', 'Niemi', 'Heikkilä', 'Heinonen',
            'Salonen', 'Kinnunen', 'Salo', 'Jokinen', 'Rantanen', 'Tuominen',
        ],
    ),
    'Italian': (
        [
            'Anna', 'Francesco', 'Francesca', 'Marco', 'Sara', 'Andrea', 'Laura', 'Antonio', 'Antonella',
            'Alessandro', 'Elena', 'Giovanni', 'Angela', 'Roberto', 'Giulia',
        ],
        [
            'Rossi', 'Ferrari', 'Bruno', 'Giordano', 'Gallo', 'Rizzo', 'Costa', 'Ferrara', 'Santoro', 'Leone',
            'Mancini', 'Vitale', 'Coppola', "D'Angelo", 'Conti',
        ],
    ),
    'Polish': (
        [
            'Anna', 'Piotr', 'Katarzyna', 'Marcin', 'Monika', 'Paweł', 'Ewa', 'Tomasz', 'Joanna', 'Mateusz',
            'Magdalena', 'Andrzej', 'Karolina', 'Marek', 'Beata',
        ],
        [
            'Nowak', 'Kowalski', 'Kowalska', 'Mazur', 'Kaczmarek', 'Krawczyk', 'Wieczorek', 'Król', 'Zając',
            'Wiśniewska', 'Sikora', 'Adamczyk', 'Dudek', 'Wróbel', 'Lewandowski',
        ],
    ),
    'Czech': (
        [
            'Petra', 'Petr', 'Lucie', 'Martin', 'Eva', 'Jan', 'Veronika', 'Pavel', 'Kateřina', 'Jakub', 'Michaela',
            'Lukáš', 'Monika', 'Josef', 'Tereza',
        ],
        [
            'Nováková', 'Svoboda', 'Novotná', 'Svobodová', 'Novotný', 'Černá', 'Kučerová', 'Procházka', 'Veselá',
            'Marek', 'Pokorná', 'Králová', 'Krejčí', 'Marková', 'Hájková',
        ],
    ),
    'Moldovan': (
        [
            'Olesea', 'Serghei', 'Olea', 'Iurie', 'Nastea', 'Vasea', 'Parascovia', 'Veaceslav', 'Catea', 'Vanea',
            'Cătălina', 'Iura', 'Valea', 'Colea', 'Anișoara',
        ],
        [
            'Cebotari', 'Cojocari', 'Melnic', 'Rusnac', 'Cebanu', 'Botnaru', 'Vitalie', 'Guzun', 'Pascari',
            'Serghei', 'Lisnic', 'Cernei', 'Frunze', 'Cibotari', 'Bejenari',
        ],
    ),
    'Hungarian': (
        [
            'Éva', 'Attila', 'Judit', 'Tamás', 'Krisztina', 'Péter', 'Zsuzsanna', 'István', 'Eszter', 'Zsolt',
            'Szilvia', 'János', 'Mónika', 'Balázs', 'Viktória',
        ],
        [
            'Németh', 'Farkas', 'Balogh', 'Tamás', 'Papp', 'Péter', 'Takács', 'Balázs', 'Juhász', 'Attila', 'Sándor',
            'István', 'Mészáros', 'Lakatos', 'Zsolt',
        ],
    ),
    'Russian': (
        [
            'Elena', 'Sergey', 'Olga', 'Andrey', 'Irina', 'Vladimir', 'Ekaterina', 'Dmitry', 'Anastasia', 'Alexandr',
            'Marina', 'Alexey', 'Tatyana', 'Denis', 'Alina',
        ],
        [
            'Ivanova', 'Petrov', 'Petrova', 'Magomedov', 'Aliev', 'Kuznetsova', 'Popov', 'Smirnov', 'Volkova',
            'Romanova', 'Novikova', 'Pavlova', 'Morozova', 'Andreeva', 'Alieva',
        ],
    ),
    'Greek': (
        [
            'Katerina', 'Dimitris', 'Dimitra', 'Nikos', 'Ioanna', 'Kostas', 'Eirini', 'Giannis', 'Konstantina',
            'Giorgos', 'Athina', 'Panagiotis', 'Xristina', 'Vasilis', 'Efi',
        ],
        [
            'Papadopoulou', 'Pappas', 'Papageorgiou', 'Nikolaou', 'Nikos', 'Dimitris', 'Papaioannou',
            'Papadimitriou', 'Papadakis', 'Pappa', 'Kostas', 'Dimitriou', 'Georgiadis', 'Ioannou', 'Ioannidis',
        ],
    ),
    'Turkish': (
        [
            'Fatma', 'Mehmet', 'Emine', 'Ali', 'Hatice', 'Murat', 'Zeynep', 'Hasan', 'Elif', 'Hüseyin', 'Merve',
            'Yusuf', 'Esra', 'Ramazan', 'Yasemin',
        ],
        [
            'Kaya', 'Demir', 'Can', 'Yıldırım', 'Arslan', 'Aslan', 'Kara', 'Kurt', 'Korkmaz', 'Çetin', 'Polat',
            'Koç', 'Bulut', 'Yavuz', 'Gül',
        ],
    ),
    'Israeli': (
        [
            'Maya', 'Tal', 'Eli', 'Adi', 'Eden', 'Lior', 'Shani', 'Avi', 'Keren', 'Yuval', 'Rotem', 'Guy', 'Anat',
            'Gal', 'Hila',
        ],
        [
            'Levy', 'Bar', 'Tal', 'Malka', 'Yosef', 'Mor', 'Jaber', 'Vaknin', 'Hadad', 'Golan', 'Ohayon', 'Odeh',
            'Abed', 'Levin', 'Azulay',
        ],
    ),
    'Egyptian': (
        [
            'Aya', 'Ahmed', 'Sara', 'Mohamed', 'Eman', 'Mahmoud', 'Asmaa', 'Mostafa', 'Mona', 'Amr', 'Nada', 'Ali',
            'Esraa', 'Eslam', 'Fatma',
        ],
        [
            'Mohamed', 'Ahmed', 'Ali', 'Mahmoud', 'Hassan', 'Mostafa', 'Adel', 'Gamal', 'Salah', 'Khaled', 'Ashraf',
            'Magdy', 'Ibrahim', 'Saad', 'Sayed',
        ],
    ),
    'Iranian': (
        [
            'Zahra', 'Mohammad', 'Fatemeh', 'Amir', 'Iman', 'Mehdi', 'Elham', 'Alireza', 'Fateme', 'Mohsen', 'Neda',
            'Saeed', 'Roya', 'Hossein', 'Nazanin',
        ],
        [
            'Ahmadi', 'Mohamadi', 'Amiri', 'Sadeghi', 'Ebrahimi', 'Ghasemi', 'Salehi', 'Akbari', 'Asadi', 'Zare',
            'Hashemi', 'Mousavi', 'Heydari', 'Amini', 'Alizadeh',
        ],
    ),
    'Indian': (
        [
            'Priyanka', 'Ajay', 'Neha', 'Sanjay', 'Vicky', 'Raj', 'Jyoti', 'Deepak', 'Riya', 'Ravi', 'Manju', 'Raju',
            'Puja', 'Vijay', 'Nisha',
        ],
        [
            'Kumar', 'Singh', 'Yadav', 'Patel', 'Das', 'Raj', 'Ansari', 'Thakur', 'Roy', 'Rajput', 'Kumari',
            'Shaikh', 'Patil', 'Sahu', 'Choudhary',
        ],
    ),
    'Bangladeshi': (
        [
            'Nusrat', 'Sumon', 'Jannatul', 'Saiful', 'Sharmin', 'Kazi', 'Sadia', 'Masud', 'Farhana', 'Abdur',
            'Fatema', 'Shamim', 'Jannat', 'Mamun', 'Farjana',
        ],
        [
            'Islam', 'Hossain', 'Rahman', 'Hasan', 'Uddin', 'Akter', 'Alam', 'Das', 'Roy', 'Miah', 'Mahmud', 'Saha',
            'Mia', 'Haque', 'Biswas',
        ],
    ),
    'Chinese': (
        [
            'Yi', 'Yang', 'Jie', 'Wu', 'Xin', 'Lei', 'Echo', 'Feng', 'Zhu', 'Yuan', 'Yue', 'Peng', 'Fang', 'Liang',
            'Qi',
        ],
        [
            'Li', 'Wu', 'Yang', 'Zhu', 'Sun', 'Hu', 'Lu', 'Zheng', 'Jiang', 'He', 'Luo', 'Liang', 'Gao', 'Xie',
            'Shen',
        ],
    ),
    'Japanese': (
        [
            'Yuka', 'Takashi', 'Yuko', 'Yusuke', 'Tomoko', 'Akira', 'Keiko', 'Satoshi', 'Kaori', 'Hiroyuki', 'Yoko',
            'Ryo', 'Yumi', 'Hiroki', 'Noriko',
        ],
        [
            'Nakamura', 'Saito', 'Yamada', 'Kato', 'Yoshida', 'Inoue', 'Hayashi', 'Kimura', 'Sasaki', 'Yamaguchi',
            'Shimizu', 'Abe', 'Ikeda', 'Hashimoto', 'Yamashita',
        ],
    ),
    'Korean': (
        [
            'Hyunju', 'Youngjin', 'Eunkyung', 'Sanghoon', 'Eunjin', 'Sangjin', 'Hyunjung', 'Jinho', 'Youngmi',
            'Sangho', 'Eunjoo', 'Minho', 'Heejung', 'Hyunsoo', 'Youngsun',
        ],
        [
            'Jeong', 'Baek', 'Eom', 'Joung', 'Yeom', 'Gwak', 'Byeon', 'Gwon', 'Namgung', 'Kwag', 'Chough', 'Myoung',
            'Myeong', 'Young Jae', 'Sungjin',
        ],
    ),
    'Filipino': (
        [
            'Rowena', 'Jayson', 'Mae', 'Mark Anthony', 'Mary Ann', 'Bong', 'Marilou', 'Sherwin', 'Mary Grace',
            'Ruel', 'Jessa', 'Arvin', 'Marivic', 'Jhun', 'Analyn',
        ],
        [
            'Uy', 'Tolentino', 'Domingo', 'Dizon', 'Co', 'Del Rosario', 'Corpuz', 'Espiritu', 'Legaspi', 'Sison',
            'Guevarra', 'Pascua', 'Atienza', 'Roxas', 'Mallari',
        ],
    ),
    'Indonesian': (
        [
            'Dwi', 'Eko', 'Tri', 'Agung', 'Endang', 'Achmad', 'Retno', 'Arief', 'Dyah', 'Heru', 'Endah', 'Gunawan',
            'Ratih', 'Teguh', 'Ninik',
        ],
        [
            'Gunawan', 'Kurniawan', 'Widjaja', 'Wibowo', 'Siregar', 'Irawan', 'Kusuma', 'Budiman', 'Wahyudi',
            'Hermawan', 'Widodo', 'Susilo', 'Sutanto', 'Utomo', 'Nugraha',
        ],
    ),
    'Nigerian': (
        [
            'Blessing', 'Ibrahim', 'Esther', 'Emmanuel', 'Joy', 'Samuel', 'Grace', 'Sunday', 'Precious', 'Umar',
            'Mercy', 'Prince', 'Aisha', 'Yusuf', 'Favour',
        ],
        [
            'Ibrahim', 'Muhammad', 'Emmanuel', 'John', 'Umar', 'Sunday', 'Samuel', 'Yusuf', 'James', 'Daniel',
            'Adamu', 'Aliyu', 'Peter', 'Michael', 'Blessing',
        ],
    ),
    'Ghanaian': (
        [
            'Nana', 'Isaac', 'Gifty', 'Ebenezer', 'Maame', 'Alhassan', 'Comfort', 'Evans', 'Mavis', 'Bright', 'Vida',
            'Kojo', 'Faustina', 'Seth', 'Obaapa',
        ],
        [
            'Yeboah', 'Tetteh', 'Asare', 'Arthur', 'Adjei', 'Opoku', 'Amoah', 'Frimpong', 'Isaac', 'Addo', 'Antwi',
            'Boakye', 'Alhassan', 'Nyarko', 'Asamoah',
        ],
    ),
    'Djiboutian': (
        [
            'Deka', 'Abdillahi', 'Nasteho', 'Djama', 'Saredo', 'Houmed', 'Habon', 'Awaleh', 'Oubah', 'Robleh',
            'Fardoussa', 'Abdoulkader', 'Araksan', 'Gouled', 'Deksan',
        ],
        [
            'Abdillahi', 'Djama', 'Robleh', 'Taysi', 'Houmed', 'Awaleh', 'Guedi', 'Abdoulkader', 'Guelleh', 'Waberi',
            'Gouled', 'Bahdon', 'Bogoreh', 'Doualeh', 'Assoweh',
        ],
    ),
    'South African': (
        [
            'Mpho', 'Thabo', 'Lerato', 'Tebogo', 'Amanda', 'Tshepo', 'Lebogang', 'Thabang', 'Nthabiseng', 'Ayanda',
            'Precious', 'Thabiso', 'Zandile', 'Lucky', 'Portia',
        ],
        [
            'Mokoena', 'Sithole', 'Mahlangu', 'Dube', 'Jacobs', 'Gumede', 'Khoza', 'Naidoo', 'Williams', 'Buthelezi',
            'Ngwenya', 'Mofokeng', 'Botha', 'Mhlongo', 'Mbatha',
        ],
    ),
    'Ethiopian': (
        [
            'Bizuayehu', 'Feyisa', 'Sintayew', 'Diriba', 'Yeab', 'Teshe', 'Barite', 'Darajee', 'Seblework',
            'Gemechis', 'Billisummaa', 'Bizuneh', 'Stega', 'Meksud', 'Nolawit',
        ],
        [
            'Hordofa', 'Bihonegn', 'Mekonnin', 'Biqila', 'Bufebo', 'Damisee', 'Altaseb', 'Misge', 'Besufkad',
            'Amdisa', 'Dhinsaa', 'Habeshawit Gal', 'Nagashu', 'Hirphaa', 'Weyessa',
        ],
    ),
    'Norwegian': (
        [
            'Hilde', 'Morten', 'Marit', 'Anders', 'Silje', 'Rune', 'Hanne', 'Per', 'Bente', 'Geir', 'Hege', 'Ole',
            'Kristine', 'Espen', 'Elin',
        ],
        [
            'Olsen', 'Johansen', 'Andersen', 'Larsen', 'Pedersen', 'Nilsen', 'Kristiansen', 'Johnsen', 'Karlsen',
            'Eriksen', 'Pettersen', 'Haugen', 'Hagen', 'Johannessen', 'Jacobsen',
        ],
    ),
    'Danish': (
        [
            'Helle', 'Henrik', 'Hanne', 'Morten', 'Lene', 'Jesper', 'Rikke', 'Anders', 'Gitte', 'Rasmus', 'Kirsten',
            'Mads', 'Pernille', 'Mikkel', 'Lone',
        ],
        [
            'Nielsen', 'Jensen', 'Hansen', 'Andersen', 'Pedersen', 'Larsen', 'Christensen', 'Rasmussen', 'Jørgensen',
            'Petersen', 'Madsen', 'Kristensen', 'Olsen', 'Thomsen', 'Christiansen',
        ],
    ),
    'Icelandic': (
        [
            'Kristín', 'Jón', 'Margrét', 'Guðmundur', 'Sigrún', 'Einar', 'Sigríður', 'Ólafur', 'Jóhanna', 'Kristján',
            'Hildur', 'Arnar', 'Ingibjörg', 'Kristinn', 'Berglind',
        ],
        [
            'Jónsson', 'Sigurðsson', 'Guðmundsdóttir', 'Gunnarsson', 'Ólafsson', 'Ólafsdóttir', 'Einarsson',
            'Gunnarsdóttir', 'Magnúsdóttir', 'Magnússon', 'Einarsdóttir', 'Kristjánsson', 'Helgason', 'Björnsson',
            'Kristjánsdóttir',
        ],
    ),
    'Fijian': (
        [
            'Tinai', 'Viliame', 'Siteri', 'Mosese', 'Mereoni', 'Inoke', 'Unaisi', 'Waisea', 'Litia', 'Krishneel',
            'Melaia', 'Esala', 'Akanisi', 'Joseva', 'Mereani',
        ],
        [
            'Goundar', 'Waqa', 'Tawake', 'Koroi', 'Ledua', 'Cakau', 'Tinai', 'Vuli', 'Saukuru', 'Turaga', 'Vueti',
            'Naivalu', 'Takayawa', 'Naqica', 'Nakarawa',
        ],
    ),
    'Austrian': (
        [
            'Sabine', 'Andreas', 'Elisabeth', 'Markus', 'Sonja', 'Franz', 'Renate', 'Christoph', 'Birgit',
            'Wolfgang', 'Katharina', 'Gerhard', 'Bettina', 'Josef', 'Verena',
        ],
        [
            'Gruber', 'Huber', 'Bauer', 'Steiner', 'Moser', 'Berger', 'Pichler', 'Hofer', 'Mayer', 'Maier',
            'Leitner', 'Eder', 'Fuchs', 'Winkler', 'Schmid',
        ],
    ),
    'Swiss': (
        [
            'Ursula', 'Urs', 'Franziska', 'Beat', 'Cornelia', 'Reto', 'Nadja', 'Rolf', 'Rahel', 'Philipp', 'Regula',
            'Heinz', 'Mirjam', 'Jürg', 'Margrit',
        ],
        [
            'Meier', 'Schmid', 'Keller', 'Steiner', 'Huber', 'Gerber', 'Krasniqi', 'Brunner', 'Frei', 'Baumann',
            'Moser', 'Berisha', 'Zimmermann', 'Widmer', 'Gashi',
        ],
    ),
    'Portuguese': (
        [
            'Joana', 'Pedro', 'Catarina', 'Paulo', 'Carla', 'Ricardo', 'Paula', 'Rui', 'Mariana', 'Nuno', 'Inês',
            'Tiago', 'Susana', 'Bruno', 'Beatriz',
        ],
        [
            'Silva', 'Ferreira', 'Pereira', 'Oliveira', 'Costa', 'Rodrigues', 'Martins', 'Sousa', 'Fernandes',
            'Gomes', 'Lopes', 'Ribeiro', 'Marques', 'Carvalho', 'Almeida',
        ],
    ),
    'Croatian': (
        [
            'Ivana', 'Marko', 'Marija', 'Josip', 'Maja', 'Luka', 'Kristina', 'Tomislav', 'Katarina', 'Ante', 'Iva',
            'Ivica', 'Sanja', 'Nikola', 'Nikolina',
        ],
        [
            'Horvat', 'Marić', 'Kovačević', 'Jurić', 'Babić', 'Matić', 'Kovačić', 'Vuković', 'Knežević', 'Tomić',
            'Marković', 'Perić', 'Grgić', 'Kovač', 'Šarić',
        ],
    ),
    'Lithuanian': (
        [
            'Rasa', 'Mindaugas', 'Daiva', 'Andrius', 'Ieva', 'Darius', 'Viktorija', 'Mantas', 'Inga', 'Vytautas',
            'Jurgita', 'Paulius', 'Asta', 'Saulius', 'Edita',
        ],
        [
            'Kazlauskas', 'Petrauskas', 'Jankauskas', 'Urbonas', 'Paulauskas', 'Butkus', 'Ramanauskas',
            'Kavaliauskas', 'Vasiliauskas', 'Rimkus', 'Pocius', 'Navickas', 'Mikalauskas', 'Petraitis', 'Adomaitis',
        ],
    ),
    'Estonian': (
        [
            'Natalja', 'Aleksei', 'Jekaterina', 'Kristjan', 'Triin', 'Siim', 'Liis', 'Margus', 'Liina', 'Taavi',
            'Anastassia', 'Jevgeni', 'Maarja', 'Mihkel', 'Piret',
        ],
        [
            'Tamm', 'Saar', 'Kask', 'Sepp', 'Mägi', 'Kukk', 'Rebane', 'Ilves', 'Oja', 'Koppel', 'Karu', 'Lepik',
            'Luik', 'Kivi', 'Pärn',
        ],
    ),
}
