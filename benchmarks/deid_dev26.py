"""A twenty-sixth development set of the by-origin de-identification benchmark (issue 50, fourteenth session): Irish
and Scottish Gaelic surnames of a particle and a stem (Ó, O, O', O’, Ní, Nic, Ua, Mac, Mc, Fitz, de) written apart,
with an apostrophe or joined, and Gaelic given names with and without their accents, in the places where a person
stands, beside the particles and the names' words as words.

The lead's probe lost "o brien" (the particle written apart, as transcripts drop the apostrophe), "ó briain", and
the given names "síle", "bríd" in most lower-case forms. This set gives 2 origins (Irish, Scottish) such names,
hand-written here (not from Faker, names-dataset or the detector's lists; none of the lead's probe names; no part of
a name, its particle left out, is any other set's: checked by ``tests/test_deid_dev26.py`` without printing them; a
script dropped every candidate a table holds without printing which), in **44 forms** (a person's verb after the
bare word, after to/with/from, titles, lists, greetings, "it was X who", relatives, the one addressed). **The
particles and the names' words as words** (``DEV26_WORD_USES``, 64 sentences: "o negative blood", "type o", "mac and
cheese", "de novo", "le fort fracture", "o2 sat", "a sine wave"): each word replaced inside them is a false
replacement, printed by ``bench_deid_origin.py --dev26``.

On main 4388e4b, before any rule (``--dev-only --dev26 --no-real``): cased 98.4 % of 124 names (Irish 96.8,
Scottish 100.0), lower case 86.8 % of 167 (Irish 90.4, Scottish 83.3): the names left are surnames whose stem is a
common word written apart ("Mc Fall", "Mc Cool", "Mac Lure", "Mc Cue", "Mc Kie", "Mc Call", "Mac Ivor", "Mac
Rory", "Mc Crea", "Mc Lay"), a Gaelic stem after "ua" or "mac" ("Ua Buachalla", "Mac Coinnich") and an accented
given name whose folded form is a word ("Bláth"); the Gaelic stems in no list ("Ó Dálaigh") and the gazetteer's
stems ("O Grady") were found. Words used as words: 15 of 164 sentences' words replaced (ni hao 4, de luxe 2, de la
salle 2, mans 2, drew 2, mac 2, sine 1).
Same layout as ``deid_dev20.py``; ``{g}`` given name, ``{s}`` surname."""

from __future__ import annotations

DEV26_FORMS: tuple[tuple[str, str], ...] = (
    # a person's verb after the bare word
    ("P", "{s} drove me down from the farm this morning."),
    ("P", "{g} minded the grandchildren while I was in."),
    ("P", "{g} {s} rang the surgery twice for me."),
    ("D", "So {g} spotted the rash before you did?"),
    ("P", "{g} says the tablets made me grumpy."),
    ("P", "Yesterday {g} found me asleep on the stairs."),
    # after to, with, from, for
    ("P", "I was chatting to {g} after mass about it."),
    ("P", "I've been living with {g} {s} since the spring."),
    ("P", "There was a card from {g} waiting at home."),
    ("D", "Would you hand this form to {g} on your way out?"),
    ("P", "I had a cup of tea with {s} before I came."),
    ("P", "I got the number from Mr {s} at the chemist."),
    ("P", "She was talking to {s} about the bills."),
    # titles
    ("D", "Mrs {s} will take your bloods next."),
    ("P", "I used to see Dr {s} at the old practice."),
    ("D", "Ms {s} from the home care team phoned."),
    ("P", "Father {s} visited me on the ward."),
    ("D", "I'll pass your notes to Mr {s} in surgery."),
    # told, asked, rung, let
    ("D", "Do tell {g} the stitches come out Friday."),
    ("P", "I'll ask {s} to drop the prescription in."),
    ("P", "I'll phone {g} when I'm finished here."),
    ("D", "Could you get {s} to bring your inhaler?"),
    ("P", "I'll let {g} {s} know about the appointment."),
    # it was X who, who-questions
    ("P", "It was {g} who rang the ambulance."),
    ("D", "Who drove you in today? Was it {s}?"),
    ("P", "Who's with me? That'd be {g}."),
    # lists, with me
    ("P", "Me and {g} both had the flu at Christmas."),
    ("P", "{g}, my husband and me went to the coast."),
    ("P", "{s} and I look after the dog between us."),
    ("P", "{g} is collecting me after this."),
    ("P", "{s} was beside me when I fell."),
    # relatives, neighbours
    ("P", "My sister {g} lives just round the corner."),
    ("P", "My cousin {g} {s} is a nurse in Galway."),
    ("P", "Our neighbour {s} checks in on me most days."),
    ("P", "My daughter-in-law {g} does the shopping."),
    # greetings, the one addressed, a self-introduction
    ("D", "Morning {g}, how have you been keeping?"),
    ("D", "Right {g}, let's have a listen to your chest."),
    ("D", "{g}, would you pop up on the bed for me?"),
    ("D", "Thanks very much, {g}, see you in a fortnight."),
    ("P", "Hiya, I'm {g} {s}, I've a half ten appointment."),
    ("D", "Hello, it's {g} {s} from the clinic calling."),
    # names given, spelt, written down
    ("D", "Is it {g} {s} on the referral letter?"),
    ("P", "Put {s} down as my next of kin, please."),
    ("P", "The form should say {g} {s}, not my maiden name."),
)

