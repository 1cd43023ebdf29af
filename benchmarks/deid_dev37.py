"""A thirty-seventh development set of the by-origin de-identification benchmark (issue 50, sixteenth session): a
full name whose surname is an English word, its given name a built-in first name or a rare one, and the same person's
surname or given name said again alone in the same dialog; beside the same words as words.

UK (91.9 %) and Irish (93.9 %) are the lowest origins after Samoan on the held-out half in lower case. The issue asks
that a name be decided also by the dialog's other mentions of the same person. On main 70ba364 a given name the
built-in first-name pass finds ("james", "sarah") never reaches the surname rules ("james hill told me ." keeps
"hill"), a rare given name before a word surname is not found ("fergal ring rang ." takes "rang"), and a full name
found does not take the same surname said alone elsewhere ("It's Hill, Sarah Hill." keeps the first "Hill", cased
too). This set gives 5 origins (UK, Irish, US, Australian, Scottish; 40 parts) given names and surnames that are
everyday English words ("Plank", "Brass", "Thorn", "Pond", "Booth", "Bowler", "Rafter", "Dollar", "Bacon", "Beach",
"Swan", "Hook", "Spark", "Shed", "Watt", "Inch"; given names "Graham", "Harriet", "Dervla", "Cormac", "Narelle",
"Ishbel"), hand-written here (not from Faker, names-dataset or the detector's lists; no part of a name is any other
set's: checked by ``tests/test_deid_dev37.py`` without printing them; a script dropped every candidate a table holds
without printing which), in **34 everyday forms** none of the other sets has, each a full name and the same person
again alone (the surname or the given name) where a person stands: "It's {s}, {g} {s}", "{g} {s} came round last
night. {g} stayed till eleven.", "That was {g} {s} on the phone. {s} wants to come in with me.", "Thanks, {g} {s}.
{s}, can I just check your address?". **The same words as words** (``DEV37_WORD_USES``, two a dialog, 64 sentences,
in the same places where English allows, some beside another person's name, ``DEV37_PERSONS``, not counted: "We
walked along the beach", "Sue said the beach was packed", "a sixty watt bulb", "it grew an inch", "I do the plank for
my back", "the brass band", "a thorn in my thumb"): each word replaced inside them is a false replacement, printed by
``bench_deid_origin.py --dev37``. The same word as a word beside the same person's name in one sentence ("sarah hill
walked up the hill") cannot go in the benchmark (it counts a name part left anywhere in the dialog as a name missed);
the rule's tests hold those (the word after an article, a possessive or a place preposition is a word, and is kept).

On main 70ba364, before any rule of this slice (``--dev-only --dev37 --no-real``): cased 94.7 % of 770 names (UK
94.2, Irish 100.0, US 96.8, Australian 86.4, Scottish 96.1), lower case **92.5 %** of 1,096 (UK 86.8, Irish 99.5, US
91.3, Australian 86.8, Scottish 98.2); words used as words: 40 of 410 sentences' words replaced (bacon 9, rainwater 6,
thorn 6, grandad 5, spark 5, watt 5, booth 4).

Same layout as ``deid_dev32.py``; ``{g}`` given name, ``{s}`` surname."""

from __future__ import annotations

DEV37_FORMS: tuple[tuple[str, str], ...] = (
    # the surname said first, then the full name
    ("P", "It's {s}, {g} {s}, I've got an appointment at ten."),
    ("P", "Surname's {s}. First name {g}, so {g} {s}."),
    ("P", "The name's {g} {s}. {s} with a capital letter."),
    # the full name, then the surname alone where a person stands
    ("P", "My neighbour {g} {s} drove me in. {s} is a godsend, honestly."),
    ("D", "I've had a letter from {g} {s}. Did {s} mention the scan to you?"),
    ("P", "That was {g} {s} on the phone. {s} wants to come in with me."),
    ("D", "Is {g} {s} your next of kin? I'll ring {s} after this."),
    ("P", "Ask for {g} {s} at the desk, {s} knows all about it."),
    ("P", "My sister-in-law, {g} {s}, she's a nurse. {s} thinks it's my thyroid."),
    ("D", "Thanks, {g} {s}. {s}, can I just check your address?"),
    ("P", "{g} {s} phoned me. Then {s} phoned my daughter."),
    ("P", "My friend {g} {s} had the same thing, {s} says it cleared up."),
    ("P", "Our vicar, {g} {s}. {s} visits every Thursday."),
    ("P", "Put {g} {s} down as my contact. {s}'s number is on the form."),
    ("D", "Has {g} {s} signed the consent form? I need {s} to sign here."),
    ("P", "Tell {g} {s} thank you from me. {s} was so kind."),
    ("P", "Honestly, without {g} {s} I'd be lost. {s} does my shopping."),
    # the full name, then the given name alone
    ("P", "{g} {s} came round last night. {g} stayed till eleven."),
    ("P", "I share a flat with {g} {s}; {g} does all the cooking."),
    ("P", "{g} {s} told me to come. Well, {g} made me come."),
    ("P", "My carer's {g} {s}. {g} comes twice a day."),
    ("D", "Right, {g} {s}? Lovely. Come in, {g}."),
    ("P", "Me and {g} {s} go swimming. {g} noticed the lump first."),
    ("P", "{g} {s} from the allotments gave me a lift, bless {g}."),
    ("D", "Would {g} {s} be able to collect it? Or is {g} away?"),
    ("P", "I've been staying at {g} {s}'s. {g} has a spare room."),
    ("D", "I spoke to {g} {s} this morning and {g} sends her best."),
    ("P", "{g} {s} is my partner. I'd like {g} in the room."),
    ("P", "I'm {g} {s}, but everyone calls me {g}."),
    ("P", "{g} {s} rang the surgery for me, {g} is brilliant like that."),
    ("D", "So {g} {s} is your daughter? And {g} lives with you?"),
    ("P", "{g} {s} and I have been married forty years. {g} does the garden."),
    ("P", "My brother {g} {s}, {g} had a stroke last year."),
    ("P", "Oh, {g} {s} sorted all that. Ask {g}, not me."),
)

