"""A thirty-first development set of the by-origin de-identification benchmark (issue 50, fifteenth session): given
names and surnames that the guards keep as words -- function words of address, approval or time ("Dear", "Glad",
"Welcome", "Buddy", "Still"), days and months ("Saturday", "January", "December"), adjectives of virtue no gazetteer
holds ("Diligent", "Superb", "Thankful") -- where only a person stands, beside the same words, and the demographic,
calendar and modal words the guards keep, used as words in the same places.

The lead's probe lost UK, Punjabi and Haitian names such as "brown", "friday", "good", "pal", "happy", "excellent"
in 8-22 of 24 lower-case forms: ``name_guarded_words`` (fourteenth session) leaves out every demographic, day, month,
modal and function word, and a word no gazetteer holds under Zipf 4.0. This set gives 7 origins (UK, US, Punjabi,
Haitian, Nigerian, Jamaican, Ghanaian; 4 or more parts each, 33 in all) such names, hand-written here (not from
Faker, names-dataset or the detector's lists; none of the lead's probe names; no part of a name is any other set's:
checked by ``tests/test_deid_dev31.py`` without printing them; a script dropped every candidate a table or a probe
holds without printing which), in **48 forms** where only a person stands (not dev27's forms): a person's verb after
the bare subject, "it was {g} who", tell / ask / let / ring {g} before a clause or a time, "{g} and her sister",
talked to / living with / a call from {g}, a list with "me" or "i", the one addressed, a title before a surname, a
whole name. **The same words as words** (``DEV31_WORD_USES``, two a dialog, 92 sentences, in the same places where
English allows: "Still, it hurts when I cough", "Saturday came and went", "Ready when you are", "Constant pain in my
back", and the race, day, month and modal words the guards keep: "A black man came with me", "White came back on the
scan", "Black stools for two days", "Friday came fast", "May I ask", "Will you call me"): each word replaced inside
them is a false replacement, printed by ``bench_deid_origin.py --dev31``.

On main fcfd20a, before any rule of the fifteenth session (``--dev-only --dev31 --no-real``): cased 21.4 % of 370
names (Jamaican 7.3, UK 7.7, US 9.1, Nigerian 16.3, Ghanaian 21.8, Haitian 30.9, Punjabi 54.5: the guards keep even
a capitalised word inside a sentence), lower case 9.4 % of 499 (Haitian 4.1, Nigerian 4.4, Jamaican 5.4, UK 6.1, Ghanaian
10.8, US 11.6, Punjabi 23.0); words used as words: 0 of 554 sentences' words replaced.
Same layout as ``deid_dev20.py``; ``{g}`` given name, ``{s}`` surname."""

from __future__ import annotations

DEV31_FORMS: tuple[tuple[str, str], ...] = (
    # a person's verb after the bare subject
    ("P", "{g} came along with me to the appointment."),
    ("P", "{g} says you can ring her any time."),
    ("P", "{g} told the nurse I'd fallen."),
    ("P", "{g} rang the surgery for me on Monday."),
    ("P", "{g} reckons it's the new tablets."),
    ("P", "Then {g} phoned my daughter."),
    ("P", "{g} noticed I was slurring my words."),
    ("P", "{g} knows all my medications."),
    ("P", "But {g} insisted I come in."),
    ("P", "{g} texted me the address of the clinic."),
    ("P", "Well {g} mentioned it might be shingles."),
    ("P", "{g} and her sister brought me here."),
    ("P", "{g} and his brother do the shopping for me."),
    # it was X who
    ("P", "It was {g} who noticed I'd gone pale."),
    ("P", "It's {g} who drives me to dialysis."),
    ("D", "Was it {g} who gave you the leaflet?"),
    # tell / ask / let / ring / text X
    ("D", "Tell {g} I'll see her next week."),
    ("D", "Could you ask {g} to wait outside?"),
    ("P", "I'll ask {g} whether he kept the box."),
    ("D", "Please let {g} know the scan is booked."),
    ("P", "We'll ring {g} once you're done."),
    ("D", "Can you text {g} for me?"),
    ("P", "I'll phone {g} tonight."),
    ("D", "Did {g} say when she'd be back?"),
    ("D", "Has {g} rung you yet?"),
    # after to / with / from
    ("P", "I talked to {g} this morning about my chest."),
    ("P", "I was speaking to {g} last night."),
    ("D", "Can you hand these to {g}, please?"),
    ("P", "I got a lift in with {g}."),
    ("P", "I'm living with {g} at the moment."),
    ("P", "I had a call from {g} earlier."),
    ("P", "I've left my bag with {g}."),
    # a list, a guess
    ("P", "{g} and I both had the flu."),
    ("P", "Me and {g} went for a walk."),
    ("P", "I think {g} has my inhaler."),
    # the one addressed
    ("D", "Thanks again, {g}."),
    ("D", "Hello {g}, take a seat."),
    ("D", "{g}, can you roll up your sleeve?"),
    ("D", "Lovely to see you again, {g}."),
    ("D", "Bye for now, {g}."),
    # a title before a surname, a whole name
    ("P", "Mrs {s} is my next of kin."),
    ("P", "Mr {s} rang about his wife."),
    ("D", "Dr {s} said to come back in a week."),
    ("P", "{g} {s} is my carer."),
    ("P", "My neighbour, {g} {s}, found me."),
    ("D", "Is it {g} {s} on the form?"),
    ("P", "A lady called {g} came round."),
    ("P", "Her name is {g}, she's my niece."),
)

