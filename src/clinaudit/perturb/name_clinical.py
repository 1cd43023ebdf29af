"""Which clinical-vocabulary category the name rules see for a word (issue 50, thirteenth session).

The clinical guard (``name_word.Word.clinical``) never lets a name rule take a clinical word for a name, and
``vocab.clinical_category`` calls every lower-case word of every ICD-10-CM description a "condition" word. ICD-10-CM's
chapter of external causes (V00-Y99: "Fall from cliff", "Struck by cricket bat", "Amusement park as the place of
occurrence") and its chapter of factors influencing health status (Z00-Z99: "Problems related to living in foster
care") name everyday things, places and people, so "park", "hill", "hall", "bill", "son", "cliff", "harvest" were
clinical and lost wherever a word of their frequency is taken ("it was park who drove me .").

Here a gazetteer name that ICD-10-CM writes in lower case only in those two chapters or the introduction's
instructions (:func:`.vocab.everyday_condition`) is no clinical word for the name rules: the rules that read a word
name by its frequency and its place decide it, as they decide "hope" or "church". A word written in lower case in a
chapter of conditions, injuries or findings stays clinical ("frank": frank breech; "young": young primigravida;
"stone": paving stone degeneration; "white": white blood cell), and so does a word capitalised inside a description
("Kyasanur Forest disease"), a drug, specialty, facility or place word, an eponym, and every word that is no gazetteer
name ("snowmobile", "lawnmower": a word the lists call no name, which no name rule would take anyway).
``vocab.clinical_category`` itself is unchanged (the residual counts and the perturbations read it).

The detector's own word test (``name_detect.detector_candidates``: a capitalised gazetteer word inside a sentence, a
gazetteer word no list calls common) still reads such a word as the condition word it was (``Word.everyday``): there
the change took "South [Beach] Diet", "[Lap] Band", "Overeaters [Anonymous]", "[Hang] tight", "playing [lacrosse]" in
the real dialogs, and no person's place says anything of them."""

from __future__ import annotations

from .vocab import clinical_category, everyday_condition

__all__ = ["everyday_icd_name"]


def everyday_icd_name(key: str, gazetteer: bool) -> bool:
    """``key`` (lower case) is a gazetteer name whose clinical category is "condition" only because ICD-10-CM writes it
    in its external-cause or factors chapters (:func:`.vocab.everyday_condition`): no clinical word for the name rules
    (``Word.clinical`` None, ``Word.everyday`` True)."""
    return gazetteer and clinical_category(key) == "condition" and everyday_condition(key)
