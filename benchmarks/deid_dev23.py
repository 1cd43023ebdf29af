"""A twenty-third development set of the by-origin de-identification benchmark (issue 50, thirteenth session): names
English text writes at Zipf 4.5 or more, in lower case, in the places of a sentence where a person stands bare
(after "with", "from", "for", "about", "without", "besides"; the answer to a who-question; "let X know", "have X
ring", "get X to"; a list with "me" or "and I"; a progressive's or a copula's subject; a complement clause's subject;
a hand-over line), beside the same words as words in the same places.

``name_bare_places`` (twelfth session) reads these places only for names rarer than ``vocab.WORD_NAME_ZIPF`` (4.5);
``name_person_only`` takes the commoner ones only where nothing but a person stands. A gazetteer name the word lists
call a word and English text writes at 4.5 or more is then lost in lower case in every one of these places, whether
its frequency is its use as a name ("tim", "joe", "mike", "ben") or as a word ("story", "crew", "success"). The
forms (written from how people talk in clinics, on the phone and at hand-overs; none in another set) put a person in
each place, several wordings each. The names are hand-written here (``DEV23_NAMES``: 10 origins, 2 or 3 names each:
not from Faker, names-dataset or the detector's lists; none of the lead's probe names; no part of a name is any other
set's, checked by ``tests/test_deid_dev23.py`` without printing them). Few such names are left that no set holds:
most of the hand-written candidates at Zipf 4.5 or more that the lists call words were already another set's or the
probe's. So 12 names are of that kind ("tim", "tower", "crew", "mike", "story", "joe", "champion", "ben", "success",
"orange", "freedom", "roman"), and the rest, to give each origin a
surname and a second name, names the lists call names ("george", "scott", "kevin", "steve", "adam", "henry",
"william", "edward", "sher", "jules", "moe", "seonwoo", "wong", "virdi", "tafuna", "okon", "kraft", "engel"), which must stay
found. Chinese, Punjabi and Samoan have none of the first kind but the given names English speakers there use.

Beside them (``DEV23_WORD_USES``, two a dialog, as dev19's) the same words as words, in the same places ("i take
them with orange squash", "who paid for it ? union , through the scheme", "union is picking up the bill", "hand over
to crew at the station", "i'm sure union took the money"), and in their everyday places ("speak into the mike", "a
cup of joe", "roman numerals", "tim tams"); a word replaced inside them is a false replacement.

On main ed6dfca, before any rule (``--dev-only --dev23 --no-real``; 43 forms, each put in about once per origin and
style): cased 96.9 % of 510 names (German 90.2, Haitian 92.2, UK 94.1, Irish 94.1, US 98.0, the rest 100.0), lower
case 61.5 % of 717 (Nigerian 12.5, German 12.5, US 47.8, UK 48.6, Irish 48.6, Haitian 48.6, Chinese 95.8, Korean,
Punjabi, Samoan 100.0); words used as words: 39 of 818 sentences had a word replaced (staff 19, orange 9, "tim tams"
9, freedom 1, tams 1).
Same layout as ``deid_dev19.py``; ``{g}`` given name, ``{s}`` surname."""

from __future__ import annotations

#: how many times each form is put in (per origin, about)
DEV23_REPEAT = 1

DEV23_FORMS: tuple[tuple[str, str], ...] = (
    # after "with"
    ("P", "I came in with {g} this afternoon."),
    ("P", "I've been living with {g} since the summer."),
    ("P", "I was out shopping with {g} when it came on."),
    ("D", "Are you here with {g} today?"),
    ("P", "I'll be staying with {g} for a few weeks."),
    ("P", "I was talking with {g} about it last night."),
    # after "from", "for", "about", "without", "besides"
    ("P", "I had a text from {g} this morning."),
    ("P", "There's a voicemail from {s} on my phone."),
    ("P", "I got a card from {g} yesterday."),
    ("P", "I heard back from {s} last week."),
    ("P", "I'm here for {g}, he's stuck at work."),
    ("P", "I'm a bit worried about {g}."),
    ("P", "I don't know how I'd cope without {g}."),
    ("D", "Is anybody at home besides {g} who can help?"),
    # the answer to a who-question
    ("P", "Who drove you in? {g} did."),
    ("D", "Who's at home with you? Just {g}?"),
    ("P", "Who rang the ambulance? {s} from next door."),
    ("P", "Who else knows? Only {g}."),
    # "let X know", "have X ring", "get X to"
    ("D", "I'll let {g} know you're here."),
    ("P", "Could you let {g} know I'm awake?"),
    ("D", "I'll have {g} ring you tomorrow."),
    ("P", "I'll get {g} to bring my slippers in."),
    # a list with "me", "you" or "and I"
    ("P", "Me, {g} and my daughter all went down with it."),
    ("P", "It's only me and {g} at home these days."),
    ("P", "{g} and I share the driving."),
    ("D", "So it's you, {g} and the two boys?"),
    # the subject of a progressive or a copula
    ("P", "{g} is collecting me at four."),
    ("P", "{g}'s bringing the kids in later."),
    ("P", "{g} was with me the whole time."),
    ("P", "{g} is coming with me to the next one."),
    ("P", "{g} was the one who called the ambulance."),
    ("P", "Oh, {g} is driving me home."),
    ("P", "And {g} is minding the dog."),
    # a complement clause's subject
    ("P", "I think {g} has the appointment letter."),
    ("P", "I'm sure {g} took my glasses."),
    ("P", "I guess {g} forgot to pass it on."),
    ("P", "I know {g} has my spare key."),
    ("D", "Do you think {g} could come in with you?"),
    # a hand-over line
    ("D", "Handover from {g}: bay two is settled."),
    ("D", "Over to {g}, she has the side rooms."),
    ("D", "Hand over to {s} at eight."),
    ("D", "I took handover from {g}, nothing to report."),
    ("D", "Handing over to {g}: bed nine needs obs."),
)

