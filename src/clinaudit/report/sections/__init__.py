"""One report section per audit recipe (see clinaudit.report.base)."""
