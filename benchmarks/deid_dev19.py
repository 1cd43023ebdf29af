"""A nineteenth development set of the by-origin de-identification benchmark (issue 50, twelfth session): names that
are words, in lower case, in the places of a sentence no rule reads yet, beside the same words as words there.

The lead's probe (twelfth session) found the lower-case names the lists call words ("holly", "rory", "gill") lost in
the same kinds of place every time: after "with", "from", "for", "about", "without", "except", "including",
"besides", "than"; as the answer to a who-question ("who brought you ? holly ."); after "let" before "know", "have"
before "call", "get" before "to"; in a list with "me" or "and i" ("me , holly and my son"); as the subject of a
progressive or a copula ("holly is picking me up", "holly was with me"); as a complement clause's subject ("i think
holly has the forms"); in a hand-over line ("handover from holly : bed four", "over to holly ,"). These forms
(written from how people talk in clinics, by phone and in nurses' hand-overs; none of them in another set) put a
person in each of those places, several wordings each. The names are hand-written here (``DEV19_NAMES``: 8 origins,
5 or 6 each, given names and surnames that are English words or look like them, English text uses less than Zipf
4.5: not from Faker, names-dataset or the detector's lists; none of the probe's; no part of a name is any other
set's, checked by ``tests/test_deid_dev19.py`` without printing them). Beside them (``DEV19_WORD_USES``, two a
dialog, as dev15's) the same words as words, in the same places ("i woke up with goo in my eye", "what's that smell
? lavender .", "i can't get lavender to grow", "me , tiger balm and a hot bath", "goo is coming out of the drain
site", "i think lavender helps me sleep", "handover from trinity ward :"); a word replaced inside them is a false
replacement.

On main f61e529, before any rule (``--dev-only --dev19 --no-real``; 56 forms, each put in about once per origin and
style): cased 100.0 % of 408 names (every origin), lower case 53.8 % of 576 (US 30.6, Punjabi 38.9, Haitian 41.7,
Irish 43.1, Australian 43.1, UK 66.7, Korean 66.7, Samoan 100.0; 12 given names lost in 18-22 of their 22 lower-case
forms, all words the lists call common: the Samoan names and the lists' "rare" words are found anywhere); words used
as words: 391 of 656 sentences had a word replaced (lavender 141, goo 94, partridge 51, jarrah 35, primrose 23,
bunting 16, matai 8, misty 7, camomile 7, willow 7, mulligan 2: the detector takes a gazetteer word the lists call
rare as a word, or in no list, wherever it stands; not this set's places).
Same layout as ``deid_dev15.py``; ``{g}`` given name, ``{s}`` surname."""

from __future__ import annotations

#: how many times each form is put in (per origin, about)
DEV19_REPEAT = 1

