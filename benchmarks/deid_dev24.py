"""A twenty-fourth development set of the by-origin de-identification benchmark (issue 50, thirteenth session): a
surname that is an English or function word, right after the person's given name, beside the same words used as
words right after a given name.

A given name no English word resembles is found in lower case almost anywhere; the word after it is its surname only
when the lists allow a word beside a name (``name_neighbour_words``: a given name rarer than Zipf 4.5, a word in no
list). A surname that the lists call a function, clinical, demographic or everyday word is then left beside the
found given name: "[NAME] young", "[NAME] oh", "[NAME] rice" — the UK's, the US's, Korea's, Vietnam's, China's
commonest surnames among them. This set gives 8 origins whose people carry such surnames (the Korean, Haitian and more of the
Samoan surnames of the kind are other sets' already), hand-written here (not
from Faker, names-dataset or the detector's lists; no part of a name is any other set's: checked by
``tests/test_deid_dev24.py`` without printing them), in **33 forms** with the whole name in a person's place, and
**the same words as words right after a given name** (``DEV24_WORD_USES``, 44 sentences: "I gave Oskar rice with
his soup", "Is Priya young enough for the trial?", "I think Marisol will be fine", "I saw Ingrid an hour ago").

On main ed6dfca, before any rule of the thirteenth session (``--dev-only --dev24 --no-real``): cased 80.1 % of 750
names (Nigerian 50.0, US 66.7, Punjabi 73.5, Chinese 77.5, UK 78.4, Irish 86.3; Vietnamese, Samoan 100), lower case
56.4 % of 1,026 (UK 41.7, Nigerian 49.3, Chinese 50.0, Irish 50.0, Punjabi 52.1, Samoan 52.3, US 55.6, Vietnamese
99.3); words used as words: 59 of 592 sentences' words replaced (ring 16, havre 16, gare 13, show 8, pass 6: older
rules; the persons' given names in them, ``DEV24_PERSONS``, are not counted). Same layout as ``deid_dev20.py``; ``{g}`` given name, ``{s}`` surname."""

from __future__ import annotations

DEV24_FORMS: tuple[tuple[str, str], ...] = (
    # the whole name as a clause's subject
    ("P", "{g} {s} is my sister."),
    ("P", "{g} {s} was the one who found me."),
    ("P", "{g} {s} has my spare key."),
    ("P", "{g} {s} says you changed my tablets."),
    ("P", "{g} {s} came with me last time."),
    ("P", "{g} {s} told me to come straight in."),
    ("P", "{g} {s} will pick me up after."),
    ("P", "{g} {s} and I share a flat."),
    ("P", "{g} {s}'s number is on the form."),
    ("P", "{g} {s} from the pharmacy called."),
    ("P", "{g} {s} rang to say she's running late."),
    # after a verb or a preposition, or a role
    ("D", "Can I speak to {g} {s}, please?"),
    ("P", "I was referred by {g} {s}."),
    ("P", "My neighbour is {g} {s}."),
    ("P", "I live with {g} {s}."),
    ("D", "I'll write to {g} {s} today."),
    ("P", "My carer, {g} {s}, does my shopping."),
    ("D", "We had a letter from {g} {s} at the hospice."),
    ("P", "The appointment was made by {g} {s}."),
    ("P", "I asked {g} {s} to bring my glasses."),
    ("D", "I've copied {g} {s} into the letter."),
    ("D", "Please give this to {g} {s} at reception."),
    ("P", "Write down {g} {s} as the contact."),
    ("P", "Me and {g} {s} went together."),
    ("P", "I stay with {g} {s} most weekends."),
    # questions, thanks, clefts
    ("D", "Is {g} {s} your next of kin?"),
    ("D", "Does {g} {s} know you're here?"),
    ("D", "Who's {g} {s}?"),
    ("D", "Is it {g} {s} picking you up?"),
    ("P", "Sorry, {g} {s} couldn't make it."),
    ("D", "Thanks, {g} {s}."),
    ("P", "It was {g} {s} who rang the ambulance."),
    ("P", "Ask for {g} {s} when you get there."),
)

