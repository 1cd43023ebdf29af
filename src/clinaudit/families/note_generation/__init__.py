"""Counterfactual note generation and stereotype incidence (paper 000): recipe, judges, section, CLI."""

PROVIDES = {
    "audit": {"note_generation": "clinaudit.families.note_generation.audit"},
    "section": {"note_generation": "clinaudit.families.note_generation.section"},
    "judge": ["clinaudit.families.note_generation.judges"],
    "metric": ["clinaudit.families.note_generation.metric_decls"],
}
COMMANDS = ["clinaudit.families.note_generation.cli"]