DEV19_FORMS: tuple[tuple[str, str], ...] = (
    # after "with"
    ("P", "I came in with {g} this morning."),
    ("P", "I've been staying with {g} since the fall."),
    ("P", "I was out with {g} when it started."),
    ("P", "She lives with {g} and my son."),
    ("D", "Did you come with {g} today?"),
    ("P", "I was on the phone with {g} for an hour."),
    ("P", "I left my spare keys with {g}."),
    ("P", "I'll be with {g} over Christmas."),
    # after "from"
    ("P", "I had a call from {g} last night."),
    ("P", "I got the referral letter from {s}."),
    ("P", "There was a message from {g} on the machine."),
    ("P", "I heard from {s} at the council yesterday."),
    ("P", "I'm waiting on a call back from {s}."),
    # after "for", "about", "without", "except", "including", "besides", "than"
    ("P", "I'm here for {g}, she couldn't get off work."),
    ("P", "I picked up the prescription for {g}."),
    ("P", "I'm really worried about {g}."),
    ("P", "I can't manage without {g} now."),
    ("P", "I'd be lost without {g}, honestly."),
    ("P", "Everyone came to the party except {g}."),
    ("P", "All of us, including {g}, had the bug."),
    ("D", "Is there anyone besides {g} who helps at home?"),
    ("P", "My sister is older than {g} by a year."),
    # the answer to a who-question
    ("P", "Who took me? {g} did, in her car."),
    ("P", "Who found me? {g}. She called the ambulance."),
    ("P", "Who else was there? Just {g}."),
    ("P", "Who's looking after the dog? {s} next door."),
    ("D", "Who lives with you? {g} and the kids?"),
    # "let X know", "have X call", "get X to"
    ("D", "I'll let {g} know the results when they're in."),
    ("P", "Can you let {g} know I'm out of theatre?"),
    ("D", "I'll have {g} call you this afternoon."),
    ("P", "Could you have {s} ring me about the bill?"),
    ("P", "I'll get {g} to drop the forms in."),
    ("D", "Can you get {g} to bring your tablets next time?"),
    # a list with "me", "you" or "and I"
    ("P", "Me, {g} and my son all had it."),
    ("P", "It's just me and {g} in the house now."),
    ("P", "{g} and I both had the jab."),
    ("P", "My mum, {g} and I went for a walk."),
    ("D", "So it's you, {g} and the baby at home?"),
    # the subject of a progressive or a copula
    ("P", "{g} is picking up my prescription."),
    ("P", "{g}'s driving me home after."),
    ("P", "{g} was with me when I fell."),
    ("P", "{g} is coming in to sit with me."),
    ("P", "{g} was the one who found me."),
    ("P", "{g} is staying over tonight."),
    # a complement clause's subject
    ("P", "I think {g} has my discharge letter."),
    ("P", "I'm pretty sure {g} took the bottle home."),
    ("P", "I guess {g} forgot to ring you."),
    ("P", "I hope {g} remembered the bag."),
    ("P", "I know {g} has a key."),
    ("D", "Do you think {g} could come with you next time?"),
    # a hand-over line
    ("D", "Handover from {g}: bed four is stable."),
    ("D", "Over to {g}, she has bays one to three."),
    ("D", "Hand over to {s} at seven, then I'm off."),
    ("D", "Taking handover from {g} now, bed two first."),
    ("D", "I got handover from {s}, nothing new overnight."),
    ("D", "Handing over to {g}: side room six needs a bloods."),
)

