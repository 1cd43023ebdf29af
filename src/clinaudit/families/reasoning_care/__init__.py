"""The CARE reasoning audit (paper 003): declaration, CoT judges, statistics, section, CLI.

Modules: ``audit`` (the declaration over the pipeline's stages), ``params`` (CareParams,
the arms, the judge roles), ``cases`` (filters, quadruplets, exclusions; the MCQ protocol,
its parser and an MCQ case's fields are core: :mod:`clinaudit.judges.mcq`),
``analysis`` (answers, the paired table, the failure-mode filter, the item export),
``stats`` (every gap, drift and direction through the paired layer, the paper-shaped
tables), ``specialty`` (keyword tagging), ``judges`` (the two-phase CoT audit, P3
Figs. 9-10), ``metrics`` (ΔAcc, ΔLen, semantic drift, rethink ratio), ``section`` (report), ``cli`` (``clinaudit care-tables``).
"""

#: where this family's audits and commands come in the report and in `clinaudit --help`
ORDER = 30
