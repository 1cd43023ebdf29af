"""A thirtieth development set of the by-origin de-identification benchmark (issue 50, fifteenth session): full names
of two words neither of which a list holds (or both rare), and given names written apart in two words, where a
person stands -- appositions set off by commas, lists with "me", "from X Y", "signed X Y", "X Y here", "X Y is my
daughter", "X Y's mum", "name: X Y" -- beside two-word phrases that are no names in the same places ("the patient,
type two, is", "me, mum and my son", "ni hao", "de novo", "mahi mahi", "kia ora", "tai chi", "pad thai", drug pairs,
"vena cava").

The lead's probe (fourteenth session) lost, in lower case, "the patient , manu pule , is 45" (both words), full
names of two unlisted or rare words in appositions, lists, after "from" and "with", and given names written apart
("billy ray", "mary beth", "eibhlin og"); single Samoan and Irish names were hardly lost in the same forms: the
shape of the mention, not the name. This set gives 7 origins (Samoan, Tongan, Fijian, Maori, Hawaiian, Irish, US
Southern) such names, hand-written here (not from Faker, names-dataset or the detector's lists; none of the lead's
probe names; no part of a name is any other set's: checked by ``tests/test_deid_dev30.py`` without printing them; a
script dropped every candidate a table holds without printing which). 29 of the 65 parts are in no list at all (most
Polynesian and Fijian ones), 14 are names the lists also hold as English words ("lava", "kala", "bud", "cal",
"opal"); the Irish and US given names are two words apart ("Lorcan Rua", "Verlie Nell"), two Irish surnames a
particle and a stem apart. **44 forms** (32 of a full name, 10 of the given name alone, 2 of the surname), and **72
sentences of two-word phrases and the names' own words as words** (``DEV30_WORD_USES``) in the same places: each
word replaced inside them is a false replacement, printed by ``bench_deid_origin.py --dev30``.

On main f62d702, before any rule of the fifteenth session (``--dev-only --dev30 --no-real``; fcfd20a gave the same
but for the one given name dev31 took while this set was written): cased 99.2 % of 616 names (US 95.5, Fijian 98.9,
the others 100.0), lower case 97.5 % of 875 (US 88.0, Fijian 97.6, Tongan 98.4, Samoan 99.2, Maori 99.2, Hawaiian,
Irish 100.0): the lists hold most parts of two words apart, in no list or as names, and what is left is mostly a
given name beside a part that is an everyday word in no gazetteer ("Cal Otis" 19 left, "Kala" 4; "Lava", "Ano",
"Toto", "Rata" 1 each); words used as words: 167 of 574 sentences' words replaced (tai chi 21, mahi mahi 14, kia
ora, ni hao, aloha, dim sum, talofa lava, malo e lelei, bula vinaka, whanau, te reo, deja vu, bok choy, tae kwon,
mea culpa, koa wood 7 each, rua 6, earl grey 6, queen bess 1): older rules take a foreign or food phrase of two
words as a name.
Same layout as ``deid_dev28.py``; ``{g}`` given name, ``{s}`` surname."""

from __future__ import annotations

