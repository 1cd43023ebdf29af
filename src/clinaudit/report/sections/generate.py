"""Report section of plain ``clinaudit generate`` runs: the responses, and the samples of one row side by side.

A ``generate`` run has no judgments or metrics, so the section shows what was sent
(model, samples, temperature, input file), how many responses came back, the
responses table and, when a row was sampled more than once, its samples next to each
other with their differences highlighted.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from ..base import Compare, Metric, Section, Table, Text, register_section

__all__ = ["build"]

AUDIT = "generate"
_META_COLUMNS = {"sample", "seed", "model", "response", "finish_reason", "prompt_tokens", "completion_tokens",
                 "cached", "error", "request_key"}


def _responses(rundir: Any) -> pd.DataFrame:
    if rundir.has_table("responses"):
        try:
            return rundir.read_table("responses")
        except pd.errors.EmptyDataError:
            return pd.DataFrame()
    legacy = rundir.path / "responses.csv"
    if legacy.is_file():
        return pd.read_csv(legacy, keep_default_na=False, na_values=[""])
    return pd.DataFrame()


@register_section(AUDIT)
def build(rundir: Any) -> Section:
    """The section of a ``clinaudit generate`` run directory."""
    spec = rundir.manifest.get("spec") or {}
    df = _responses(rundir)
    sec = Section(title="Generated responses", audit=AUDIT)
    if df.empty:
        sec.blocks.append(Text("This run has no responses table yet (interrupted before the first response was "
                               "stored?). Re-run the same `clinaudit generate` command to resume.", kind="warning"))
        sec.summary = {"responses": 0}
        return sec
    id_col = str(spec.get("id_column") or next((c for c in df.columns if c not in _META_COLUMNS), df.columns[0]))
    failed = int(df["error"].notna().sum()) if "error" in df.columns else 0
    n_rows = int(df[id_col].nunique()) if id_col in df.columns else len(df)
    samples = int(df["sample"].nunique()) if "sample" in df.columns else 1
    sec.summary = {
        "input rows": n_rows,
        "samples per row": samples,
        "responses": f"{len(df) - failed} of {len(df)}" + (f" ({failed} failed)" if failed else ""),
        "temperature": spec.get("temperature", "?"),
    }
    settings = ", ".join(f"{k}: {spec[k]}" for k in ("model", "input", "samples", "temperature", "max_tokens",
                                                      "top_p", "system", "limit") if spec.get(k) is not None)
    sec.blocks.append(Text(
        "Every row of the input was sent to the model as given, once per sample (one seed per sample); no "
        f"judge or metric was run. Settings — {settings}."))
    if failed:
        sec.blocks.append(Text(f"{failed} call(s) failed after retries; see the error column. Re-running the same "
                               "command retries them (stored responses are reused).", kind="warning"))
    sec.blocks.append(Metric(label="responses returned", value=len(df) - failed, n=len(df),
                             test="", family=""))
    if "completion_tokens" in df.columns:
        toks = pd.to_numeric(df["completion_tokens"], errors="coerce").dropna()
        if len(toks):
            sec.blocks.append(Metric(label="mean completion tokens per response", value=round(float(toks.mean()), 1),
                                     n=len(toks)))
    cols = [c for c in [id_col, "sample", "seed", "model", "response", "finish_reason", "prompt_tokens",
                        "completion_tokens", "cached", "error"] if c in df.columns]
    sec.blocks.append(Table(title="Responses", df=df[cols], name="responses",
                            caption="One row per input row and sample; the CSV also holds each request's cache key."))
    if samples > 1 and id_col in df.columns and "response" in df.columns:
        first = df[id_col].iloc[0]
        sub = df[df[id_col] == first]
        variants = {}
        for rec in sub.to_dict("records"):
            text = rec.get("response")
            label = f"sample {rec.get('sample', '?')} (seed {rec.get('seed', '?')})"
            variants[label] = text if isinstance(text, str) else f"[no response: {rec.get('error')}]"
        sec.blocks.append(Compare(title=f"The samples of row {first} side by side", case_id=str(first),
                                  variants=variants))
    return sec
