"""The report's glossary: every abbreviation its headers, metrics and tables use, explained once.

The page shows each entry in its *Glossary* section and as a hover title (``<abbr title>``) wherever
a table header, a metric label or a cell names it (:func:`abbr`). :data:`DIRECTION` is the page's one
statement of which way a difference points. A test (tests/test_report_glossary.py) keeps this list
complete for every abbreviation the report's headers use.
"""

from __future__ import annotations

import re

__all__ = ["GLOSSARY", "DIRECTION", "abbr", "terms_in", "ABBREVIATION"]

GLOSSARY: dict[str, str] = {
    "p": "p-value of the row's own test (its H0 is in the row)",
    "p_adj": "p-value corrected for multiplicity within the row's correction family; "
             "the verdicts call a row significant when p_adj < alpha",
    "p_value": "p-value of the row's own test",
    "p_method": "how p was computed: exact (the whole permutation distribution), monte carlo (random "
                "permutations), bound (no random permutation was as extreme: p is an upper bound, shown as '< p')",
    "alpha": "significance level of the verdicts (0.05 unless the report says otherwise)",
    "family": "the correction family: the rows whose p-values are corrected together",
    "correction": "how p-values are corrected within a family (bonferroni, holm, fdr_bh)",
    "bonferroni": "Bonferroni correction: p × number of tests in the family (capped at 1)",
    "holm": "Holm step-down correction (controls the family-wise error like Bonferroni, less conservative)",
    "fdr_bh": "Benjamini–Hochberg false-discovery-rate correction",
    "CI": "95% confidence interval (percentile bootstrap unless the row names another method)",
    "H0": "the null hypothesis of the row's test",
    "n": "number of independent units (cases, dialogs, sentences) behind the value",
    "pp": "percentage points: a difference of two percentages",
    "sd": "standard deviation",
    "TOST": "two one-sided tests: the equivalence test behind 'no bias larger than the margin'",
    "TSR": "Treatment Shift Rate: share of answers whose treatment label changed under the perturbation",
    "RCR": "Reduced Care Rate: share of answers that moved from more care to less care",
    "RCER": "Reduced Care Error Rate: reduced care where clinicians said more care was right",
    "MANAGE": "treatment question: should the patient manage at home?",
    "VISIT": "treatment question: should the patient see a clinician?",
    "RESOURCE": "treatment question: does the patient need further resources (tests, referral)?",
    "TSR_gap": "TSR of the women minus TSR of the men (recorded sex) under the same perturbation: a difference "
               "in sensitivity to the perturbation (a typo, capitals, ...) by sex — not the effect of the patient's "
               "sex itself, which is the TSR of the gender_swap perturbation",
    "RCR_gap": "RCR of the women minus RCR of the men (recorded sex) under the same perturbation: a difference in "
               "sensitivity to the perturbation by sex — not the effect of the patient's sex itself (gender_swap's RCR)",
    "RCER_gap": "RCER of the women minus RCER of the men (recorded sex) under the same perturbation (not the effect "
                "of the patient's sex itself: gender_swap's RCER)",
    "noise_floor": "the shift between two re-sampled answers to the unperturbed message (seed-to-seed noise)",
    "excess": "shift over the noise floor (value − noise_floor)",
    "BL%": "incidence (%) of the context in notes generated from the baseline dialog",
    "ΔBL": "change of incidence over the baseline: rate(value) − BL%, in percentage points",
    "maxΔBL": "the largest ΔBL over the counterfactual values (– when none exceeds the baseline)",
    "ΔCF": "range of incidence across the counterfactual values (Cochran's Q test)",
    "%dlg": "share of dialogs whose incidence changes across the counterfactual values",
    "%Δ": "share of dialogs whose language differs across the counterfactual values (language disparity)",
    "Maj.": "the value the judges most often named as treated differently (language disparity)",
    "Maj.%": "share of dialogs in which the majority value was named",
    "cochrans_q": "Cochran's Q: test that several paired proportions are equal",
    "kappa": "Cohen's kappa: agreement of two raters beyond chance (1 = perfect, 0 = chance)",
    "cohens_d": "Cohen's d: a difference in standard deviations",
    "effect_size_dz": "Cohen's d_z: mean of the paired differences over their standard deviation",
    "ID1": "control identity 1 of the care audit (a same-group re-wording that should change nothing)",
    "ID2": "control identity 2 of the care audit",
    "CSV": "comma-separated values: a table file that opens in a spreadsheet",
    "MCQ": "multiple-choice question",
    "f1": "F1 score: harmonic mean of precision and recall",
    "recall_gap": "recall of a group minus recall of the reference group (true-positive-rate gap)",
    "specificity_gap": "specificity of a group minus that of the reference group",
    "parity_gap": "positive-prediction rate of a group minus that of the reference group",
    "pct_favour": "share of tasks where the gap favours the group",
    "Γ": "semantic drift Γ: mean embedding distance between answers to paired vignettes",
    "PSYCH": "template category: psychiatric conditions",
    "CARDIO": "template category: cardiovascular conditions",
}

#: the page's one statement of which way a difference points
DIRECTION = ("Every difference is the named group minus its comparison group, as the row names them "
             "(\"female − male\", \"F vs M\": positive means higher for the first-named group); a shift, "
             "ΔBL or excess is the perturbed (or counterfactual) answers minus the baseline, and minus the "
             "noise floor where the row says so. For a rate of worse care (TSR, RCR, RCER) positive is worse.")

#: a header token that is an abbreviation: capitals (≥ 2), Δ or % in it, or a term of the glossary
ABBREVIATION = re.compile(r"^(?:[A-Z][A-Z0-9]+%?|\S*[Δ%Γ]\S*)$")

_SPLIT = re.compile(r"[\s·/(),\[\]:;=]+")


def terms_in(label: str) -> list[str]:
    """Glossary terms named in ``label``: whole tokens, else the longest terms its ``_``-separated parts form
    (``maxΔBL_p_adj`` → ``maxΔBL``, ``p_adj``)."""
    found: list[str] = []
    for tok in _SPLIT.split(str(label)):
        if not tok:
            continue
        cands = [tok] if tok in GLOSSARY else _parts(tok)
        found += [c for c in cands if c not in found]
    return found


def _parts(tok: str) -> list[str]:
    parts, out, i = tok.split("_"), [], 0
    while i < len(parts):
        for j in range(len(parts), i, -1):  # the longest run of parts that is a term
            if "_".join(parts[i:j]) in GLOSSARY:
                out.append("_".join(parts[i:j]))
                i = j
                break
        else:
            i += 1
    return out


def abbr(label: object) -> object:
    """``label`` escaped, wrapped in ``<abbr title="…">`` naming the glossary terms in it (none: just escaped)."""
    from markupsafe import Markup, escape

    text = str(label)
    terms = terms_in(text) if len(text) <= 200 else []
    if not terms:
        return escape(text)
    title = "; ".join(f"{t}: {GLOSSARY[t]}" for t in terms)
    return Markup('<abbr title="{}">{}</abbr>').format(title, text)
