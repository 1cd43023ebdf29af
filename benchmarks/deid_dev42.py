"""A forty-second development set of the by-origin de-identification benchmark (issue 50, seventeenth session): UK,
Irish and Punjabi surnames that are English words, and their Scottish and German neighbours', bare and after a given
name, in the everyday places a person stands that the sixteenth session's rules do not read, beside the same words as
words in the same places.

UK (91.9 %), Irish (93.9 %) and Punjabi (93.9 %) are below 95 % on the held-out half in lower case. On main 40dae43,
a surname that is a common English word is lost bare in lower case in most everyday places the sixteenth session's
rules (``name_word_surnames``, ``name_person_predicates``) do not read: 24 of 30 such words ("hill", "price", "moss",
"shah", "dar") after "my carer is", "i was telling X about", "we're going to X's after this", "X from the chemist",
"can you tell X the results"; 14 of 30 as the subject of "booked me in", "will be here at". This set gives 5 origins
(UK, Irish, Punjabi and the neighbours Scottish and German; 5 to 13 parts each, 40 in all) surnames that are words the
lists hold as common ("Pound", "Chalk", "Hardy", "Swords", "Dar", "Mill", "Stein") and given names that are no words,
hand-written here (not from Faker, names-dataset or the detector's lists; six of them the brief's probe words,
"shah", "dar", "mir", "lang", "roth", "stein"; no part of a name is any other set's: checked by ``tests/test_deid_dev42.py`` without printing them; a script dropped every candidate a
table holds without printing which), in **34 forms** no other set has, bare ({s}) and after a given name ({g} {s}):
the subject of an ordinary verb of a person's day ("{s} booked me in for the scan last week.", "{s} will be here at
half two."), the complement of "my carer / neighbour / GP is", the object of a preposition or a verb that takes a
person ("i came with {s} this morning.", "let {s} know if", "we're going to {s}'s after this."), an apposition ("my
friend, {s}, drove me in."), thanks and greetings ("thanks to {s} i got here", "morning {s},"), "{s} from the
chemist". **The same words as words** (``DEV42_WORD_USES``, two a dialog, 64 sentences, in the same places: "the
pound shop is picking up trade", "i came with a pound in my purse", "my neighbour is a barber", "we're going to the
barber's after this", "my carer is lush", "trim the nails", "hardy plants", "the bane of my life", "a puri with the
curry", "auld lang syne"): each word replaced inside them is a false replacement, printed by ``bench_deid_origin.py
--dev42``.

On main 40dae43, before any rule of this slice (``--dev-only --dev42 --no-real``): cased 94.2 % of 295 names
(Scottish 86.4, German 89.8, UK 94.9, Irish 100.0, Punjabi 100.0), lower case 75.3 % of 425 (UK 61.2, Scottish 65.9,
German 80.0, Irish 84.7, Punjabi 84.7); words used as words: 44 of 410 sentences' words replaced (trim 6, "salaam
flight" 6, swords 5, puri 5, chana 5, "sang auld lang syne" 5, dar 5, "hardy plants" 4, chalk 2, shah 1).

Same layout as ``deid_dev39.py``; ``{g}`` given name, ``{s}`` surname."""

from __future__ import annotations

DEV42_FORMS: tuple[tuple[str, str], ...] = (
    # the subject of an ordinary verb of a person's day
    ("P", "{s} booked me in for the scan last week."),
    ("P", "{s} is picking me up at four."),
    ("P", "{s} will be here at half two."),
    ("P", "{g} {s} wanted me to ask about the patches."),
    ("P", "{s} has been doing my shopping since Easter."),
    ("P", "{s} is coming in with me next time."),
    ("P", "{s} sorted out my repeat prescription."),
    ("D", "Does {s} live with you?"),
    # the complement of "my carer / neighbour / GP is"
    ("P", "My carer is {s}, she comes mornings."),
    ("P", "My next-door neighbour is {g} {s} now."),
    ("D", "Your GP is still {s}, isn't it?"),
    ("P", "The lady who helps me out is {s}."),
    # the object of a preposition or a verb that takes a person
    ("P", "I came with {s} this morning."),
    ("D", "Let {s} know if anything changes."),
    ("P", "I was telling {s} about the dizzy spells."),
    ("P", "We're going to {s}'s after this."),
    ("P", "I'll ring {g} {s} when I get home."),
    ("D", "Can you tell {s} the results as well?"),
    ("P", "I've been staying with {s} since the fall."),
    ("P", "I asked {s} to fetch my glasses."),
    ("P", "I'm stopping at {s}'s tonight."),
    # an apposition
    ("P", "My friend, {s}, drove me in."),
    ("P", "The warden, {s}, found me on the stairs."),
    ("P", "Our lodger, {g} {s}, called the ambulance."),
    # thanks and greetings
    ("P", "Thanks to {s} I got here on time."),
    ("D", "Morning {s}, come and sit down."),
    ("D", "Hello {g} {s}, I'm the nurse today."),
    ("P", "Say hello to {s} for me."),
    ("D", "Nice to see you again, {s}."),
    # a person's other places
    ("P", "{s} from the chemist dropped it round."),
    ("P", "{g} {s} from church sits with me."),
    ("P", "It was {s} that noticed my lips were blue."),
    ("P", "{s} and her sister take turns with me."),
    ("P", "{s} keeps an eye on me."),
)

