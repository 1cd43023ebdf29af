"""The held-out half of the by-origin de-identification benchmark (issue 50): sentence forms a name takes in a
conversation, written before any rule of this round and committed first (see ``git log`` of this file); the
detector is not tuned on them. ``bench_deid_origin.py`` reports them apart from the development half
(``deid_dev.py``).

A form is ``(speaker, sentence)``: ``speaker`` ``P`` (patient) or ``D`` (doctor) says which turn it is put into;
``{g}`` is a person's given name, ``{s}`` the same person's surname. The names are the held-out names of
``deid_names.py`` (the odd positions of each origin's lists: the development half uses the even ones).
"""

from __future__ import annotations

HELD_OUT_FORMS: tuple[tuple[str, str], ...] = (
    ("P", "{g} {s} is my emergency contact."),
    ("D", "I see {g} {s} on the schedule for next week as well."),
    ("P", "I usually see {s} at the other office."),
    ("P", "My landlord, {g}, found me on the floor."),
    ("D", "Okay {g}, can you lift your arm for me?"),
    ("P", "{g} said I should come in sooner."),
    ("D", "I'll send a copy to {g} {s} as well."),
    ("P", "It's {s}, {g} {s}."),
    ("P", "Before that I was seeing {g} over at the county clinic."),
    ("D", "Do you still live with {g}?"),
    ("P", "{g} and I have been together twenty years."),
    ("D", "Let me check with {s} in the lab."),
    ("P", "We named the dog after {g}."),
    ("D", "{s} from physical therapy left a note for you."),
    ("P", "Everyone calls me {g} at work."),
    ("P", "The nurse, {g} {s}, already took my blood pressure."),
)
