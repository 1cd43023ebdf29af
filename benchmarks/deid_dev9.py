"""A ninth development set of the by-origin de-identification benchmark (issue 50, eighth session): names that are
English words, in dialogs that give the evidence that they are names, beside the same words used as words.

The held-out lower-case dialogs lose UK, US and Irish names most (85.9, 93.1, 93.9 %), and dev6's lower-case US names
("hope", "summer", "long", "cross") are the lowest of all development sets: a name that is an ordinary English word
is dropped by the detector unless a naming context stands right before it. So this set gives the rules names of
8 origins whose names are often words (UK, US, Irish, Australian, Canadian, Danish, Dutch, German), 6 given names
and 6 surnames an origin, hand-written here (not from Faker, names-dataset or the detector's lists; no part of a
name is any of ``deid_names.py``'s (either half), ``deid_dev2.py``'s, ``deid_dev3_names.py``'s, ``deid_dev4.py``'s
or ``deid_dev6.py``'s: checked by ``tests/test_deid_dev9.py`` without printing them), put into **28 new forms**
where the dialog itself says the word is a person: the full name earlier ("{g} {s} drives me ... {g} thinks"), a
title or a role before ("Mrs. {s}", "the nurse {s}", "Pastor {s}"), a relative before ("my daughter {g}"), a
person's verb after ("{g} called"), a possessive ("{g}'s inhaler"), a vocative ("thanks, {g}"), a middle initial
("{g} R. {s}"), "via ... cc ...".

**The same words as words** (``DEV9_WORD_USES``: "I hope so", "the long term", "it burns when I pee", "twice per
day", "a wet floor"): two of these sentences go into every dialog of the set (never one holding a word of a name put
into the same dialog), and each word replaced inside them is a false replacement: ``bench_deid_origin.py --dev9``
prints their count beside the names removed. ``python benchmarks/bench_deid_origin.py --dev-only --dev9 --no-before
--no-real`` reports the set per origin as the ``dev9`` half. Same layout as ``deid_dev6.py``; ``{g}`` given name,
``{s}`` surname."""

from __future__ import annotations

DEV9_FORMS: tuple[tuple[str, str], ...] = (
    ("P", "{g} {s} drives me to all my appointments, and {g} thinks the new pills make me worse."),
    ("P", "My sister {g} {s} came with me last time, she remembers the doses better than I do."),
    ("P", "Mrs. {s} upstairs noticed I was limping and made me call."),
    ("P", "The nurse {s} took my blood this morning and said it looked dark."),
    ("P", "Coach {s} benched me after I got dizzy at practice."),
    ("P", "{g} called me twice yesterday to check on me."),
    ("P", "{g} says the rash started on my back first."),
    ("P", "I left {g}'s inhaler in the car, so I used mine."),
    ("D", "Okay, thanks, {g}. Let's take a look at that ankle."),
    ("P", "My daughter {g} made me come in today."),
    ("P", "My husband {g} noticed the yellow in my eyes first."),
    ("D", "Is {g} {s} still your emergency contact? We'll need {g} to sign here."),
    ("P", "{g} {s} from church brought me soup; {s} used to be a nurse."),
    ("P", "My son {g} and his wife stayed with me all week."),
    ("P", "My old doctor was {g} R. {s}, but he retired."),
    ("D", "I'll send the form via {g} at the front desk and cc {s} in billing."),
    ("P", "Mr. {s} next door drove me here."),
    ("D", "How is {g} doing after the surgery?"),
    ("P", "{g} {s}, my neighbor, found me in the kitchen."),
    ("P", "Talk to {g}, she knows all my medicines better than I do."),
    ("P", "Our foster son, {g}, has the same cough."),
    ("P", "I live with my partner, {g} {s}."),
    ("D", "Does {g} help you with the dressing changes?"),
    ("P", "Aunt {g} raised me, so I don't know much about my dad's side."),
    ("P", "Pastor {s} visited me in the hospital last month."),
    ("P", "{g} texted me that the pharmacy closes early on Sundays."),
    ("P", "The therapist, {s}, wants me doing the stretches twice a day."),
    ("D", "Did {g} mention the fever when she called?"),
)

