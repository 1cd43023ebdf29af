"""A fortieth development set of the by-origin de-identification benchmark (issue 50, seventeenth session): surnames
that are clinical eponyms (a disease's, a sign's, a test's or a procedure's name) where a person stands, beside the
same words as eponyms where clinic speech puts them.

UK (91.9 %) and Irish (93.9 %) are among the lowest origins on the held-out half in lower case. Every lower-case rule
refuses a word the lists mark as a clinical condition that ICD-10-CM writes only capitalised (an eponym: "Parkinson",
"Cushing", "Kawasaki", "Merkel"), so on main 40dae43 a relative, carer or neighbour whose surname is a disease's, a
sign's or a procedure's name is kept wherever no title stands before it ("parkinson sends her love .", "my neighbour
cushing drove me in ."), cased too. This set gives 6 origins (UK, US, German, Japanese, Italian, US Jewish; 6 to 8
parts each, 39 in all) such surnames and everyday given names, hand-written here (not from Faker, names-dataset or
the detector's lists; none of the brief's probe names but those the eponym list holds; no part of a name is any other
set's: checked by ``tests/test_deid_dev40.py`` without printing them; a script dropped every candidate a table holds
without printing which), in **34 everyday forms** none of the other sets has: a full name where a person stands
("My neighbour {g} {s} brought me in today."), the surname alone where only a person stands ("{s} sends her love",
"My carer is {s}", "I came with {s} today", "{s} booked this appointment for me."), and the same person named twice
("{g} {s} drove me here. {s} is waiting outside."). **The same words as eponyms** (``DEV40_WORD_USES``, two a
dialog, 62 sentences, where clinic speech puts them: "his parkinson's is worse", "the Parkinson nurse", "I've got
parkinsons", "they did a whipple", "a Pott's fracture", "Kawasaki disease", "Merkel cell carcinoma", "Erb's palsy",
"a Mallory-Weiss tear", "positive Hashimoto antibodies"): each word replaced inside them is a false replacement,
printed by ``bench_deid_origin.py --dev40``.

On main 40dae43, before any rule of this slice (``--dev-only --dev40 --no-real``): cased 69.0 % of 564 names (UK
51.1, German 70.2, US Jewish 70.2, US 71.3, Japanese 75.5, Italian 75.5), lower case 66.3 % of 786 (UK 53.4, German
53.4, US Jewish 60.3, US 70.2, Japanese 80.2, Italian 80.2); words used as words: 16 of 492 sentences' words replaced
(reed-sternberg 6, albright 5, vogt-koyanagi-harada 5).

Same layout as ``deid_dev32.py``; ``{g}`` given name, ``{s}`` surname."""

from __future__ import annotations

DEV40_FORMS: tuple[tuple[str, str], ...] = (
    # a full name where a person stands
    ("P", "My neighbour {g} {s} brought me in today."),
    ("P", "{g} {s} is my carer, she comes in every morning."),
    ("P", "This is my son-in-law, {g} {s}."),
    ("D", "Is {g} {s} still down as your next of kin?"),
    ("P", "{g} {s} signed for the parcel of tablets."),
    ("D", "Can {g} {s} come in with you next time?"),
    ("P", "I live with {g} {s}, my partner."),
    ("P", "The lady who helps me out is {g} {s}."),
    ("P", "{g} {s} is coming to collect me at four."),
    ("P", "It was {g} {s} who found me on the stairs."),
    # the surname alone, where only a person stands
    ("P", "{s} sends her love, she couldn't make it."),
    ("P", "My carer is {s}, she's off today."),
    ("P", "I came with {s} today, he's parking the car."),
    ("P", "{s} booked this appointment for me."),
    ("P", "My lodger {s} keeps an eye on me."),
    ("P", "{s} rang me on Sunday night about the scan."),
    ("P", "{s} from church visits on Tuesdays."),
    ("P", "My mate {s} told me to come in."),
    ("P", "Me and {s} go walking on Sundays."),
    ("P", "{s} and I have been friends since school."),
    ("D", "Would you like {s} to stay while I examine you?"),
    ("P", "{s} picks up my prescriptions for me."),
    ("P", "Yes, {s} is my husband's brother."),
    ("P", "{s} is my emergency contact now."),
    ("P", "Ring {s} if I'm not answering."),
    # the same person named twice
    ("P", "{g} {s} drove me here. {s} is waiting outside."),
    ("P", "My key worker is {g} {s}, {s} sorted the referral."),
    ("P", "My friend {g} {s} had a fall too. {s} broke her wrist."),
    ("P", "My cousin {g} {s} is a pharmacist, {s} said to ask you."),
    ("D", "Hello, you must be {g} {s}. {s}, come and sit down."),
    ("P", "The warden here is {g} {s}. {s} checks on me daily."),
    ("D", "I spoke to {g} {s} on the phone. {s} was worried about you."),
    ("P", "{g} {s} lives two doors down. {s} has a spare key."),
    ("P", "My landlady, {g} {s}, wrote the letter. {s} can vouch for me."),
)

