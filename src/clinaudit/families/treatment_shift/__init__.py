"""Treatment shift under non-clinical perturbations (paper 001): recipe, labels, clinicians, section, CLI.

Modules: ``audit`` (the declaration over the shared stages, ``TreatmentShift``), ``params``,
``prompts`` (P2 prompts, case fields, target requests), ``annotate`` (annotator, gender
inference, label table), ``conversations`` (conversational settings, diagnosis judging),
``summary`` (run summary, cost lines of the estimate), ``labels`` (the label table and its
readers), ``analysis`` (pairing and statistics of a label table), ``metrics`` (TSR / RCR /
RCER), ``clinicians`` (clinicians as a reference rater), ``variants`` (variant screening,
Table 1), ``accuracy`` (conversational accuracy, Table 4, Fig. 7), ``judges`` (annotator,
gender inference, diagnosis match), ``section`` / ``section_recipe`` (the report section),
``cli`` (``clinaudit treatment-shift``).
"""

#: where this family's audits and commands come in the report and in `clinaudit --help`
ORDER = 10
