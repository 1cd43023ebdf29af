"""Variant screening, the exclusions ledger and P2 Table 1 for the ``treatment_shift`` recipe.

Three things the recipe needs between "make variants" and "ask the target models":

* :func:`screen_variants` — a failed LLM rewrite (``model_error``: the call failed;
  ``empty_output``: nothing usable came back) carries the *original* text (see
  :mod:`clinaudit.perturb.llm_rewrite`), so its "perturbed" request equals the baseline and
  its answers can only agree with it, pulling TSR toward 0. Such variants are **dropped from
  the analysis by default** and each is listed in the exclusions ledger (stage, case,
  perturbation, reason). So is a rewrite that is no valid counterfactual (a refusal, unrelated
  text, a gender not swapped or not removed: :data:`~clinaudit.perturb.rewrite_checks.INVALID_REWRITE_FLAGS`),
  and a rewritten perturbation with too few valid rewrites (``min_valid_share``) is not measured
  at all (``VariantScreen.unmeasured``; its rows: :mod:`.unmeasured`). Any variant whose text *as the target model sees it* equals the
  baseline's exactly is listed too (``unchanged_variants``) — kept, because a regex
  perturbation may legitimately find nothing to change (no sentence-ending period for
  ``exclamation``, an already lower-case message for ``lowercase``), but visible, because it
  can only add agreeing pairs.
* :func:`gender_inference_plan` — model-inferred gender (P2 Appendix D) is meant to be read
  from the gender-*removed* text. When ``gender_removal`` is not run there is no such text;
  the recipe used to fall back silently to the gendered baseline (so "inferred" gender was
  mostly read off the pronouns). Now: asking for it explicitly is a spec error, the default
  skips it with a note, and ``gender_inference_on: baseline`` (an explicit choice) runs with
  a note saying the text was gendered.
* :func:`table1` — P2 Table 1: mean input length and mean sentiment per perturbation of the
  texts the target models saw, sentiment from VADER (``vaderSentiment``, a maintained
  lexicon scorer that runs offline; the compound score in [-1, 1]).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from ...perturb.rewrite_checks import INVALID_REWRITE_FLAGS
from ...records import Variant

__all__ = [
    "FAILED_REWRITE_FLAGS",
    "EXCLUSION_COLUMNS",
    "UNCHANGED_COLUMNS",
    "VALIDITY_COLUMNS",
    "VariantScreen",
    "screen_variants",
    "exclusion_row",
    "exclusions_frame",
    "GenderInferencePlan",
    "gender_inference_plan",
    "TABLE1_COLUMNS",
    "vader_compound",
    "table1",
]

#: Flags :mod:`clinaudit.perturb.llm_rewrite` sets when a rewrite failed (the variant then holds the original text).
FAILED_REWRITE_FLAGS: tuple[str, ...] = ("model_error", "empty_output")
#: Columns of the ``exclusions`` table (one row per thing left out of the analysis).
EXCLUSION_COLUMNS: list[str] = ["stage", "case_id", "perturbation", "variant_id", "reason", "detail"]
#: Columns of the ``unchanged_variants`` table.
UNCHANGED_COLUMNS: list[str] = ["case_id", "perturbation", "variant_id", "kind", "flags", "kept"]


def exclusion_row(stage: str, case_id: str, reason: str, *, perturbation: str = "", variant_id: str = "",
                  detail: str = "") -> dict[str, str]:
    """One row of the exclusions ledger."""
    return {"stage": stage, "case_id": str(case_id), "perturbation": perturbation, "variant_id": variant_id,
            "reason": reason, "detail": detail}


def exclusions_frame(rows: Iterable[dict[str, Any]]) -> pd.DataFrame:
    """The exclusions ledger as a table with the documented columns (empty table when nothing was left out)."""
    return pd.DataFrame(list(rows), columns=EXCLUSION_COLUMNS)


@dataclass
class VariantScreen:
    """What :func:`screen_variants` decided: the variants to analyse, and what was dropped or only listed."""

    kept: list[Variant]
    exclusions: list[dict[str, str]] = field(default_factory=list)
    unchanged: list[dict[str, Any]] = field(default_factory=list)
    n_failed: int = 0  # failed rewrites (dropped or, with keep_failed, kept)
    n_dropped_failed: int = 0
    n_dropped_flagged: int = 0
    n_dropped_invalid: int = 0  # rewrites that are no valid counterfactual (INVALID_REWRITE_FLAGS)
    n_dropped_unmeasured: int = 0  # valid rewrites of a perturbation not measured (too few valid)
    #: per rewritten perturbation: rewrites, valid ones, the share, the flags counted, measured or not
    validity: list[dict[str, Any]] = field(default_factory=list)
    #: perturbation -> why it is not measured (its valid share is below the threshold)
    unmeasured: dict[str, str] = field(default_factory=dict)

    def unchanged_frame(self) -> pd.DataFrame:
        return pd.DataFrame(self.unchanged, columns=UNCHANGED_COLUMNS)

    def validity_frame(self) -> pd.DataFrame:
        return pd.DataFrame(self.validity, columns=VALIDITY_COLUMNS)


#: Columns of the ``rewrite_validity`` table (one row per LLM-rewritten perturbation).
VALIDITY_COLUMNS: list[str] = ["perturbation", "model", "n_rewrites", "n_valid", "valid_share", "min_valid_share",
                               "measured", "invalid_flags", "reason"]

#: what each invalid flag says about the rewrite model, for the not-measured reason (most frequent flag first)
_FLAG_WHY = {
    "model_error": "the rewrite calls failed",
    "empty_output": "the rewrite model returned no text",
    "refusal": "the rewrite model refused",
    "gender_not_swapped": "the rewrite model did not swap the gender",
    "gender_markers_left": "the rewrite model left gender markers in",
    "low_similarity": "the rewrite model did not rewrite (its text is unrelated to the message)",
    "length_ratio_out_of_bounds": "the rewrite model did not rewrite (its text is far longer or shorter)",
    "ehr_lines_changed": "the rewrite model changed the EHR lines it had to keep",
}


def _failure_reason(v: Variant) -> tuple[str, str]:
    if "model_error" in v.flags:
        err = str(v.provenance.get("error") or "")
        return "LLM rewrite failed (model error); its text would be the unchanged original", err
    return "LLM rewrite returned no text (empty output); its text would be the unchanged original", ""


def _invalid(v: Variant) -> list[str]:
    return [f for f in v.flags if f in INVALID_REWRITE_FLAGS]


def _rewrite_validity(variants: Sequence[Variant], min_valid_share: float) -> tuple[list[dict[str, Any]],
                                                                                     dict[str, str]]:
    """Per LLM-rewritten perturbation: how many rewrites are valid counterfactuals, and which fall below the share."""
    by_name: dict[str, list[Variant]] = {}
    for v in variants:
        if str(v.provenance.get("kind", "")) == "llm":
            by_name.setdefault(v.name, []).append(v)
    rows, unmeasured = [], {}
    for name, vs in by_name.items():
        n, flags = len(vs), Counter(f for v in vs for f in _invalid(v))
        valid = sum(not _invalid(v) for v in vs)
        share = valid / n
        model = str(vs[0].provenance.get("model") or "")
        reason = ""
        if share < min_valid_share:
            top = flags.most_common(1)[0][0] if flags else ""
            reason = (f"{name}: {valid} of {n} rewrites valid (below {min_valid_share:.0%}) — "
                      f"{_FLAG_WHY.get(top, 'the rewrites failed their checks')}"
                      + (f" ({model})" if model else "") + "; point models.rewrite at a capable model")
            unmeasured[name] = reason
        rows.append({"perturbation": name, "model": model, "n_rewrites": n, "n_valid": valid,
                     "valid_share": share, "min_valid_share": min_valid_share, "measured": not reason,
                     "invalid_flags": ", ".join(f"{f}: {k}" for f, k in flags.most_common()), "reason": reason})
    return rows, unmeasured


def screen_variants(
    variants: Sequence[Variant],
    *,
    user_text: Callable[[Variant], str],
    baseline_text: Callable[[str], str],
    keep_failed: bool = False,
    drop_flagged: bool = False,
    keep_invalid: bool = False,
    min_valid_share: float = 0.0,
) -> VariantScreen:
    """Drop failed and invalid rewrites, optionally every flagged variant, and list unchanged ones.

    * a failed rewrite (``model_error`` / ``empty_output``) is dropped unless ``keep_failed``;
    * a rewrite that is no valid counterfactual (any flag of
      :data:`~clinaudit.perturb.rewrite_checks.INVALID_REWRITE_FLAGS`: refusal, gender not swapped, markers
      left, low similarity, length ratio, EHR lines changed) is dropped unless ``keep_invalid``;
    * a rewritten perturbation whose share of valid rewrites is below ``min_valid_share`` is not measured:
      all its variants are dropped (its valid ones too: they are a selected few) and the reason is in
      ``unmeasured``;
    * with ``drop_flagged`` every flagged variant is dropped.

    Each dropped variant is a row of ``exclusions`` (stage ``variants``, the reason, the flags).
    ``user_text(variant)`` is the user message the target model will see for a variant and
    ``baseline_text(case_id)`` the one it sees for the case's baseline; a kept variant whose
    user message equals the baseline's exactly goes to ``unchanged``.
    """
    out = VariantScreen(kept=[])
    out.validity, out.unmeasured = _rewrite_validity(variants, min_valid_share)
    for v in variants:
        failed = [f for f in FAILED_REWRITE_FLAGS if f in v.flags]
        if failed:
            out.n_failed += 1
        if failed and not keep_failed:
            reason, detail = _failure_reason(v)
            out.exclusions.append(exclusion_row("variants", v.case_id, reason, perturbation=v.name,
                                                variant_id=v.variant_id, detail=detail))
            out.n_dropped_failed += 1
            continue
        invalid = [f for f in _invalid(v) if f not in FAILED_REWRITE_FLAGS]
        if invalid and not keep_invalid:
            out.exclusions.append(exclusion_row(
                "variants", v.case_id, "invalid counterfactual: the rewrite failed its checks (" + ", ".join(invalid)
                + ")", perturbation=v.name, variant_id=v.variant_id, detail=_gate_detail(v)))
            out.n_dropped_invalid += 1
            continue
        if v.name in out.unmeasured:
            out.exclusions.append(exclusion_row(
                "variants", v.case_id, "perturbation not measured: too few of its rewrites are valid",
                perturbation=v.name, variant_id=v.variant_id, detail=out.unmeasured[v.name]))
            out.n_dropped_unmeasured += 1
            continue
        if drop_flagged and v.flags:
            out.exclusions.append(exclusion_row(
                "variants", v.case_id, "quality gate flagged the variant (drop_flagged: true)", perturbation=v.name,
                variant_id=v.variant_id, detail=", ".join(v.flags)))
            out.n_dropped_flagged += 1
            continue
        out.kept.append(v)
        if user_text(v) == baseline_text(v.case_id):
            out.unchanged.append({"case_id": v.case_id, "perturbation": v.name, "variant_id": v.variant_id,
                                  "kind": str(v.provenance.get("kind", "")), "flags": ", ".join(v.flags),
                                  "kept": True})
    return out


def _gate_detail(v: Variant) -> str:
    """The gate values behind an invalid rewrite's flags, and the start of its text (what the model wrote)."""
    g = v.provenance.get("gates") or {}
    parts = [f"{k}={g[k]}" for k in ("similarity", "length_ratio", "markers_original", "markers_rewrite") if k in g]
    head = " ".join(str(v.text).split())[:80]
    return "; ".join(parts + ([f"text: {head}"] if head else []))


