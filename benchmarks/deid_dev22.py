"""A twenty-second development set of the by-origin de-identification benchmark (issue 50, thirteenth session): names
that ICD-10-CM calls "condition" words only through its external-cause chapter (V00-Y99: "Fall from cliff",
"Struck by cricket bat", "Amusement park as the place of occurrence") or its factors chapter (Z00-Z99: "Problems
related to living in foster care", "Insufficient welfare support"), in the places the lower-case rules read, beside
the same words (and the external-cause words of the lead's probe) used as words in the same places.

``vocab._condition_parts`` takes every lower-case word of every ICD-10-CM description and note as a clinical
"condition" word, and no name rule takes a clinical word for a name: a person called Cliff, Rider or Harvest is lost
in lower case wherever a word of that frequency would be taken. This set gives 8 origins (UK, US, Irish, Haitian,
Korean, Punjabi, Nigerian, Samoan: 4 names each), hand-written here (not from Faker, names-dataset or the detector's
lists; none of the lead's probe names; no part of a name is any other set's: checked by ``tests/test_deid_dev22.py``
without printing them), every one a gazetteer name whose only ICD-10-CM uses are in chapters 20 and 21 (the English
given names and nicknames that Korean, Punjabi, Nigerian, Haitian and Samoan people carry: Cherry, Money, Harvest,
Prime, Polo). **46 forms**: where only a person stands (a person's verb after the bare word, "it was X who"), after
with/from, as an answer, in a list with "me" or a relative, after a title, addressed, tell/ask/let X, "X is picking",
hand-over lines, a relative in apposition. **The same words as words** (``DEV22_WORD_USES``, two a dialog, 66
sentences: "It was the cliff path that did it", "I came back from holiday", "Rain, wind and cold make it worse",
"Frank blood in the urine", "I will go", "We went to the park"): each word replaced inside them is a false
replacement, printed by ``bench_deid_origin.py --dev22``.

On main ed6dfca, before any rule of the thirteenth session (``--dev-only --dev22 --no-real``): cased 72.1 % of 408
names (UK 80.4, US 72.5, Irish 80.4, Haitian 70.6, Korean 58.8, Punjabi 68.6, Nigerian 58.8, Samoan 86.3), lower case
35.1 % of 584 (UK 39.7, US 48.6, Irish 38.6, Haitian 29.7, Korean 29.7, Punjabi 28.4, Nigerian 29.7, Samoan 36.6);
words used as words: 22 of 652 sentences' words replaced (telly 14, jacks 8).
Same layout as ``deid_dev20.py``; ``{g}`` given name, ``{s}`` surname."""

from __future__ import annotations

DEV22_FORMS: tuple[tuple[str, str], ...] = (
    # a person's verb after the bare word, "it was X who"
    ("P", "{g} drove me in today."),
    ("P", "{g} says the tablets help."),
    ("P", "It was {g} who called the ambulance."),
    ("P", "{g} told me to come back if it got worse."),
    ("D", "Did {g} mention the scan to you?"),
    ("P", "{g} and her husband came along too."),
    ("P", "{g} wants me to stop smoking."),
    ("P", "{s} thinks it's my knee again."),
    # after with / from
    ("P", "I came in with {g} after lunch."),
    ("P", "I got a lift from {g}."),
    ("P", "I live with {g} and the kids."),
    ("P", "There was a letter from {s} about it."),
    ("P", "I spoke with {g} last night."),
    ("P", "I heard from {g} on Monday."),
    # as an answer
    ("P", "Who brought me in? {g} did."),
    ("P", "My emergency contact? {g}."),
    ("P", "Who's at home with me? Just {g}."),
    # a list
    ("P", "Me, {g} and my mum live there."),
    ("P", "{g}, my sister and I share the flat."),
    ("P", "It's just me and {g} now."),
    ("P", "My sister, {g} and I went to the clinic."),
    # after a title
    ("D", "Mr {s} is in room two."),
    ("D", "Dr {s} will see you next."),
    ("P", "Mrs {s} is my neighbour."),
    ("D", "Nurse {g} will take your bloods."),
    ("D", "This is Mr {s}, the physio."),
    ("P", "Ms {s} from the council rang."),
    # addressed
    ("D", "Thanks, {g}, that's all for today."),
    ("D", "Hello {g}, come on in."),
    ("D", "{g}, can you lie back for me?"),
    ("P", "See you later, {g}."),
    # tell / ask / ring / let X
    ("P", "I'll tell {g} to pick me up."),
    ("D", "Ask {g} to bring your list of tablets."),
    ("P", "Can you ring {g} for me?"),
    ("P", "Let {g} know I'm fine."),
    # a progressive's subject, hand-over lines
    ("P", "{g} is picking me up at five."),
    ("D", "Handover from {g}: bed six is settled."),
    ("D", "Hand over from {s}: bay two needs obs."),
    # a relative in apposition, possessives, a full name
    ("P", "My daughter {g} does my shopping."),
    ("P", "My brother-in-law, {g}, drove me here."),
    ("P", "{g}'s the one who found me."),
    ("P", "I'm staying at {g}'s place this week."),
    ("P", "My carer {g} helps me wash."),
    ("P", "{g} {s} is down as my next of kin."),
    ("D", "Is {g} still doing your shopping?"),
    ("P", "I think {g} has my repeat prescription."),
)

