"""A second development set of persons after a preposition, an article or in a list (issue 50, sixth session).

``deid_dev_prep.py``'s forms showed one form-level miss in lower case (a person after an article, "the {g} i told you
about ..., {g} never misses a day", lost for every origin) and a few word-names lost after every preposition. These
18 forms, written for this set before any rule was changed (not taken from either half of the benchmark nor from
``deid_dev_prep.py``), put a person in the same kind of position in other wordings: after an article before a
relative clause ("the {g} who came", "the {g} that i mentioned", "the {g} i work with"), with a second mention of
the same person; after "with", "from", "by", "than", "like", "besides", "between", "after", "at"; as a possessive; in
a list ("{g} and {s}", "my son and {g}"); at the sentence's end. The names are the second development set's
(``deid_dev2.DEV2_NAMES``, 52 origins). ``python benchmarks/bench_deid_origin.py --prep2 --no-before --no-real``
reports it per origin as the ``prep2`` half. Same layout as ``deid_dev.py``; ``{g}`` given name, ``{s}`` surname."""

from __future__ import annotations

PREP2_FORMS: tuple[tuple[str, str], ...] = (
    ("P", "I had lunch with {g} and {s} on Friday, and both of them got sick."),
    ("P", "My granddaughter is taller than {g} now."),
    ("P", "She looks just like {g} when she smiles."),
    ("D", "Is that the {g} who came with you last time?"),
    ("P", "The {g} that I mentioned last week, {g} has the same cough."),
    ("P", "I borrowed the car from {g} because mine broke down."),
    ("P", "I was staying at {g} {s}'s for the weekend."),
    ("P", "Nobody besides {g} knows I take these pills."),
    ("P", "I get my rides to the clinic from {g}."),
    ("P", "I sat between {g} and my sister the whole flight."),
    ("P", "I was arguing with {g} about the bills and my head started pounding."),
    ("P", "My son and {g} take turns checking on me."),
    ("P", "I got the flu shot after {g} did."),
    ("P", "It was written by {g}, the nurse on nights."),
    ("P", "I was yelling at {g} over the phone when the pain hit."),
    ("P", "The {g} I work with gave me some of her cream, {g} swears by it."),
    ("D", "And the {s} you mentioned, is that your landlord?"),
    ("P", "I have been helping out at {s}'s shop on weekends."),
)
