"""A twenty-fifth development set of the by-origin de-identification benchmark (issue 50, fourteenth session): given
names of two parts, hyphenated or written apart, where a part is a word the lists hold, alone and in full names
(given name first, and surname first for the Korean, Vietnamese and Chinese names and in forms' "surname first"
style), beside hyphenated and two-word ordinary words and eponyms used as words in the same places.

A hyphenated given name whose parts the gazetteer holds is found in lower case when a part is a name English hardly
writes ("jean-claude", "seo-yeon": ``name_word.word_facts`` calls the compound common only when every part is a
dictionary word); when every part is a word GCIDE or the whitelist holds ("marie-claire", "rose-marie", "daisy-may")
the compound is a common word, taken only in a naming frame; a part that is a month, a modal or a function word
("may", "june", "so") makes it a function word, never a name. This set gives **46 forms** (subject, surname first,
after a person's verb, after to/with/from, titles, lists, greetings, "it was X who", relatives, questions) and
**62 sentences of hyphenated words, eponym compounds and the names' own words as words** (``DEV25_WORD_USES``:
"the follow-up", "charcot-marie-tooth disease", "a jack-russell", "the wheelie-bin", "may I", "a ray of light").

On main 4030b4a, before any rule of the fourteenth session (``--dev-only --dev25 --no-real``): cased 97.3 % of 566
names (US 90.5, Irish 95.2, French 96.8, UK 96.8, Chinese 98.4, Samoan 98.4; Haitian, Korean, Vietnamese 100),
lower case 78.4 % of 828 (US 53.3, UK 56.5, Irish 69.6, Samoan 81.5, French 82.6, Chinese 82.6, Haitian 88.0,
Vietnamese 91.3, Korean 100.0); words used as words: 154 of 738 sentences' words replaced (wolff-parkinson-white,
tam-o, stevens-johnson, creutzfeldt-jakob, osgood-schlatter, jack-russell 18 each, kool-aid, hip-hop, ping-pong,
willy-nilly, pascal 9 each, bin 1: older rules).

Haitian, French, Korean, Vietnamese, Chinese, UK, US, Irish and Samoan families give such names; the names are
hand-written here (not from Faker, names-dataset or the detector's lists; none of the lead's probe names; no part of
a name is any other set's: checked by ``tests/test_deid_dev25.py`` without printing them). Same layout as
``deid_dev24.py``; ``{g}`` given name, ``{s}`` surname."""

from __future__ import annotations

DEV25_FORMS: tuple[tuple[str, str], ...] = (
    # a bare subject, given name first or surname first
    ("P", "{g} drove me to the clinic at eight."),
    ("P", "{g} usually does the school run."),
    ("P", "{g} {s} looks after my dog."),
    ("D", "{g} rang the ward at six."),
    ("P", "{g} wants to know the results too."),
    ("P", "{s} {g} is my next door neighbour."),
    ("P", "{s} {g} signed the consent for me."),
    # after a person's verb
    ("P", "I phoned {g} before coming."),
    ("P", "I texted {g} {s} from the waiting room."),
    ("D", "Have you told {g} about the biopsy?"),
    ("P", "We visited {g} in the care home."),
    ("P", "I left the keys with {g}."),
    # after to, with, from, next to
    ("P", "I lent my car to {g}."),
    ("P", "I was talking to {g} {s} about my knee."),
    ("P", "I came here with {g} on the bus."),
    ("P", "The flowers are from {g}."),
    ("P", "I heard it from {s} {g} first."),
    ("P", "She lives next to {g}."),
    # titles and forms of address
    ("D", "Nurse {g} will do your dressing now."),
    ("P", "Auntie {g} is staying with us."),
    ("D", "Mrs {g} {s}, please come through."),
    ("D", "Dr {s} {g} referred you, is that right?"),
    # lists
    ("P", "{g}, my sister and I all had the flu."),
    ("P", "My son and {g} share a room."),
    ("P", "It's me, {g} and the baby at home."),
    ("P", "{g} or her brother will collect me."),
    # greetings and thanks
    ("D", "Good morning {g}, take a seat."),
    ("D", "Hello {g} {s}, how are you feeling?"),
    ("P", "Bye {g}, see you after the scan."),
    ("D", "Hi {g}, I'm the registrar."),
    ("P", "Thank you so much for today, {g}."),
    # it was X who
    ("P", "It was {g} who found me lying in the hall."),
    ("P", "It was {s} {g} who called the ambulance."),
    ("D", "Was it {g} who gave you the inhaler?"),
    # relatives
    ("P", "My daughter {g} is a nurse."),
    ("P", "My cousin {g} {s} had the same thing."),
    ("P", "My husband, {g}, has diabetes too."),
    ("P", "Her mother {g} brought her in."),
    ("P", "My grandson {g} set up the phone for me."),
    # questions and requests
    ("D", "Does {g} live with you?"),
    ("D", "Is {g} {s} your carer?"),
    ("P", "{g}'s number is in my phone."),
    ("P", "Can {g} come into the room with me?"),
    ("P", "I'll ask {g} to bring my tablets."),
    ("P", "Please call {g} if anything changes."),
    ("D", "Who is {g}?"),
)

