"""A forty-first development set of the by-origin de-identification benchmark (issue 50, seventeenth session): given
names that are English words (flowers, gems, colours, virtues, weather and nature words, pet words) where a person
stands in an everyday sentence (the subject of what a person does in a day, "my carer is X , she ...", "i was telling
X about", "going to X's after", "i came in with X"), beside the same words as words in the same places.

UK (91.9 %), Irish (93.9 %) and Samoan (90.9 %) are below 95 % on the held-out half in lower case. On main 40dae43
a lower-case given name that the lists hold as a common word is lost in most everyday places a person stands: the
subject of "fetched", "sent me", "booked", "picked me up", "drove", "noticed"; "my carer is X , she comes"; "i was
telling X about"; "going to X's after"; "i came with X" (the sixteenth session's rules read a list of frames, and
none of these). This set gives 6 origins (UK, US, Irish, Australian, Filipino, Nigerian; 5 to 7 parts each, 36 in
all) such given names, hand-written here (not from Faker, names-dataset or the detector's lists; no part of a name is
any other set's: checked by ``tests/test_deid_dev41.py`` without printing them; a script dropped every candidate a
table holds without printing which), with new surnames, in **38 forms** where a person stands (none of any other
set's), alone and before a surname. **The same words as words** (``DEV41_WORD_USES``, two a dialog, 66 sentences,
in the same places: "the lilac came out early", "pebbles hurt my feet", "my dress is lilac , it's new", "i came in
with candy floss on my top", "thanks , sunshine", "heaven knows how i managed"): each word replaced inside them is a
false replacement, printed by ``bench_deid_origin.py --dev41``.

On main 40dae43, before any rule of this slice (``--dev-only --dev41 --no-real``): cased 96.3 % of 324 names (US
83.3, Nigerian 94.4, the others 100.0), lower case 57.7 % of 480 (Filipino 50.0, Nigerian 56.2, US 57.5, Australian
60.0, UK 61.2, Irish 61.2); words used as words: 113 of 492 sentences' words replaced (sunshine 32, lilac 13,
testimony 12, pebbles 12, purity 6, lily 6, candy floss 5, princess 5, candy canes 5, stormy 5, breezy 5, jewel 5,
ebony 1, unity 1).
Same layout as ``deid_dev39.py``; ``{g}`` given name, ``{s}`` surname."""

from __future__ import annotations

DEV41_FORMS: tuple[tuple[str, str], ...] = (
    # the subject of what a person does in a day
    ("P", "{g} fetched my prescription from the pharmacy."),
    ("P", "{g} booked me a taxi home."),
    ("P", "{g} texted me to say the results were in."),
    ("P", "{g} sent me a photo of the rash last night."),
    ("P", "{g} noticed I was slurring my words at tea."),
    ("P", "{g} spotted the lump when she was washing my back."),
    ("P", "{g} picked me up from the station."),
    ("P", "{g} collected my repeat prescription on Friday."),
    ("P", "{g} emailed the consultant's secretary twice."),
    ("P", "{g} {s} booked this appointment for me."),
    ("P", "{g} wanted me to ask about the scan."),
    ("P", "{g} made me promise to mention the headaches."),
    ("P", "{g} is picking me up at half three."),
    ("P", "{g} came straight over when I called."),
    ("P", "{g} sorted my tablets into the dosette box."),
    ("P", "{g} drove all the way from Leeds to bring me."),
    ("P", "{g} says the swelling is worse at night."),
    ("P", "{g} had to take the day off work to bring me."),
    ("D", "Has {g} noticed any change in your memory?"),
    ("P", "{g} {s} usually does my shopping on a Thursday."),
    # "my carer is X , she ...": the complement of a person's word
    ("P", "My carer is {g}, she comes at nine."),
    ("P", "My support worker is {g}, she's brilliant."),
    ("P", "My next-door neighbour is {g} {s}, she has a key."),
    ("P", "My granddaughter is {g}, she's seventeen now."),
    ("D", "And your daughter's name is {g}, is that right?"),
    ("P", "The nurse who came out was {g}, I think."),
    # the one told, asked, come with, visited
    ("P", "I was telling {g} about the dizzy spells."),
    ("D", "Have you told {g} about the biopsy yet?"),
    ("P", "I came in with {g} today."),
    ("P", "I've come with {g} {s}, my neighbour."),
    ("P", "We're going to {g}'s after this for tea."),
    ("P", "I'm staying at {g}'s till Sunday."),
    ("P", "I'd been round {g}'s all afternoon when it started."),
    ("D", "Would you like {g} to come in with you?"),
    ("P", "I showed {g} the letter and she said to ring."),
    ("P", "I've asked {g} to write my medicines down."),
    ("P", "Me and {g} were in the garden when I went dizzy."),
    ("D", "Was it {g} who rang the ambulance?"),
)

