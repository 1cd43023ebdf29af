"""Adaptive attacker (beyond the papers, in the spirit of MedFuzz): non-clinical rewrites until the answer flips.

Modules: ``audit`` (the declaration over the pipeline's stages), ``params``, ``attack`` (the
attacker and control prompts, the clinical-content guard and its judge, the turn loop),
``section`` (report).
"""

#: where this family's audits and commands come in the report and in `clinaudit --help`
ORDER = 50
