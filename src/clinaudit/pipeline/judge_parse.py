"""A judge's parse rate and, when it could not parse, the fix a "not measured" reason names (docs/verdicts.md):
the judge's model, ``models.judge``, and one raw unparsed answer, on one line and truncated (escaped where it is
shown: the report's templates escape, the CSV writers neutralise)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import pandas as pd

__all__ = ["RAW_QUOTE_CHARS", "judge_parse_rates", "judge_fix", "quote_raw"]


def _blank(s: pd.Series) -> pd.Series:
    return s.isna() | (s.astype(str).str.strip() == "")


#: how much of one unparsed judge answer a "not measured" reason quotes
RAW_QUOTE_CHARS = 160


def judge_parse_rates(judgments: pd.DataFrame, responses: pd.DataFrame | None = None) -> list[dict[str, Any]]:
    """Per judge (and juror): items, parsed, unparseable, errors, ties, parse rate, the judge's model (a juror's
    from its rows; ``called_model``: also a single judge's, from the calls of ``responses`` with the same
    ``request_key``) and one raw
    unparsed answer (:func:`quote_raw`)."""
    if judgments.empty or not {"judge", "status"} <= set(judgments.columns):
        return []
    j = judgments.copy()
    j["_role"] = j["jury"].fillna("").astype(str) if "jury" in j.columns else ""
    j["_model"] = j["judge_model"].fillna("").astype(str) if "judge_model" in j.columns else ""
    if responses is not None and not responses.empty and "request_key" in j.columns \
            and {"request_key", "model"} <= set(responses.columns):  # a single judge: its model from its calls
        by_key = responses.dropna(subset=["request_key"]).drop_duplicates("request_key")
        by_key = by_key.set_index(by_key["request_key"].astype(str))["model"].astype(str)
        j["_called"] = j["request_key"].astype(str).map(by_key).fillna("")
    else:
        j["_called"] = ""
    out = []
    for (judge, role, model), g in j.groupby(["judge", "_role", "_model"], sort=True):
        status = g["status"].astype(str)
        n, ok = len(g), int((status == "ok").sum())
        raw = g.loc[status == "unparseable", "raw"] if "raw" in g.columns else pd.Series(dtype=object)
        raw = raw[~_blank(raw)].astype(str)
        called = sorted(set(g["_called"]) - {""})
        out.append({"judge": str(judge), "jury": role, "judge_model": model, "items": n, "parsed": ok,
                    "unparseable": int((status == "unparseable").sum()), "errors": int((status == "error").sum()),
                    "ties": int((status == "tie").sum()), "parse_rate": ok / n if n else math.nan,
                    "called_model": model or ", ".join(called),
                    "unparsed_example": quote_raw(raw.iloc[0]) if len(raw) else ""})
    return out


def quote_raw(text: str) -> str:
    """One raw answer on one line, at most :data:`RAW_QUOTE_CHARS` characters (escaped where it is shown)."""
    flat = " ".join(text.split())
    return flat if len(flat) <= RAW_QUOTE_CHARS else flat[:RAW_QUOTE_CHARS - 1].rstrip() + "…"


def judge_fix(j: Mapping[str, Any]) -> str:
    """The fix of a judge that could not parse: which model to replace, and one raw answer it gave."""
    name = j.get("called_model") or j["judge_model"]
    model = f"judge model {name}" if name and j["jury"] != "decision" else "the judge model"
    out = f"; {model} did not answer in the expected format: point models.judge at a capable model"
    if j.get("unparsed_example"):
        out += f"; one unparsed answer: \"{j['unparsed_example']}\""
    return out
