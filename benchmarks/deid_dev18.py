"""An eighteenth development set of the by-origin de-identification benchmark (issue 50, twelfth session): given names
and surnames that the word lists call words only because a dictionary holds a headword of that spelling, in the
seventeenth set's plain forms, beside words of the same kind and frequency used as words.

In lower case a gazetteer name is taken wherever it stands when no list calls it a word, or when only GCIDE's
headwords do and English text seldom uses it (``vocab.rare_as_a_word``: Zipf below 3.5, seldom inflected). A name
that English text writes more often, because it is a name ("webster", "murphy", "marc"), or one whose letters end
like an inflection of another word, is ``common``, and only the context rules take it. Every name here was written
by hand (not from Faker, names-dataset or the detector's lists), and kept only where ``name_word.word_facts`` calls
it ``common`` and not ``rare``, philter-ucsf's whitelist and ``vocab.SPOKEN_WORDS`` do not hold it, and it is no
clinical word, no name of the twelfth session's probe (``/work/notes/s12/probe.py``) and no part of another set's
names (``tests/test_deid_dev18.py``, counts only). Wanted: 8 names or more of each of the six origins the held-out
half loses in lower case. About 700 names were drafted and checked; the kind is scarce: most names of these origins
are in no list, rare already, or a whitelist word, and many of the rest are another set's. Kept, 65 names of 15
origins: Samoan 3, Haitian 8, Korean 2, Punjabi 7, UK 12, Irish 7, and Scottish, Chinese, US, Norwegian, Arabic,
Yoruba, Bengali, Spanish, Filipino 2-4 each. Samoan and Korean fall short of 8 (their names of the kind are the
probe's or another set's), which itself says these two origins' lower-case losses are mostly of other kinds.

The forms are the seventeenth set's (``deid_dev17.DEV17_FORMS``: 244 plain forms of clinic conversation, a name in
every place a conversation puts one but right after an article), every form for every origin (``DEV17_REPEAT``).
Beside them, ``DEV18_WORD_USES``: sentences using words of the same kind (gazetteer names of the same Zipf band that
the lists call words only through GCIDE, philter's whitelist having dropped them for being names) as the words they
are in speech ("i've sung in the choir", "i think basil helps", "i got a rash from amber beads"), in the same kinds
of place; each word replaced inside them is a false replacement. ``python benchmarks/bench_deid_origin.py
--dev-only --halves none --dev18 --no-before --no-real`` reports it per origin as the ``dev18`` half.

On main c7a9983 (f61e529's rules), before any rule of the twelfth session (``--dev-only --halves none --dev18 --no-before --no-real``;
244 forms once per origin, 121 cased and 166 lower-case names an origin): cased 96.9 % of 1,815 names (4 names lost an
origin, Haitian 3, Korean 2), lower case 66.0 % of 2,490 (Punjabi 48.2,
Filipino 49.4, Irish 53.6, UK 54.8, Chinese 57.2, US 57.2, Haitian 60.2, Yoruba 66.9, Arabic 74.7, Samoan 75.3,
Norwegian 75.3, Bengali 75.3, Scottish 75.9, Spanish 75.9, Korean 90.4); words used as words: 300 of 2,460
sentences' words replaced (rosemary 60 in "rosemary steep", cookie 60 in "cookie dough", kitty 60 in "kitty litter",
heather 30, gorse 30, ash 30, bang 30).
"""

from __future__ import annotations

