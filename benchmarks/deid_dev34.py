"""A thirty-fourth development set of the by-origin de-identification benchmark (issue 50, sixteenth session):
Punjabi, Hindi, Korean and Vietnamese names of short parts that English writes as words or fragments, a given name
written as two words apart, in everyday places, beside the same words as words in the same places.

Korean (94.9 %) and Punjabi (93.9 %) are below 95 % in lower case on the held-out half. The lead's probes lost, in
lower case, Punjabi given names written as two parts apart, each a short word or fragment, and bare short parts, and
Korean one-syllable parts the guards keep as words. This set gives 4 origins (Punjabi, Hindi, Korean, Vietnamese;
49 parts in all) such names, hand-written here (not from Faker, names-dataset or the detector's lists; none of the
lead's probe names; no part of a name is any other set's: a script dropped every candidate a table holds without
printing which, and ``tests/test_deid_dev34.py`` checks it by counts): given names apart whose parts are words or
fragments ("Ash Win", "Hem Ant", "Tar Sem", "Lakh Vir", "Rup Inder", "Ip Bun"), bare short parts ("Inder", "Om",
"Jag", "Pav", "Rup"), one-syllable Vietnamese names English writes as words ("Hue", "Yen", "Mai", "La", "Mac") and
short surnames ("Sen", "Das", "Bin"). Every Korean one-syllable surname the guards keep as a word that I could
write was held by another table already, so the Korean names here are given names apart and joined and rare
surnames. In **36 everyday forms** no other set has: titles and relatives before, a surname first ("{s} {g}"), "X
popped in", "X sorted it", "X is on nights", "X's number", "X from the temple", "with X and the kids", a list, a
sign-off, "X , bless her". **The same words as words** (``DEV34_WORD_USES``, two a dialog, 66 sentences, in the
same places where English allows: "a lakh rupees", "tar on the road", "ash from the fire", "we didn't win", "an ant
bite", "the hem of my skirt", "a hot cross bun", "put it in the bin", "om in yoga", "la la la", "my mac is in the
car", "a slightly yellow hue", "pav bhaji", "chana masala"): each word replaced inside them is a false
replacement, printed by ``bench_deid_origin.py --dev34``.

On main 1f40cf8, before any rule of this slice (``--dev-only --dev34 --no-real``): cased 94.7 % of 264 names
(Hindi 90.9, Punjabi 92.4, Vietnamese 97.0, Korean 98.5), lower case 78.1 % of 352 (Hindi 68.2, Punjabi 76.1,
Korean 80.7, Vietnamese 87.5); words used as words: 79 of 328 sentences' words replaced (bin 9, pav bhaji 9, chana
masala 8, gur 8, ash 4, jain temple 4, hem 4, chana dal 4, pav 4, om shanti 4, rup 4, mai tai 3, das boot 3, jai
hind 3, hari om 3, grandad 3, sem 1, chana 1). Same layout as ``deid_dev32.py``; ``{g}`` given name, ``{s}``
surname."""

from __future__ import annotations

DEV34_FORMS: tuple[tuple[str, str], ...] = (
    # titles and relatives before
    ("P", "Mr {s} from the temple gave me a lift."),
    ("D", "Mrs {s} said you'd been poorly since Sunday."),
    ("P", "Uncle {g} popped in with some fruit."),
    ("P", "Auntie {g} sorted my tablets into the box."),
    ("P", "My brother-in-law {g} is on nights this week."),
    ("P", "Our youngest, {g}, has the same rash."),
    ("P", "Me and my cousin {g} share the flat."),
    # a surname first, then the given name
    ("P", "{s} {g} is the one who rang the surgery."),
    ("D", "Is {s} {g} your next of kin?"),
    ("P", "I've put {s} {g} down as my carer."),
    ("P", "Ask for {s} {g} at reception."),
    # the given name and the surname
    ("P", "{g} {s} popped round after work."),
    ("P", "I stop over with {g} {s} most weekends."),
    ("D", "Can {g} {s} bring your medicines next time?"),
    ("P", "{g} {s} and the kids came to visit."),
    # the bare given name in everyday places
    ("P", "{g} sorted it all with the pharmacy."),
    ("P", "{g} is on nights, so I came by taxi."),
    ("P", "{g}'s number is on the fridge."),
    ("P", "I rang {g} when the pain started."),
    ("P", "{g} reckons it's the new inhaler doing it."),
    ("P", "I was round at {g}'s when I fell."),
    ("P", "{g}, bless her, sat with me all night."),
    ("P", "Thanks to {g} I got here in time."),
    ("P", "I'll get {g} to pick up the prescription."),
    ("P", "{g} keeps telling me to see someone."),
    ("D", "How is {g} coping with all this?"),
    ("P", "With {g} and the kids it's a full house."),
    ("P", "{g} from the gurdwara brings me dinner."),
    ("P", "Me, {g} and my sister went to the wedding."),
    ("P", "I'm staying at {g}'s till I'm better."),
    # the bare surname
    ("P", "{s} next door heard me shout."),
    ("D", "The {s} family were here earlier."),
    ("P", "I gave {s} the spare key."),
    # a list, a sign-off
    ("D", "Visitors: {g} {s}, son."),
    ("P", "Love from {g} and everyone."),
    ("P", "Cheers, {g}, see you Tuesday."),
)

