"""Statistics for every audit: the paired layer, tests, bootstrap CIs, corrections, effect sizes.

- :mod:`clinaudit.stats.paired` — :class:`PairedFrame`: excess over a control /
  noise floor, case-clustered bootstrap CIs, case-level permutation tests,
  correction families. Every audit's comparisons go through it.
- :mod:`clinaudit.stats.permutation` — the layer's permutation tests: sign flips over cases
  (exact for any number of cases when the case-level differences lie on a lattice, else exact
  enumeration or a Monte Carlo estimate / bound) and the studentised relabelling of subgroups.
- :mod:`clinaudit.stats.results` — the tidy result table every audit writes
  (one row per reported number) and ``apply_correction`` over declared families
  (also importable as :mod:`clinaudit.results`).
- :mod:`clinaudit.stats.resolution` — what a test or CI *can* say with its cases (the smallest
  attainable permutation p, the exact bound when every case agrees), for the report's
  "inconclusive" rule.
- :mod:`clinaudit.stats.core` — the building blocks (scipy / statsmodels /
  scikit-learn wrappers with the degenerate cases guarded, the vectorised
  bootstrap, the stratified group-metric bootstrap of classifier gaps).

No audit or metric module computes a bootstrap, a test or a multiplicity
correction itself; they import them from here. The null hypothesis and unit of
resampling of each test are in docs/metrics.md.
"""

from .core import (
    ZERO_ATOL,
    ZERO_RTOL,
    StatResult,
    anova_oneway,
    bootstrap_ci,
    bootstrap_indices,
    bootstrap_p_value,
    bootstrap_resamples,
    cohens_d,
    cohens_kappa,
    correct_pvalues,
    paired_binary_test,
    percent_agreement,
    percentile_ci,
    wilcoxon_test,
    zero_small_differences,
)
from .groups import (
    GROUP_METRICS,
    bootstrap_group_metrics,
    gap_permutation_test,
    rest_gap_p,
    max_gap_resamples,
    max_gap_statistic,
    metrics_from_counts,
)
from .results import RESULT_COLUMNS, apply_correction, result_row, results_frame
from .paired import ALTERNATIVES, PairedFrame, sign_flip_test, studentised_permutation_test, two_sample_permutation_test
from .resolution import all_equal_half_width, correction_factor, smallest_p

__all__ = [
    "PairedFrame",
    "ALTERNATIVES",
    "sign_flip_test",
    "two_sample_permutation_test",
    "studentised_permutation_test",
    "apply_correction",
    "RESULT_COLUMNS",
    "result_row",
    "results_frame",
    "StatResult",
    "bootstrap_ci",
    "bootstrap_resamples",
    "bootstrap_indices",
    "percentile_ci",
    "bootstrap_group_metrics",
    "GROUP_METRICS",
    "metrics_from_counts",
    "gap_permutation_test",
    "rest_gap_p",
    "max_gap_resamples",
    "max_gap_statistic",
    "bootstrap_p_value",
    "paired_binary_test",
    "wilcoxon_test",
    "zero_small_differences",
    "ZERO_ATOL",
    "ZERO_RTOL",
    "anova_oneway",
    "correct_pvalues",
    "cohens_d",
    "cohens_kappa",
    "percent_agreement",
    "smallest_p",
    "correction_factor",
    "all_equal_half_width",
]
