"""A thirteenth development set of the by-origin de-identification benchmark (issue 50, tenth session): plain forms
of clinic speech that may lose a name whatever its origin.

The held-out half loses, in lower case, about two of each origin's ~100 names whatever the origin (31 origins at
exactly 98.0 %), so one or two surroundings lose any name there; dev10 (what touches a name) found three and mended
them, and the held-out row did not move. These forms, written for this set before any rule was changed (from how
people talk in a clinic, not from the rules nor from the held-out half, which was not looked at; none of them in
another set), put a person where the other sets have few: a name as the whole answer to a question or alone in a
turn, a surname alone as the subject of an ordinary verb ("{s} thinks", "{s} wanted me to"), a name after "and",
"or", "with", "from", "by", "for", "to", "than", "like", after a number or a time ("at two with {s}"), "{g} here",
"this is {g} speaking", a name repeated or corrected ("{g}, no, {g2}"), reported speech ("{g} was like ..."), a
name before a job or place noun ("{s} pharmacy", "{g}'s mom"), a name and a relation ("{g} my neighbour"), a
sign-off or a to-do ("remind {g}"), parentheses, a dash, before "and i", a turn's start or end with and without
punctuation, fillers ("um {g}", "uh, {s}"), given name and initial, initial and surname, three-part names, the
surname first ("{s} {g}"), and the contractions ACI-Bench writes apart ("{g} 's", "{g} has n't").

The names are the second development set's (``deid_dev2.DEV2_NAMES``, 52 origins; ``{g2}``/``{g3}`` are that
origin's other given names), and every form is put in for every origin (``DEV13_REPEAT`` times, as dev10's are).
``python benchmarks/bench_deid_origin.py --dev-only --halves none --dev13 --no-before --no-real --show-left``
reports it per origin as the ``dev13`` half. The benchmark writes lower-case dialogs the ACI-Bench way (lower case,
a space before . , ? !).

On main b37c55c, before any rule (196 forms, each put in about twice per origin and style): cased 89.2 % of 8,840
names (lowest Danish 83.5, highest 93.5; 38 of 52 origins at exactly 89.4 %), lower case 92.6 % of 13,311 (lowest US
73.8, Danish 80.5, Indonesian 82.8, highest 96.9; 27 origins at exactly 94.1 %: 15 of 256 names lost whatever the
origin). The forms that lose a name of half the origins or more in lower case (origins of 52): "at {g} and {g2}'s"
and its kin (51; "at {g} or {g2}'s" 50, "at {g}, {g2} and {g3}'s", "in {g} and {g2}'s spare room", "at {g} and her
husband's place", "at {s} and {g}'s": lost in cased text too), a person set off as a relative after a preposition of
place ("I live near {g}, my cousin.", "at {g}, my cousin's", "in {g}, my aunt's place", "at {s}, her friend's": 50-52
in cased text too), "loop in {s}" 50, "fill in {s}", "bring in {s}", "I saw it in {g}, she had ..." 52, a person
after an article ("there's a {g} at my work" 52, "the {s} boy" 50, "a {s} thing" 50, "she's a {s}" 44), and the
facilities named for a person ("{s} pharmacy", "the {s} clinic", "{s} home health", "at {s} house", "at {s} and
sons": 50-52, cased 49-52; a word before a facility's generic word is kept by design, docs/deidentification.md).
The first commit of this set (192 forms, without the four relatives set off by a comma) measured cased 90.6 %,
lower 93.6 % (27 origins at exactly 95.2 %)."""

from __future__ import annotations

#: how many times each form is put in (per origin, about): the dialogs are run as often as that takes
DEV13_REPEAT = 2