#: the names' words as words, in the forms' places where English allows it: (speaker, sentence)
DEV34_WORD_USES: tuple[tuple[str, str], ...] = (
    ("P", "A lakh rupees was what the operation cost back home."),
    ("P", "My uncle lost a lakh in the business."),
    ("P", "Tar on the road stuck to my shoes."),
    ("P", "They put fresh tar on the drive last week."),
    ("P", "Ash from the fire went in my eye."),
    ("P", "The ash tree in the garden came down."),
    ("P", "We didn't win the quiz this time."),
    ("P", "Win or lose, I'm glad I went."),
    ("D", "An ant bite can swell like that."),
    ("P", "Ant powder is under the sink."),
    ("P", "The hem of my skirt caught on the step."),
    ("P", "I was taking up a hem when I cut my finger."),
    ("P", "I had a hot cross bun for breakfast."),
    ("P", "A bun and a cup of tea, that's all I had."),
    ("P", "Put it in the bin, please."),
    ("P", "Bin day is Tuesday, so I was out early."),
    ("P", "Om is what we chant at the start of yoga."),
    ("P", "La la la, that's all the song is."),
    ("P", "My mac is in the car, it was raining."),
    ("P", "Mac and cheese is all he eats."),
    ("P", "A slightly yellow hue, the nurse said."),
    ("P", "Every hue of purple, my bruise was."),
    ("P", "Pav bhaji is my favourite."),
    ("P", "Chana masala for dinner most nights."),
    ("P", "Gur in my tea, that's how my mum made it."),
    ("P", "A bit of gur after dinner helps, she says."),
    ("P", "Jag of water by the bed, always."),
    ("P", "He went on a crying jag after the funeral."),
    ("P", "The yen was strong when we went to Japan."),
    ("P", "I have a yen for something sweet after meals."),
    ("P", "Mai tai at the wedding, only one."),
    ("P", "Rup is short for rupee, my dad says."),
    ("P", "Sen is a coin in Japan, I learnt that."),
    ("P", "Das boot is the only German film I know."),
    ("P", "The IP address is on the router."),
    ("P", "Jai Hind, my grandad used to say."),
    ("P", "Hari Om, the priest said."),
    ("P", "A Jain temple is near our house."),
    ("P", "Sem is the scan they did on my skin sample."),
    ("P", "Vir is on the label of the cream, I think."),
    ("P", "Ash and soot all over the kitchen."),
    ("P", "Win a free holiday, the letter said."),
    ("P", "Ant hills all over the lawn this summer."),
    ("P", "Tar and nicotine, it's all in the smoke."),
    ("P", "Bun fight at the church hall, as usual."),
    ("P", "Bin bags in the hall cupboard."),
    ("P", "The dog's in the bin again."),
    ("P", "I spilled tar on my hand at work."),
    ("P", "My mac was soaked through."),
    ("P", "A big win for the team on Saturday."),
    ("P", "Lots of ants in the kitchen, and one ant in the bed."),
    ("P", "Lakh or crore, I can never remember which is bigger."),
    ("P", "Ash on the carpet from his cigarettes."),
    ("P", "A hue and cry about nothing."),
    ("P", "My jag of lemonade fell over."),
    ("P", "Hem and haw, that's all he does."),
    ("P", "A currant bun with butter."),
    ("P", "Yen or dollars, I don't mind."),
    ("P", "Chana dal is easy on my stomach."),
    ("P", "Pav with butter for breakfast."),
    ("P", "Om shanti, my mum says at night."),
    ("P", "The mac I bought leaks at the seams."),
    ("P", "I put my tea bag in the bin."),
    ("P", "Tar spots on the car from the roadworks."),
    ("P", "Win some, lose some."),
    ("P", "The ash cloud stopped our flight."),
)

#: origin -> (given names, surnames), written as people of that origin write them
DEV34_NAMES: dict[str, tuple[list[str], list[str]]] = {
    "Punjabi": (["Tar Sem", "Lakh Vir", "Rup Inder", "Inder", "Gur", "Pav", "Jag", "Prab", "Rup"],
                ["Lalli", "Lotay", "Chana", "Jaswal", "Ojla", "Parmar"]),
    "Hindi": (["Ash Win", "Hem Ant", "Jai", "Om", "Hari"], ["Sood", "Jain", "Rao", "Das", "Dutt", "Sen", "Kaul", "Dhar",
                                                          "Nath"]),
    "Korean": (["Ip Bun", "Boram", "Narae", "Hanbit", "Mirae"], ["Jeup", "Bin"]),
    "Vietnamese": (["Mai", "Hue", "Nga", "Yen"], ["La", "Mac", "Ong", "Kha"]),
}
