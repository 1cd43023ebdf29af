"""The CARE reasoning audit (paper 003): declaration, CoT and MCQ judges, statistics, section, CLI.

Modules: ``audit`` (the declaration over the pipeline's stages), ``params`` (CareParams,
the arms, the judge roles), ``cases`` (MCQ fields, filters, quadruplets, exclusions),
``analysis`` (answers, the paired table, the failure-mode filter, the item export),
``stats`` (every gap, drift and direction through the paired layer, the paper-shaped
tables), ``specialty`` (keyword tagging), ``judges`` (the two-phase CoT audit, P3
Figs. 9-10), ``mcq`` (the Fig. 8 protocol and its answer parser), ``metrics`` (ΔAcc, ΔLen,
semantic drift, rethink ratio), ``section`` (report), ``cli`` (``clinaudit care-tables``).
"""

#: where this family's audits and commands come in the report and in `clinaudit --help`
ORDER = 30