DEV30_FORMS: tuple[tuple[str, str], ...] = (
    # appositions set off by commas
    ("D", "The patient, {g} {s}, is 52 and has come in with chest pain."),
    ("P", "My neighbour, {g} {s}, drove me here this morning."),
    ("P", "{g} {s}, my cousin, rang the ambulance for me."),
    ("P", "I share a flat with my partner, {g} {s}."),
    ("D", "And {g} {s}, who is that to you?"),
    ("D", "Thank you, {g} {s}, you can get dressed now."),
    # lists
    ("P", "Me, {g} {s} and my son all live in the same house."),
    ("P", "{g} {s} and my sister take turns with the shopping."),
    ("P", "My carers are {g} {s} and a lady from the council."),
    ("P", "Both of us, me and {g} {s}, had the flu."),
    # labels and sign-offs
    ("D", "Name: {g} {s}. Date of birth is on the form."),
    ("D", "Signed {g} {s}, the nurse on nights."),
    ("P", "{g} {s} here, I'm calling about my mum's tablets."),
    ("D", "Your emergency contact is {g} {s}, is that right?"),
    ("D", "Can I check your name, is it {g} {s}?"),
    ("P", "Yeah, it's {g} {s}, with the long surname."),
    # after a preposition
    ("P", "I got the message from {g} {s} at the surgery."),
    ("P", "I came in with {g} {s}, she's my carer."),
    ("P", "I've been staying with {g} {s} since the fall."),
    ("D", "I'll send a copy to {g} {s} at the practice."),
    ("P", "The referral came from {g} {s} at the clinic."),
    ("P", "I was with {g} {s} when I felt faint."),
    # the clause's subject, a relative before it, a possessive
    ("P", "{g} {s} is my daughter, she lives down the road."),
    ("P", "{g} {s}'s mum used to look after me."),
    ("P", "{g} {s} from church brings my shopping."),
    ("P", "Apparently {g} {s} had the same operation."),
    ("P", "My granddaughter {g} {s} booked the appointment."),
    ("D", "We spoke to {g} {s} on the phone yesterday."),
    ("P", "Ask {g} {s}, she knows all my tablets."),
    ("D", "Is {g} {s} still your next of kin?"),
    ("D", "Good morning, {g} {s}? Come on through."),
    ("P", "It was {g} {s} who called the ambulance."),
    # the given name alone (two words for the Irish and US names)
    ("P", "{g} took me to the chemist on Monday."),
    ("P", "Me, {g} and the grandkids went to the beach."),
    ("D", "Would {g} be able to come to the next appointment?"),
    ("P", "I told {g} not to worry about me."),
    ("P", "My wife, {g}, does all the cooking."),
    ("P", "{g} is my eldest, she's thirty."),
    ("D", "Hello {g}, take a seat there."),
    ("P", "I rang {g} from the waiting room."),
    ("P", "{g}'s husband has the car today."),
    ("P", "We call her {g}, after her gran."),
    # the surname
    ("D", "Mrs {s} is the next patient on my list."),
    ("P", "The {s} family next door keep an eye on me."),
)