#: the names' words as words in the same places: (speaker, sentence)
DEV41_WORD_USES: tuple[tuple[str, str], ...] = (
    # the subject of a verb: a thing, a weather, a plant
    ("P", "Lilac came out early this year."),
    ("P", "The lilac by the gate has died."),
    ("P", "Pebbles hurt my feet on the beach."),
    ("P", "Sunshine helped my mood no end."),
    ("P", "Sunshine brings my rash out."),
    ("P", "Candy rotted my teeth as a child."),
    ("P", "Heaven knows how I managed."),
    ("P", "Heaven help me if it comes back."),
    ("P", "Stormy weather sets my joints off."),
    ("P", "Breezy days bring the hay fever on."),
    ("D", "Purity of the sample matters for the test."),
    ("P", "Unity is what the ward needs."),
    ("P", "Testimony from the nurse helped my claim."),
    ("P", "Delight was all over her face."),
    ("P", "Orchids need very little water."),
    ("P", "The orchid on my windowsill flowered."),
    ("P", "Ebony keys are the black ones on a piano."),
    ("P", "Dahlias were my dad's pride and joy."),
    ("P", "Jewel thieves broke into the shop next door."),
    ("P", "Pansies came up in the window box."),
    ("P", "Lily pads covered the pond."),
    ("P", "A posy of snowdrops was on the table."),
    # a colour, a kind, a quality after "is"
    ("P", "My dress is lilac, it's new."),
    ("P", "Her bedroom is lilac, she chose it."),
    ("P", "My granddaughter is a princess, she says."),
    ("P", "My carer is a gem, she comes every day."),
    ("P", "My daughter is stormy, she's a teenager."),
    ("P", "Our house is a haven, it's quiet."),
    ("P", "The ring is emerald, it was my mum's."),
    ("P", "The weather was breezy, I think."),
    ("P", "The new doctor was charming, I thought."),
    ("P", "His skin is ebony, very dark."),
    # after "telling", "came in with", "going to", "at"
    ("P", "I came in with candy floss on my top."),
    ("P", "I came in with pebbles in my shoe."),
    ("P", "I was telling stormy tales about the ward."),
    ("P", "We're going to heaven, my nan always said."),
    ("P", "I'm staying at the haven till Sunday."),
    ("P", "The garden was a delight after the rain."),
    ("P", "They stayed at the Emerald Hotel."),
    ("P", "The Emerald Isle, that's home."),
    # a greeting, an endearment (stays)
    ("P", "Thanks, sunshine, see you next week."),
    ("D", "Morning, princess, how are we today?"),
    ("P", "Night night, sunshine."),
    ("P", "You're a jewel, thank you."),
    ("P", "Come here, candy, let me see."),
    # food, gems, plants as things
    ("P", "I had peaches and candy at the fair."),
    ("P", "She gave me an emerald ring."),
    ("P", "The jewel in the crown is the garden."),
    ("P", "A princess cut diamond, very pretty."),
    ("P", "The pansy is my favourite flower."),
    ("P", "We planted a dahlia and a lily."),
    ("P", "The lily smell gives me a headache."),
    ("P", "Sunshine vitamin, that's vitamin D."),
    ("P", "Heaven sent, that carer."),
    ("P", "A bonny baby, eight pounds."),
    ("P", "Bonny Scotland, that's where I'm from."),
    ("P", "Charming, he just walked off."),
    ("P", "To my delight the swelling went down."),
    ("P", "The providence of the samples is checked."),
    ("P", "Unity of purpose, the manager said."),
    ("P", "Purity rings were a thing at school."),
    ("P", "Her testimony was read in court."),
    ("P", "Pebbles on the path, mind your step."),
    ("P", "A stormy night, I couldn't sleep."),
    ("P", "A breezy day, perfect for washing."),
    ("P", "Candy canes at Christmas, I love them."),
)

#: origin -> (given names, surnames): the given names English words the lists hold as common words
DEV41_NAMES: dict[str, tuple[list[str], list[str]]] = {
    "UK": (["Lily", "Posy", "Pansy", "Bonny"], ["Catterall", "Holroyd"]),
    "US": (["Haven", "Candy", "Ebony", "Dahlia"], ["Hensley", "Yancey"]),
    "Irish": (["Emerald", "Lilac", "Orchid"], ["Dunleavy", "McInerney"]),
    "Australian": (["Stormy", "Breezy", "Pebbles"], ["Coutts", "Trethewey"]),
    "Filipino": (["Princess", "Sunshine", "Heaven", "Charming", "Jewel"], ["Malabanan", "Catacutan"]),
    "Nigerian": (["Purity", "Providence", "Testimony", "Delight", "Unity"], ["Uchendu", "Ezeji"]),
}
