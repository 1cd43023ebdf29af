"""The tidy result table (``clinaudit.results``): defined in :mod:`clinaudit.stats.results`.

Kept as a short import path; see that module for the schema and the correction families.
"""

from .stats.results import RESULT_COLUMNS, apply_correction, result_row, results_frame

__all__ = ["RESULT_COLUMNS", "result_row", "results_frame", "apply_correction"]