DEV26_WORD_USES: tuple[tuple[str, str], ...] = (
    # the particles as words
    ("D", "Your blood group is o negative."),
    ("P", "I'm type o, I gave blood last year."),
    ("D", "We have two units of o positive ready."),
    ("P", "They said I'm blood type o neg."),
    ("D", "Your o2 sat is ninety six on room air."),
    ("D", "Her o2 sats dropped to eighty eight."),
    ("P", "The number is zero, o, two, four."),
    ("P", "Oh, o, I meant the letter o, not zero."),
    ("P", "I had mac and cheese for dinner."),
    ("P", "The mac is slow so I couldn't book online."),
    ("P", "My grandson fixed my mac for me."),
    ("P", "I bring my mac when it's raining."),
    ("P", "I had a big mac on the way in, sorry."),
    ("P", "The mc at the wedding was hilarious."),
    ("D", "This is a de novo mutation, not inherited."),
    ("D", "It looks like a de novo clot."),
    ("D", "The x-ray shows a le fort fracture."),
    ("D", "A le fort one fracture of the maxilla."),
    ("P", "My grandson says ni hao to everyone now."),
    ("P", "We stayed at the fitz hotel near the station."),
    ("P", "The ua result came back clear."),
    ("D", "The ua showed some protein."),
    ("P", "I've got an o ring leaking in the tap."),
    ("D", "Say o for me, open wide."),
    ("P", "It's the o line on the bus timetable."),
    ("D", "Grade o reflux on the scope, nothing to worry about."),
    ("P", "A la carte menu, de luxe room, the works."),
    ("D", "We'll check the crp and the ua today."),
    ("P", "I use the mac at the library."),
    ("P", "Mac said the bus was late, the app I mean."),
    # after to, with, from, the places of the forms
    ("P", "I was chatting to the chemist after mass about it."),
    ("P", "There was a card from the hospital waiting at home."),
    ("P", "I had a cup of tea with milk before I came."),
    ("P", "I got the number from the chemist."),
    ("P", "She was talking to the bank about the bills."),
    ("D", "Would you hand this form to reception on your way out?"),
    ("P", "It was the neighbour who rang the ambulance."),
    ("P", "Me and the dog both had a fright at Christmas."),
    ("D", "Morning all, how have you been keeping?"),
    ("D", "Right then, let's have a listen to your chest."),
    ("P", "I'll phone the pharmacy when I'm finished here."),
    ("P", "I'll let the surgery know about the appointment."),
    ("P", "Who's with me? Nobody today."),
    # o, mac, de before words, written with a stem
    ("P", "It's o so cold in here."),
    ("D", "Blood group o, rhesus negative."),
    ("D", "O negative is the universal donor."),
    ("D", "Your O2 is fine, and the MAC was normal."),
    ("D", "The MAC infection is treated with three antibiotics."),
    ("P", "My mum was o positive too."),
    ("P", "De la Salle was my old school."),
    ("P", "Le Mans is on the telly tonight."),
    ("D", "The mac count was low."),
    ("P", "I went to the mac store to fix it."),
    ("P", "I'm on the o plan with the gym."),
    # the names' own words as words
    ("P", "My grandson drew a sine wave for his homework."),
    ("D", "The sine curve on the monitor is your heart rhythm."),
    ("P", "There's an old rath on our land, a fairy fort."),
    ("P", "We walked up to the rath on Sunday."),
    ("P", "I get my o2 from the home oxygen company."),
    ("P", "I was chatting to the nurse about the sine wave thing."),
    ("P", "The mac in my wardrobe needs a wash."),
    ("D", "Is it the o or the zero on this form?"),
    ("P", "I live at number o nine, the flats."),
    ("D", "A type o blood donor card, good."),
)

DEV26_NAMES: dict[str, tuple[list[str], list[str]]] = {
    "Irish": (["Méabh", "Órlaith", "Donnchadh", "Cáit", "Sorcha", "Eimear", "Labhrás", "Mairin", "Deirbhile",
               "Ríona", "Eabha", "Dónall", "Áine", "Maire", "Bláth"],
              ["O Hare", "Ó Dálaigh", "O Dell", "Ní Bhraonáin", "O Neal", "Fitz Simons", "Mc Fall", "O Loughlin",
               "O’Donoghue", "Mc Cool", "Ó Muircheartaigh", "Mac Rory", "O Grady", "O Hara", "O Leary", "O'Mahony",
               "O Donnell", "Ua Buachalla", "Nic Gréacháin", "de Búrca"]),
    "Scottish": (["Mòrag", "Seònaid", "Eilidh", "Catrìona", "Ealasaid", "Ruaraidh", "Dùghall", "Tormod", "Iseabail",
                  "Somhairle", "Beathag", "Raonaid", "Uilleam", "Coinneach", "Sìne", "Màiri", "Eòghann"],
                 ["Mc Coy", "Mac Fhionnlaigh", "Mc Call", "Mac Coinnich", "Mc Queen", "Mc Gillivray", "Mac Lure",
                  "Mc Lay", "MacLeòid", "Mac Ivor", "Mc Cue", "Mc Kie", "Mc Crea", "Mac Rath", "Nic Fhearghail",
                  "Mc Innes"]),
}
