"""A thirty-ninth development set of the by-origin de-identification benchmark (issue 50, sixteenth session): short
given names that the word lists hold as words or clinical abbreviations, in the strongest places a person has (a
relative's or a role's word right before, a greeting set off by a comma, "X is my next of kin", the subject of what
only a person does), beside the same words as words and abbreviations in nearby places.

Samoan is the lowest origin on the held-out half in lower case (90.9 %). On main 70ba364, short given names that the
lists hold as a word or an abbreviation are lost in lower case even where only a person stands: a gazetteer given
name that is also a common word before "is my next of kin" or "is my emergency contact" ("mar", "gala", "mel",
"sal", "dee"), and a short word no gazetteer holds ("tet", "gie", "len", "ed", "em", "kiwi", "api", "tele") in every
strong place but after "my carer" and before "is outside". This set gives 6 origins (Samoan, Tongan, Māori,
Spanish, Filipino, UK; 3 to 8 parts each, 29 in all) such names, hand-written here (not from Faker, names-dataset or
the detector's lists; none of the brief's probe names, which other sets hold; no part of a name is any other set's:
checked by ``tests/test_deid_dev39.py`` without printing them; a script dropped every candidate a table holds without
printing which), in **34 forms** where only a person stands (none of any other set's): a relative's or a role's word
with a possessive right before ("this is my nephew {g} .", "my key worker {g} rang"), a greeting with a comma after
("morning {g} , take a seat"), "{g} is my next of kin", "{g} is down as my emergency contact", the subject of what
only a person does ("{g} drove me in", "{g} signed the consent"). **The same words as words and abbreviations**
(``DEV39_WORD_USES``, two a dialog, 65 sentences, in nearby places: "the ala level came back high", "the ed was
heaving", "tele appointments suit me", "a gala apple", "his api was changed", "the gent's toilet", "the mesa is
rock"): each word replaced inside them is a false replacement, printed by ``bench_deid_origin.py --dev39``.

On main 6344876, before any rule of this slice (``--dev-only --dev39 --no-real``): cased 63.5 % of 318 names
(Tongan 39.6, Māori 45.3, Filipino 58.5, Samoan 71.7, UK 75.5, Spanish 90.6), lower case 41.0 % of 454 (Māori 18.4,
Tongan 21.9, Filipino 42.1, UK 45.5, Samoan 51.3, Spanish 65.8); words used as words: 55 of 490 sentences' words
replaced (kora 13, dee 12, sal 7, gent 6, faga 6, gala 6, tole 5).
Same layout as ``deid_dev32.py``; ``{g}`` given name, ``{s}`` surname."""

from __future__ import annotations

DEV39_FORMS: tuple[tuple[str, str], ...] = (
    # a relative's or a role's word with a possessive right before
    ("P", "This is my nephew {g}, he drove me here."),
    ("P", "My stepdaughter {g} has power of attorney."),
    ("P", "My key worker {g} rang the surgery for me."),
    ("P", "Our foster son {g} is waiting in the car."),
    ("P", "My eldest, {g}, does my shopping."),
    ("D", "Is your partner {g} still working nights?"),
    ("P", "My flatmate {g} found me on the floor."),
    ("P", "Her granddaughter {g} translates for her."),
    ("P", "My support worker {g} {s} fills in the forms."),
    ("P", "Me and my brother-in-law {g} run the shop."),
    # a greeting with a comma after
    ("D", "Morning {g}, pop your coat on the chair."),
    ("D", "Hello again {g}, how was the weekend?"),
    ("D", "Hiya {g}, come through."),
    ("D", "Good afternoon {g}, I'm one of the doctors."),
    ("D", "Thanks {g}, that's really helpful."),
    ("D", "Sorry to keep you waiting {g}, we're behind today."),
    # "X is my next of kin", an emergency contact, a label of a person
    ("P", "{g} is my next of kin, you can ring her any time."),
    ("P", "{g} is down as my emergency contact."),
    ("P", "{g} {s} is my next of kin now."),
    ("D", "So {g} is your named carer?"),
    ("P", "{g} is my lasting power of attorney."),
    ("D", "Next of kin is {g}, the patient's wife."),
    # the subject of what only a person does
    ("P", "{g} drove me in this morning."),
    ("P", "{g} signed the consent form for me."),
    ("P", "{g} phoned 999 when I collapsed."),
    ("P", "{g} sat with me all night on the ward."),
    ("P", "{g} reckons I ought to have rung sooner."),
    ("P", "{g} cooked for me while I was poorly."),
    ("P", "{g} and I have been married forty years."),
    ("P", "{g} told the nurse about my allergy."),
    # the one asked, thanked or spoken to
    ("D", "Could you ask {g} to bring the inhaler in on Monday?"),
    ("P", "Say thank you to {g} for me."),
    ("D", "Did {g} come with you today?"),
    ("P", "I rang {g} the minute the hospital letter came."),
)

