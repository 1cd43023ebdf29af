"""A thirty-third development set of the by-origin de-identification benchmark (issue 50, sixteenth session):
Polynesian surnames of two words, the Cantonese prefix "Ah" and a one-syllable stem ("Ah Kuoi", "Ah Choy"), and short
Polynesian given names the word lists hold as words, beside "ah" as a word of speech and the same words as words.

Samoan is the lowest origin on the held-out half in lower case (90.9 %, fifteenth session). A probe of the kinds of
Samoan, Tongan, Māori and Hawaiian names the lower-case rules might keep (short names, glottal stops written as an
apostrophe, an ʻokina or dropped, chiefly titles, two-word surnames) found nearly all taken on main 1f40cf8, but two
kinds: the surnames that Chinese families in Samoa, Tonga, Fiji, Hawaiʻi and Aotearoa carry, written "Ah" and a
Cantonese syllable ("ah" was left in 13 of 16 probe forms whatever the stem, the stem too where it is a gazetteer
name or a word: "ah sam", "ah sue", "ah tong"), and short given names the word lists hold as words ("feti", "seru",
"wiki", "moa", left in 3-14 of 16). This set gives 5 origins (Samoan, Tongan, Fijian, Hawaiian, Māori; 6 to 10 parts
each, 40 in all) such names, hand-written here (not from Faker, names-dataset or the detector's lists; none of the
lead's probe names; no part of a name is any other set's, "Ah" compared as a particle as "Le" and "Te" are, since
dev11 holds "Ah Mu": checked by ``tests/test_deid_dev33.py`` without printing them; a script dropped every candidate
a table holds without printing which), in **39 everyday forms** no other set has (a surname spelled out, a
surname's family or business, a church or club's title before it, an aunty, a nana, a maiden name). **"ah" and the
names' words as words** (``DEV33_WORD_USES``, 64 sentences in the same places: "Ah okay, so it started on Monday",
"Me and ah my sister share a flat", "My son ah works nights", "I got these shoes on sale", "Bok choy and rice",
"I can't mow the lawn", "A bale of hay", "The dog is tame", "My koro had the same thing"): each word replaced inside
them is a false replacement, printed by ``bench_deid_origin.py --dev33``.

On main 1f40cf8, before any rule of this slice (``--dev-only --dev33 --no-real``): cased 85.4 % of 315 names (Samoan
88.9, Tongan 85.7, Fijian 74.6, Hawaiian 90.5, Māori 87.3), lower case 23.2 % of 466 (Samoan 14.0, Tongan 29.0,
Fijian 24.7, Hawaiian 34.4, Māori 13.8); each form once with each origin's names, the parts left (a probe outside the
benchmark): "ah" in lower case 115 of 135 surnames (cased 12, at a sentence's start), the stems that are words
("loy", "yo", "hoy", "mow", "nee", "puck") 4-6 of 5-7, the given names "wiki", "moa", "naca", "tame", "pule", "bale",
"lote", "tai", "hone" 4-7 of 5-7; words used as words: 35 of 410 sentences' words replaced (tai chi 6, jeez 5, ah 5,
bok choy 5, kew 5, kia ora 5, kale 4).
Same layout as ``deid_dev32.py``; ``{g}`` given name, ``{s}`` surname."""

from __future__ import annotations

DEV33_FORMS: tuple[tuple[str, str], ...] = (
    # (three forms go into a dialog together: every fourth three hold a given name only, so that "ah" as a word,
    # which a dialog holding an "Ah" surname never gets, goes into a third of the dialogs)
    # a surname spelled out, a full name checked
    ("D", "Is it {s} with a space, or one word?"),
    ("P", "The surname's {s}, two words."),
    ("D", "I've got you down as {g} {s}, is that right?"),
    ("P", "My maiden name is {s}."),
    ("P", "{g} {s} is my husband's cousin."),
    ("P", "My aunty, {g} {s}, has the same sugar problem."),
    # relatives and carers, a given name only
    ("P", "Uncle {g} picks me up after dialysis."),
    ("P", "Nana {g} looks after the little ones."),
    ("P", "My nephew {g} works nights so he can't come."),
    # a relative or a carer with the full name
    ("P", "Ring my son {g} {s} if anything happens."),
    ("D", "So {g} {s} is your carer now?"),
    ("D", "Can I speak to {g} {s}'s mother?"),
    # church, club, work, neighbours
    ("P", "{s} from the church brought me in."),
    ("P", "Pastor {s} prayed with me before the operation."),
    ("P", "Brother {s} from the church visits every Sunday."),
    # a given name only
    ("P", "{g} from the youth group is my emergency contact."),
    ("P", "{g}'s boy drove me down from Mangere."),
    ("D", "Who's {g}? Your son?"),
    # church, club, work, neighbours
    ("P", "{g} {s} from the rugby club did my shopping."),
    ("P", "I work for {s}'s Bakery on the main road."),
    ("P", "Our neighbour {s} had the same operation."),
    ("P", "Mrs {s} next door keeps an eye on me."),
    ("D", "The pharmacist, {s}, rang about your insulin."),
    ("D", "Your GP is Dr {s} in Porirua?"),
    # a given name only
    ("D", "Has {g} been giving you the tablets every day?"),
    ("D", "Please hand this form to {g} at reception."),
    ("D", "Thanks, {g}. I'll see you in two weeks."),
    # a family's name, a house
    ("P", "We're the {s} family, from Otara."),
    ("P", "I've been staying at {s}'s since Christmas."),
    ("P", "The funeral for old man {s} was last Friday."),
    # the one who does, the one asked about
    ("P", "{s} said to ask you about the swelling."),
    ("P", "It was {g} {s} who found me on the floor."),
    ("P", "Me and {g} {s} share a flat."),
    # a given name only
    ("P", "My granddaughter {g} translates for me."),
    ("D", "Could {g} come along to the next appointment with you?"),
    ("P", "{g} from the Pacific health team rang me."),
    # the one given to, asked about, left a message with
    ("P", "I gave {s} my spare key."),
    ("D", "Does {s} live with you or nearby?"),
    ("D", "I'll leave a message with {g} {s}, then."),
)

