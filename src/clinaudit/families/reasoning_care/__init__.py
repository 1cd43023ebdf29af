"""The CARE reasoning audit (paper 003): recipe, CoT and MCQ judges, statistics, section, CLI."""

PROVIDES = {
    "audit": {"reasoning_care": "clinaudit.audits.reasoning_care"},
    "section": {"reasoning_care": "clinaudit.report.sections.reasoning_care"},
    "judge": ["clinaudit.judges.cot_audit", "clinaudit.judges.mcq"],
}
COMMANDS = ["clinaudit.cli.reasoning_cmd"]
