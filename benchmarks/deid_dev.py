"""The development half of the by-origin de-identification benchmark (issue 50): sentence forms the detector may
be tuned on. Same layout as ``deid_heldout.py`` (``(speaker, sentence)``, ``{g}`` given name, ``{s}`` surname);
the names are the development names of ``deid_names.py`` (even positions)."""

from __future__ import annotations

DEV_FORMS: tuple[tuple[str, str], ...] = (
    ("P", "{g} drove me here."),
    ("D", "Is {g} {s} your primary doctor?"),
    ("P", "I talked to {s} on the phone last week."),
    ("P", "My coworker {g} has the same rash."),
    ("D", "Alright {g}, let's take a look."),
    ("P", "{g} {s} told me to stop the pills."),
    ("D", "We will fax the results to {s}."),
    ("P", "You can call {g} if I don't pick up."),
    ("P", "The last name is {s}."),
    ("D", "How is {g} doing these days?"),
    ("P", "I stay with {g} {s} on weekends."),
    ("D", "{g}, I want you to keep a food diary."),
    ("P", "{s} at the pharmacy said it was fine."),
    ("P", "I live next door to {g}."),
    ("D", "I'll ask {g} {s} to call you back."),
    ("P", "{g} thinks I snore."),
)