#: the names' words (and other words of that kind) as ordinary words, in the forms' places: (speaker, sentence)
DEV23_WORD_USES: tuple[tuple[str, str], ...] = (
    # after "with", "from", "for", "about", "without"
    ("P", "I take the tablets with orange squash."),
    ("P", "I came in with orange juice all down my top."),
    ("P", "They painted the ward with orange and green stripes."),
    ("P", "It was built with roman bricks, the old wall."),
    ("P", "The clock's the one with roman numerals."),
    ("P", "I've been living with story books piled everywhere."),
    ("P", "I had a call back from union about my hours."),
    ("P", "I got a letter from tower hamlets council."),
    ("P", "The noise comes from tower blocks across the road."),
    ("P", "I got a text from crew scheduling, my shift moved."),
    ("P", "I heard it from success stories online."),
    ("P", "I'm here for freedom, to get walking again."),
    ("P", "I'm waiting for orange juice from the trolley."),
    ("P", "I'm talking about freedom, being able to go out."),
    ("P", "I'm worried about success, whether it will last."),
    ("P", "I went without orange juice all week."),
    ("P", "I can't sleep without story time, the little one."),
    ("P", "It dates from roman times, the bridge."),
    # after a question, a "what", or a who-question answered by a thing
    ("P", "What colour was it? Orange, I think."),
    ("P", "What's the best bit? Freedom, being out of bed."),
    ("P", "What do you want most? Success with the walking."),
    ("P", "Who paid for it? Union, through the scheme."),
    ("P", "Who built it? Roman soldiers, apparently."),
    ("D", "Who gave you that? Crew on the ward, the night staff?"),
    ("P", "What's on the telly? Story time for the kids."),
    # "let", "have", "get" before what a thing does
    ("D", "Don't let orange juice sit on your teeth."),
    ("P", "I'll have orange juice, please."),
    ("P", "We get crew to help with lifting on the boat."),
    ("P", "Have story time before bed, it helps him settle."),
    ("P", "Let freedom ring, as they say."),
    # a list with "me"
    ("P", "Me, orange juice and a biscuit, that's breakfast."),
    ("P", "It's just me and story books on the ward."),
    ("P", "Me, crew and the captain were all ill on the boat."),
    ("P", "Orange and I don't agree, it gives me heartburn."),
    # the subject of a progressive or a copula
    ("P", "Orange is a good colour on you."),
    ("P", "Freedom is what I miss most."),
    ("P", "Success is slow with this physio."),
    ("P", "Union is picking up the bill for my care."),
    ("P", "Story is the same every time: he falls at night."),
    ("P", "Crew is coming on at six, the night lot."),
    ("P", "Tower is being knocked down next year, the old one."),
    ("P", "Orange was the one I liked, the flavour."),
    # a complement clause's subject
    ("P", "I think orange has more vitamin C."),
    ("P", "I'm sure union took the money already."),
    ("P", "I think story has a happy ending, in the end."),
    ("P", "I know success has a price."),
    ("P", "I guess freedom comes with a cost."),
    # a hand-over line
    ("D", "Handover from tower ward: bed six is stable."),
    ("D", "Over to orange team for the night."),
    ("D", "Hand over to crew at the station."),
    # the words in their everyday places
    ("P", "A cup of joe keeps me going in the morning."),
    ("D", "Speak into the mike, please, for the recording."),
    ("P", "She's roman catholic, she'd like the chaplain."),
    ("P", "We climbed ben nevis last summer, before all this."),
    ("P", "Tim tams are my weakness, I know."),
    ("P", "The crew were lovely in the ambulance."),
    ("P", "Tell me the story from the start."),
    ("P", "It's been a success, the new knee."),
    ("P", "An orange a day, my mum says."),
    ("P", "The tower block lift was broken again."),
    ("P", "She's the champion of the ward, the tea lady."),
    ("P", "The union rep came with me to the meeting."),
    ("P", "My freedom pass gets me here for free."),
    ("P", "He was a champion boxer in his day."),
    ("P", "Alright, pal, hop up on the bed."),
    ("P", "It's a long story, but I fell off a ladder."),
)

#: the names, hand-written (given names, surnames): see the module's docstring
DEV23_NAMES: dict[str, tuple[list[str], list[str]]] = {
    "UK": (["Tim", "George"], ["Tower", "Crew"]),
    "US": (["Mike", "Scott"], ["Story"]),
    "Irish": (["Joe", "Kevin"], ["Champion"]),
    "Korean": (["Ben", "Steve"], ["Seonwoo"]),
    "Chinese": (["Adam", "Henry"], ["Wong"]),
    "Punjabi": (["Sher", "William"], ["Virdi"]),
    "Haitian": (["Success", "Jules"], ["Orange"]),
    "Samoan": (["Moe", "Edward"], ["Tafuna"]),
    "Nigerian": (["Freedom"], ["Okon"]),
    "German": (["Roman"], ["Kraft", "Engel"]),
}
