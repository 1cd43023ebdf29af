"""A forty-third development set of the by-origin de-identification benchmark (issue 50, seventeenth session):
Polynesian and Fijian names of two parts, each written as the Polynesian languages write a word (open syllables, no b,
c, d, j, q, x, y, z), that the lists hold as rare English words or that English would read as words run together or
with a silent "e", in everyday places; beside the same words, and pairs of Polynesian words, as words.

Samoan is the lowest origin on the held-out half in lower case (90.9 %). On main 40dae43 a name whose two parts are
both Polynesian-shaped and neither taken alone is lost in lower case in almost every place: a part the lists hold as
a rare English word ("koro", "hona", "toga", "mote", "soli", "loke", "kele", "mete") or one English reads as words run
together or with a silent "e" ("henare": "hen" + "are"; "tapine", "katene"). A slot rule takes one such word alone
("henare phoned the ward"), but no rule reads two of them: "henare tapine dropped me at the door", "i'm staying with
koro hona till i'm better" keep the whole name. Where one part is a word no list holds ("eroni", "paora": open
syllables) main finds it and the other part beside it. This set gives 6 origins (Samoan, Tongan, Māori, Cook Islands,
Hawaiian, Fijian; 6 to 7 parts each, 41 in all) such names, hand-written here (not from Faker, names-dataset or the
detector's lists; no part of a name is any other set's: checked by ``tests/test_deid_dev43.py`` without printing
them; a script dropped every candidate a table holds without printing which), in **34 forms** no other set has, most
with the full name ("{g} {s} dropped me at the door", "i'm staying with {g} {s} till i'm better", "aunty {g} {s}
raised me"), some with one part alone ("{g} stayed the weekend to help me", "the {s} family all came to visit").
**The same words as words** (``DEV43_WORD_USES``, two a dialog, 66 sentences: "a mote in my eye", "the rota at work",
"a toga party", "my koro turned ninety", and Polynesian words and pairs of them: "kava kava tea", "aloe vera gel",
"kia ora , come in", "the haka at the marae", "manuka honey", "tena koe"): each word replaced inside them is a false
replacement, printed by ``bench_deid_origin.py --dev43``.

On main 40dae43, before any rule of this slice (``--dev-only --dev43 --no-real``): cased 99.1 % of 528 names (Tongan
96.6, Samoan 98.9, Fijian 98.9, Māori, Cook Islands, Hawaiian 100.0), lower case 90.6 % of 762 (Māori 62.2, Samoan
92.9, Tongan 93.7, Hawaiian 97.6, Cook Islands 98.4, Fijian 98.4); words used as words: 261 of 492 sentences' words
replaced (kava 32, sago 19, grandad 12, pila 12, taro 12, kumara 12, whanau 12, marae 12, kava kava 12, seti 11; every
Polynesian pair of greetings 6: "kia ora", "tena koe", "talofa lava"): main already takes most Polynesian words as
names, so this number is the baseline a rule must not raise. After ``name_pacific_words`` (seventeenth session: a
small vocabulary of Pacific words and a thing's place): 53 (pila 12, taro 12, seti 11, mana 6, tapu 6, panini 6).
Same layout as ``deid_dev39.py``; ``{g}`` given name, ``{s}`` surname."""

from __future__ import annotations

DEV43_FORMS: tuple[tuple[str, str], ...] = (
    # the full name as a clause's subject
    ("P", "{g} {s} dropped me at the door."),
    ("P", "{g} {s} looks after the kids on Tuesdays."),
    ("P", "{g} {s} is my husband's sister."),
    ("P", "{g} {s} came over from Auckland to help."),
    ("P", "{g} {s} found my pills in the bin."),
    ("D", "{g} {s} from the practice called about your bloods."),
    ("P", "{g} {s} will know, she does my diary."),
    ("P", "{g} {s} and I go to the same church."),
    ("P", "Yesterday {g} {s} took me to church."),
    ("P", "Apparently {g} {s} saw me go down in the car park."),
    # the full name after a verb or a preposition
    ("P", "I'm staying with {g} {s} till I'm better."),
    ("P", "I was at {g} {s}'s birthday when it started."),
    ("D", "Shall I write to {g} {s} as well?"),
    ("P", "We met {g} {s} at the bus stop."),
    ("P", "The letter went to {g} {s} by mistake."),
    ("D", "Is {g} {s} happy to be contacted?"),
    ("P", "I get lifts from {g} {s} most weeks."),
    ("P", "You can leave a message with {g} {s}."),
    ("P", "I've known {g} {s} since school."),
    ("D", "We'll copy {g} {s} into the letter."),
    # the full name after a person's word, in apposition
    ("P", "Our neighbour {g} {s} waters the garden."),
    ("P", "Her uncle, {g} {s}, is a pastor."),
    ("P", "The minister, {g} {s}, prayed with me."),
    ("D", "Your cousin {g} {s} left a number."),
    ("P", "Aunty {g} {s} raised me."),
    ("P", "My mate {g} {s} reckons it's gout."),
    # one part alone
    ("P", "{g} stayed the weekend to help me."),
    ("P", "I'll get {g} to ring you back."),
    ("P", "{g} is the one who does my insulin."),
    ("P", "The {s} family all came to visit."),
    ("P", "Mrs {s} from two doors down checks on me."),
    ("D", "Was it {s} who brought you in?"),
    ("P", "{g} from church brings me soup."),
    ("P", "Me and {g} went fishing on Saturday."),
)

