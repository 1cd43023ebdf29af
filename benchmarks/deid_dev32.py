"""A thirty-second development set of the by-origin de-identification benchmark (issue 50, fifteenth session): given
names and surnames that are everyday English words (occupations, birds, things, virtues) the gazetteers hold, in
everyday places no rule frames, beside the same words and bare mass nouns as words in the same places.

UK (91.9 %) is one of the five origins below 95 % in lower case on the held-out half, and the lead's probe 6 lost
every UK surname that is also an English word in 24 of 40 everyday forms: the lower-case rules read such a word only
in the places a frame names (a title, "tell X i said", "X says hi", "it was X who"). This set gives 7 origins (UK,
US, Irish, Australian, Canadian, South African, Nigerian; 5 to 7 parts each, 41 in all) names that are gazetteer
names the word lists also hold as common words, no clinical word (occupations "Thatcher", "Weaver", "Carpenter",
"Collier"; birds "Robin", "Finch", "Raven"; things "Trench", "Hood", "Burger"; virtues "Kindness", "Glory",
"Brilliant"), hand-written here (not from Faker, names-dataset or the detector's lists; none of the lead's probe
names; no part of a name is any other set's: checked by ``tests/test_deid_dev32.py`` without printing them; a script
dropped every candidate a table or a probe holds without printing which), in **43 everyday forms** no rule frames
(none of probe2's, probe3's or any set's): the bare subject before an ordinary past-tense verb or an auxiliary ("{g}
was worried sick", "{g} just left", "{g} took me"), after a filler or a time phrase ("yeah {g} drove", "last week
{g} stayed over"), the one known or seen ("do you know {g} from", "we saw {g} at"), after without, except, "nobody
but", "both ... and", "apart from", an apposition after a role or before a relative ("the carer, {g}, comes", "it's
{g}, her husband, who"), a possessive at a sentence's start ("{g}'s mum"), a label ("Contact: {g} {s}", "Next of
kin: {g}, daughter."), "{g} here, calling about". **The same words and bare mass nouns as words**
(``DEV32_WORD_USES``, two a dialog, 93 sentences, in the same places where English allows: "Brandy was all we had",
"Dinner was late", "Rain came through the roof", "Kindness goes a long way", "Burger was on the menu", "Foley was
removed yesterday", "We saw a potter at work", "Do you know better than", "Without power the stairlift is useless",
"Shepherd's pie for tea", "Farmer's lung", "Occupation: farmer.", "Signed, sealed and delivered"): each word
replaced inside them is a false replacement, printed by ``bench_deid_origin.py --dev32``.

On main f62d702, before any rule of this slice (``--dev-only --dev32 --no-real``): cased 90.0 % of 371 names (US
67.9, UK, Australian, Canadian, South African, Nigerian 92.5, Irish 100.0), lower case 50.3 % of 553 (US 31.6, South
African 31.6, Nigerian 32.9, UK 46.8, Canadian 46.8, Australian 63.3, Irish 98.7: the Irish surnames are found by
other rules already); words used as words: 96 of 574 sentences' words replaced (grandad 21, burger 15, sunshine 7,
brandy butter 7, earl grey 7, marvel 7, shepherd 7, kindness 6, carpenter 6, brilliant 6, robin 6, farmer 1).
Same layout as ``deid_dev20.py``; ``{g}`` given name, ``{s}`` surname."""

from __future__ import annotations

