"""A twenty-ninth development set of the by-origin de-identification benchmark (issue 50, fifteenth session): Korean
names of one-syllable parts, the surname bare, the full name written surname first or the given name's syllables
written apart, beside a few Chinese and Vietnamese names of one syllable, and the same words as words.

Korean is below 95 % in lower case on the held-out half (93.9 %, fourteenth session). The lead's probe loses bare
one-syllable surnames that English writes as words ("mrs X", "X came with me") and full names written surname first
or with the given name apart ("ask park mi young about it"). This set gives Korean (33 names: 20 given names, apart "Se
Hun", "Da Bin", hyphenated "Da-yeong", together "Kwangyeol"; 13 one-syllable surnames, some English words "Oak",
"Ohm", "Gan"), Chinese (one-syllable surnames that are words, "Low", "Tee", "Sum", "Yap") and Vietnamese (one-syllable names,
"Tan", "Bao") names, hand-written here (not from Faker, names-dataset or the detector's lists; none of the lead's
probe names; no part of a name is any other set's or table's: checked by ``tests/test_deid_dev29.py`` without
printing them; a script dropped every candidate a table holds without printing which), in **46 forms** of plain
conversation: titles ("Mrs {s}"), "X came with me", "I talked to X", "ask X", relatives ("my wife X"), sign-offs,
"X and I", surname-first full names ("{s} {g}": "oak se hun") and given name first ("{g} {s}"). **The same words and
words of that kind as words** (``DEV29_WORD_USES``, 64 sentences in the same places: "oh I see", "my son came with
me", "do you", "an hour", "young people", "the sun", "a song on the radio", "5 min", "shin pain", "the bin", "low
blood pressure", "thanks hun", "a tan"): each word replaced inside them is a false replacement, printed by
``bench_deid_origin.py --dev29``.

On main fcfd20a, before any rule of the fifteenth session (``--dev-only --dev29 --no-real``; 45 dialogs, 25 in lower
case): cased 94.4 % of 213 names (Korean 100.0, Vietnamese 100.0, Chinese 83.1), lower case 86.8 % of 304 (Korean
90.2, Vietnamese 98.0, Chinese 72.0); names left most: Chinese Tee 20, Low 12, Sum 7, Korean Se Bin 4 (a given name
apart, both syllables words), Vietnamese Tan 2; words used as words: 18 of 246 sentences' words replaced (hun 6, mah
jong 3, rah rah 3, doh 3, habla espanol 3).
Same layout as ``deid_dev28.py``; ``{g}`` given name, ``{s}`` surname."""

from __future__ import annotations

DEV29_FORMS: tuple[tuple[str, str], ...] = (
    # a title before the bare surname
    ("P", "Mrs {s} is my neighbour, she drove me here."),
    ("D", "Dr {s} will go over the scan with you."),
    ("P", "Mr {s} from the pharmacy rang me about it."),
    ("D", "I'll let Ms {s} know you're here."),
    ("D", "Good morning, Mrs {s}, how are you feeling?"),
    # came with me, talked to, ask
    ("P", "{s} came with me, she's in the waiting room."),
    ("P", "{g} came with me again today."),
    ("P", "{s} {g} came along to help with the forms."),
    ("P", "I talked to {s} about the tablets last night."),
    ("P", "I talked to {g} before the appointment."),
    ("P", "I talked to {s} {g} at church on Sunday."),
    ("D", "Ask {s} to bring your medication list."),
    ("D", "Ask {s} {g} if she has the discharge letter."),
    # relatives
    ("P", "My wife {g} does all my injections."),
    ("P", "My husband {g} {s} is waiting outside."),
    ("P", "My daughter {s} {g} wrote it all down."),
    ("P", "Our eldest {g} lives with us now."),
    ("P", "My mother-in-law {s} {g} stays with us."),
    # sign-offs and the one addressed
    ("D", "Take care, {g}, see you in two weeks."),
    ("D", "Bye now, {s} {g}."),
    ("D", "Thanks {g}, that's everything for today."),
    # X and I
    ("P", "{s} and I both had the flu last month."),
    ("P", "{g} and I go walking every morning."),
    ("P", "{s} {g} and I run the shop together."),
    ("P", "Me and {s} went to the market."),
    # the full name, surname first
    ("D", "Is this {s} {g}? Please come through."),
    ("P", "My name is {s} {g}, I have an appointment at ten."),
    ("D", "I have a referral here for {s} {g}."),
    ("P", "{s} {g} is my emergency contact."),
    ("P", "The nurse, {s} {g}, took my blood."),
    ("P", "I work with {s} {g} at the restaurant."),
    # the full name, given name first
    ("P", "{g} {s} drove me here today."),
    ("D", "Could you spell {g} {s} for me?"),
    ("P", "I'm here with {g} {s}, my cousin."),
    ("D", "Please call {g} {s} if anything happens."),
    # the bare name elsewhere
    ("P", "{s} says hello, by the way."),
    ("P", "I got a message from {s} this morning."),
    ("P", "{s} is collecting me at five."),
    ("P", "I was at {s}'s house when it started."),
    ("D", "Has {g} been helping with your meals?"),
    ("D", "Who's with you today? Is that {g}?"),
    ("P", "We stayed at {g}'s flat for the weekend."),
    ("P", "{g}, my carer, comes in every morning."),
    ("D", "Oh, {s} was here earlier asking about you."),
    ("P", "Sorry, {g} couldn't make it today."),
    ("P", "Yesterday {s} told me to come in."),
)

