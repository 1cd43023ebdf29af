"""A fifth development set of the by-origin de-identification benchmark (issue 50, seventh session): everyday *forms*.

The held-out half loses, in lower case, the same pair of names for 29 origins (each stuck at 98.0 %), so some
held-out sentence form loses whatever name stands in it; neither prep set found that form. These **50 forms**,
written for this set before any rule was changed (from how people talk in a clinic, not from the held-out half,
which was not looked at, and none of them in ``deid_dev.py``, ``deid_dev2.py``, ``deid_dev_prep.py``,
``deid_dev_prep2.py`` or ``deid_dev4.py``), put a person where the other sets do not: the object of an ordinary
verb ("we took X to the ER", "i drove X", "i helped X carry", "text X the instructions", "give X a copy", "get X
on the phone"); a possessive ("X's insulin", "with X's husband", "doctor X's office"); after "or", in a list
after "and" with a comma before; in reported speech ("she said X had", "X goes, ...", "my sister said that X told
her"); a vocative at the end ("take care X .", "..., okay X ?") or after "now"/"hey"; after "this is", "it's",
"i'm", "my name's"; a middle initial ("X R. Y") or "junior"; a surname alone after a role with an article ("the
nurse X"), before "from cardiology"; in a time phrase ("since X moved in", "before X was born", "ever since X
left"); in a question ("is X still", "does X know"); after "per", "via", "cc"; a name said twice; in the middle
of long run-on speech; two persons in one sentence ("i told X to call Y"). The names are the second development
set's (``deid_dev2.DEV2_NAMES``, 52 origins), so every origin stands in every form. ``python
benchmarks/bench_deid_origin.py --dev-only --dev5 --no-before --no-real`` reports it per origin as the ``dev5``
half. Same layout as ``deid_dev.py``; ``{g}`` given name, ``{s}`` surname."""

from __future__ import annotations

DEV5_FORMS: tuple[tuple[str, str], ...] = (
    ("P", "We took {g} to the ER last night because she couldn't breathe."),
    ("P", "I called {g} last night and told her about the results."),
    ("P", "I've been giving {g}'s insulin for him since his stroke."),
    ("P", "Either my husband or {g} will pick me up after the procedure."),
    ("P", "She said {g} had the same rash last summer."),
    ("D", "All right, that's everything for today, take care {g}."),
    ("P", "Hi, this is {g}, I'm calling about my mother's blood pressure."),
    ("P", "Hi doctor, I'm {g} {s}, I have the ten o'clock."),
    ("P", "My name's {g}, I'm the patient's daughter."),
    ("D", "Is it {g} R. {s} on the insurance, with the middle initial?"),
    ("D", "The nurse {s} will go over the discharge papers with you."),
    ("P", "Doctor {s}'s office never called me back about the scan."),
    ("D", "{s} from cardiology wants to see you again next week."),
    ("P", "Since {g} moved in with us, I have been sleeping better."),
    ("D", "Is {g} still giving you the injections at home?"),
    ("D", "Per {s}, the biopsy margins were clear."),
    ("D", "I'll send the forms via {g} at the front desk and cc {s} on the letter."),
    ("P", "I think {g} does. Yeah, {g} handles all of that for me."),
    ("P", "So I was at work and I felt dizzy and I sat down and {g} brought me some water and then it passed but it "
          "came back again later."),
    ("P", "I told {g} to call {s} if anything happened to me."),
    ("P", "I drove {g} to dialysis this morning so I'm running a little late."),
    ("P", "I helped {g} carry the groceries in and my back went out."),
    ("P", "And {g} goes, you should really see somebody about that."),
    ("P", "I'll text {g} the instructions so she doesn't forget."),
    ("D", "We can give {g} a copy of the care plan if you like."),
    ("P", "Let me get {g} on the phone, she knows the names of all my pills."),
    ("D", "Now {g}, how many drinks a week would you say you have?"),
    ("P", "It's just me, my wife, and {g} at home now."),
    ("P", "My sister said that {g} told her it was contagious."),
    ("D", "Does {g} know you stopped taking the metformin?"),
    ("P", "I had the same surgery before {g} was born, so it's been a while."),
    ("P", "I keep a spare key with {g}'s husband next door, {g} {s} Junior."),
    ("D", "Hey {g}, good to see you again, how was the trip?"),
    ("P", "Ever since {g} left for college I barely eat dinner."),
    ("D", "We'll get you set up with physical therapy then, okay {g}?"),
    ("D", "{g} {s} is a 62-year-old woman here today for follow-up of her diabetes."),
    ("D", "Next patient is {g} {s}, date of birth March 14th, 1958."),
    ("D", "You must be {g}, come on in and have a seat."),
    ("D", "{g} will be in shortly to take your vitals."),
    ("P", "I'll let {g} know what you said about the diet."),
    ("P", "We lost {g} last year to cancer, and that's when the drinking started."),
    ("P", "My brother {g} passed away in March from a heart attack."),
    ("D", "Meet {g}, our new medical student, if that's okay with you."),
    ("P", "I want {g} to be there when you tell me the results."),
    ("D", "Make sure {g} gets the flu shot too this year."),
    ("P", "Can {g} come back with me, she's better with the questions."),
    ("D", "Say hi to {g} for me, I haven't seen her in ages."),
    ("P", "Hello, {g} speaking, I'm calling back about my test."),
    ("P", "{g} here is my interpreter, my English is not so good."),
    ("P", "We've been married forty years, me and {g}, and she still does the cooking."),
)
