"""The exclusions ledger: one table, for every audit, of what was left out and why.

Every case, variant, pair or label an audit drops — a dialog with identifiers left
after de-identification, a failed LLM rewrite, a vignette with gendered terms left
after neutralization, an invalid clinician label, an unparseable judge answer — is
one row of ``tables/exclusions.csv``:

==========  ==================================================================
``stage``   where it was dropped: ``cases``, ``variants``, ``calls``, ``judgments``, ``labels``, ``pairs``
``case_id`` the case (empty when the row concerns a whole source)
``reason``  a short, stable reason (``failed_rewrite``, ``residual_identifiers`` …)
``detail``  free text: which terms, which error, which value
``item``    the variant / label / judgment within the case, when narrower than the case
``source``  file the case came from, and ``row`` its 1-based data row, when known
==========  ==================================================================

The audit records rows with :meth:`clinaudit.pipeline.AuditContext.exclude`; the ledger
is written to the run directory as rows arrive (a killed run keeps what it had), and
the report lists it under every audit. Each row also carries the demographic attributes of
its case (recorded sex / gender, race, age band, the spec's declared columns), and every run
tests whether the exclusions dropped some group's cases more often
(:mod:`clinaudit.exclusion_skew`, ``tables/exclusion_rates.csv``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import pandas as pd

__all__ = ["EXCLUSION_COLUMNS", "Exclusions"]

EXCLUSION_COLUMNS = ["stage", "case_id", "reason", "detail", "item", "source", "row"]


class Exclusions:
    """Rows of the exclusions ledger, in the order they were recorded."""

    def __init__(self) -> None:
        self._rows: list[dict[str, Any]] = []

    def add(self, stage: str, case_id: Any, reason: str, detail: str = "", item: str = "", source: str = "",
            row: int | None = None, **extra: Any) -> None:
        if not stage or not reason:
            raise ValueError("an exclusion needs a stage and a reason")
        rec = {"stage": stage, "case_id": "" if case_id is None else str(case_id), "reason": reason,
               "detail": detail, "item": item, "source": source, "row": row}
        rec.update(extra)
        self._rows.append(rec)

    def extend(self, rows: Iterable[Mapping[str, Any]] | pd.DataFrame, stage: str | None = None) -> None:
        """Add rows that carry at least ``case_id`` and ``reason`` (``stage`` from the row or the argument)."""
        records = rows.to_dict("records") if isinstance(rows, pd.DataFrame) else list(rows)
        for r in records:
            r = dict(r)
            st = r.pop("stage", None) or stage
            if st is None:
                raise ValueError("exclusion rows need a stage (a column or the stage= argument)")
            self.add(st, r.pop("case_id", ""), str(r.pop("reason", "")), **{k: v for k, v in r.items()})

    def __len__(self) -> int:
        return len(self._rows)

    def frame(self) -> pd.DataFrame:
        df = pd.DataFrame(self._rows)
        for c in EXCLUSION_COLUMNS:
            if c not in df.columns:
                df[c] = pd.Series(dtype=object)
        extra = [c for c in df.columns if c not in EXCLUSION_COLUMNS]
        return df[EXCLUSION_COLUMNS + extra]

    def counts(self) -> pd.DataFrame:
        """Rows per (stage, reason): what the run summary and the report show first."""
        df = self.frame()
        if df.empty:
            return pd.DataFrame(columns=["stage", "reason", "n"])
        return df.groupby(["stage", "reason"], sort=True).size().rename("n").reset_index()