#: the names' words as eponyms where clinic speech puts them: (speaker, sentence)
DEV40_WORD_USES: tuple[tuple[str, str], ...] = (
    # Parkinson
    ("P", "His parkinson's is worse this winter."),
    ("D", "The Parkinson nurse will ring you."),
    ("P", "I've got parkinsons, since 2019."),
    ("P", "Parkinson's disease runs in the family."),
    ("D", "Is it parkinson disease or a tremor from the tablets?"),
    ("P", "The parkinson clinic moved to Thursdays."),
    ("D", "Parkinson's UK have a helpline."),
    # Hodgkin
    ("P", "She had Hodgkin lymphoma as a teenager."),
    ("D", "Hodgkin's was treated with chemo back then."),
    ("D", "Non-Hodgkin is the more common kind."),
    ("P", "My hodgkin's came back after five years."),
    # Pott, Horner
    ("D", "A Pott's fracture of the left ankle."),
    ("D", "There's a Horner's on the right, the pupil is small."),
    ("D", "Horner syndrome after the neck surgery."),
    ("D", "A positive Horner sign would point to the nerve."),
    # Cushing, Whipple, Goodpasture, Albright
    ("D", "Cushing's was ruled out last year."),
    ("D", "It's cushing syndrome from the steroids."),
    ("P", "They thought I had cushings because of my face."),
    ("P", "They did a whipple in 2021."),
    ("P", "After the Whipple I lost two stone."),
    ("D", "Whipple's disease is very rare."),
    ("D", "A whipple procedure takes most of the day."),
    ("D", "Goodpasture syndrome affects the kidneys and lungs."),
    ("D", "The goodpasture antibodies were negative."),
    ("D", "Albright's hereditary osteodystrophy, that's the short fingers."),
    # Hashimoto, Kawasaki, Harada, Takahara, Higashi
    ("P", "My hashimoto's is under control now."),
    ("D", "Hashimoto's thyroiditis explains the tiredness."),
    ("P", "I was told it's hashimotos, not graves."),
    ("D", "The hashimoto antibodies are raised."),
    ("P", "He had Kawasaki disease as a toddler."),
    ("D", "Kawasaki's can affect the heart arteries."),
    ("P", "The kawasaki clinic follows him up every year."),
    ("D", "Vogt-Koyanagi-Harada is an inflammation of the eye."),
    ("D", "Harada disease was on the list of causes."),
    ("D", "Takahara disease is another name for acatalasemia."),
    ("D", "Chediak-Higashi syndrome is very rare."),
    # Weiss, Erb, Merkel, Sternberg, Schmidt, Vogt
    ("D", "A Mallory-Weiss tear from the vomiting."),
    ("P", "The weiss tear healed by itself."),
    ("P", "Erb's palsy from a hard birth."),
    ("D", "An erb palsy of the right arm."),
    ("D", "Merkel cell carcinoma on his cheek."),
    ("D", "The merkel cell tumour was removed."),
    ("D", "Reed-Sternberg cells were seen on the biopsy."),
    ("D", "Schmidt syndrome is the thyroid and adrenal one."),
    ("D", "Vogt's disease affects the eyes and skin."),
    # Pellegrini, Fazio, Micheli, Marchiafava
    ("D", "A Pellegrini-Stieda lesion on the knee x-ray."),
    ("D", "The pellegrini lesion is an old ligament injury."),
    ("D", "Fazio-Londe disease is a childhood motor neurone disease."),
    ("D", "Marchiafava-Micheli is the old name for PNH."),
    ("D", "Marchiafava-Bignami disease is linked to alcohol."),
    # Epstein, Sachs, Landau
    ("D", "The Epstein-Barr virus test was positive."),
    ("P", "Epstein barr gave me glandular fever."),
    ("D", "Tay-Sachs screening was offered."),
    ("D", "Landau-Kleffner affects language in children."),
    # after an article, a possessive, a result word
    ("D", "The parkinson's has progressed a bit."),
    ("P", "Her cushing's is from the tablets."),
    ("D", "Positive Hashimoto antibodies, so that fits."),
    ("D", "A negative kawasaki screen, reassuringly."),
    ("P", "My hodgkin was stage two."),
    ("D", "The whipple went well, the surgeon said."),
    ("P", "His parkinsons tablets make him dizzy."),
    ("D", "Cushing disease is from the pituitary."),
)

#: origin -> (given names, surnames), written as people of that origin write them; every surname a clinical eponym
#: the lists hold only as a capitalised condition word
DEV40_NAMES: dict[str, tuple[list[str], list[str]]] = {
    "UK": (["Trevor", "Maureen"], ["Parkinson", "Hodgkin", "Pott", "Horner"]),
    "US": (["Dwayne", "Kimberly", "Chuck"], ["Cushing", "Whipple", "Goodpasture", "Albright"]),
    "German": (["Helga", "Dieter"], ["Erb", "Merkel", "Sternberg", "Vogt"]),
    "Japanese": (["Haruki", "Shinji"], ["Kawasaki", "Harada", "Takahara", "Higashi"]),
    "Italian": (["Rocco", "Ornella", "Gianni", "Loredana"], ["Pellegrini", "Fazio", "Micheli", "Marchiafava"]),
    "US Jewish": (["Sheldon", "Miriam", "Irving"], ["Epstein", "Sachs", "Landau"]),
}