DEV29_WORD_USES: tuple[tuple[str, str], ...] = (
    # the probe's words, as words, where a person stands
    ("P", "Oh, I see, so it's nothing serious."),
    ("P", "Oh well, it could be worse."),
    ("P", "My son came with me, he's parking the car."),
    ("P", "I talked to my son about the tablets last night."),
    ("D", "Do you get any chest pain on exertion?"),
    ("P", "Do come in early next time, they said."),
    ("P", "It takes about an hour to get here."),
    ("D", "Ask an adult to help with the eye drops."),
    ("P", "Young people don't get this, do they?"),
    ("P", "I was so young when it started."),
    ("P", "I was out in the sun all afternoon."),
    ("D", "Is the sun bothering your eyes?"),
    ("P", "There was a song on the radio about it."),
    ("P", "Song and dance about nothing, my husband says."),
    ("P", "Ha ha, no, I'm not that fit."),
    ("P", "Ha, I wish, I can barely walk."),
    ("D", "Keep the ice on for 5 min at a time."),
    ("P", "It started twenty min ago and stopped."),
    ("P", "I get shin pain when I run."),
    ("D", "Shin splints are common in runners."),
    ("P", "The moon was full, I couldn't sleep."),
    ("P", "The moon boot helped with the ankle."),
    ("P", "Min and max readings are on the chart."),
    ("P", "My son in law drove me."),
    ("D", "Thanks, son, you can wait outside."),
    ("P", "Bye now, love."),
    # the set's own words, as words
    ("P", "The oak came down in the storm and hit the shed."),
    ("P", "We have an oak table in the kitchen."),
    ("P", "Oak and birch pollen get me every spring."),
    ("P", "The bin came with the flat, it's always full."),
    ("P", "I put the dressings in the bin like you said."),
    ("P", "My sugars were low this morning."),
    ("D", "Is your blood pressure low at home too?"),
    ("P", "Low and behold, the rash came back."),
    ("P", "Low sodium, low sugar, the diet sheet said."),
    ("P", "I was low on iron last year."),
    ("P", "I play golf, I hurt it on the first tee."),
    ("P", "I put the ball on the tee and felt it go."),
    ("P", "A large sum of money went on parking."),
    ("P", "I can't do the sum in my head any more."),
    ("P", "The little dog likes to yap at the postman."),
    ("P", "I got a tan on holiday and the mole looked darker."),
    ("D", "Tan, pink or brown, what colour is the discharge?"),
    ("P", "Tan and freckles come out every summer."),
    ("P", "We had bao buns for lunch and I felt bloated."),
    ("P", "My son is an electrician, he talked about ohm readings."),
    ("P", "We play mah jong on Tuesdays at the centre."),
    ("P", "Rah rah, the kids were cheering all day."),
    ("P", "Doh, I forgot my glasses again."),
    ("P", "I had a ming vase once, well a fake one."),
    ("P", "Da da da, that tune is stuck in my head."),
    ("P", "The hun invasion was on the history channel."),
    ("P", "Thanks hun, I'll sit down over there."),
    ("P", "Love you hun, my wife always says."),
    ("P", "The sign said se habla espanol at the clinic."),
    ("P", "The old oak tree dropped a branch on me."),
    ("P", "I talked to the bin men about the smell."),
    ("D", "Ask the chemist for the low dose ones."),
    ("P", "My wife got a tan on the cruise."),
    ("P", "Me and the oak tree, we're both old now."),
    ("D", "Is that low for you?"),
    ("P", "I was at the bin when I slipped."),
    ("P", "The total sum came to forty pounds."),
    ("P", "Oh, so you think it's the tablets?"),
)

DEV29_NAMES: dict[str, tuple[list[str], list[str]]] = {
    "Korean": (["Se Hun", "Da Bin", "Da-yeong", "Je Hun", "Du Sik", "Dae Wook", "Kwangyeol", "Dae-hyuk", "Se-ryeong",
                "Seon Yeong", "Se Bin", "Da Un", "Se-un", "Kwang Wook", "Dae Hun", "Hansol", "Garam", "Saerom", "Bomi",
                "Sori"],
               ["Oak", "Ohm", "Doh", "Rah", "Mah", "Sok", "Gan", "Kuk", "Sul", "Toh", "Moh", "Eo", "Pung"]),
    "Chinese": (["Ming", "Bei"], ["Low", "Tee", "Sum", "Yap"]),
    "Vietnamese": (["Tan", "Bao", "Vinh", "Hai"], ["Dao", "Vu", "Ly", "Bui"]),
}