#: the names' words as ordinary words, in the forms' places: (speaker, sentence)
DEV19_WORD_USES: tuple[tuple[str, str], ...] = (
    # after "with", "from", "for", "about", "without", "except", "including", "than"
    ("P", "I came in with goo all over my dressing."),
    ("P", "I woke up with goo in my eye again."),
    ("P", "We decorated the hall with bunting for her birthday."),
    ("P", "I've been washing with lavender, it calms the skin."),
    ("P", "The smell comes from lavender in the pillow."),
    ("P", "I think it's from willow, the pollen this time of year."),
    ("P", "The hives started from partridge at the wedding."),
    ("P", "The table is made from jarrah, so it's heavy."),
    ("P", "All the rooms smell of lavender now."),
    ("P", "I'm allergic to anything with lavender in it."),
    ("P", "I go for tiger balm, not the tablets."),
    ("D", "What about willow bark, have you tried it?"),
    ("P", "I can't sleep without lavender."),
    ("P", "Nothing works except tiger balm."),
    ("P", "I've tried everything, including lavender."),
    ("P", "Camomile is better than lavender for sleep."),
    ("P", "It's darker than jarrah, the floor."),
    ("P", "I cover the cut with goo from the chemist."),
    ("P", "They lined the path with primrose and bluebells."),
    ("P", "It's woven from willow, the basket."),
    # after a question, a "what", not a "who"
    ("D", "What's that smell? Lavender, from the oil?"),
    ("P", "What sort of wood is it? Jarrah, mostly."),
    ("P", "What did we have for dinner? Partridge, at my sister's."),
    ("P", "What was it like outside? Misty, I couldn't see the road."),
    ("D", "What's leaking there? Goo from the drain?"),
    ("D", "Who gave you that? Tiger balm, you mean?"),
    # "let", "have", "get" before what a thing does
    ("D", "Don't let goo build up around the line."),
    ("P", "I can't get lavender to grow in this soil."),
    ("P", "We have willow growing along the back fence."),
    ("P", "I couldn't get goo to come off the tape."),
    ("P", "Have partridge if you're not keen on chicken."),
    ("P", "Let lavender oil soak in before bed, she said."),
    # a list with "me"
    ("P", "Me, tiger balm and a hot bath, that's my evenings."),
    ("P", "It's just me and lavender oil most nights."),
    ("P", "Lavender, primrose and willow, that's my garden."),
    # the subject of a progressive or a copula
    ("P", "Lavender is growing all over the path."),
    ("D", "Goo is coming out of the drain site."),
    ("P", "Willow is coming down in the wind, the old tree."),
    ("P", "Mulligan is on the menu at the pub on Fridays."),
    ("P", "Misty is how I'd describe my eyes in the morning."),
    ("P", "Wee is leaking when I cough."),
    ("P", "Gamble is the right word for it, honestly."),
    ("P", "Goo was all over the pillow when I woke."),
    # a complement clause's subject
    ("P", "I think lavender helps me sleep."),
    ("P", "I think goo has got into the dressing."),
    ("P", "I guess willow has the same pollen as birch."),
    ("P", "I'm sure tiger balm took the edge off."),
    ("P", "I know partridge has lead shot in it sometimes."),
    ("P", "I think clement weather will help my chest."),
    ("P", "I reckon prudent use of the inhaler is enough."),
    # a hand-over line
    ("D", "Handover from trinity ward: bed four is stable."),
    ("D", "Over to trinity for the night, the long stay patients."),
    # the words in their everyday places
    ("P", "It was a gamble, but I'm glad I had it done."),
    ("P", "We put a kitty together for the nurses."),
    ("D", "Don't pierce the blister, leave it be."),
    ("P", "The itch would madden anyone."),
    ("P", "It's a bit misty out, mind the roads."),
    ("P", "The chicks are due to hatch next week."),
    ("P", "We had partridge at Christmas."),
    ("P", "The willow tree came down on our shed."),
    ("P", "I bought some bunting for the street party."),
    ("P", "He was a mentor to me at work."),
    ("P", "It'd be prudent to wait, I suppose."),
    ("P", "The evening primrose oil did nothing for me."),
    ("P", "A jarrah table fell on my foot."),
    ("P", "A brumby ran across the road in front of us."),
    ("P", "I work as a packer at the warehouse."),
    ("P", "I had a wee at the station before I came."),
    ("P", "He's a wee bit confused since the fall."),
    ("P", "The matai of our family decides these things."),
    ("P", "The hatch on the loft fell on my head."),
    ("P", "Tiger bread is all I can eat right now."),
    ("P", "My guru at yoga says to breathe into it."),
    ("P", "The slater bugs are all over the bathroom."),
    ("P", "A bijou flat, three flights of stairs, no lift."),
    ("P", "I took a mulligan on the fourth hole and my back went."),
    ("P", "It's my cotter pin on the bike, it snapped."),
)

#: the names, hand-written (given names, surnames): words, or like words, English text uses less than Zipf 4.5
DEV19_NAMES: dict[str, tuple[list[str], list[str]]] = {
    "UK": (["Primrose", "Lavender", "Willow"], ["Gamble", "Slater", "Partridge"]),
    "Irish": (["Kitty", "Colleen", "Pierce"], ["Mulligan", "Madden", "Cotter"]),
    "US": (["Savannah", "Trinity", "Ryder"], ["Gentry", "Hatch", "Booker"]),
    "Australian": (["Kylie", "Jarrah", "Misty"], ["Packer", "Bunting", "Brumby"]),
    "Punjabi": (["Suri", "Guru", "Tiger"], ["Grover", "Lal", "Bagga"]),
    "Haitian": (["Prosper", "Bijou", "Clement"], ["Mentor", "Prudent", "Valentin"]),
    "Korean": (["Bora", "Mina", "Nara"], ["Goo", "Wee"]),
    "Samoan": (["Fia", "Luana", "Loto"], ["Malu", "Matai", "Vaa"]),
}