#: "ah" as a word of speech, and the names' words as words, in the forms' places where English allows it:
#: (speaker, sentence)
DEV33_WORD_USES: tuple[tuple[str, str], ...] = (
    # "ah" at a turn's or a sentence's start, before a word
    ("P", "Ah, that's where the pain is."),
    ("D", "Ah okay, so it started on Monday."),
    ("P", "Ah yes, the blue tablets."),
    ("D", "Ah I see, you stopped them yourself."),
    ("P", "Ah well, it can't be helped."),
    ("P", "Ah no, I haven't had breakfast."),
    ("D", "Ah right, and the swelling?"),
    ("P", "Ah sorry, I forgot my glasses."),
    ("P", "Ah, you're the new nurse."),
    ("P", "Ah see, I told you it was my knee."),
    ("P", "Ah man, that hurts."),
    ("D", "Ah good, the bloods are back."),
    ("P", "Ah hold on, let me find it."),
    ("P", "Ah that's the one, the white tablet."),
    ("P", "Ah, so that's why I'm tired."),
    ("D", "Ah, lovely, thank you."),
    ("P", "Ah sweet, see you then."),
    ("P", "Ah jeez, not again."),
    ("P", "Ah bugger, I left it at home."),
    ("P", "Ah yeah, that's the one."),
    ("P", "Ah you know, the usual aches."),
    ("P", "Ah my back, every morning."),
    ("D", "Ah you poor thing."),
    ("P", "Ah yo, I almost forgot the form."),
    # "ah" inside a sentence, a filler where a name would stand
    ("P", "It was, ah, Tuesday I think."),
    ("P", "I take, ah, two in the morning."),
    ("P", "The doctor said, ah, to rest it."),
    ("P", "Me and ah my sister share a flat."),
    ("P", "I gave ah the nurse my spare key."),
    ("D", "Is it ah the left side or the right?"),
    ("P", "My son ah works nights so he can't come."),
    ("P", "I talked to ah the chemist about it."),
    ("P", "We went to ah the clinic in town."),
    ("P", "My aunty ah has the same sugar problem."),
    ("P", "From the church ah they brought me in."),
    ("P", "Pastor ah prayed with me before the operation."),
    ("P", "Uncle ah picks me up after dialysis."),
    ("P", "She said ah see how it goes."),
    ("P", "Thanks ah so much for that."),
    ("P", "I was ah you know, dizzy."),
    # the names' words as words
    ("P", "I got these shoes on sale."),
    ("P", "I don't want to lose my foot."),
    ("P", "A cup of tea helps me sleep."),
    ("P", "Bok choy and rice for dinner most nights."),
    ("P", "I can't mow the lawn with this knee."),
    ("P", "I got hit by a puck at hockey."),
    ("P", "We stacked a bale of hay and I hurt my back."),
    ("P", "The dog is tame, don't worry."),
    ("P", "I looked it up on the wiki."),
    ("P", "Kale smoothies every morning now."),
    ("P", "Tai chi at the community hall helps my balance."),
    ("P", "We saw a moa skeleton at the museum."),
    ("P", "My koro had the same thing."),
    ("P", "We went to Kew Gardens once."),
    ("D", "Do you see the rash on the left?"),
    ("P", "Yo, doc, how's it going?"),
    ("P", "Lo and behold, the rash came back."),
    ("P", "I sing in the church choir."),
    ("D", "Can you mute the TV for a minute?"),
    ("P", "We moved here from Maine."),
    ("P", "You see, the pain comes and goes."),
    ("P", "Mum's maiden name was in the letter."),
    ("P", "Kia ora, nice to meet you."),
    ("P", "A mere cold, I thought."),
)

#: origin -> (given names, surnames), written as people of that origin write them; every surname the prefix "Ah" and
#: a Cantonese syllable, as Chinese families of the islands write them; the given names short Polynesian names
DEV33_NAMES: dict[str, tuple[list[str], list[str]]] = {
    "Samoan": (["Feti", "Lote", "Pule", "Tai"], ["Ah Kuoi", "Ah Hoy", "Ah Ching", "Ah Fook", "Ah Kiong", "Ah Leong"]),
    "Tongan": (["Moa", "Lina", "Nane"], ["Ah Kau", "Ah Loy", "Ah Choy", "Ah Mow"]),
    "Fijian": (["Seru", "Naca", "Bale", "Vere"], ["Ah Koy", "Ah Yuen"]),
    "Hawaiian": (["Mano", "Kale", "Lono", "Nalu"], ["Ah Quin", "Ah Nee", "Ah Yo", "Ah Puck", "Ah Yat"]),
    "Māori": (["Hone", "Tame", "Wiki", "Hori"], ["Ah Kew", "Ah Chee", "Ah Mooi", "Ah Hing"]),
}
