"""Hurtful Words (paper 004): association (log-probability bias) and classifier fairness gaps, probes, debiasing."""

PROVIDES = {
    "audit": {
        "association": "clinaudit.audits.association",
        "classifier_gaps": "clinaudit.audits.classifier_gaps",
    },
    "section": {
        "association": "clinaudit.report.sections.association",
        "classifier_gaps": "clinaudit.report.sections.classifier_gaps",
    },
}
COMMANDS = ["clinaudit.cli.association_cmd", "clinaudit.cli.classifier_cmd"]