#: the names' words, and pairs of Polynesian words, as words in nearby places: (speaker, sentence)
DEV43_WORD_USES: tuple[tuple[str, str], ...] = (
    # the names' words as English words
    ("P", "There's a mote in my eye, it keeps watering."),
    ("D", "A mote of dust can scratch the cornea."),
    ("P", "The rota at work is all nights this month."),
    ("P", "I'm on the rota for Sunday."),
    ("D", "The rota says the registrar is on call."),
    ("P", "We went to a toga party, I tripped on the sheet."),
    ("P", "The toga kept slipping off my shoulder."),
    ("P", "They mete out the tablets at the home."),
    ("D", "We don't mete out blame here."),
    ("P", "A tola is a measure of gold my gran used."),
    ("P", "My koro turned ninety last week."),
    ("P", "Koro is what we call my grandad."),
    ("P", "Koro and nan came to the hospital."),
    ("D", "SETI is looking for aliens, my son says."),
    ("P", "The poko, my kids call it, is the tummy."),
    ("P", "Pila is what my nan calls a ball."),
    ("P", "A pome is an apple or a pear, I learnt that."),
    ("P", "Hona is an old word, I saw it in a crossword."),
    # Polynesian and Fijian words as words, alone
    ("P", "Kava makes my lips go numb."),
    ("D", "Do you drink kava at all?"),
    ("P", "Taro and fish is what I eat most days."),
    ("P", "I had poi at the luau."),
    ("P", "Sago pudding is all I could keep down."),
    ("P", "We had a hangi for my birthday."),
    ("P", "Kumara is fine for my sugars, isn't it?"),
    ("P", "Manuka is the only honey I buy."),
    ("P", "Whanau is everything to me."),
    ("P", "My whanau are all up north."),
    ("P", "The marae is where we had the tangi."),
    ("P", "The haka at the funeral made me cry."),
    ("P", "Mana is a big thing for my dad."),
    ("P", "Paua fritters gave me a rash."),
    ("P", "The pipi were off, I was sick all night."),
    ("P", "Puha and pork is my mum's best dish."),
    ("P", "Aloha, that's what they say over there."),
    ("P", "Mahalo, that's thank you in Hawaiian."),
    ("P", "Tapu means sacred, you don't touch it."),
    ("P", "The ukulele is hard on my fingers."),
    ("P", "Tiramisu is my weakness."),
    ("P", "I had tahini with everything."),
    ("P", "Panini for lunch, every day."),
    ("P", "Gelato gives me a headache."),
    # pairs of Polynesian words as words
    ("P", "Kava kava tea helps me sleep."),
    ("D", "Kava kava can affect the liver."),
    ("P", "I put aloe vera gel on the burn."),
    ("D", "Aloe vera is fine on the rash."),
    ("P", "Kia ora, come in."),
    ("P", "Kia kaha, my sister told me."),
    ("P", "Aroha nui to the nurses."),
    ("P", "Talofa lava, doctor."),
    ("P", "Mahalo nui loa for seeing me."),
    ("P", "Tena koe, nice to meet you."),
    ("P", "Ka pai, that's good news."),
    ("P", "Bula vinaka, that's what we say at home."),
    ("P", "Manuka honey on toast for breakfast."),
    ("P", "Kumara hangi is my favourite."),
    ("P", "We had taro poi and fish."),
    ("P", "Tahini paste and bread, that's all."),
    ("P", "A koha for the marae."),
    ("P", "My koro taught me the haka."),
    ("P", "Kai moana is seafood, I eat a lot."),
    ("P", "The toga party rota is up."),
    ("P", "A mote, kava, sago, that's my shopping list."),
    ("D", "Pome fruit allergy is common with hay fever."),
    ("P", "Tino rangatiratanga, my uncle always says."),
    ("P", "We sang at the marae hui."),
)

#: origin -> (given names, surnames), written as people of that origin write them; each part Polynesian-shaped
DEV43_NAMES: dict[str, tuple[list[str], list[str]]] = {
    "Samoan": (["Soli", "Seti", "Sapele"], ["Toga", "Tafili", "Mauga", "Lafo"]),
    "Tongan": (["Sone", "Tolu", "Mete"], ["Tola", "Koloi", "Hafoka", "Tavake"]),
    "Māori": (["Henare", "Tare", "Rapata"], ["Tapine", "Hona", "Katene", "Tomoana"]),
    "Cook Islands": (["Tuaine", "Ngaro", "Poko"], ["Tepaki", "Mamao", "Rota"]),
    "Hawaiian": (["Loke", "Kele", "Pomai"], ["Kahele", "Alapai", "Kamaka", "Paka"]),
    "Fijian": (["Eroni", "Lemeki", "Isoa"], ["Koro", "Ravu", "Soko", "Mote"]),
}