#: the names' words as words right after a given name, where English allows it: (speaker, sentence)
DEV24_WORD_USES: tuple[tuple[str, str], ...] = (
    # a second object or a complement after a person's name
    ("P", "I gave Oskar rice with his soup."),
    ("P", "We sent Dmitri love from all of us."),
    ("P", "She gave Imogen rose water for her eyes."),
    ("P", "We bought Mireille black bread."),
    ("D", "Show Imogen page two of the leaflet."),
    ("P", "Tell Oskar good night from me."),
    ("P", "I like Oskar best."),
    ("P", "I haven't known Aurelie long."),
    ("P", "Keep Bruno strong, he needs it."),
    ("P", "Get Bruno a fan, it's hot in there."),
    ("P", "Leave Imogen fair warning."),
    ("P", "Pass Zofia pan and lid, would you."),
    # an adjective after a name, asked or said
    ("D", "Is Priya young enough for the trial?"),
    ("D", "Is Priya fair skinned?"),
    ("D", "Was Ingrid black and blue after the fall?"),
    ("D", "Is Zofia good at taking her tablets?"),
    ("P", "Marisol rich? No, she struggles."),
    ("D", "Does Tomasz look wan to you?"),
    ("P", "Mum thinks Dmitri looks wan."),
    ("D", "Is Ingrid good?"),
    # a modal, an auxiliary, an article, an interjection after a name
    ("P", "I think Marisol will be fine."),
    ("P", "Marisol may come along too."),
    ("D", "Did Ingrid do it herself?"),
    ("P", "I saw Ingrid an hour ago."),
    ("P", "Thanks Marisol oh and one more thing."),
    ("P", "Ask Ingrid will she come."),
    ("P", "Tell Priya ta for the flowers."),
    # a time, a place or a thing after a name
    ("P", "I saw Tomasz day before yesterday."),
    ("P", "We took Bruno hill walking."),
    ("P", "Dmitri wood-burning stove smoke bothers him."),
    ("P", "I'll get Ingrid rain boots."),
    ("P", "Let Priya page the doctor."),
    ("P", "Oskar bath time is at seven."),
    ("P", "Ring Zofia friday morning."),
    ("P", "Ring Zofia monday, she's off till then."),
    ("P", "Pay Dmitri pal, he did the lifting."),
    ("P", "Bruno toe nails need cutting."),
    ("P", "We met Zofia le Havre way, on holiday."),
    ("P", "Aurelie law school friends came."),
    ("P", "I bought Marisol fair trade coffee."),
    ("P", "Tell Tomasz ou est la gare, he's learning French."),
    ("P", "I told Oskar rain or shine we'd go."),
    ("D", "Give Priya good news when you can."),
    ("P", "Aurelie fan club, that's us."),
)

#: the persons' given names in DEV24_WORD_USES (lower case): replaced, they are no false replacement
DEV24_PERSONS = frozenset("oskar dmitri imogen mireille aurelie bruno priya ingrid zofia marisol tomasz".split())

#: origin -> (given names, surnames), written as people of that origin write them; every surname a word
DEV24_NAMES: dict[str, tuple[list[str], list[str]]] = {
    "Vietnamese": (["Thuy", "Khanh"], ["Le"]),
    "Chinese": (["Xiaoling", "Jianhua"], ["Wan", "Fan", "Pan", "Ou"]),
    "UK": (["Alistair", "Fenella"], ["Wood", "Hill", "Page", "Law"]),
    "US": (["Tavon", "Krista"], ["Rich", "Black", "Good"]),
    "Irish": (["Fionnuala", "Diarmuid"], ["Day", "Fair"]),
    "Punjabi": (["Baljinder", "Harjinder"], ["Pal", "Bath"]),
    "Samoan": (["Tuifa", "Losalio"], ["Toe"]),
    "Nigerian": (["Ngozika", "Ifeoluwa"], ["Friday", "Monday"]),
}
