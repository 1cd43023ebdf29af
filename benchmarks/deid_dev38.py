"""A thirty-eighth development set of the by-origin de-identification benchmark (issue 50, sixteenth session): UK,
Irish, US, Australian and Scottish given names and surnames that are common English words, **alone** where only a
person stands in an ordinary predicate, beside the same words as words in the same places.

UK (91.9 %) and Irish (93.9 %) are below 95 % in lower case on the held-out half, and a probe of the lead still lost,
in lower case, gazetteer names that are common words in ordinary forms where only a person stands: every lower-case
rule reads a list of frames, and a form outside the list loses the name. This set gives 5 origins (UK, Irish, US,
Australian, Scottish; 9 given names, 19 surnames) names that are common words and that the gazetteers hold ("Basil",
"Rosemary", "Sage", "Ivy", "Rook", "Gardener", "Heron", "Bush", "Fennel", "Gentle", "Bold", "Sword", "Moor"),
hand-written here (not from Faker, names-dataset or the detector's lists; no part of a name is any other set's:
checked by ``tests/test_deid_dev38.py`` without printing them), in **36 everyday forms** no other set has, the name
bare: the subject of a predicate about a person (an adjective of manner or feeling with "with me / to me": "{g} was
lovely with me after the operation", "{s} has been so good to me"; a negative modal: "{g} can't come in today",
"{s} won't drive at night"; a coordinated subject: "{g} and the kids came up", "me , {s} and the kids went", "{g} ,
who lives upstairs , checks on me"; "{s} is worried sick about me", "{g} sends her love"), the object of a verb of
contacting or asking ("i'll text {g} once", "did you ring {s} about", "could you phone {g} for me", "have you emailed
{g} the letter", "check with {s} first"), "that was {g} on the phone / at the door / last week", "i was with {s} when
the pain started", "the one who found me was {s}", "at {s}'s" as a home, "i got {s} ringing round". **The same
words as words** (``DEV38_WORD_USES``, two a dialog, 72 sentences, in the same places where English allows: "basil is
lovely with tomatoes", "rosemary won't grow in our garden", "king's can't see me till march", "heather and the gorse
were out", "did you ring king's about", "that was heron on the pond", "that was moor land up there", "the one who
found me was gentle", "i was at the butcher's when i fell", "i got basil growing on the windowsill", "call booth ten"):
each word replaced inside them is a false replacement, printed by ``bench_deid_origin.py --dev38``.

On main 60d4ce1, before any rule of this slice (``--dev-only --dev38 --no-real``): cased 86.3 % of 255 names (UK
94.1, Irish 80.4, US 94.1, Australian 88.2, Scottish 74.5), lower case 58.6 % of 360 (UK 62.5, Irish 55.6, US 55.6,
Australian 55.6, Scottish 63.9); words used as words: 112 of 410 sentences' words replaced (king 25, heather 19,
thyme 6, carol 5, herring 5, damocles 5, grandad 5, bush 5, baker 5, myrtle 5, "booth ten" 5, lily 5, moor 5, ivy 4,
fennel 4, rosemary 4).

Same layout as ``deid_dev32.py``; ``{g}`` given name, ``{s}`` surname."""

from __future__ import annotations

DEV38_FORMS: tuple[tuple[str, str], ...] = (
    ("P", "{g} was lovely with me after the operation."),
    ("P", "{s} was ever so patient with me at the clinic."),
    ("P", "{g} was really rude to me on the phone."),
    ("P", "{s} has been so good to me since the fall."),
    ("P", "{g} can't come in today, she's working."),
    ("P", "{s} won't drive at night any more."),
    ("P", "{g} couldn't get the time off work."),
    ("P", "{s} wouldn't let me walk home on my own."),
    ("P", "{g} and the kids came up at the weekend."),
    ("P", "{s} and the grandkids were round on Sunday."),
    ("P", "{g}, who lives upstairs, checks on me most days."),
    ("P", "Me, {s} and the kids went to the coast in May."),
    ("P", "I'll text {g} once I'm out of here."),
    ("D", "Did you ring {s} about the results?"),
    ("P", "Could you phone {g} for me, my battery's dead?"),
    ("P", "I messaged {s} last night but she never answered."),
    ("D", "Have you emailed {g} the discharge letter?"),
    ("P", "I'll have to check with {s} first."),
    ("P", "That was {g} on the phone just now."),
    ("P", "That was {s} at the door earlier, with my shopping."),
    ("P", "That was {g} last week, not me."),
    ("P", "I was with {s} when the pain started."),
    ("P", "I was with {g} when I came over dizzy."),
    ("P", "The one who found me was {s}."),
    ("P", "The one who drove me here was {g}, bless her."),
    ("P", "I was at {s}'s when I fell."),
    ("P", "I stopped at {g}'s for a cuppa on the way."),
    ("P", "I got {s} ringing round for a bed."),
    ("P", "We got {g} fetching my tablets from the chemist."),
    ("P", "{s} is worried sick about me."),
    ("P", "{g} sends her love, by the way."),
    ("P", "Tell {s} I said thanks."),
    ("P", "It was {g} who noticed the lump."),
    ("P", "{s} hasn't been herself lately."),
    ("D", "Does {g} know you're here today?"),
    ("P", "I'm waiting on {s} to pick me up."),
)