DEV13_FORMS: tuple[tuple[str, str], ...] = (
    # a name as the whole answer, alone in a turn, at a turn's start or end
    ("P", "{s}. She's the one who sent me over."),
    ("P", "Oh, {s}. Doctor {s}."),
    ("P", "Um, {g}. {g} {s}."),
    ("P", "{g}, yeah."),
    ("P", "Yeah, {g}"),
    ("P", "It was {s}"),
    ("P", "That'd be {g}"),
    ("D", "Who's your primary? Is it still {s}?"),
    ("P", "Who referred me? {s}, I think."),
    ("P", "Who do I see for that, {s}?"),
    ("P", "The one who came with me? That's {g}."),
    ("P", "My emergency contact, {g}"),
    ("P", "Probably {g}"),
    ("P", "Just {g}"),
    ("P", "Only {g}, nobody else."),
    ("D", "And who's at home with you? {g}?"),
    # a surname or given name as the subject of an ordinary verb
    ("P", "{s} thinks it's my gallbladder."),
    ("P", "{s} wanted me to get the blood work first."),
    ("P", "{s} put me on the water pill back in may."),
    ("P", "{s} told me not to worry about it."),
    ("P", "{s} sent over the records last week."),
    ("P", "{s} had me do a sleep study."),
    ("D", "{s} wrote that you were doing better."),
    ("P", "{s} was the one who found the lump."),
    ("P", "{s} does my knees, the shots."),
    ("P", "{g} keeps telling me to slow down."),
    ("P", "{g} makes all my appointments now."),
    ("P", "{g} noticed I was slurring a little."),
    ("P", "{g} gets home around six."),
    ("P", "{g} drives, I don't anymore."),
    ("P", "{g} cooks, so I eat pretty well."),
    ("P", "{g} always says I'm stubborn."),
    ("D", "{g} can hang on to the paperwork for you."),
    # after a conjunction or a preposition
    ("P", "My husband and {g} take turns staying with me."),
    ("P", "Then me and {g} went straight home."),
    ("P", "It's either {g} or my brother who picks up."),
    ("P", "I don't know if it was {g} or {g2}."),
    ("P", "I was living with {g} at the time."),
    ("P", "I went with {s} to get the x-ray."),
    ("P", "I got a call from {s} about the biopsy."),
    ("P", "The stitches were done by {s} in the ER."),
    ("P", "I've been waiting for {g} to call me back."),
    ("P", "I gave the list to {g} this morning."),
    ("P", "She's older than {g} by two years."),
    ("P", "It felt like {g} said, like a tight band."),
    ("P", "I'm just like {g}, I can't sit still."),
    ("P", "I heard about you through {g}."),
    ("P", "I'm staying over at {g}'s until friday."),
    ("P", "The pills came from {g} 's cabinet."),
    ("P", "I'm on the same stuff as {g}."),
    ("P", "It's between {g} and me who drives."),
    ("P", "Nobody except {g} knows about it."),
    ("P", "Because of {g} I finally came in."),
    ("P", "I sat next to {g} the whole time."),
    ("P", "I was worried about {g} more than me."),
    # a number or a time before the name
    ("P", "I have therapy at two with {s}."),
    ("P", "I see {s} at three thirty on tuesday."),
    ("P", "At nine {g} gave me the first dose."),
    ("P", "By ten {g} had already called twice."),
    ("P", "Two weeks ago {g} took me in for the same thing."),
    ("P", "Around 4 {g} noticed the swelling."),
    ("P", "Like 3 times {g} asked me if I was okay."),
    ("P", "There's five of us, me, {g}, and the kids."),
    ("P", "Twice a week {s} checks my sugar."),
    ("P", "In 2019 {s} did the surgery on my shoulder."),
    # here, speaking, introductions
    ("P", "Hi, {g} here, the daughter."),
    ("P", "{g} here, I'm his wife."),
    ("P", "This is {g} speaking, I'm the caregiver."),
    ("P", "Hey it's {g}, I'm the one who called."),
    ("D", "Hello, I'm {g}, one of the nurses here."),
    ("D", "Hi there, I'm doctor {s}, nice to meet you."),
    ("P", "Yeah this is {g} {s}, her son."),
    ("P", "I'm {g}, by the way."),
    ("P", "Name's {g}."),
    ("D", "You must be {g}."),
    # a name repeated or corrected
    ("P", "{g}, no, sorry, {g2}."),
    ("P", "It was {g}, or was it {g2}, one of them."),
    ("P", "{g}, I mean {g2}, brought me in."),
    ("P", "Not {g}, {g2}."),
    ("P", "{g}... {g} knows more about it than me."),
    ("P", "Doctor {s}, no wait, it was doctor {s} 's partner."),
    ("D", "Did you say {g}? {g} with a y?"),
    ("P", "{s}, it's {s}, it's on the card."),
    # reported speech
    ("P", "{g} was like, you need to go in."),
    ("P", "And {g} goes, that's not normal."),
    ("P", "{g} said, mom, you look yellow."),
    ("P", "And then {g} says it's probably nothing."),
    ("P", "I told {g}, I said I'm fine."),
    ("P", "{s} said quote unquote it's just arthritis."),
    ("P", "My husband asked {g} and {g} said no."),
    ("P", "{g} kept asking, are you sure?"),
    # a name before a job, a place or a relative's noun
    ("P", "I get my pills at {s} pharmacy on main street."),
    ("P", "I go to the {s} clinic for my eyes."),
    ("P", "I did rehab at {s} house for a month."),
    ("P", "{g} 's mom had the same thing."),
    ("P", "{g}'s husband is a nurse too."),
    ("P", "{g}'s kids are grown now."),
    ("P", "I'm over at {s} and sons four days a week."),
    ("P", "{s} dental did the cleaning."),
    ("P", "We used {s} home health after the surgery."),
    ("P", "{g}'s boyfriend gave me a ride."),
    # a name and a relation
    ("P", "{g} my neighbour checks on me."),
    ("P", "{g}, my sister in law, she has diabetes too."),
    ("P", "I called {g} my daughter right away."),
    ("P", "My friend from church {g} drives me sometimes."),
    ("P", "{g} from work said I looked pale."),
    ("P", "My oldest, {g}, lives out of state."),
    ("P", "Her mom {g} is the one with the inhaler."),
    ("P", "{g} next door has a blood pressure cuff."),
    # a sign-off, a to-do, an instruction
    ("D", "Remind {g} to bring the glucose log."),
    ("D", "Let's have {g} call the office tomorrow."),
    ("D", "Have {s} send me the MRI report."),
    ("D", "I'll loop in {s} on this."),
    ("D", "We'll get {g} a copy of the plan."),
    ("D", "Make sure {g} knows about the new dose."),
    ("D", "Tell {g} I said hello."),
    ("D", "Say hi to {g} for me."),
    ("D", "I'll let {s} know what we found."),
    ("D", "Thanks again, {g}, take care now."),
    ("D", "Bye {g}"),
    ("P", "See you, {s}"),
    # parentheses, a dash, before "and i"
    ("P", "My sister (her name's {g}) lives with me now."),
    ("P", "The other one ({s}, I think) said the same."),
    ("P", "The neurologist - {s} - wants another scan."),
    ("P", "Somebody, {g} maybe, left a message."),
    ("P", "{g} and I are the only ones at home."),
    ("P", "{s} and I talked about the side effects."),
    ("P", "Both {g} and I had the flu in january."),
    ("P", "So {g} and I, we split the pills up."),
    # fillers
    ("P", "Um {g} usually helps me with the drops."),
    ("P", "Uh, {s}, he's the foot doctor."),
    ("P", "It was, um, {s}? Yeah, {s}."),
    ("P", "You know, {g}, the tall one."),
    ("P", "Well {g} said I should come in."),
    ("P", "Like, {g} was really worried."),
    ("P", "Mm-hmm, {g} too."),
    ("P", "Okay so {g}, she's the one with my keys."),
    # nicknames, initials, three-part names, the surname first
    ("P", "Everybody calls her {g}, even the doctors."),
    ("P", "We call him big {g}."),
    ("P", "It's {g} {s} junior, not senior."),
    ("P", "The form says {g} J. {s}."),
    ("P", "My doctor was {g} M."),
    ("P", "It was dr. J. {s}."),
    ("P", "I think it's {g} {g2} {s} on the insurance."),
    ("P", "Her whole name is {g} {g2} {s}."),
    ("D", "So that's {s} {g}, date of birth in march?"),
    ("P", "It's under {s} {g}, the last name first."),
    ("P", "Miss {g} from the front desk helped me."),
    ("P", "Auntie {g} raised me."),
    # the contractions ACI-Bench writes apart
    ("P", "{g} has n't been sleeping either."),
    ("P", "{g} did n't want me to drive."),
    ("P", "{s} 's the one who does my shots."),
    ("P", "{g} 'd been telling me for weeks."),
    ("P", "{g} and I 've got the same doctor."),
    ("P", "{g} wo n't let me skip it."),
    ("P", "{g} ca n't come today."),
    # plainer sentences from a visit
    ("D", "And how is {g} doing these days?"),
    ("D", "Is {g} still helping out with the meals?"),
    ("P", "I stayed with {g} after the fall."),
    ("P", "My son {g} works nights, so he can't come."),
    ("P", "I usually see {s} for that."),
    ("D", "Did {s} ever mention physical therapy?"),
    ("P", "{g} found the bottle empty."),
    ("P", "Ask {s}, she'd know."),
    ("P", "If {g} can't make it, {g2} will."),
    ("P", "When {g} left I stopped eating right."),
    ("P", "Since {g} got sick I've been the one driving."),
    ("P", "After {s} retired I never found a new doctor."),
    ("P", "Ever since {g} passed I can't sleep."),
    ("D", "Once {s} gets the results I'll call you."),
    ("P", "Until {g} moved in I was on my own."),
    ("P", "I think {g} would agree with that."),
    ("P", "I don't think {g} knows yet."),
    ("P", "Maybe {g} could come next time."),
    ("P", "{g} too, she has the same cough."),
    ("P", "Even {g} noticed it."),
    ("P", "Poor {g} was up all night with me."),
    ("P", "Thank god for {g}."),
    # two persons owning one place, after "at" or "in"; a person after "in" of a phrasal verb; a surname after an
    # article ("she's a {s}"), a person after "the" or "a" and before where they are from
    ("P", "We were at {g} and {g2}'s for thanksgiving."),
    ("P", "I left my bag at {g} or {g2}'s."),
    ("P", "Christmas was at {g}, {g2} and {g3}'s."),
    ("P", "I was at {g} and her husband's place when it happened."),
    ("P", "We stayed in {g} and {g2}'s spare room."),
    ("P", "The spare key is over at {s} and {g}'s."),
    ("D", "I need to fill in {s} about the results."),
    ("D", "We'll bring in {s} for the surgery part."),
    ("P", "I saw it in {g}, she had the same thing."),
    ("P", "She's a {s}, like her dad."),
    ("P", "Is that a {s} thing? My dad has it too."),
    ("P", "The {s} boy, the oldest one, had it first."),
    ("P", "There's a {g} at my work too."),
    ("P", "It's the {g} from my church who drives me."),
    # a person set off by a comma as a relative, after a preposition of place (tenth session, second commit)
    ("P", "I live near {g}, my cousin."),
    ("P", "I was at {g}, my cousin's, when it started."),
    ("P", "We stayed in {g}, my aunt's place, for a week."),
    ("P", "She was over at {s}, her friend's."),
)
