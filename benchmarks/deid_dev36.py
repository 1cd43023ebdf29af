"""A thirty-sixth development set of the by-origin de-identification benchmark (issue 50, sixteenth session): given
names and surnames that are the names of countries, US states and regions, beside Gaelic surnames of several parts,
and the same words as places.

Irish (93.9 %) and UK (91.9 %) are below 95 % in lower case on the held-out half. The lead's probes tried Irish
counties and towns as names ("Kerry", "Clare", "Shannon", "Tyrone"); main takes those. What it loses, in lower case
and cased alike, are the gazetteer names the clinical lists file as a place (``vocab.PLACE_WORDS``: countries, US
states, regions, languages), which every rule reads as a clinical word: "georgia came with me today" and "Georgia
came with me today" kept it in 11 of 16 forms (only a title, a relative or a greeting before it took it). Gaelic
surnames of several parts lose their particle "mag" ("mag uidhir": the stem is taken, "mag" left, and the benchmark
counts "mag", no particle of its list); "mac an X" and "mac na X" are lost too, but the benchmark cannot put them in
(the part "an" is in every dialog already). This set gives 4 origins (Irish, Scottish, UK, US; 24 parts) given names
and surnames that are places ("Georgia", "India", "Jordan", "Israel", "Carolina", "Chad", "Asia", "Montana",
"Kenya", "Egypt"; "Ireland", "Scotland", "England", "Wales", "Holland", "York", "Washington", "Maine", "Jersey",
"Florida") and Gaelic surnames of "mag" and a lenited stem ("Mag Uidhir", "Mag Fhloinn", "Mag Aoidh"), hand-written
here (not from Faker, names-dataset or the detector's lists; no part of a name is any other set's: checked by
``tests/test_deid_dev36.py`` without printing them; a script dropped every candidate a table holds without printing
which), in **37 everyday forms** none of the other sets has (a bare subject before what only a person does, told,
asked, rang, waited for, a relative or a friend before the name, a title, the full name, the one addressed, "X and
her husband", "me and X", a possessive). **The same words as places, teams and words** (``DEV36_WORD_USES``, 67
sentences in the same places where English allows: "We moved from Georgia", "She lives in Jordan", "Egypt was
amazing", "England lost again on Saturday", "Ireland beat France", "Washington approved the funding", "A Georgia
peach", "Holland Park", "Scotland Yard", "My mum's from Ireland, County Mayo", "a car mag", "the con man"): each word
replaced inside them is a false replacement, printed by ``bench_deid_origin.py --dev36``.

On main 1f40cf8, before any rule of this slice (``--dev-only --dev36 --no-real``): cased 46.6 % of 236 names (Irish
47.5, Scottish 47.5, UK 47.5, US 44.1), lower case **23.2 %** of 314 (Irish 17.6, Scottish 16.2, UK 28.8, US 30.0);
words used as words: 8 of 324 sentences' words replaced (holland 4, mayo 4).

Same layout as ``deid_dev32.py``; ``{g}`` given name, ``{s}`` surname."""

from __future__ import annotations

DEV36_FORMS: tuple[tuple[str, str], ...] = (
    # the bare subject before what only a person does
    ("P", "{g} was up half the night with me, poor thing."),
    ("P", "{g} fetched my glasses from the car."),
    ("P", "{g} keeps nagging me to see someone about it."),
    ("P", "{g} popped round on Sunday with a casserole."),
    ("P", "{g} cried when she heard, to be honest."),
    ("P", "{g} has got my repeat prescription in her bag."),
    ("P", "{g} wanted me to ask about the side effects."),
    ("P", "Well {g} reckons it's my blood pressure."),
    ("P", "And then {g} phoned the out of hours line."),
    # told, asked, rang, waited for
    ("P", "I rang {g} as soon as I got the letter."),
    ("D", "Could you ask {g} to bring your tablets next time?"),
    ("P", "I'm waiting for {g} to finish work."),
    ("P", "I told {g} not to worry so much."),
    ("D", "Is {g} happy to drive you to the follow-up?"),
    ("P", "I'll get {g} to text you the list."),
    # a relative, a friend, a carer before the name
    ("P", "My granddaughter {g} sorted the pill box for me."),
    ("P", "My eldest, {g}, works nights at the depot."),
    ("P", "Our neighbour {g} {s} keeps an eye on me."),
    ("P", "My friend {g} came to the first appointment."),
    ("D", "Your carer {g} mentioned the falls."),
    # a title before the surname
    ("D", "Mrs {s} from the district nursing team will visit."),
    ("P", "Dr {s} at the practice referred me."),
    ("D", "Mr {s}, can you slip your shoes off for me?"),
    ("P", "Nurse {s} took my bloods last week."),
    # the full name
    ("D", "Is this {g} {s}'s number?"),
    ("P", "{g} {s}, date of birth the ninth of May."),
    ("D", "The referral came from {g} {s} at the hospice."),
    ("P", "I'm the daughter of {g} {s}, she's on ward six."),
    # the one addressed, a greeting
    ("D", "Come through, {g}, have a seat."),
    ("D", "Thanks for waiting, {g}."),
    ("P", "Morning {g}, it's only me."),
    # with, and, both
    ("P", "{g} and her husband run the shop next door."),
    ("P", "I was sat with {g} in the waiting room."),
    ("P", "Me and {g} walk the dog every morning."),
    ("P", "{g} and I share the house now."),
    # a possessive
    ("P", "{g}'s boyfriend gave me a lift."),
    ("D", "{s}'s clinic letter is on the system."),
)

