"""A development set of persons named right after a preposition or an article (issue 50, fifth session).

Issue 50's rules of ``perturb/not_a_name.py`` read a word right after "in"/"at" as a place and a lower-case word
after an article as a thing (with every other lower-case mention of it in the dialog); neither development set
named a person there. These 26 forms, written for this set in everyday clinical speech (not taken from either
half of the benchmark), put a person after "at", "in", "with", "from", "for", "by", "about", "beside", "next to",
"in front of", an article ("the X family", "a X from your office", "the X i told you about") and an apposition
("the nurse, X, said"), several with a second mention of the same person. The names are the second development
set's (``deid_dev2.DEV2_NAMES``, 52 origins). ``python benchmarks/bench_deid_origin.py --prep --no-before
--no-real`` reports it per origin as the ``prep`` half. Same layout as ``deid_dev.py``; ``{g}`` given name,
``{s}`` surname."""

from __future__ import annotations

PREP_FORMS: tuple[tuple[str, str], ...] = (
    ("P", "I was looking at {g} when the room started spinning."),
    ("P", "We were laughing at {g} and then my chest got tight."),
    ("P", "I stayed in {g}'s room for a few nights."),
    ("P", "I stayed with {g} in Boston over the holidays."),
    ("P", "The {s} family next door had the flu too."),
    ("P", "A friend named {g} told me about this clinic."),
    ("P", "It started at {g} {s}'s barbecue on Sunday."),
    ("P", "I was sitting in front of {g} at church."),
    ("D", "Was anybody next to {g} when it happened?"),
    ("P", "I was sitting beside {g} on the bus."),
    ("P", "I got a text from {g} this morning about the rash."),
    ("P", "I pick up the refills for {g} too."),
    ("P", "The letter was signed by {g} {s}."),
    ("D", "Tell me a little about {g}, is everyone well at home?"),
    ("P", "The nurse, {g}, said the wound looked fine."),
    ("P", "The {g} I told you about is the one who drives me, {g} never misses a day."),
    ("P", "A {g} from your office called me yesterday."),
    ("P", "I waved at {g} and then I just went down."),
    ("P", "I was mad at {g} all week and I could not sleep."),
    ("D", "So you were with {g} {s} at the time?"),
    ("P", "I ran into {g} at the pharmacy and she said I looked pale."),
    ("P", "I'm worried about {s}, he has not eaten in days."),
    ("P", "The pharmacist, {g} {s}, switched the brand on me."),
    ("P", "I left my inhaler at {g}'s and had to go without."),
    ("D", "Did you get the referral from {s} or from the clinic?"),
    ("P", "My cousin lives with the {s} kids in {g}'s old house."),
)
