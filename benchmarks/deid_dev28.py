"""A twenty-eighth development set of the by-origin de-identification benchmark (issue 50, fourteenth session): given
names and surnames that the word lists hold only as words English text hardly writes -- philter-ucsf's whitelist of
foreign words, species and abbreviations, or a rare dictionary headword -- and that no gazetteer holds, in the places
where a person stands, beside the same words and words of that kind as words.

The lead's probe lost Samoan "eti", "fetu" and a Haitian "wisly" in 16-20 of 24 lower-case forms: the lower-case
person-place rules take a word in no list, but these are listed. This set gives 6 origins (Nigerian, Ugandan,
Samoan, Polynesian, Welsh, Haitian) such names, hand-written here (not from Faker, names-dataset or the detector's
lists; none of the lead's probe names; no part of a name is any other set's: checked by ``tests/test_deid_dev28.py``
without printing them; a script dropped every candidate a table holds without printing which), in **32 forms**
where a person stands (a person's verb after the bare word, after to/with/from/for, told/asked/rung, "it was X
who", a list with "me", the one addressed, "X is picking me up"). The given names' English frequencies (wordfreq
Zipf) are 1.0 to 2.9: Ebi 2.2, Ifa 2.8, Dembe 1.6, Uso 2.8, Teine 1.0, Pika 2.6, Ahu 2.1, Mab 2.6, Dodo 2.9; the
surnames are in no list but Peau (1.9). **The same words and words of that kind as words** (``DEV28_WORD_USES``, 60
sentences in the same places: "the dodo is extinct", "i had ebi tempura", "with kowa cream"): each word replaced
inside them is a false replacement, printed by ``bench_deid_origin.py --dev28``.

On main 4030b4a, before any rule of the fourteenth session (``--dev-only --dev28 --no-real``): cased 43.6 % of 330
names (Nigerian, Ugandan, Welsh, Haitian 38.2, Polynesian 50.9, Samoan 58.2: even capitalised inside a sentence such
a word is read as a word), lower case 15.0 % of 452 (Polynesian 0.0, Welsh 13.9, Nigerian, Ugandan, Haitian 17.1,
Samoan 25.0); words used as words: 17 of 490 sentences' words replaced (taro 6, kava 6, queen 5).
Same layout as ``deid_dev20.py``; ``{g}`` given name, ``{s}`` surname."""

from __future__ import annotations

DEV28_FORMS: tuple[tuple[str, str], ...] = (
    # a person's verb after the bare word, the clause's subject
    ("P", "{g} brought me in today because I was dizzy."),
    ("P", "{g} phoned the pharmacy about it yesterday."),
    ("P", "{g} reckons I should have come sooner."),
    ("D", "And {g} noticed the swelling first?"),
    ("P", "{g} keeps nagging me to rest more."),
    ("P", "Last night {g} heard me coughing."),
    # after a preposition, a person
    ("P", "I spoke to {g} on Sunday about the pain."),
    ("P", "I'm staying with {g} for a few weeks."),
    ("P", "I got a lift from {g} this morning."),
    ("D", "Could you pass this letter to {g} for me?"),
    ("P", "I left the spare key with {g} downstairs."),
    ("P", "I was on the phone to {g} for an hour."),
    # told, asked, rung
    ("D", "Please tell {g} the results will take a week."),
    ("P", "I'll ask {g} whether she can bring my slippers."),
    ("P", "I'll ring {g} once we're done here."),
    ("D", "Can you get {g} to call the ward later?"),
    ("P", "I'll let {g} know what you said."),
    # it was X who, who-questions
    ("P", "It was {g} who found me on the floor."),
    ("D", "Who is at home with you? {g}?"),
    ("P", "Who came with me? That was {g}."),
    # lists with me, the progressive subject
    ("P", "Me, {g} and the kids all had the same bug."),
    ("P", "{g} and I share the flat on the second floor."),
    ("P", "{g} is fetching me at half four."),
    ("P", "{g} was with me when it happened."),
    ("P", "I think {g} has the discharge papers."),
    # the one addressed
    ("D", "Thanks for coming in, {g}."),
    ("D", "{g}, could you sit up on the couch for me?"),
    ("D", "Okay {g}, we'll start with your blood pressure."),
    # surnames
    ("D", "Is that {g} {s} with two names?"),
    ("P", "My neighbour {s} keeps an eye on me."),
    ("D", "I'll write to Mr {s} about the scan."),
    ("P", "You can put {g} {s} down as next of kin."),
)