#: the same words as ordinary words, from how people talk in a clinic: (speaker, sentence); no name in any of them
DEV9_WORD_USES: tuple[tuple[str, str], ...] = (
    ("P", "I hope it's nothing serious."),
    ("D", "The long term plan is to get you off the steroids."),
    ("P", "I had to cross the street to get to the pharmacy."),
    ("D", "Your A1c rose by two points since the spring."),
    ("P", "My kids are at summer camp this week."),
    ("D", "That swelling behind the knee could be a Baker's cyst."),
    ("P", "I got a wood splinter in my thumb last week."),
    ("P", "I slipped on the wet floor at work."),
    ("P", "It burns when I pee."),
    ("D", "In that case, we'll repeat the labs in a month."),
    ("P", "I would love to stop taking so many pills."),
    ("P", "There's a strong smell to my urine."),
    ("D", "Just a little pinch now."),
    ("P", "They kept me on the ward for three days."),
    ("P", "My sugar readings are the best they've been all year."),
    ("D", "You're young, so you should heal quickly."),
    ("P", "I shovel snow every morning and that's when my chest hurts."),
    ("P", "My hands ache when there's a frost."),
    ("P", "I'll ask the pharmacist about it."),
    ("D", "Take one tablet twice per day."),
    ("P", "My finger is bent and I can't straighten it."),
    ("P", "I get jet lag really bad and can't sleep."),
    ("P", "I'll wait till the swelling goes down."),
    ("P", "To be frank, I haven't been taking them."),
    ("P", "It's kind of a dull ache."),
    ("D", "I'll send you a link to the patient portal."),
    ("P", "Is the generic the same as the brand?"),
    ("P", "I have a red mark on my shin that won't go away."),
    ("P", "I've been using the pool at the gym for my knee."),
    ("P", "I mailed the forms at the post office."),
    ("P", "There was rust on the nail I stepped on."),
    ("P", "My hay fever is bad this spring."),
    ("P", "The pain is right here at my temple."),
    ("D", "It's been a long battle with your weight."),
    ("P", "I eat bran cereal for my bowels."),
    ("P", "I bumped my hand on the door."),
    ("P", "I had a spicy curry and then the heartburn started."),
    ("P", "The power went out, so my oxygen machine stopped."),
    ("P", "I got poison ivy hiking near the river."),
    ("P", "I cook most nights, mostly chicken and rice."),
    ("P", "My skin is so dry in winter."),
    ("P", "I'd rather not take the chance."),
    ("P", "The pain comes on before a storm."),
    ("P", "I bang my head on the cabinet door all the time."),
    ("P", "My stool is clay colored."),
    ("P", "The house is dusty and I sneeze all day."),
    ("P", "My eyes have a dry, sandy feeling."),
    ("P", "On a sunny day I get headaches."),
    ("P", "I get short of breath walking up the hill."),
    ("P", "My hair is going gray."),
    ("P", "I'm a deer hunter, so I'm out in the woods a lot."),
    ("P", "I live on a quiet street."),
    ("P", "My allergies are worst in the autumn."),
    ("P", "There's a grace period before the insurance lapses."),
    ("P", "We stayed at a ski lodge when my knee gave out."),
    ("D", "I can fit you into the ten o'clock slot next week."),
    ("P", "I heard a boom and then my ears were ringing."),
    ("P", "I wear a weighted vest when I walk."),
    ("P", "A strand of hair got wrapped around his toe."),
    ("P", "I had a bolt of pain down my leg."),
    ("P", "I've had a lone spot on my back for years."),
    ("P", "When I pat my belly it sounds hollow."),
    ("P", "I work at the dam on the river."),
    ("P", "I hope so, I really do."),
    ("P", "My ties feel tight around my neck lately."),
    ("P", "I take a swift walk every morning."),
)

#: origin -> (6 given names, 6 surnames), written as people of that origin write them; all English words but a few
#: German given names
DEV9_NAMES: dict[str, tuple[list[str], list[str]]] = {
    "UK": (["Fern", "Olive", "Wren", "Clover", "Meadow", "Sorrel"],
           ["Heath", "Moss", "Pike", "Crane", "Noble", "Sparrow"]),
    "US": (["Autumn", "Harmony", "Liberty", "Sunny", "Justice", "Honor"],
           ["Case", "Love", "Strong", "Temple", "Battle", "Little"]),
    "Irish": (["Bride", "Peg", "Bran", "Rowan", "Shannon", "Con"],
              ["Power", "Furlong", "Roach", "Hand", "Curry", "Ward"]),
    "Australian": (["Banjo", "Dusty", "Sandy", "Bonnie", "Clay", "Rusty"],
                   ["Cook", "Swift", "Burns", "Waters", "Hay", "Bolt"]),
    "Canadian": (["River", "Chance", "Sterling", "Ember", "Colt", "Gale"],
                 ["Frost", "Snow", "Moody", "Wise", "Best", "Lodge"]),
    "Danish": (["Storm", "Bent", "Ask", "Tove", "Brit", "Ebbe"],
               ["Bang", "Dam", "Fog", "Strand", "Vest", "Kirk"]),
    "Dutch": (["Floor", "Jet", "Dirk", "Lot", "Ties", "Guus"],
              ["Post", "Pool", "Rust", "Pot", "Slot", "Boom"]),
    "German": (["Till", "Gerd", "Wendel", "Ernst", "Klaus", "Lotte"],
               ["Brand", "Link", "Kind", "Mast", "Stark", "Winter"]),
}