DEV32_FORMS: tuple[tuple[str, str], ...] = (
    # the bare subject before an ordinary past-tense verb or an auxiliary
    ("P", "{g} was worried sick about me all weekend."),
    ("P", "{g} just left to move the car."),
    ("P", "{g} took me to the walk-in centre on Tuesday."),
    ("P", "{g} had to help me up the stairs."),
    ("P", "{g} would know, she keeps my diary."),
    ("P", "{g} can't make it today, she's at work."),
    ("P", "{g} went back home after lunch."),
    ("P", "{g} thought I was having a stroke."),
    ("P", "{g} found my tablets behind the sofa."),
    ("P", "{g} has been ever so good to me."),
    # after a filler or a time phrase
    ("P", "Yeah {g} drove, I was in no state to."),
    ("P", "Last week {g} stayed over twice."),
    ("P", "So {g} called an ambulance."),
    ("P", "Anyway {g} made me a cup of tea and I felt better."),
    ("P", "Yesterday {g} booked this appointment for me."),
    ("P", "Oh {g} sorted all that out."),
    ("P", "Um, {g} usually does my injections."),
    # the object of a verb of knowing or seeing
    ("D", "Do you know {g} from the day centre?"),
    ("P", "We saw {g} at the chemist on the way in."),
    ("P", "I met {g} at the support group."),
    ("P", "I haven't seen {g} since the funeral."),
    ("D", "Did you recognise {g} when she came in?"),
    ("P", "I remember {g} saying the same thing."),
    # after without, except, but, both ... and, apart from
    ("P", "I couldn't manage without {g}, honestly."),
    ("P", "Everyone except {g} had the sickness bug."),
    ("P", "Both {g} and her son have diabetes."),
    ("P", "Nobody but {g} knows where I keep the spare key."),
    ("D", "Has anyone apart from {g} been looking after you?"),
    # apposition after a role, before a relative clause or a role
    ("P", "The carer, {g}, comes at eight every morning."),
    ("P", "It's {g}, her husband, who picks up the prescriptions."),
    ("P", "My physio, {g} {s}, gave me these exercises."),
    ("P", "The district nurse, {s}, changed the dressing."),
    ("P", "{g}, the one who lives next door, let the paramedics in."),
    # a possessive at a sentence's start
    ("P", "{g}'s mum used to be a nurse."),
    ("P", "{g}'s car broke down so I got the bus."),
    ("D", "{s}'s letter says you've been on this since the spring."),
    # a label
    ("D", "Contact: {g} {s}, same address."),
    ("D", "Signed, {g} {s}, ward manager."),
    ("D", "Next of kin: {g}, daughter."),
    ("D", "Emergency contact: {g}."),
    # "X here"
    ("P", "{g} here, calling about my mum's results."),
    ("P", "Hi, it's {g} here, I rang yesterday."),
    ("P", "{s} here from the pharmacy, about your repeat."),
)

