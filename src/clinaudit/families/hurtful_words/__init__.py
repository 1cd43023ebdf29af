"""Hurtful Words (paper 004): association (log-probability bias) and classifier fairness gaps, probes, debiasing.

Modules: ``association`` / ``classifier_gaps`` (the two audits), ``sentences`` and ``scoring``
(templates → sentences → scores), ``existing_scores`` (published score files), ``prevalence``,
``association_stats`` (Table 3 tests), ``gap_table`` and ``classifier_metrics`` (Table 4 gaps),
``probes``, ``craftmd_tasks``, ``debias``, ``section_*`` (report), ``cli_*`` (commands);
MIMIC-III: ``synth_mimic`` (synthetic tables), ``mimic_phenotypes`` (HCUP CCS groups, the 57 tasks),
``mimic_cohorts`` (stay cohort, attributes, splits), ``mimic_tasks`` (the three task tables),
``mimic_text`` (sentences, sequences, windows), ``mimic_corpus`` (pretraining sequences);
encoders: ``pretrain`` (continued MLM pretraining), ``adversarial`` (its gradient-reversal head),
``finetune`` (task heads on an encoder), ``chain`` (``hurtfulwords_pipeline``: the whole system, Tables 3–5).
"""

#: where this family's audits and commands come in the report and in `clinaudit --help`
ORDER = 40
