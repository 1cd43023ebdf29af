"""Counterfactual note generation and stereotype incidence (paper 000): recipe, judges, section, CLI."""

PROVIDES = {
    "audit": {"note_generation": "clinaudit.audits.note_generation"},
    "section": {"note_generation": "clinaudit.report.sections.note_generation"},
    "judge": ["clinaudit.judges.incidence"],
}
COMMANDS = ["clinaudit.cli.notes_cmd"]
