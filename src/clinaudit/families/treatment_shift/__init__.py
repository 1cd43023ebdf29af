"""Treatment shift under non-clinical perturbations (paper 001): recipe, labels, clinicians, section, CLI."""

PROVIDES = {
    "audit": {"treatment_shift": "clinaudit.audits.treatment_shift"},
    "section": {"treatment_shift": "clinaudit.report.sections.treatment_shift"},
    "judge": ["clinaudit.judges.treatment"],
}
COMMANDS = ["clinaudit.cli.treatment_cmd"]