DEV30_WORD_USES: tuple[tuple[str, str], ...] = (
    # the same places, two words that are no name
    ("D", "The patient, type two, is on metformin already."),
    ("P", "Me, mum and my son all had the same cold."),
    ("P", "My neighbour, bless her, drove me here."),
    ("P", "I live with my partner, thank goodness."),
    ("D", "Thank you, young man, you can get dressed now."),
    ("P", "Tai chi and my sister's yoga class are on Tuesdays."),
    ("P", "My carers are lovely and a great help."),
    ("D", "Name: not on the form, we'll add it."),
    ("D", "Signed off sick, the nurse said two weeks."),
    ("P", "Right here, I'm calling about my mum's tablets."),
    ("D", "Your emergency contact is your husband, is that right?"),
    ("P", "I got the message from the surgery at lunch."),
    ("P", "I came in with chest pain, she's my carer."),
    ("P", "I've been staying with my sister since the fall."),
    ("D", "I'll send a copy to your GP at the practice."),
    ("P", "The referral came from the eye clinic."),
    ("P", "Mahi mahi is my favourite fish."),
    ("P", "Pad thai from the takeaway, that's all I ate."),
    ("P", "Kia ora, I'm here for my eleven o'clock."),
    ("P", "Kia ora koutou, sorry I'm late."),
    ("P", "I said ni hao to the new nurse, she's from Beijing."),
    ("D", "This looks like a de novo clot, not an old one."),
    ("D", "The vena cava looks normal on the scan."),
    ("D", "The inferior vena cava is a bit full."),
    ("P", "Aloha, that's how my daughter answers the phone."),
    ("P", "I do tai chi at the community centre."),
    ("P", "We had dim sum on Sunday and I was fine."),
    ("P", "Talofa lava, doctor, thanks for seeing me."),
    ("P", "Malo e lelei, my son says that to everyone."),
    ("P", "Bula vinaka, that's hello in Fijian."),
    ("P", "I drank a mai tai at the wedding, just one."),
    ("P", "My grandson loves loco moco from the food truck."),
    ("P", "We had a luau for her birthday, poke bowls and all."),
    ("P", "The kids did the haka at school."),
    ("P", "I'm learning te reo at night classes."),
    ("P", "The whole whanau came to the hospital."),
    ("P", "It was like deja vu, the same pain again."),
    ("D", "We'll do this ad hoc, as and when."),
    ("D", "It's a bona fide allergy, so we'll write it down."),
    ("P", "The feng shui in my flat is all wrong, my daughter says."),
    ("P", "I tried tae kwon do years ago and hurt my knee."),
    ("P", "I eat bok choy every day now."),
    ("D", "It's carcinoma in situ, caught early."),
    ("D", "The herpes zoster is on the left side."),
    ("D", "That's tinea pedis, athlete's foot."),
    ("D", "He has hallux valgus on both feet."),
    ("D", "It looks like pityriasis rosea, it'll settle."),
    ("D", "Angina pectoris, that's the chest pain on exertion."),
    ("D", "There's a bit of cor pulmonale on the echo."),
    ("P", "I take amlodipine besylate in the morning."),
    ("P", "I'm on insulin glargine at night."),
    ("P", "Co codamol and paracetamol, that's all."),
    ("P", "Warfarin sodium, five milligrams."),
    ("P", "I take fish oil and vitamin d."),
    ("P", "Metformin er twice a day with food."),
    ("P", "Rua is two in Maori, my granddaughter taught me."),
    ("P", "Good queen bess, my dad used to say."),
    ("P", "Little nell in the Dickens book, that's what I'm reading."),
    ("P", "Aloha shirts are all my husband wears."),
    ("P", "I had the pho ga, the chicken one."),
    ("P", "My son played the ukulele at the luau."),
    ("P", "Mea culpa, I forgot my tablets again."),
    ("D", "Status quo then, same dose as before."),
    ("P", "The hula hoop at the fair did my back in."),
    ("P", "The lava lamp in my grandson's room keeps me up."),
    ("P", "I only drink earl grey now, no coffee."),
    ("P", "My ring has an opal in it, I took it off for the scan."),
    ("P", "The ukulele is made of koa wood, from Hawaii."),
    ("P", "We went to see the kauri trees up north."),
    ("P", "I had a bud light at the barbecue."),
    ("P", "He's counting every cal on that new diet."),
    ("P", "Toto was the dog in that film, my granddaughter loves it."),
)

DEV30_NAMES: dict[str, tuple[list[str], list[str]]] = {
    "Samoan": (["Faatupu", "Taualofa", "Atu", "Fono"], ["Amituanai", "Seumanutafa", "Lava"]),
    "Tongan": (["Pulupaki", "Ofisia", "Ano", "Kepa"], ["Tuakoi", "Niumeitolu", "Toto"]),
    "Fijian": (["Vilisoni", "Sainiana", "Kala"], ["Tuidraki", "Nawaqa", "Rewa", "Koroivuki"]),
    "Maori": (["Mereana", "Hoani", "Kahu", "Rata"], ["Rewiti", "Paewai", "Whare", "Pou"]),
    "Hawaiian": (["Iolana", "Malulani", "Kona", "Nani"], ["Nahoopii", "Kaawaloa", "Puna", "Koa"]),
    "Irish": (["Bébhinn", "Lorcan Rua", "Dara Beag", "Clíona Ita"], ["Ruttledge", "Mulrooney", "Ní Chonaola",
                                                                     "Mac Gearailt", "Donn"]),
    "US": (["Verlie Nell", "Opal Merle", "Johnny Earl", "Cal Otis", "Ima Lottie"], ["Blalock", "Honeycutt", "Overcash",
                                                                                  "Buck"]),
}