#: the names' words as places, teams and languages, and the Gaelic particles' and stems' words as words, in the forms'
#: places where English allows it: (speaker, sentence)
DEV36_WORD_USES: tuple[tuple[str, str], ...] = (
    # where one lives, comes from, goes
    ("P", "We moved from Georgia when I was six."),
    ("P", "She lives in Jordan with her husband now."),
    ("P", "A trip to India is what set it off."),
    ("P", "I was born in Wales, in a little village."),
    ("P", "My son works in Dakota on the oil fields."),
    ("P", "We drove up to Montana for the wedding."),
    ("P", "I picked it up in Kenya, the doctor there said."),
    ("P", "We've just come back from Egypt."),
    ("P", "My daughter is at university in York."),
    ("P", "We flew to Holland for the tulips."),
    ("P", "I went to Washington for a conference."),
    ("P", "My sister is over in Maine for the summer."),
    ("P", "We spent a month in France last year."),
    ("P", "I grew up in Scotland, near the coast."),
    ("P", "My mum's from Ireland, County Mayo."),
    ("P", "We were in Israel when the pain started."),
    ("P", "My husband is from Chad originally."),
    ("D", "Have you travelled to Asia recently?"),
    ("D", "Any travel outside England in the last month?"),
    ("P", "I was born in New York and moved here at ten."),
    # a place as a clause's subject
    ("P", "Egypt was amazing but the food upset me."),
    ("P", "India was so hot I could hardly breathe."),
    ("P", "Wales was lovely, it rained the whole time."),
    ("P", "Georgia was where I first got the rash."),
    ("P", "Holland is flat, so the cycling was easy."),
    ("P", "York was busy with all the tourists."),
    ("P", "France is where we go every summer."),
    ("P", "Kenya was the trip of a lifetime."),
    ("P", "Maine gets so cold in the winter."),
    ("P", "Scotland is my favourite place in the world."),
    # a team or a country as a subject of what teams and governments do
    ("P", "England lost again on Saturday, I was fuming."),
    ("P", "Ireland beat France in the rugby."),
    ("P", "Wales won, so the pub was packed."),
    ("P", "India scored three hundred in the test match."),
    ("P", "Holland played well but went out on penalties."),
    ("P", "Scotland drew with England, typical."),
    ("P", "Washington approved the funding, apparently."),
    # a place before a noun
    ("P", "My Jordan visa was a nightmare to sort out."),
    ("P", "We had a York ham at Christmas."),
    ("P", "A Georgia peach, that's my favourite."),
    ("P", "The England shirt was a present from my son."),
    ("P", "India pale ale is my drink of choice."),
    ("P", "Egypt trips are cheap this time of year."),
    ("P", "France tops the list of places I want to see."),
    ("P", "Asia tours are too long for my hip."),
    ("P", "Yorkshire tea, I mean, not York tea."),
    ("P", "I live on Washington Street, by the park."),
    ("P", "The Wales coast path nearly killed me."),
    ("P", "Holland Park is where I go walking."),
    ("P", "Dakota Avenue, the big house on the corner."),
    ("P", "My Kenya tan has nearly gone."),
    ("P", "I took a Maine lobster cruise."),
    ("P", "Scotland Yard rang about the break-in."),
    ("P", "The Israel trip was cancelled."),
    ("P", "The Chad embassy sent the papers."),
    # the language or the country's name anywhere
    ("D", "Do you need the leaflet in French?"),
    ("P", "I'm half Scotland, half Ireland, my dad used to say."),
    ("P", "The Montana sky was beautiful."),
    ("P", "England's health service is stretched."),
    ("P", "France's hospitals were very good to us."),
    # the Gaelic particles' and stems' words as words
    ("P", "I read it in a mag at the dentist's."),
    ("P", "He pulled a con on my nan, took her savings."),
    ("D", "We weighed the pros and the con of each option."),
    ("P", "An ambulance came within ten minutes."),
    ("P", "I bought a car mag for the train."),
    ("P", "Mag wheels, that's what he spent his money on."),
    ("P", "The con man was caught in the end."),
)

#: origin -> (given names, surnames), written as people of that origin write them: given names and surnames that are
#: the names of countries, US states and regions, and Gaelic surnames of several parts
DEV36_NAMES: dict[str, tuple[list[str], list[str]]] = {
    "Irish": (["Georgia", "India"], ["Mag Uidhir", "Mag Fhloinn", "Ireland"]),
    "Scottish": (["Jordan", "Israel", "Carolina"], ["Scotland", "Mag Aoidh"]),
    "UK": (["Chad", "Asia"], ["England", "Wales", "Holland", "York"]),
    "US": (["Montana", "Kenya", "Egypt", "Nevada", "Arizona"], ["Washington", "Maine", "Jersey", "Florida"]),
}
