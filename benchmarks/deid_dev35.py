"""A thirty-fifth development set of the by-origin de-identification benchmark (issue 50, sixteenth session): UK, Irish,
Scottish and Australian surnames that are common English adjectives, nouns or verbs, after their given name and
alone, in everyday forms no other set has, beside the same words as words in the same places.

UK (91.9 %) and Irish (93.9 %) are below 95 % in lower case on the held-out half, and a probe of the lead lost, in
lower case, surnames that are common English words (adjectives, nouns, verbs) in most forms: the lower-case rules
take a word after a given name found only when it is a gazetteer surname followed by a person's verb or the name's end
(``name_surname_after``), and a bare such word only in a frame. This set gives 4 origins (UK, Irish, Scottish,
Australian; 18 surnames, 7 given names) surnames that are common English words ("Proud", "Keen", "Chambers",
"Savage", "Ring", "Main", "Bell", "Broad", "Swallow"; some in no surname gazetteer, some an ICD-10-CM index word),
hand-written here (not from Faker, names-dataset or the detector's lists; no part of a name is any other set's:
checked by ``tests/test_deid_dev35.py`` without printing them), in **36 everyday forms** no other set has: a full
name before what follows a person ("is {g} {s} your sister-in-law", "i stay over with {g} {s} at christmas", "{g}
{s} popped in yesterday", "we had {g} {s} round for dinner", "my daughter-in-law is {g} {s} .") and the surname alone
where a person stands ("the one who called was {s} .", "sorry , who ? oh , {s} , from the pharmacy", "{s} and i
went", "me and {s} went", "ask {s} , she'll know", "round to {s}'s for tea"). **The same words as words**
(``DEV35_WORD_USES``, two a dialog, 66 sentences, in the same places where English allows: "is Leanne keen on the
idea", "I gave Trevor a ring", "the one who called was strange", "me and house work don't mix", "ask the chemist,
she'll know", "the chambers of the heart", "savage pain it was", "a glass of stout"; the persons named in them,
``DEV35_PERSONS``, are not counted): each word replaced inside them is a false replacement, printed by
``bench_deid_origin.py --dev35``. Plural families ("the Rings came over") are not in the set: the benchmark counts a
name part as a whole word, and "rings" is none.

On main 1f40cf8, before any rule of this slice (``--dev-only --dev35 --no-real``): cased 87.8 % of 344 names (UK
93.0, Irish 88.4, Scottish 89.5, Australian 80.2), lower case 72.9 % of 472 (UK 71.2, Irish 72.9, Scottish 79.7,
Australian 67.8); words used as words: 21 of 328 sentences' words replaced (bell 5, proud 4, stout 4, crook 4, keen
3, "proud moment" 1).

Same layout as ``deid_dev32.py``; ``{g}`` given name, ``{s}`` surname."""

from __future__ import annotations

DEV35_FORMS: tuple[tuple[str, str], ...] = (
    ("D", "Is {g} {s} your sister-in-law, then?"),
    ("D", "Was {g} {s} the one who brought you in?"),
    ("D", "Has {g} {s} been in touch since?"),
    ("P", "I stay over with {g} {s} at Christmas."),
    ("P", "I go to church with {g} {s} on Sundays."),
    ("P", "I've been seeing {g} {s} at the clinic for years."),
    ("P", "My daughter-in-law is {g} {s}."),
    ("P", "{g} {s} rang the surgery for me."),
    ("P", "{g} {s} from across the road has a key."),
    ("P", "{g} {s} and her husband live next door."),
    ("P", "We had {g} {s} round for dinner on Friday."),
    ("D", "Can you send a copy to {g} {s} as well?"),
    ("P", "{g} {s} drove me home after the scan."),
    ("P", "That's {g} {s}, my sister-in-law."),
    ("P", "I asked {g} {s} to pick up my prescription."),
    ("D", "Put {g} {s} down as your emergency contact, then."),
    ("P", "I live with my partner {g} {s} in a flat."),
    ("P", "{g} {s} popped in yesterday with some shopping."),
    ("P", "Me and {g} {s} walk the dog every morning."),
    ("D", "Last name {s}, first name {g}, is that right?"),
    ("P", "I think {g} {s} has the spare key."),
    ("P", "My old boss, {g} {s}, had the same thing."),
    ("P", "The one who called was {s}."),
    ("P", "Sorry, who? Oh, {s}, from the pharmacy."),
    ("P", "{s} and I went to the walk-in centre."),
    ("P", "Me and {s} went to the match on Saturday."),
    ("P", "Ask {s}, she'll know."),
    ("P", "We went round to {s}'s for tea."),
    ("P", "I was with {s} when it happened."),
    ("P", "{s} from number twelve found me on the floor."),
    ("P", "I've known {s} for thirty years."),
    ("D", "Was it {s} who referred you?"),
    ("P", "Nobody came except {s} and her lad."),
    ("P", "Mrs {s} next door feeds the cat when I'm in."),
    ("P", "{s}'s boy gave me a lift."),
    ("P", "Only {s} knows the code for the key safe."),
)

