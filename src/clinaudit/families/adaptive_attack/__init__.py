"""Adaptive attacker (beyond the papers, in the spirit of MedFuzz): non-clinical rewrites until the answer flips.

Modules: ``audit`` (the declaration over the pipeline's stages), ``params``, ``attack`` (the
attacker and control prompts, the clinical-content guard and its judge, the turn loop),
``section`` (report).
"""

PROVIDES = {
    "audit": {"adaptive_attack": "clinaudit.families.adaptive_attack.audit"},
    "section": {"adaptive_attack": "clinaudit.families.adaptive_attack.section"},
    "judge": ["clinaudit.families.adaptive_attack.attack"],
    "metric": ["clinaudit.families.adaptive_attack.metric_decls"],
}
COMMANDS: list[str] = []
