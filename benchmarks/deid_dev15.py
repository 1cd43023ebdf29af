"""A fifteenth development set of the by-origin de-identification benchmark (issue 50, tenth session): UK, Irish, US
and Australian names that are English words, in the grammatical frames where English puts a person and no bare
noun, beside the same words used as words in the same frames.

dev9 and dev12 lower case lose given names that are frequent words ("penny", "miles", "hazel") wherever nothing but
the grammar says "person": the subject of an auxiliary question ("would {g} be able to"), the object of "tell",
"ask", "text", "ring" before a clause, a word said to after "thanks" or "cheers", "where's {g} staying", "it was {g}
who", "our {g}" before a person's verb. This set gives the rules 6 given names and 6 surnames of each of 4 origins,
hand-written here (not from Faker, names-dataset or the detector's lists; no part of a name is any other set's:
checked by ``tests/test_deid_dev15.py`` without printing them), in **16 new forms** of those frames, and **the same
words as words in the same frames** (``DEV15_WORD_USES``, two a dialog, as many sentences as twice the forms: "has
salt been a problem", "will blossom be out", "our kettle has", "do you want cotton to cover it", "trout from the
river gave me a rash", "cheers, legend"): each word replaced inside them is a false replacement, printed by
``bench_deid_origin.py --dev15`` beside the names removed.

On main b37c55c, before any rule of the tenth session (``--dev-only --dev15 --no-real``): cased 82.8 % of 204
names (UK 74.5, Australian 74.5, US 88.2, Irish 94.1), lower case 31.9 % of 288 (US 11.1, UK 23.6, Australian 30.6,
Irish 62.5); words used as words: 37 of 328 sentences' words replaced (tucker 12, fennel 8, legend 7, trout 5,
shields 5: "tucker from the van gave me", "has fennel been any use", "cheers, legend").
Same layout as ``deid_dev12.py``; ``{g}`` given name, ``{s}`` surname."""

from __future__ import annotations

DEV15_FORMS: tuple[tuple[str, str], ...] = (
    ("D", "Has {g} been helping you with the tablets?"),
    ("D", "Would {g} be able to drive you home today?"),
    ("P", "Tell {g} I said thanks for the lift."),
    ("D", "Could you ask {g} to bring in all your inhalers?"),
    ("D", "Thanks for coming in, {g}. Take a seat there."),
    ("P", "Where's {g} staying these days, do you know?"),
    ("P", "It was {g} who rang the ambulance for me."),
    ("P", "Our {g} reckons I should get it checked."),
    ("D", "Do you want {g} to sit in with you?"),
    ("P", "I'll text {g} when I'm done here."),
    ("P", "Cheers, {g}, see you next week."),
    ("D", "Will {g} be picking you up after?"),
    ("P", "{s} from the chemist rang about my tablets."),
    ("P", "I'll ring {s} at the surgery tomorrow."),
    ("D", "Ask {s} at the desk if you need a form."),
    ("D", "Okay, right, {g}. Let's have a look at that knee."),
)

#: the names' words as ordinary words, in the forms' frames: (speaker, sentence)
DEV15_WORD_USES: tuple[tuple[str, str], ...] = (
    ("D", "Has salt been a problem in your diet?"),
    ("P", "Has cash been tight since I stopped work, yes."),
    ("D", "Would cotton be alright against the skin?"),
    ("P", "Has royal jelly been any help, I wonder."),
    ("P", "Shields over the vents keep the dust off."),
    ("P", "Tucker from the van gave me a bad stomach."),
    ("P", "I can tell salt from sugar with my eyes shut."),
    ("P", "Thanks for the nettle tea, it helped a bit."),
    ("D", "Where's blossom coming from, the trees outside?"),
    ("P", "It was kettle steam that burned my hand."),
    ("P", "Our kettle has limescale all through it."),
    ("P", "Our paddock has nettles right up to the fence."),
    ("D", "Do you want cotton to cover it or a plaster?"),
    ("D", "Do you want salt to gargle with?"),
    ("P", "Cheers, legend, that's a weight off."),
    ("P", "Thanks, ace, that's great news."),
    ("D", "Will blossom be out by then, do you think?"),
    ("P", "Trout from the river gave me a rash once."),
    ("P", "Sparks from the fire burned my arm."),
    ("D", "Okay, right, skip that question for now."),
    ("D", "Right, stamp here and here please."),
    ("P", "I put mustard on everything, it's a habit."),
    ("P", "I'm off pickles since the heartburn started."),
    ("P", "Has fennel been any use for the wind?"),
    ("P", "I keep a digger for the farm and it shakes me."),
    ("P", "Coral and shells cut my foot at the beach."),
    ("P", "I had a fry this morning, I know I shouldn't."),
    ("P", "I need a stamp on the sick note."),
    ("P", "The pickles and the cheese give me a headache."),
    ("P", "My back went lifting a stack of boxes."),
    ("P", "I bashed my head on the wall."),
    ("P", "It's like a hammer in my head."),
    ("P", "I spend a fortune on cotton buds."),
    ("P", "I had a bowl of rice and a bean salad."),
    ("P", "The ledger at work is all on screen now."),
    ("P", "It flared up like a blaze overnight."),
    ("P", "I smelt burnt tallow in the kitchen."),
    ("P", "Do you want flint to spark the stove, he asked."),
    ("P", "The skip outside is full of rubble."),
)

#: origin -> (6 given names, 6 surnames), written as people of that origin write them; English words all
DEV15_NAMES: dict[str, tuple[list[str], list[str]]] = {
    "UK": (["Saffron", "Blossom", "Marigold", "Clemency", "Bramble", "Pip"],
           ["Flint", "Mustard", "Pickles", "Salt", "Cotton", "Nettle"]),
    "Irish": (["Dolly", "Sonny", "Bunny", "Lolly", "Birdie", "Nance"],
              ["Wall", "Shields", "Kettle", "Stack", "Curtain", "Fennell"]),
    "US": (["Royal", "Cash", "Maverick", "Ace", "Legend", "Blaze"],
           ["Bean", "Cannon", "Stamp", "Fry", "Tinker", "Hammer"]),
    "Australian": (["Skip", "Snowy", "Digger", "Coral", "Acacia", "Tex"],
                   ["Paddock", "Shearer", "Trout", "Tucker", "Ledger", "Tallow"]),
}
