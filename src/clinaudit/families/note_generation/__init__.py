"""Counterfactual note generation and stereotype incidence (paper 000): recipe, judges, section, CLI."""

#: where this family's audits and commands come in the report and in `clinaudit --help`
ORDER = 20