#: the names' words (and the probe's external-cause words) as ordinary words, in the forms' places: (speaker, sentence)
DEV22_WORD_USES: tuple[tuple[str, str], ...] = (
    # a bare subject before a verb, "it was X that"
    ("P", "Rain makes my knee ache."),
    ("P", "Money is tight at the moment."),
    ("P", "Duty calls, I'm afraid."),
    ("P", "Harvest starts next week on the farm."),
    ("P", "Court takes up most of my week."),
    ("P", "Welfare pays for the carer."),
    ("P", "It was the cliff path that did it."),
    ("P", "It was rain that made me slip."),
    ("P", "It was a cricket ball that hit me."),
    ("P", "It was prime time telly when it started."),
    # after with / from
    ("P", "I fell from the hill behind the house."),
    ("P", "I came back from holiday last week."),
    ("P", "I was hit with a cricket bat."),
    ("P", "I got a lift from the coach station."),
    ("P", "I cut my hand with a hedge trimmer."),
    ("P", "I slipped with the hose in my hand."),
    ("P", "I fell from a swing at the park."),
    ("P", "I walked back from the harbor."),
    ("P", "The cut is from a rusty pin."),
    ("P", "I got a splinter from the fence by the lake."),
    # as an answer
    ("D", "Where did you fall? The park?"),
    ("P", "What was I doing? Cricket."),
    ("P", "Where was it? By the lake."),
    ("P", "When did it start? On holiday."),
    ("P", "What hit me? A bull."),
    ("P", "What do I do? Welfare rights advice."),
    # a list
    ("P", "Rain, wind and cold make it worse."),
    ("P", "Me, the dog and the cat live there."),
    ("P", "Tea, money and a phone, that's all I took."),
    ("P", "Cherry, apple and pear trees in the garden."),
    ("P", "Snow, ice and the steps are the worry."),
    # after a determiner or a title-like word
    ("P", "The coach driver helped me off."),
    ("P", "The ram charged at me."),
    ("P", "The tank was nearly empty."),
    ("P", "The sky was dark when I fell."),
    ("P", "The lion at the zoo roared."),
    ("P", "The rider fell off his bike."),
    ("P", "The merchant sold me the ladder."),
    ("P", "The derrick at the rig collapsed."),
    ("P", "The forest path was muddy."),
    ("P", "The polo match was on Sunday."),
    ("P", "The tiller hit my shin."),
    ("P", "The fountain in town is off."),
    ("P", "The dock was wet and slippery."),
    ("P", "The rocket went up at the fireworks."),
    # tell / ask / let + the word, a progressive
    ("P", "Tell me if the rain stops."),
    ("P", "Ask the merchant for a refund."),
    ("P", "Let money worry about itself."),
    ("P", "Harvest is picking up this year."),
    # verbs and other uses
    ("P", "I render fat for the birds."),
    ("P", "It's a prime example of bad luck."),
    ("P", "I'm off duty tomorrow."),
    ("P", "I'm in foster care with my sister's kids."),
    ("P", "I pin the dressing with tape."),
    ("P", "Jacks and a spanner are in the boot."),
    # the probe's external-cause and factor words, as words
    ("P", "We went to the park on Sunday."),
    ("D", "He is young for a stroke."),
    ("P", "She fell from the hill at the back."),
    ("D", "There may be a stone in your kidney."),
    ("D", "Is there frank blood in the urine?"),
    ("P", "The bill came yesterday."),
    ("P", "I will go tomorrow."),
    ("P", "The hall was slippery."),
    ("P", "I chopped some wood and hurt my back."),
    ("P", "Brown spots on my arm, here."),
    ("P", "Green phlegm since Tuesday."),
)

#: origin -> (given names, surnames), written as people of that origin write them; ICD-10-CM words only through its
#: external-cause (V-Y) or factors (Z) chapter, all
DEV22_NAMES: dict[str, tuple[list[str], list[str]]] = {
    "UK": (["Cliff", "Foster"], ["Bull", "Coach"]),
    "US": (["Derrick", "Forest"], ["Rider", "Lake"]),
    "Irish": (["Fountain"], ["Tiller", "Hedge", "Court"]),
    "Haitian": (["Prime", "Render"], ["Merchant", "Jacks"]),
    "Korean": (["Cherry", "Rain", "Sky"], ["Pin"]),
    "Punjabi": (["Ram", "Money", "Rocket"], ["Tank"]),
    "Nigerian": (["Harvest", "Welfare", "Duty"], ["Holiday"]),
    "Samoan": (["Polo", "Harbor", "Lion"], ["Dock"]),
}