#: the names' words as words and abbreviations in nearby places: (speaker, sentence)
DEV39_WORD_USES: tuple[tuple[str, str], ...] = (
    # a result, a test, a level
    ("D", "The ala level came back high."),
    ("D", "Your ala was normal last time."),
    ("D", "We'll recheck the ALA in a month."),
    ("D", "The len came back within range."),
    ("D", "Tet tox was given in casualty."),
    ("D", "Has he had a tet booster?"),
    ("D", "The mel score is used to stage it."),
    # a department, a service
    ("P", "The ed was heaving on Saturday."),
    ("P", "I waited six hours in the ED."),
    ("D", "Was she seen in ed first?"),
    ("D", "The ED discharge letter says otherwise."),
    ("P", "My ed visit was in June."),
    ("P", "Tele appointments suit me better."),
    ("D", "This is a tele consultation, can you hear me?"),
    ("D", "A tele review is booked for Friday."),
    # a drug, a property, a form
    ("D", "The api is the same in both brands."),
    ("D", "His api was changed by the manufacturer."),
    ("D", "Sal nebs were given in the ambulance."),
    ("P", "They gave me sal and it helped."),
    ("D", "An em dash separates the dose."),
    # food, things, places
    ("P", "I had a kiwi for breakfast."),
    ("P", "Kiwi makes my mouth itch."),
    ("P", "Kiwi is the only fruit I can't eat."),
    ("P", "A gala apple a day, that's me."),
    ("P", "Gala night at the club was too much."),
    ("P", "The gala was cancelled because of the rain."),
    ("P", "The mesa near us is all rock."),
    ("P", "Mesa is what they call those flat hills."),
    ("P", "The dado rail needs painting."),
    ("P", "Dado rails were in every room."),
    ("P", "The gent's toilet was locked."),
    ("P", "Gent's cut, short back and sides."),
    ("P", "I cope fine at home most days."),
    ("D", "How do you cope with the stairs?"),
    ("P", "Cope was what my dad always said, just cope."),
    ("P", "The tole tray was my mother's."),
    ("P", "Tole painting keeps my hands busy."),
    # words: late, mar, dee, apa, kora, faga
    ("P", "Late again, the bus never comes."),
    ("P", "Late last night my chest went tight."),
    ("D", "Late effects can show up years later."),
    ("P", "Don't let it mar your recovery."),
    ("P", "Scars mar the skin for a while."),
    ("P", "Dee is a river near my mum's."),
    ("P", "We walked along the Dee on Sunday."),
    ("D", "APA guidelines were followed."),
    ("P", "The kora is a harp from West Africa."),
    ("P", "He plays the kora in a band."),
    ("P", "A faga is a bay, my nan said."),
    # after a role or a relative's word, a word
    ("P", "My son's late shift finishes at ten."),
    ("P", "My nephew's ed appointment was moved."),
    ("P", "My carer's kiwi smoothie is lovely."),
    ("D", "Hello, the tele line is open."),
    ("D", "Morning, ed is full again."),
    ("D", "Thanks, the ala result is back."),
    ("P", "My husband drove me, late as usual."),
    ("P", "My daughter is late, sorry."),
    # a subject that is a thing
    ("P", "Ed was full so we came here."),
    ("P", "Late is better than never."),
    ("P", "Tele is easier than the trip in."),
    ("D", "Ala is an amino acid, it's not a worry."),
    ("P", "Sal helped more than the brown inhaler."),
    ("D", "Api means the active ingredient."),
    ("P", "Kiwi is lovely but it stings my lips."),
    ("P", "Gala apples are the sweetest."),
    ("D", "Mel is the sleep hormone, melatonin."),
)

#: origin -> (given names, surnames), written as people of that origin write them; the given names short words or
#: abbreviations the lists hold
DEV39_NAMES: dict[str, tuple[list[str], list[str]]] = {
    "Samoan": (["Ala", "Tele", "Tole"], ["Faga"]),
    "Tongan": (["Api", "Apa", "Late"], ["Lavulo"]),
    "Māori": (["Kiwi"], ["Rapana", "Kora"]),
    "Spanish": (["Mar", "Gala", "Alba"], ["Mesa"]),
    "Filipino": (["Tet", "Dado", "Gie", "Len"], ["Mercado", "Pascual"]),
    "UK": (["Ed", "Mel", "Em", "Sal", "Dee"], ["Gent", "Cope", "Pratt"]),
}