#: origin -> (given names, surnames), written as people of that origin write them
DEV18_NAMES: dict[str, tuple[list[str], list[str]]] = {
    "Samoan": (["Saga"], ["Tuna", "Tapa"]),
    "Haitian": (["Napoleon", "Jacky", "Jimmy", "Betty", "Valentine", "Hyacinth", "Florence"], ["Benjamin"]),
    "Korean": (["Bin"], ["Gam"]),
    "Punjabi": (["Dev", "Tony", "Baba", "Rosy", "Twinkle"], ["Mand", "Khan"]),
    "UK": (["Perry", "Barry", "Ted", "Jasper", "Toby", "Polly"], ["Webster", "Sawyer", "Reeve", "Chapman", "Currier",
            "Draper"]),
    "Irish": (["Erin", "Tommy", "Benny", "Mick"], ["Hogan", "Fay", "Canty"]),
    "Scottish": (["Jock"], ["Bain"]),
    "Chinese": (["Lin", "Ling", "Ping"], ["Tang"]),
    "US": (["Brad", "Hank", "Dale"], ["Duke"]),
    "Norwegian": (["Tor"], ["Holm"]),
    "Arabic": (["Sultan"], ["Imam"]),
    "Yoruba": (["Wale", "Sola"], ["Akin"]),
    "Bengali": (["Deva"], ["Nag", "Dey"]),
    "Spanish": (["Nacho"], ["Bravo", "Vega"]),
    "Filipino": (["Bing", "Ding"], ["Luna"]),
}

#: words of the same kind used as words, in the forms' kinds of place: (speaker, sentence)
DEV18_WORD_USES: tuple[tuple[str, str], ...] = (
    ("P", "I think basil helps, I put it on everything."),
    ("P", "I think brandy has helped the cough more than the syrup."),
    ("P", "Honestly, pepper makes my mouth burn now."),
    ("P", "Even olive oil upsets my stomach these days."),
    ("P", "And then bang, I was on the floor."),
    ("P", "I'll let rosemary steep for ten minutes and drink it."),
    ("P", "Me, pepper and salt, that's all I season with."),
    ("P", "I got a rash from amber beads on my wrist."),
    ("P", "I was with daisy chains in the park all afternoon, playing with the kids."),
    ("P", "Rocky road is my weakness, I know."),
    ("P", "I've sung in the choir for years, so my lungs are good."),
    ("P", "We sang happy birthday and I got breathless."),
    ("P", "I hung the washing out and felt dizzy."),
    ("P", "I steer with one hand because of the shoulder."),
    ("P", "I can hear crow calls all night from the trees."),
    ("P", "I flick the switch and my hand shakes."),
    ("P", "I had cookie dough ice cream, I know I shouldn't."),
    ("P", "I fell on my butt on the ice."),
    ("P", "My yoga guru says I should breathe slower."),
    ("P", "I was pulling up poppy seedlings when my back went."),
    ("P", "It's a dusty old house and it gets on my chest."),
    ("P", "I buy dolly mixtures for the grandkids."),
    ("P", "I dropped a penny down the drain and bent over too fast."),
    ("P", "I paid in sterling at the airport, long story."),
    ("P", "I put clove oil on the tooth last night."),
    ("D", "Hazel eyes run in families, yes."),
    ("P", "I'm allergic to birch pollen in the spring."),
    ("P", "I walked through the meadow and the grass set me off."),
    ("P", "My daughter's bunny scratched my arm."),
    ("P", "Kitty litter makes me sneeze."),
    ("D", "You're a champ, that's the hardest bit over."),
    ("P", "The pain goes down my leg like an arrow."),
    ("P", "When I bow my head it gets worse."),
    ("P", "We walked up on the moor and I got breathless."),
    ("P", "I drink jasmine tea every night."),
    ("P", "Autumn is when my asthma flares."),
    ("P", "I've got a rusty bike I ride to work."),
    ("P", "I caught a pike and pulled my back landing it."),
    ("P", "I fill the finch feeders every morning."),
    ("P", "I walk by the brook every morning."),
    ("P", "The lily on the table makes me sneeze."),
    ("P", "Bliss, honestly, no pain at all after the injection."),
    ("P", "My eyes are amber in some light, my wife says."),
    ("P", "Who brought you? Heather and gorse, we came over the hills on foot."),
    ("P", "I work as a porter at the hospital, lots of lifting."),
    ("P", "Ash from the bonfire got in my eye."),
    ("P", "I'm a baker, so I'm up at four every day."),
    ("P", "My grandson's a drummer, bang bang bang all day."),
)