#: the names' words, and the demographic, day, month and modal words the guards keep, as ordinary words in the forms'
#: places where English allows it: (speaker, sentence)
DEV31_WORD_USES: tuple[tuple[str, str], ...] = (
    # race words where they describe people or things (never a name)
    ("P", "A black man came with me to the hospital."),
    ("P", "White people burn easily, I know."),
    ("D", "The white count came back normal."),
    ("D", "White came back on the scan, the doctor said."),
    ("P", "Black stools for two days now."),
    ("P", "I talked to black patients in the group."),
    ("P", "Brown sugar is all I use."),
    ("D", "Asian women get it more often."),
    ("P", "Black and blue, my leg was."),
    ("P", "Black coffee only, no sugar."),
    ("P", "Brown rice and salmon for tea."),
    ("D", "White blood cells were a bit low."),
    ("P", "A white man at the desk was rude to me."),
    ("D", "Black women get fibroids more, she said."),
    ("P", "Tell white from yellow on the strip, I can't."),
    ("P", "It was brown when I coughed it up."),
    ("P", "Brown says nothing to me, the colour of it."),
    # days and months
    ("P", "Friday came fast this week."),
    ("P", "Saturday came and went."),
    ("P", "Easter was hard without her."),
    ("P", "December is when it got worse."),
    ("P", "It was December when it started."),
    ("P", "Thursday and Friday I work nights."),
    ("P", "October came and the cough was back."),
    ("P", "It was Easter that I first noticed it."),
    ("P", "I talked to the GP on Saturday about it."),
    ("D", "Call me on Thursday if you can."),
    ("P", "December and January are the worst for my chest."),
    ("P", "January sales wore me out."),
    ("P", "Friday and Saturday I'm at my daughter's."),
    # modals
    ("P", "May I ask a question?"),
    ("D", "Will you call me with the results?"),
    ("P", "Will and testament sorted last year."),
    ("D", "May and June are bad for hay fever."),
    # function words of address, approval, time and degree
    ("P", "Good came of it in the end."),
    ("P", "Dear me, what a week."),
    ("P", "Still, it hurts when I cough."),
    ("P", "Still hurts when I bend over."),
    ("P", "Ever since the fall I've been dizzy."),
    ("P", "Much better than last week, thanks."),
    ("P", "Much of the time I'm tired."),
    ("D", "Glad to hear it."),
    ("D", "Glad you came in."),
    ("D", "Ready when you are."),
    ("D", "Ready for the next one?"),
    ("D", "Nice to meet you."),
    ("P", "Sat in the waiting room for an hour."),
    ("P", "Sat up all night with the pain."),
    ("D", "Welcome back, come on through."),
    ("D", "Welcome to the clinic."),
    ("P", "Kid gloves, that's how she treats me."),
    ("P", "Kid stuff, it was nothing."),
    ("P", "Boss says I can have the week off."),
    ("P", "My boss told me to come in."),
    ("P", "Friend of mine recommended you."),
    ("P", "A friend came with me."),
    ("P", "Darling, pass me my glasses."),
    ("P", "Thanks, darling."),
    ("P", "Sweetie, sit down a minute."),
    ("P", "Champ is what the nurses call my son."),
    ("P", "Buddy system at the gym helps."),
    ("P", "Nip it in the bud, my mum says."),
    ("P", "Ever so kind of you."),
    ("P", "Still water, please, not sparkling."),
    ("P", "Much obliged."),
    ("P", "Friend request from my old nurse."),
    ("P", "Sweetie wrappers all over the car."),
    ("P", "Hello, ready when you are."),
    ("P", "Kid brother of mine drove me."),
    ("P", "Ready meals are all I eat."),
    ("P", "Nice weather helps my joints."),
    ("P", "I was glad to be home."),
    ("P", "I think much has changed."),
    ("P", "Thanks, much appreciated."),
    ("P", "Good and kind, the nurses were."),
    ("P", "Welcome and warm, the ward was."),
    # adjectives of virtue and their neighbours
    ("P", "Superb care from the ward."),
    ("P", "Splendid, thank you."),
    ("D", "Elegant solution, the surgeon said."),
    ("P", "Diligent with my tablets, I am."),
    ("P", "Constant pain in my lower back."),
    ("P", "Constant headaches since the autumn."),
    ("P", "Obedient to a fault, my old dog."),
    ("P", "Thankful it wasn't worse."),
    ("P", "Silky smooth skin after the cream."),
    ("P", "Doe eyes, my mum called them."),
    ("P", "Sat on the bus for an hour to get here."),
    ("P", "I came in with constant pain."),
    ("P", "Tell happy from sad, I can't any more."),
    ("P", "Honey and lemon helps my throat."),
    ("P", "I got a lift from nice neighbours."),
    ("P", "Thanks, superb work."),
)

#: origin -> (given names, surnames), written as people of that origin write them; every name a word the guards keep
DEV31_NAMES: dict[str, tuple[list[str], list[str]]] = {
    "UK": (["Glad"], ["Dear", "Friend", "Still", "Darling"]),
    "US": (["January", "Buddy", "Champ", "Ever"], ["Ready"]),
    "Punjabi": (["Sweetie", "Silky", "Sat"], ["Tatla", "Padda"]),
    "Haitian": (["Diligent", "Elegant", "Obedient"], ["Constant", "Superb"]),
    "Nigerian": (["Welcome", "Saturday", "Thankful"], ["Boss"]),
    "Jamaican": (["Kid", "Bud", "October"], ["Much", "Thursday"]),
    "Ghanaian": (["Easter", "December", "Splendid"], ["Doe"]),
}