#: the names' words as words in the same places: (speaker, sentence)
DEV42_WORD_USES: tuple[tuple[str, str], ...] = (
    # a subject, a complement
    ("P", "The pound shop is picking up trade."),
    ("P", "Chalk dust gets on my chest."),
    ("P", "Hardy plants will be here all winter."),
    ("P", "The barber booked me in for Tuesday."),
    ("P", "The shore will be busy at half term."),
    ("P", "Trim the nails straight across."),
    ("P", "The painter is coming in on Monday."),
    ("P", "The bank sorted out my card."),
    ("P", "Lush green grass is what he likes."),
    ("P", "My son is a painter and decorator."),
    ("P", "My neighbour is a barber."),
    ("P", "The lady who helps me out is hardy, I'll give her that."),
    ("D", "Your weight is still a pound up, isn't it?"),
    ("P", "My carer is lush, she comes mornings."),
    # after a preposition or a verb
    ("P", "I came with a pound in my purse."),
    ("P", "Let the bank know if your card changes."),
    ("P", "I was telling the barber about my knee."),
    ("P", "We're going to the barber's after this."),
    ("P", "I'll ring the bank when I get home."),
    ("P", "I've been living near the shore since I retired."),
    ("P", "I asked for a trim at the barber's."),
    ("P", "I'm stopping at the mill tonight, it's a pub now."),
    ("P", "They go through the mill on that ward."),
    ("P", "The mill closed in the eighties."),
    ("P", "A pepper mill is on my list."),
    ("P", "It was chalk that they found in my kidney, like a stone."),
    ("D", "Chalk and cheese, those two tablets."),
    ("P", "My nails are like chalk."),
    ("P", "I've lost a pound this week."),
    ("P", "Pound for pound it's the cheapest."),
    ("P", "Ten pound for a prescription is a lot."),
    ("P", "My heart would pound when I climbed the stairs."),
    ("P", "Trim milk is all I drink now."),
    ("D", "Keep it trim and you'll be fine."),
    ("P", "Hardy is what my mother was."),
    ("P", "A hardy lot, the farmers round here."),
    ("P", "The painter's ladder fell on my foot."),
    ("P", "The shore was lovely on Sunday."),
    ("P", "It was lush at the seaside."),
    ("P", "Lush, thanks, that's lovely."),
    ("P", "The bank holiday threw my tablets out."),
    # the Irish, Punjabi, Scottish and German words
    ("P", "Swords were on the wall of the museum."),
    ("P", "We drove through Swords on the way to the airport."),
    ("P", "That hill is the bane of my life."),
    ("P", "The stairs are the bane of my knees."),
    ("P", "He's been gunning for a new hip for years."),
    ("P", "The Shah of Iran was on the telly."),
    ("P", "The Mir space station came down years ago."),
    ("P", "Puri and chana is what I had for breakfast."),
    ("P", "A puri with the curry, nothing else."),
    ("P", "The raja's palace was on the coach tour."),
    ("P", "A stein of beer is too much for me now."),
    ("P", "We sang auld lang syne at midnight."),
    ("P", "He put his savings in a Roth account."),
    ("D", "Your sugar is seven mol per litre."),
    ("P", "The Dar es Salaam flight was long."),
    ("P", "Morning, the mill is open again."),
    ("P", "Thanks to the bank I got my money back."),
    ("P", "Say hello to the shore for me, I miss it."),
    ("P", "The bank, the chemist and the barber's are all on one street."),
    ("P", "My friend, a painter, drove me in."),
    ("D", "The chalk, the pound and the trim are what we check."),
    ("P", "The gall of the man, pushing in like that."),
    ("P", "My gall bladder came out in May."),
)

#: origin -> (given names, surnames), written as people of that origin write them; the surnames English words
DEV42_NAMES: dict[str, tuple[list[str], list[str]]] = {
    "UK": (["Trevor", "Stuart", "Shirley", "Gail"], ["Pound", "Chalk", "Hardy", "Barber", "Shore", "Trim", "Painter",
                                                    "Lush", "Bank"]),
    "Irish": (["Fergus", "Ronan", "Oonagh"], ["Morrow", "Swords", "Bane", "Gunning"]),
    "Punjabi": (["Jaspal", "Iqbal", "Surinder", "Kuldip"], ["Shah", "Dar", "Mir", "Puri", "Raja"]),
    "Scottish": (["Iona", "Finlay"], ["Mill", "Shaw", "Gall"]),
    "German": (["Jens", "Silke"], ["Stein", "Lang", "Roth", "Mol"]),
}