#: the names' words as words, in the forms' places where English allows it: (speaker, sentence)
DEV38_WORD_USES: tuple[tuple[str, str], ...] = (
    ("P", "Basil is lovely with tomatoes."),
    ("P", "Heather was lovely on the hills this summer."),
    ("P", "Sage tea has been good to me for the sweats."),
    ("P", "King prawns can't go near me, I swell up."),
    ("P", "Rosemary won't grow in our garden."),
    ("P", "Jasmine won't flower this year."),
    ("P", "King's can't see me till March."),
    ("P", "King's won't do the scan without a letter."),
    ("P", "Booth ten can't take you, try eleven."),
    ("P", "Lily pads and the kids' boats were on the pond."),
    ("P", "Heather and the gorse were out on the moor."),
    ("P", "Lane closures and the roadworks made me late."),
    ("P", "Sage and the other herbs are in the window."),
    ("P", "Moor and the woods, that's where I walk the dog."),
    ("D", "Call booth ten when you're ready."),
    ("D", "Did you ring King's about the results?"),
    ("D", "Do you need to phone King's about the appointment?"),
    ("P", "I'll text the steward when I'm done here."),
    ("P", "That was heron on the pond, not a crane."),
    ("P", "That was moor land up there, all bog."),
    ("P", "That was king size, the bed at the hotel."),
    ("P", "That was holly on the door, not mistletoe."),
    ("P", "That was carol singers at the door earlier."),
    ("P", "That was bold of him last week."),
    ("P", "That was gentle exercise, nothing more."),
    ("P", "I was at Booth Street when I fell."),
    ("P", "The one who found me was gentle."),
    ("P", "The one who drove me here was bold, overtaking like that."),
    ("P", "The one who did my bloods was hardy, out in that cold."),
    ("P", "I was at the butcher's when I fell."),
    ("P", "I stopped at the baker's for a cuppa on the way."),
    ("P", "I stopped at King's for a scan on the way."),
    ("P", "I got basil growing on the windowsill."),
    ("P", "We got sage growing out the back."),
    ("P", "I got heather growing by the gate."),
    ("P", "I got jasmine climbing up the fence."),
    ("P", "Herring is good for my heart, they say."),
    ("P", "Gentle exercise, the physio says."),
    ("P", "Bold colours on the walls cheer me up."),
    ("P", "Hardy perennials are all I can manage now."),
    ("P", "Moor walks are too much for my knees now."),
    ("P", "The pope was on the telly last night."),
    ("P", "The steward on the plane got me a wheelchair."),
    ("P", "A bullock kicked my dad once."),
    ("P", "The bullock in the top field got out."),
    ("P", "The butcher's lad delivers on Fridays."),
    ("P", "The wheeler at the depot fixed my chair."),
    ("P", "A rook was on the chimney all morning."),
    ("P", "The phone booth on our street is a library now."),
    ("P", "The otter at the zoo made the kids laugh."),
    ("P", "We saw a heron on the canal."),
    ("P", "A gosling got stuck in the fence."),
    ("P", "The jay keeps stealing the bird food."),
    ("P", "A herring gull took my chips."),
    ("P", "The sword of Damocles, that's what it feels like."),
    ("P", "Ivy was all over the back wall."),
    ("P", "The gardener at the home was lovely with me."),
    ("P", "Violet bruises all up my arm from the drip."),
    ("P", "Fennel tea settles my stomach."),
    ("P", "A dove sat on the sill every morning."),
    ("P", "Rosemary and thyme with the chicken."),
    ("P", "A sage old man, my grandad."),
    ("P", "Bush and the hedge need cutting back."),
    ("P", "Bliss, it was, after the injection."),
    ("P", "The drake and the ducks were on the pond."),
    ("P", "Be gentle with me, it's tender."),
    ("P", "Gentle with me, please, it's sore."),
    ("P", "He was bold to me, rude really."),
    ("P", "Baker's yeast, that's what I'm allergic to."),
    ("P", "Myrtle grows by the back door."),
    ("P", "Sword swallowers at the fair made me queasy."),
    ("P", "That was bush fire smoke last week, my chest was awful."),
)

#: origin -> (given names, surnames), written as people of that origin write them; every name a common English word
#: a gazetteer holds
DEV38_NAMES: dict[str, tuple[list[str], list[str]]] = {
    "UK": (["Basil", "Myrtle"], ["Rook", "Gardener", "Butcher", "Bullock"]),
    "Irish": (["Rosemary", "Holly"], ["Heron", "Gosling", "Wheeler"]),
    "US": (["Jay", "Sage"], ["Bush", "Bliss", "Fennel", "Steward"]),
    "Australian": (["Ivy", "Jasmine"], ["Bold", "Gentle", "Dove", "Otter"]),
    "Scottish": (["Violet"], ["Sword", "Starling", "Moor", "Herring"]),
}