#: the names' words, and bare mass nouns (meals, seasons, weather, illnesses, drinks), as words in the forms'
#: places where English allows it: (speaker, sentence)
DEV32_WORD_USES: tuple[tuple[str, str], ...] = (
    # the bare subject before a verb: mass nouns, meals, seasons, weather, illnesses
    ("P", "Brandy was all we had in the house."),
    ("P", "Dinner was late because of the traffic."),
    ("P", "Summer was hot and I couldn't sleep."),
    ("P", "Rain came through the roof last winter."),
    ("P", "Kindness goes a long way on a ward."),
    ("P", "Burger was on the menu at the hospital."),
    ("P", "Breakfast was just toast."),
    ("P", "Flu went round the whole office."),
    ("P", "Snow kept me in for a week."),
    ("P", "Lunch took ages at the canteen."),
    ("P", "Pneumonia took my dad in the end."),
    ("P", "Asthma kept me off school as a kid."),
    ("P", "Hay fever was awful this year."),
    ("P", "Treasure hunts are what the kids love."),
    ("P", "Glory days, those were."),
    ("P", "Miracle it didn't break, the nurse said."),
    ("P", "Foley was removed yesterday, so I can go home."),
    ("D", "The foley came out this morning."),
    ("P", "Power went off in the storm and my fridge failed."),
    # after a filler or a time phrase
    ("P", "Yeah brandy helps me sleep, I know it shouldn't."),
    ("P", "Last week snow stopped the buses."),
    ("P", "So treasure what you've got, my mum said."),
    ("P", "Anyway lunch was awful."),
    ("P", "Yesterday rain got in through the window."),
    ("P", "Oh kindness costs nothing."),
    ("P", "Um, breakfast usually does me till two."),
    ("P", "Last winter flu knocked me flat."),
    # the object of a verb of knowing or seeing
    ("D", "Do you know better than the consultant?"),
    ("P", "We saw a potter at work at the craft fair."),
    ("P", "I met a farmer at the market who sells eggs."),
    ("P", "I haven't seen sunshine for a week."),
    ("P", "I remember glory days at the club."),
    ("D", "Did you see a robin in the garden?"),
    ("P", "I know kindness when I see it."),
    ("P", "Do you know brandy butter? My gran made it."),
    ("P", "We saw snow on the hills on the way in."),
    ("D", "Did you recognise pain like this before?"),
    # after without, except, but, both ... and, apart from
    ("P", "I can't sleep without brandy in my tea."),
    ("P", "Without kindness nobody gets better."),
    ("P", "Everything except burger meat is fine for me."),
    ("P", "Both breakfast and lunch make me sick."),
    ("P", "Nothing but toast for three days."),
    ("P", "Without power the stairlift is useless."),
    ("D", "Anything apart from aspirin for the pain?"),
    # apposition, a role before a comma
    ("P", "My job, carpenter, is hard on the knees."),
    ("P", "My dad was a farmer, a sheep farmer."),
    ("P", "My grandad, a potter, had the same tremor."),
    ("P", "The dessert, brandy snaps, was lovely."),
    # a possessive at a sentence's start
    ("P", "Shepherd's pie for tea again."),
    ("D", "Carpenter's knee, the physio called it."),
    ("P", "Winter's the worst for my chest."),
    ("P", "Robin's eggs are that pale blue colour."),
    ("D", "Farmer's lung is what they tested me for."),
    # a label
    ("D", "Contact: the surgery, same number."),
    ("D", "Diet: burger and chips most days."),
    ("D", "Drinks: brandy at weekends."),
    ("D", "Occupation: farmer."),
    ("D", "Occupation: retired carpenter."),
    ("D", "Allergies: none known."),
    ("D", "Signed, sealed and delivered, the forms are in."),
    # "X here"
    ("P", "Winter here is brutal on my joints."),
    ("P", "Help here is hard to find at night."),
    # the names' words as words anywhere
    ("P", "The weaver at the mill lost two fingers."),
    ("P", "A thatcher fixed our roof last spring."),
    ("P", "My grandad was a glover by trade."),
    ("P", "The shepherd found me on the hill."),
    ("P", "Merry Christmas to you too."),
    ("P", "I was a bit merry at the party, that's all."),
    ("P", "Earl Grey tea is all I drink."),
    ("P", "Buck up, my nurse told me."),
    ("P", "A deacon from church visited me on the ward."),
    ("P", "That melody has been stuck in my head all week."),
    ("P", "Whatever your creed, the care is the same."),
    ("P", "A hickey on her neck, that's all it was."),
    ("P", "The trench in the road is still open."),
    ("P", "Hood up, it was pouring."),
    ("P", "A raven sat on the fence all morning."),
    ("P", "The finch flew into the window."),
    ("P", "My grandad was a gunner in the war."),
    ("P", "An archer at the club hurt her shoulder."),
    ("P", "My dad was a collier, down the pit."),
    ("P", "The park ranger found me by the lake."),
    ("D", "Brilliant, thank you."),
    ("D", "Brilliant news about the scan."),
    ("P", "Clever idea, the pill box."),
    ("P", "Fortunate that it wasn't worse."),
    ("P", "I was on the brink of calling you."),
    ("P", "The neighbours are like spies, always watching."),
    ("P", "Divine, that cake was."),
    ("P", "Marvel films keep him busy."),
    ("P", "A miracle cure, they said it was."),
    ("P", "A brock came into the garden, a badger."),
    ("P", "I like to potter about the garden."),
    ("P", "The farmer down the road drove me in."),
    ("P", "We saw a carpenter about the door."),
)

#: origin -> (given names, surnames), written as people of that origin write them; every part a gazetteer name the
#: word lists also hold as an everyday word
DEV32_NAMES: dict[str, tuple[list[str], list[str]]] = {
    "UK": (["Merry", "Robin"], ["Thatcher", "Weaver", "Glover", "Shepherd"]),
    "US": (["Brandy", "Melody", "Deacon"], ["Carpenter", "Potter", "Farmer"]),
    "Irish": (["Shay"], ["Creed", "Hickey", "Trench", "Hood"]),
    "Australian": (["Raven"], ["Finch", "Hooper", "Fowler", "Cutler"]),
    "Canadian": (["Gunner", "Brock"], ["Archer", "Collier", "Mercer", "Ranger"]),
    "South African": (["Brilliant", "Clever", "Fortunate"], ["Brink", "Kemp", "Burger", "Spies"]),
    "Nigerian": (["Treasure", "Divine", "Marvel", "Kindness"], ["Glory", "Miracle"]),
}
