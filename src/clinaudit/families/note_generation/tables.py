"""The audit's further tables: judge reliability, the paper-shaped tables, column layouts."""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd

from .analysis import source_prefix
from .params import NoteGenerationParams

__all__ = ["KEY_COLUMNS", "SHIFT_RENAME", "SHIFT_COLUMNS", "INCIDENCE_COLUMNS", "RATE_COLUMNS", "DISPARITY_COLUMNS",
           "RELIABILITY_COLUMNS", "paper_tables", "judge_reliability", "or_empty", "human_labels_path", "flat"]


KEY_COLUMNS = ["model", "dataset", "context", "source", "attribute", "judge_model", "judge_reliability"]
INCIDENCE_COLUMNS = KEY_COLUMNS + ["row", "n_dialogs", "n_missing"] + [
    f"{m}{suffix}" for m in ("BL%", "maxΔBL", "ΔCF", "%dlg") for suffix in ("", "_ci_low", "_ci_high")] + [
    "maxΔBL_group", "maxΔBL_label", "maxΔBL_n_pairs", "maxΔBL_test", "maxΔBL_p", "maxΔBL_p_adj", "maxΔBL_family",
    "ΔCF_test", "ΔCF_p"]
#: tables/incidence_shifts.csv: ΔBL rows of the results, named for readers (layer column → shift column)
SHIFT_RENAME = {"n_cases": "n_dialogs", "n_test_cases": "n_pairs", "n_pairs": "n_value_notes",
                 "n_control_pairs": "n_baseline_notes", "floor": "BL%", "rate": "rate%", "value": "ΔBL",
                 "null_hypothesis": "H0", "effect_size": "d_z"}
SHIFT_COLUMNS = KEY_COLUMNS + ["row", "group", "n_dialogs", "n_pairs", "n_value_notes", "n_baseline_notes", "BL%",
                           "rate%", "ΔBL", "ci_low", "ci_high", "ci_method", "test", "H0", "alternative", "statistic",
                           "p", "p_adj", "correction", "family", "d_z", "test_note"]
RATE_COLUMNS = KEY_COLUMNS + ["group", "rate", "n", "ci_low", "ci_high"]
DISPARITY_COLUMNS = KEY_COLUMNS + ["row", "%Δ", "%Δ_ci_low", "%Δ_ci_high", "Maj.", "Maj._abbr", "Maj.%", "label",
                               "n_dialogs", "n_yes", "n_missing"]
RELIABILITY_COLUMNS = ["judge", "judge_model", "n", "ok", "unparseable", "error", "parse_rate%", "n_human",
                     "percent_agreement", "kappa", "reliability"]


def or_empty(df: pd.DataFrame, columns: list[str]) -> pd.DataFrame:
    """``df``, or an empty frame with the table's columns (so readers always find a header)."""
    return df if len(df.columns) else pd.DataFrame(columns=columns)


def human_labels_path(value: str, base_dir: Path | None) -> Path:
    """``demo:<file>`` -> the demo file shipped with clinaudit; relative paths -> next to the spec."""
    if value.startswith("demo:"):
        from ...data import demo_path

        return demo_path(value.partition(":")[2])
    path = Path(value).expanduser()
    if not path.is_absolute() and base_dir is not None:
        path = base_dir / path
    return path


def flat(df: pd.DataFrame) -> pd.DataFrame:
    from ...export import flatten_columns

    return flatten_columns(df)

def paper_tables(incidence: pd.DataFrame, disparity: pd.DataFrame, params: NoteGenerationParams,
                  contexts_order: list[str]) -> dict[str, tuple[pd.DataFrame, str]]:
    from ...export import format_number, paper_table

    tables: dict[str, tuple[pd.DataFrame, str]] = {}
    row_order = [f"{source_prefix(s)} {c}" for s in ("doctor", "patient") for c in contexts_order]
    if not incidence.empty:
        for attribute, sub in incidence.groupby("attribute", sort=False):
            sub = sub.copy()
            datasets = list(dict.fromkeys(sub["dataset"]))
            order = [(d, r) for d in datasets for r in row_order]
            na = {m: (lambda v: format_number(v, 1, missing="n/a")) for m in ("BL%", "ΔCF", "%dlg")}
            t = paper_table(sub, rows=["dataset", "row"], columns=["model"],
                            values=["BL%", "maxΔBL_label", "ΔCF", "%dlg"], formatters=na,
                            value_labels={"BL%": "BL(%)", "maxΔBL_label": "maxΔBL"}, row_order=order)
            t.index = t.index.set_names(["dataset", "context"])
            tables[f"paper_incidence_{attribute.replace('+', '_')}"] = (
                t, f"Disparities in context incidence rates on {attribute} (P1 Tables 2–4 layout)")
    if not disparity.empty:
        for attribute, sub in disparity.groupby("attribute", sort=False):
            sub = sub.assign(cell=[lab if not (isinstance(lab, float) and math.isnan(lab)) else "–"
                                   for lab in sub["label"]])
            t = paper_table(sub, rows=["row"], columns=["dataset", "model"], values=["cell"],
                            value_labels={"cell": "%Δ, Maj.%"}, row_order=row_order,
                            formatters={"cell": lambda v: v if isinstance(v, str) else format_number(v)})
            t.index = t.index.set_names(["context"])
            tables[f"paper_language_disparity_{attribute.replace('+', '_')}"] = (
                t, f"Language disparities on incident contexts: {attribute} (P1 Tables 5–6 layout)")
    return tables


def judge_reliability(paired_judgments: pd.DataFrame, agreement: pd.DataFrame | None) -> tuple[pd.DataFrame, dict[str, str]]:
    """Per judge × judge model: parse rate and, when human labels exist, agreement and κ."""
    rows = []
    texts: dict[str, str] = {}
    for (judge, jm), g in paired_judgments.groupby(["judge", "judge_model"], sort=False, dropna=False):
        n = len(g)
        ok = int((g["status"] == "ok").sum())
        unp = int((g["status"] == "unparseable").sum())
        err = int((g["status"] == "error").sum())
        rate = 100.0 * ok / n if n else math.nan
        rel = ""
        pa = kappa = math.nan
        n_h = 0
        if agreement is not None and not agreement.empty:
            a = agreement[(agreement["judge"] == judge) & (agreement["field"] == "decision")]
            a = a[(a["judge_model"].astype(str) == str(jm)) | (a["judge_model"].astype(str) == "")]
            if not a.empty:
                rel = str(a.iloc[0]["reliability"])
                pa, kappa, n_h = float(a.iloc[0]["percent_agreement"]), float(a.iloc[0]["kappa"]), int(a.iloc[0]["n"])
        if not rel:
            rel = "reliability unknown (no human labels)"
        text = f"{rel}; parse rate {rate:.0f}% (n={n})"
        texts[f"{judge}|{jm}"] = text
        rows.append({"judge": judge, "judge_model": jm, "n": n, "ok": ok, "unparseable": unp, "error": err,
                     "parse_rate%": rate, "n_human": n_h, "percent_agreement": pa, "kappa": kappa,
                     "reliability": text})
    return pd.DataFrame(rows), texts
