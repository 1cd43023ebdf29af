"""The audit's further tables: the cases stage's side tables, judge reliability, ΔBL shifts, the
paper-shaped tables (P1 Tables 2–6 layout) and the column layout of each."""

from __future__ import annotations

import logging
import math
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd

from .analysis import source_prefix
from .cases import Prepared
from .params import NoteGenerationParams

if TYPE_CHECKING:  # pragma: no cover
    from ...pipeline import AuditContext

__all__ = ["KEY_COLUMNS", "SHIFT_RENAME", "SHIFT_COLUMNS", "INCIDENCE_COLUMNS", "RATE_COLUMNS", "DISPARITY_COLUMNS",
           "RELIABILITY_COLUMNS", "PAIRED_COLUMNS", "REJECTION_COLUMNS", "EXCLUDED_COLUMNS", "RESIDUAL_COLUMNS",
           "write_case_tables", "deid_table", "deid_summary", "DEID_COLUMNS", "shifts_table", "write_paper_tables", "paper_tables", "judge_reliability", "or_empty",
           "human_labels_path", "flat"]

log = logging.getLogger("clinaudit.families.note_generation")

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
#: tables/paired.csv (the stage's key column case_id comes first when written)
PAIRED_COLUMNS = ["model", "judge_model", "dataset", "context", "source", "attribute", "case_id", "group", "variant_id",
                  "status", "incidence"]
REJECTION_COLUMNS = ["case_id", "context", "source", "reason", "attempts", "detail", "last_output"]
EXCLUDED_COLUMNS = ["case_id", "dataset", "rule", "reason"]
RESIDUAL_COLUMNS = ["case_id", "dataset", "kind", "text", "start", "action"]
#: tables/deidentification.csv: what de-identification replaced, counts only (never the words)
DEID_COLUMNS = ["dataset", "text", "category", "source", "replacements", "texts"]


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


def write_case_tables(ctx: AuditContext, prep: Prepared) -> Counter:
    """The cases stage's side tables (excluded, the exclusions ledger, residual_identifiers); returns the
    number of dialogs with residual identifiers by action (excluded / kept / replaced). Nothing is written in a dry run."""
    n_resid = Counter(r["action"] for r in {(r["case_id"], r["action"]): r for r in prep.residuals}.values())
    if ctx.dry:
        return n_resid
    ctx.write_table("excluded", pd.DataFrame(prep.excluded, columns=EXCLUDED_COLUMNS))
    # the same rows in the run's one exclusions ledger (tables/exclusions.csv)
    ctx.write_table("exclusions", pd.DataFrame(
        [{"stage": "cases", "case_id": e["case_id"], "reason": e["rule"], "detail": e["reason"],
          "dataset": e["dataset"]} for e in prep.excluded], columns=["stage", "case_id", "reason", "detail", "dataset"]))
    ctx.write_table("residual_identifiers", pd.DataFrame(prep.residuals, columns=RESIDUAL_COLUMNS))
    if n_resid:
        log.warning("%d dialog(s) with identifiers or gendered terms left after de-identification %s "
                    "(table residual_identifiers)", sum(n_resid.values()),
                    "kept or replaced (deid.exclude_residual: false)" if not n_resid.get("excluded") else "excluded")
    return n_resid


def deid_table(prep: Prepared) -> pd.DataFrame:
    """``tables/deidentification.csv``: one row per dataset × text (``dialog``: the loaded dialogs;
    ``augmentation``: the augmented dialogs, checked again for names; ``variant``: the final variant texts,
    checked again for names) × category (name, age, life_stage, origin, gender, address: a gendered form of address) ×
    source (``metadata``: names the data lists; ``detector``: the name gazetteer; ``rule``: the patterns), with
    the number of replacements and of texts with at least one."""
    rows = [{"dataset": d, "text": t, "category": k, "source": s, "replacements": n, "texts": m}
            for (d, t, k, s), (n, m) in sorted(prep.deid_counts.items())]
    return pd.DataFrame(rows, columns=DEID_COLUMNS)


def deid_summary(prep: Prepared) -> dict[str, object]:
    """The summary's ``deidentification`` entry: replacements in total, by category and by name source."""
    total = sum(n for n, _ in prep.deid_counts.values())
    by_cat: Counter[str] = Counter()
    names: Counter[str] = Counter()
    for (_, _, kind, source), (n, _) in prep.deid_counts.items():
        by_cat[kind] += n
        if kind == "name":
            names[source] += n
    return {"replacements": total, "by_category": dict(sorted(by_cat.items())),
            "names_by_source": dict(sorted(names.items()))}


def shifts_table(results: pd.DataFrame) -> pd.DataFrame:
    """``tables/incidence_shifts.csv``: the ΔBL rows of the results, named for readers."""
    shifts = results[results["metric"] == "ΔBL"].rename(columns=SHIFT_RENAME) if len(results) else pd.DataFrame()
    return shifts.reindex(columns=SHIFT_COLUMNS) if len(shifts) else pd.DataFrame(columns=SHIFT_COLUMNS)


def write_paper_tables(ctx: AuditContext, incidence: pd.DataFrame, disparity: pd.DataFrame,
                       params: NoteGenerationParams, *, judge: str, incidence_reliability: str,
                       disparity_reliability: str) -> dict[str, list[str]]:
    """Write the paper-shaped tables (run store + ``exports/``); returns the export paths per table."""
    from ...export import write_exports

    exports: dict[str, list[str]] = {}
    for name, (table, caption) in paper_tables(incidence, disparity, params, list(params.contexts)).items():
        rel = disparity_reliability if "language_disparity" in name else incidence_reliability
        cap = f"{caption}. Judge {judge}: {rel}."
        ctx.write_table(name, table.reset_index().pipe(flat))
        paths = write_exports(table, ctx.rundir.path / "exports", name, formats=params.export_formats,
                              caption=cap, label=f"tab:{name}", index=True)
        exports[name] = [str(p.relative_to(ctx.rundir.path)) for p in paths.values()]
    return exports


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


def judge_reliability(paired_judgments: pd.DataFrame,
                      agreement: pd.DataFrame | None) -> tuple[pd.DataFrame, dict[str, str]]:
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