DEV28_WORD_USES: tuple[tuple[str, str], ...] = (
    ("P", "The dodo was on the telly last night, the extinct bird."),
    ("P", "We saw a pika on holiday, like a little rabbit."),
    ("P", "I had ebi tempura for lunch and felt sick after."),
    ("P", "My friend follows ifa, it's a Yoruba thing."),
    ("P", "The cream said peau sensible on the tube."),
    ("P", "They built an ahu on the island, a stone platform."),
    ("P", "I used uso water from the market, it's a brand."),
    ("P", "Queen mab is in the play my grandson is in."),
    ("P", "Dead as a dodo, that old machine."),
    ("P", "I spoke to the dodo man at the museum."),
    ("P", "I'm staying with the cream for a few weeks."),
    ("P", "I got a lift from the bus this morning."),
    ("D", "Could you pass this letter to reception for me?"),
    ("P", "I left the spare key with reception downstairs."),
    ("P", "I was on the phone to the pharmacy for an hour."),
    ("D", "Please tell reception the results will take a week."),
    ("P", "I'll ask whether she can bring my slippers."),
    ("P", "I'll ring reception once we're done here."),
    ("D", "Can you get the ward to call later?"),
    ("P", "It was the dodo that started it, the kids' film."),
    ("D", "Who is at home with you? Nobody?"),
    ("P", "Me, the cat and the kids all had the same bug."),
    ("P", "Tea and I don't mix any more."),
    ("P", "The pika is collecting nuts in the video."),
    ("P", "I think ebi has shellfish in it, so no."),
    ("D", "Thanks for coming in, everyone."),
    ("D", "Okay then, we'll start with your blood pressure."),
    ("P", "I bought some kowa cream for the rash."),
    ("P", "I take limi drops the chemist gave me."),
    ("P", "The chemist said apoi is just a herbal thing."),
    ("P", "I'm on a diet with poi and fish, it's Hawaiian."),
    ("P", "We had taro and poi at the party."),
    ("P", "I tried ifa readings once, never again."),
    ("P", "My grandson plays with a dodo toy."),
    ("P", "A pika lives up in the mountains."),
    ("P", "I like ebi sushi, the prawn one."),
    ("P", "The dodo is extinct, everyone knows that."),
    ("P", "It says peau on the bottle, French for skin."),
    ("P", "I went to mab's bar for the quiz."),
    ("P", "Uso is a Samoan word for brother, he says."),
    ("P", "They call the platform an ahu over there."),
    ("P", "Teine means girl, my neighbour told me."),
    ("D", "Any shellfish allergy? Ebi, prawns, crab?"),
    ("P", "I had a dodo pie once at a fancy do, not really."),
    ("P", "The pika on the calendar is so cute."),
    ("P", "I used a mab cream, it's a brand name."),
    ("P", "I have sleep apnea, my osa is bad."),
    ("P", "I came in with osa and reflux."),
    ("D", "Do you use the cpap for your osa every night?"),
    ("P", "I'm taking it with ufo juice, it's orange."),
    ("P", "I told the ufo story to the nurse."),
    ("P", "With api honey the cough got better."),
    ("P", "It was epi that they gave me, the pen."),
    ("P", "I rang about my epi pen prescription."),
    ("P", "The kava made me sleepy."),
    ("P", "I drink kava with my friends on Fridays."),
    ("P", "I ate some pua fruit, I think that's what it's called."),
    ("P", "The laau from my aunt is a herbal remedy."),
    ("P", "My auntie makes laau for colds."),
    ("P", "I talked to nurse about the ipo thing."),
)

DEV28_NAMES: dict[str, tuple[list[str], list[str]]] = {
    "Nigerian": (["Ebi", "Ifa"], ["Ebikake"]),
    "Ugandan": (["Dembe"], ["Ssekandi"]),
    "Samoan": (["Uso", "Teine"], ["Leiataualesa"]),
    "Polynesian": (["Pika", "Ahu"], ["Peau"]),
    "Welsh": (["Mab"], ["Prydderch"]),
    "Haitian": (["Dodo"], ["Lormil"]),
}