# --------------------------------------------------------------------------- gender inference


@dataclass(frozen=True)
class GenderInferencePlan:
    """Whether model-inferred gender is computed, from which variant, and the note that says so."""

    run: bool
    source: str  # "gender_removal" | "baseline" | ""
    note: str = ""


def gender_inference_plan(*, infer_gender: bool, gender_inference_on: str, perturbations: Sequence[str],
                          treatment: bool = True) -> GenderInferencePlan:
    """Decide how model-inferred gender is computed (the spec validator refuses the explicit contradiction).

    * ``gender_inference_on: gender_removal`` with ``gender_removal`` among the perturbations:
      inferred from each case's gender-removed text; a case whose rewrite is missing (failed,
      dropped) is **not** inferred (listed in the exclusions), never read from the gendered text;
    * ``gender_inference_on: gender_removal`` without it: skipped, with a note (the default
      ``infer_gender`` only; an explicit ``infer_gender: true`` is refused at validation);
    * ``gender_inference_on: baseline``: inferred from the gendered baseline text, with a note
      that this mostly reads the gender markers back.
    """
    if not infer_gender or not treatment:
        return GenderInferencePlan(False, "")
    if gender_inference_on == "baseline":
        return GenderInferencePlan(True, "baseline", (
            "model-inferred gender was read from the BASELINE text, which still carries its gender markers "
            "(gender_inference_on: baseline): 'model_inferred' subgroups mostly restate the recorded gender; "
            "P2 infers gender from the gender-removed text"))
    if "gender_removal" in perturbations:
        return GenderInferencePlan(True, "gender_removal")
    return GenderInferencePlan(False, "", (
        "model-inferred gender NOT computed: it is inferred from the gender_removal rewrite (P2 Appendix D), which "
        "this run does not make; add gender_removal to params.perturbations, or set gender_inference_on: baseline "
        "to infer it from the gendered text (labelled as such), or infer_gender: false to silence this note"))