#: hyphenated and two-word ordinary words, eponyms and the names' own words used as words, in the same places
DEV25_WORD_USES: tuple[tuple[str, str], ...] = (
    # hyphenated words and eponym compounds where a person could stand
    ("D", "The follow-up is in two weeks."),
    ("P", "I talked to the x-ray people yesterday."),
    ("D", "Ask the walk-in centre about it."),
    ("P", "It was a long-term plan."),
    ("P", "I came in with a t-shirt on."),
    ("D", "Any history of charcot-marie-tooth disease?"),
    ("D", "The ECG showed wolff-parkinson-white."),
    ("D", "She had guillain-barre after the flu."),
    ("P", "I wear rose-tinted glasses."),
    ("P", "My jean jacket is in the car."),
    ("P", "The man-made fibres make me itch."),
    ("P", "The june-bug bites were awful."),
    ("P", "The wheelie-bin was too heavy to lift."),
    ("P", "I got a spray-tan last week."),
    ("P", "The ruby-red rash came back."),
    ("P", "I made a daisy-chain for her."),
    ("P", "The camper-van broke down."),
    ("P", "The billy-goat butted me."),
    ("P", "I wore a tam-o'-shanter in the cold."),
    ("D", "The smith-magenis clinic sent a letter."),
    ("D", "Was the hawkins-kennedy test painful?"),
    ("D", "She has von hippel-lindau."),
    ("D", "Any stevens-johnson reaction before?"),
    ("D", "A mallory-weiss tear can bleed."),
    ("D", "He had osgood-schlatter as a boy."),
    ("D", "Is it creutzfeldt-jakob they worried about?"),
    ("P", "My jack-russell bit me."),
    ("P", "I drank a bloody-mary on the plane."),
    ("P", "The kids had kool-aid and crisps."),
    ("P", "Put a band-aid on it."),
    ("P", "I bought it at wal-mart yesterday."),
    ("P", "Stick a post-it on the fridge."),
    ("P", "It was so-so, not great."),
    ("P", "It's all hip-hop music these days."),
    ("P", "We played ping-pong with my son."),
    ("P", "He's a bit of a know-it-all."),
    ("P", "The see-saw hit my chin."),
    ("P", "The boo-boo on her knee healed."),
    ("P", "He was yo-yo dieting for years."),
    ("P", "The ding-dong of the bell woke me."),
    ("P", "My willy-nilly eating has to stop."),
    ("P", "I had a jerry-can of petrol in the boot."),
    ("P", "I use a bobby-pin for my fringe."),
    ("P", "The jack-knife lorry blocked the road."),
    # the names' words as words, in the same places
    ("P", "I tan easily in the sun."),
    ("P", "She put it in the bin yesterday."),
    ("P", "Man, that hurt."),
    ("D", "May I examine your tummy?"),
    ("P", "June was a bad month for my chest."),
    ("D", "The reed diffuser might trigger your asthma."),
    ("P", "On new year's eve I fell."),
    ("P", "I hung up and came in."),
    ("P", "A ray of light hurts my eyes."),
    ("P", "We walked along the brook with my son."),
    ("P", "I visited France in spring."),
    ("P", "My pressure was a hundred pascal or so."),
    ("P", "The ruby ring is from my mother."),
    ("P", "I came in with my van."),
    ("P", "She was the belle of the ball."),
    ("P", "My billy can is in the shed."),
    ("P", "Picking a daisy near the brook, I slipped."),
    ("P", "It was the man who drove me."),
)

#: origin -> (given names, surnames), written as people of that origin write them; every given name two parts, a
#: part a word the lists hold
DEV25_NAMES: dict[str, tuple[list[str], list[str]]] = {
    "Haitian": (["Ange-Flore", "Belle-Ève", "Daisy-Belle", "Lune-Solange"], ["Sauveur", "Pierrot"]),
    "French": (["Anne-France", "Luc-Hervé", "René-Pascal", "Ève-Lune"], ["Brochard", "Lemaire"]),
    "Korean": (["Byung-man", "Seung-bin", "Doo-san", "Joon Bin"], ["Bu"]),
    "Vietnamese": (["Van Hung", "Bich Hoa", "Duc Tam", "Hoa Lan"], ["Truong", "Vuong"]),
    "Chinese": (["Xiao-Tao", "Wai Man", "Jia-Hui", "Jia-Man"], ["Tse", "Leung", "Kwan"]),
    "UK": (["Billie-Beth", "Ella-Daisy", "Ruby-Belle", "Daisy-May"], ["Reed", "Brook"]),
    "US": (["Billy Ray", "Tia-June", "Lou Ellen", "Billy-Reed"], ["Hollis", "Pruitt"]),
    "Irish": (["Maeve-Ellen", "Nóra-May", "Peggy-Anne", "Eibhlín Óg"], ["Breslin", "Mulcahy"]),
    "Samoan": (["Aso Lelei", "Ula-Belle", "Fili-June", "Lelei-Ève"], ["Sauni", "Mataafa"]),
}