#: the surnames' words as words, in the forms' places where English allows it: (speaker, sentence)
DEV35_WORD_USES: tuple[tuple[str, str], ...] = (
    ("D", "Is Leanne keen on the idea of surgery?"),
    ("D", "Is Shaun proud of how far you've come?"),
    ("D", "Was Fraser strange with you after the fall?"),
    ("P", "I gave Trevor a ring last night."),
    ("P", "Give Shaun a ring when you get home."),
    ("P", "I told Carly straight, no more takeaways."),
    ("P", "I stay with Leanne most weekends, she has a spare room."),
    ("P", "I go to church with Mhairi on Sundays."),
    ("P", "We had Jarrod round for dinner, he's so keen on cooking."),
    ("P", "Shaun swallowed a fish bone once."),
    ("P", "Leanne's main worry is the stairs."),
    ("D", "Has Fraser been in touch since the main operation?"),
    ("P", "The one who called was strange, he didn't leave a name."),
    ("P", "The one who called was keen to get me in."),
    ("P", "The main one who helped was the nurse."),
    ("P", "Sorry, who? Oh, never mind, it was the main desk."),
    ("P", "Swallow and I choke, that's the problem."),
    ("P", "Me and the house are both falling apart."),
    ("P", "Me and house work don't mix these days."),
    ("P", "Ask reception, they'll know."),
    ("P", "Ask the chemist, she'll know the dose."),
    ("P", "We went round to the house for tea."),
    ("P", "I was with a savage headache when it happened."),
    ("P", "Bell from the front door woke me at six."),
    ("P", "I've known strange pains like this for years."),
    ("P", "Nobody came except the main doctor."),
    ("P", "Only broad beans give me wind like that."),
    ("P", "The pain was savage, I couldn't sleep."),
    ("P", "I'm keen to get back to work."),
    ("P", "She's very proud of her garden."),
    ("P", "It felt like a brick on my chest."),
    ("P", "We went on a cruise in June."),
    ("P", "He's a bit of a crook, that landlord."),
    ("P", "The crook of my elbow is sore where they took blood."),
    ("P", "I can't swallow properly."),
    ("D", "Does it hurt when you swallow?"),
    ("D", "Any trouble swallowing tablets?"),
    ("P", "It's a strange feeling in my leg."),
    ("P", "The main thing is I can walk."),
    ("P", "Take the main road past the weir."),
    ("P", "The weir was flooded after the rain."),
    ("P", "The doorbell rang and I jumped."),
    ("P", "Ring the bell and they'll let you in."),
    ("D", "Give us a ring if it gets worse."),
    ("P", "My wedding ring doesn't fit any more."),
    ("P", "A broad rash came up across my back."),
    ("P", "In broad daylight I tripped on the kerb."),
    ("P", "He's a stout man, my dad, always has been."),
    ("P", "A glass of stout on a Sunday, that's all."),
    ("D", "The chambers of the heart look normal on the echo."),
    ("P", "We had to leave the house at six."),
    ("P", "House keeping is too much for me now."),
    ("P", "The laird's estate is where I worked for years."),
    ("P", "Down by the lough there's a lovely walk."),
    ("P", "A swallow nested in the shed."),
    ("P", "Keen as mustard, my grandson."),
    ("P", "Proud moment when I walked without the frame."),
    ("P", "Strange, it came on all of a sudden."),
    ("P", "Savage pain it was, doctor."),
    ("P", "Brick by brick, they rebuilt the wall."),
    ("P", "Main thing is the swelling's gone down."),
    ("P", "Broad shoulders, that's what my mum said."),
    ("P", "Crook back, crook knees, the lot."),
    ("P", "House bound since the stroke."),
    ("P", "Bell went at three and the kids came out."),
    ("P", "Ring me when the results are in."),
)

#: the persons' given names in ``DEV35_WORD_USES`` ("Is Leanne keen on"): not counted when replaced
DEV35_PERSONS = frozenset("leanne shaun fraser trevor carly mhairi jarrod".split())

#: origin -> (given names, surnames), written as people of that origin write them; every surname a common English
#: adjective, noun or verb
DEV35_NAMES: dict[str, tuple[list[str], list[str]]] = {
    "UK": (["Kirsty", "Darren"], ["Proud", "Keen", "Chambers", "House", "Crook"]),
    "Irish": (["Fergal"], ["Savage", "Ring", "Brick", "Cruise", "Lough"]),
    "Scottish": (["Ailsa", "Euan"], ["Weir", "Main", "Bell", "Laird"]),
    "Australian": (["Bronwyn", "Darryl"], ["Broad", "Stout", "Swallow", "Strange"]),
}