#: the persons named in ``DEV37_WORD_USES`` ("Sue said the beach was packed"): not counted when replaced
DEV37_PERSONS = frozenset("sue kevin mandy gary tracy pete wilson carol".split())

#: the names' words as words, in the forms' places where English allows: (speaker, sentence)
DEV37_WORD_USES: tuple[tuple[str, str], ...] = (
    # a place, a thing
    ("P", "We walked along the beach every morning."),
    ("P", "The beach was packed on Sunday."),
    ("P", "Sue said the beach was too hot for me."),
    ("P", "I had bacon and eggs for breakfast."),
    ("P", "Bacon is my weakness, I know."),
    ("D", "Cut down on the bacon and the sausages."),
    ("P", "It cost me a dollar in the States."),
    ("P", "The dollar was strong when we went."),
    ("P", "I caught my hand on a nail in the shed."),
    ("P", "The shed roof leaks when it rains."),
    ("P", "Kevin spends all day in his shed."),
    ("P", "I stepped on a thorn in the garden."),
    ("P", "A thorn went right into my thumb."),
    ("P", "The pond froze over last winter."),
    ("P", "We fed the ducks at the pond."),
    ("P", "Mandy fell in the pond, would you believe."),
    ("P", "I sat in the booth at the back of the cafe."),
    ("P", "The ticket booth was shut, so we walked."),
    ("P", "The brass band played at the fete."),
    ("P", "I polish the brass on Fridays."),
    ("P", "I do the plank every morning for my back."),
    ("P", "A plank of wood fell on my foot."),
    ("P", "A swan chased my grandson by the river."),
    ("P", "Gary says the swan on the river is huge."),
    ("P", "The picture hook came out of the wall."),
    ("P", "Hook the bag on the door, would you."),
    ("P", "There was a spark from the plug."),
    ("P", "Not a spark of energy these days."),
    ("P", "A sixty watt bulb in the hall, that's all."),
    ("P", "It grew an inch in a week, the lump."),
    ("P", "Not an inch of him is left unbruised."),
    ("P", "He's a fast bowler for the village team."),
    ("P", "My grandad wore a bowler hat to church."),
    ("P", "A bat got in under the rafter."),
    ("P", "The rainwater tank overflowed again."),
    ("P", "Rainwater came through the ceiling."),
    ("P", "Tracy bought a graham cracker cheesecake."),
    # the word where the forms put a person
    ("P", "It's brass, solid brass, the handle."),
    ("P", "The beach, that's where I want to be."),
    ("P", "That was the shed on fire, the smoke."),
    ("D", "Ask for a booth near the door."),
    ("P", "Swan upping is on the river this week."),
    ("P", "Thanks, the bacon was lovely."),
    ("P", "Honestly, without the shed I'd be lost."),
    ("P", "Tell the beach cafe I'll be late."),
    ("P", "Pete rang the pond man about the pump."),
    ("P", "Me and Wilson go to the beach on Saturdays."),
    ("P", "Put the plank down by the shed."),
    ("P", "Spark plugs, that's what he sells."),
    ("P", "Hook, line and sinker, I believed him."),
    ("P", "Thorn bushes all along the path."),
    ("P", "Bacon sandwiches every day, I'm afraid."),
    ("P", "Beach huts are so dear now."),
    ("P", "Dollar for dollar it's cheaper at home."),
    ("P", "Inch by inch, I'm getting better."),
    ("P", "Watt for watt the new heater is cheaper."),
    ("P", "Pond weed got wrapped round my ankle."),
    ("P", "Shed loads of paperwork, honestly."),
    ("P", "Brass monkeys out there this morning."),
    ("P", "Carol says my plank is getting better."),
    ("D", "Any cuts from a rusty nail or a thorn?"),
    ("P", "A spark of hope, that's all I need."),
    ("P", "Swan Lake was on at the theatre."),
    ("P", "Booth number three, the lady said."),
)

#: origin -> (given names, surnames), written as people of that origin write them: given names a built-in first name
#: or a rare one, surnames an everyday English word
DEV37_NAMES: dict[str, tuple[list[str], list[str]]] = {
    "UK": (["Graham", "Harriet", "Gillian", "Rupert"], ["Plank", "Brass", "Thorn", "Pond", "Booth"]),
    "Irish": (["Dervla", "Cormac", "Clodagh", "Fintan"], ["Bowler", "Rafter", "Crowe"]),
    "US": (["Darlene", "Wendell", "Chester", "Luann"], ["Dollar", "Bacon", "Beach", "Rainwater"]),
    "Australian": (["Narelle", "Brett", "Raelene", "Mervyn"], ["Swan", "Hook", "Spark", "Shed"]),
    "Scottish": (["Ishbel", "Lachlan", "Alasdair"], ["Gunn", "Watt", "Kidd", "Inch"]),
}