# --------------------------------------------------------------------------- Table 1

#: Columns of ``table1`` (one row per dataset × perturbation, then an average-perturbation row and the baseline).
TABLE1_COLUMNS: list[str] = ["dataset", "perturbation", "n_texts", "mean_words", "mean_chars", "mean_sentiment",
                             "sd_sentiment", "sentiment_scorer"]
_VADER = "VADER compound (vaderSentiment 3.3.2 lexicon)"
_NONE = "none (vaderSentiment not installed)"


def vader_compound(texts: Sequence[str]) -> list[float]:
    """VADER compound sentiment in [-1, 1] of each text (``vaderSentiment``; lexicon shipped with the package)."""
    from vaderSentiment.vaderSentiment import SentimentIntensityAnalyzer

    analyzer = SentimentIntensityAnalyzer()
    return [float(analyzer.polarity_scores(t)["compound"]) for t in texts]


def table1(texts: pd.DataFrame, order: Sequence[str] = (), baseline: str = "baseline",
           sentiment: bool = True) -> pd.DataFrame:
    """P2 Table 1: mean input length and mean sentiment per perturbation.

    ``texts`` has one row per input a target model saw: ``dataset``, ``case_id``,
    ``perturbation`` and ``text``. Length: whitespace-separated words (``mean_words``) and
    characters (``mean_chars``); sentiment: VADER compound per text, averaged
    (``mean_sentiment``, ``sd_sentiment`` = sample standard deviation). Rows per dataset: the
    perturbations (in ``order``, then any others alphabetically), ``Average perturbation`` (the
    unweighted mean of the perturbation rows' means, as P2), then the baseline.
    ``sentiment=False`` leaves the sentiment columns empty (no ``vaderSentiment``).
    """
    if texts.empty:
        return pd.DataFrame(columns=TABLE1_COLUMNS)
    t = texts[["dataset", "case_id", "perturbation", "text"]].copy()
    t["text"] = t["text"].fillna("").astype(str)
    t["words"] = [len(s.split()) for s in t["text"]]
    t["chars"] = t["text"].str.len()
    t["sentiment"] = vader_compound(t["text"].tolist()) if sentiment else float("nan")
    scorer = _VADER if sentiment else _NONE
    rows = []
    for ds, g in t.groupby("dataset", sort=True):
        names = list(dict.fromkeys(g["perturbation"]))
        perts = [p for p in order if p in names and p != baseline] + sorted(
            p for p in names if p not in order and p != baseline)
        block = []
        for p in perts:
            h = g[g["perturbation"] == p]
            block.append({"dataset": ds, "perturbation": p, "n_texts": len(h), "mean_words": float(h["words"].mean()),
                          "mean_chars": float(h["chars"].mean()), "mean_sentiment": float(h["sentiment"].mean()),
                          "sd_sentiment": float(h["sentiment"].std(ddof=1)) if len(h) > 1 else float("nan"),
                          "sentiment_scorer": scorer})
        rows += block
        if block:
            b = pd.DataFrame(block)
            rows.append({"dataset": ds, "perturbation": "Average perturbation", "n_texts": int(b["n_texts"].sum()),
                         "mean_words": float(b["mean_words"].mean()), "mean_chars": float(b["mean_chars"].mean()),
                         "mean_sentiment": float(b["mean_sentiment"].mean()), "sd_sentiment": float("nan"),
                         "sentiment_scorer": scorer})
        h = g[g["perturbation"] == baseline]
        if len(h):
            rows.append({"dataset": ds, "perturbation": baseline, "n_texts": len(h),
                         "mean_words": float(h["words"].mean()), "mean_chars": float(h["chars"].mean()),
                         "mean_sentiment": float(h["sentiment"].mean()),
                         "sd_sentiment": float(h["sentiment"].std(ddof=1)) if len(h) > 1 else float("nan"),
                         "sentiment_scorer": scorer})
    return pd.DataFrame(rows, columns=TABLE1_COLUMNS)
