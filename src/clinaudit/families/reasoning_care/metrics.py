"""Reasoning audit metrics (METHODS §4.3, P3 §4): accuracy and length gaps,
semantic drift against a control noise floor, and the rethink ratio of a chain
of thought."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import Any

import numpy as np

from ...stats import PairedFrame, cohens_d

__all__ = [
    "DEFAULT_RETHINK_CUES",
    "CHINESE_RETHINK_CUES",
    "RETHINK_LEXICONS",
    "LANGUAGE_NAMES",
    "CJK_LANGUAGES",
    "normalize_language",
    "has_rethink_lexicon",
    "delta_acc",
    "delta_len",
    "semantic_drift",
    "drift_pairs",
    "drift_effect",
    "split_steps",
    "rethink_ratio",
]

#: Cue phrases that mark a reasoning step revisiting an earlier conclusion (our reading; configurable).
DEFAULT_RETHINK_CUES: tuple[str, ...] = (
    "wait",
    "however",
    "reconsider",
    "re-consider",
    "re-evaluate",
    "reevaluate",
    "on second thought",
    "actually",
    "let me re-check",
    "let me recheck",
    "double-check",
    "hmm",
    "alternatively",
)

#: Chinese self-correction cues (our own list, written for this tool; configurable through
#: ``params.rethink_cues``). Chinese has no spaces between words, so each cue matches as a
#: substring of a step. Choices: "等等" alone also means "etc." ("发热、咳嗽等等"), so only
#: "等等" followed by a comma counts; likewise "不对" only before punctuation (not "瞳孔不对称",
#: asymmetric pupils) and "不过" only before a comma (not "不过敏", not allergic); plain "但是"
#: ("but") is left out as the English list leaves out "but", "然而" plays the role of "however".
CHINESE_RETHINK_CUES: tuple[str, ...] = (
    "等等，", "等等,", "等一下", "且慢",              # wait
    "不对，", "不对,", "不对。", "不是这样", "错了",     # that is not right
    "重新考虑", "重新思考", "再考虑",                  # reconsider
    "重新评估", "重新审视",                           # re-evaluate
    "再想想", "再想一想", "仔细想想", "转念一想",        # on second thought
    "其实", "实际上",                                 # actually
    "然而", "不过，", "不过,",                          # however
    "再检查", "重新检查", "再确认", "核实一下", "复核",   # let me re-check / double-check
    "嗯",                                            # hmm
    "另一种可能", "或者说",                            # alternatively
)

#: Built-in rethink-cue lexicons by language code.
RETHINK_LEXICONS: dict[str, tuple[str, ...]] = {"en": DEFAULT_RETHINK_CUES, "zh": CHINESE_RETHINK_CUES}

#: Language codes → the name used in the answer prompt (others are passed through as given).
LANGUAGE_NAMES: dict[str, str] = {
    "en": "English", "zh": "Chinese", "ja": "Japanese", "ko": "Korean", "fr": "French", "de": "German",
    "es": "Spanish", "pt": "Portuguese", "it": "Italian", "nl": "Dutch", "ru": "Russian", "ar": "Arabic",
    "hi": "Hindi", "tr": "Turkish", "vi": "Vietnamese",
}
_LANGUAGE_ALIASES: dict[str, str] = {
    **{name.lower(): code for code, name in LANGUAGE_NAMES.items()},
    "mandarin": "zh", "simplified chinese": "zh", "traditional chinese": "zh", "中文": "zh", "汉语": "zh",
    "漢語": "zh", "简体中文": "zh", "日本語": "ja",
}

#: Languages whose sentences end with full-width punctuation and no space (CJK step splitting).
CJK_LANGUAGES: frozenset[str] = frozenset({"zh", "ja"})


def _clean(x: Any) -> np.ndarray:
    a = np.asarray(x, dtype=float).ravel()
    return a[~np.isnan(a)]


def delta_acc(correct_m: Any, correct_f: Any) -> float:
    """ΔAcc = Acc(male) − Acc(female), accuracies as shares of 0/1 correctness flags.

    Missing values are dropped in each arm; NaN when an arm is empty.
    """
    m, f = _clean(correct_m), _clean(correct_f)
    if m.size == 0 or f.size == 0:
        return math.nan
    return float(m.mean() - f.mean())


def delta_len(len_m: Any, len_f: Any) -> dict[str, Any]:
    """ΔLen = Len(R_male) − Len(R_female) per item (paired by item), in tokens.

    Returns ``{"mean": μ, "sd": σ (ddof=1, NaN for n < 2), "n": n, "values": array}``.
    Items with a missing length in either arm are dropped.
    """
    m = np.asarray(len_m, dtype=float).ravel()
    f = np.asarray(len_f, dtype=float).ravel()
    if m.shape != f.shape:
        raise ValueError("male and female lengths must be paired by item (same length)")
    d = m - f
    d = d[~np.isnan(d)]
    return {
        "mean": float(d.mean()) if d.size else math.nan,
        "sd": float(d.std(ddof=1)) if d.size > 1 else math.nan,
        "n": int(d.size),
        "values": d,
    }


def semantic_drift(emb_a: Any, emb_b: Any) -> np.ndarray:
    """Row-wise semantic drift δ = |1 − cos(E_a, E_b)| between paired embeddings.

    ``emb_a`` and ``emb_b`` are (n × dim) arrays (a single vector is treated as
    one row). A row with a zero vector gives NaN (cosine undefined).
    """
    a = np.atleast_2d(np.asarray(emb_a, dtype=float))
    b = np.atleast_2d(np.asarray(emb_b, dtype=float))
    if a.shape != b.shape:
        raise ValueError(f"embedding arrays differ in shape: {a.shape} vs {b.shape}")
    na = np.linalg.norm(a, axis=1)
    nb = np.linalg.norm(b, axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        cos = (a * b).sum(axis=1) / (na * nb)
    cos = np.where((na > 0) & (nb > 0), cos, np.nan)
    return np.abs(1.0 - cos)


def drift_pairs(gamma_gender: Any, gamma_control: Any, case_ids: Sequence[Any] | None = None) -> Any:
    """Long pair table for the paired-statistics layer: one ``gender`` and one ``control`` row per item.

    Columns ``case_id``, ``arm`` (``gender`` / ``control``) and ``score`` (the drift). An item
    whose drift is missing in either pair gets NaN in both (complete pairs only, so the
    pooled means are the means over complete items).
    """
    import pandas as pd

    g = np.asarray(gamma_gender, dtype=float).ravel()
    c = np.asarray(gamma_control, dtype=float).ravel()
    if g.shape != c.shape:
        raise ValueError("paired drifts must be aligned by item (same length)")
    ids = [str(i) for i in (case_ids if case_ids is not None else range(g.size))]
    if len(ids) != g.size:
        raise ValueError("case_ids must name every item")
    bad = np.isnan(g) | np.isnan(c)
    g, c = np.where(bad, np.nan, g), np.where(bad, np.nan, c)
    return pd.concat([pd.DataFrame({"case_id": ids, "arm": "gender", "score": g}),
                      pd.DataFrame({"case_id": ids, "arm": "control", "score": c})], ignore_index=True)


def drift_effect(
    gamma_gender: Any,
    gamma_control: Any,
    seed: int = 0,
    n_resamples: int = 1000,
    confidence: float = 0.95,
    paired: bool = True,
    alternative: str = "greater",
    n_permutations: int = 9999,
    case_ids: Sequence[Any] | None = None,
) -> dict[str, Any]:
    """Is gender drift larger than the model's own noise floor? (P3 §4).

    Γ_gender: drift between the male and female responses of each item;
    Γ_control: drift between the two neutral-ID responses of the same item (the floor).
    Inference comes from the paired-statistics layer (:class:`clinaudit.stats.PairedFrame`),
    case = item, arm = the gender pair, control = the ID1/ID2 pair:

    - ``excess`` = mean Γ_gender − mean Γ_control (``rate`` − ``floor``), with a percentile
      bootstrap CI resampling items (``ci_low``, ``ci_high``; both pairs of an item together),
    - ``test``/``p``: sign-flip permutation test over items of the per-item excess
      Γ_gender − Γ_control (H0: the two pairs of an item are exchangeable; H1 by
      ``alternative``, default ``greater``: gender drift above the floor); ``null_hypothesis``
      states it,
    - ``d``: Cohen's d of Γ_gender vs Γ_control with the pooled-SD formula
      (:func:`clinaudit.stats.cohens_d`, unpaired form, as P3 reports it; > 0.5 is
      conventionally "large"), an effect-size column without a CI of its own;
      ``effect_size_dz``: the layer's d_z of the per-item excess.

    Items with a missing drift in either arm are dropped when ``paired``. With
    ``paired=False`` the arrays are two independent samples (any lengths): the excess is
    the difference of means, its CI resamples within each sample and the test permutes the
    sample labels (:meth:`PairedFrame.gap`).
    """
    g = np.asarray(gamma_gender, dtype=float).ravel()
    c = np.asarray(gamma_control, dtype=float).ravel()
    kw: dict[str, Any] = {"alternative": alternative, "n_resamples": n_resamples, "n_permutations": n_permutations,
          "confidence": confidence, "seed": seed}
    if paired:
        pairs = drift_pairs(g, c, case_ids)
        ok = ~np.isnan(pairs.loc[pairs["arm"] == "gender", "score"].to_numpy())
        g, c = g[ok], c[ok]
        row = PairedFrame(pairs, case="case_id", arm="arm", score="score", control="control").compare(
            metric="semantic_drift", **kw).iloc[0]
        n = int(row["n_pairs"])
        extra = {"n_cases": int(row["n_cases"]), "n_pairs": n, "n_control_pairs": int(row["n_control_pairs"])}
        rate, floor = float(row["rate"]), float(row["floor"])
    else:
        import pandas as pd

        g, c = g[~np.isnan(g)], c[~np.isnan(c)]
        pairs = pd.DataFrame({"case_id": [f"g{i}" for i in range(g.size)] + [f"c{i}" for i in range(c.size)],
                              "arm": "drift", "score": np.concatenate([g, c]),
                              "sample": ["gender"] * g.size + ["control"] * c.size})
        row = PairedFrame(pairs, case="case_id", arm="arm", score="score").gap(
            between="sample", a="gender", b="control", metric="semantic_drift", **kw).iloc[0]
        n = int(g.size + c.size)
        extra = {"n_cases": n, "n_pairs": int(g.size), "n_control_pairs": int(c.size)}
        rate, floor = float(row["value_a"]), float(row["value_b"])
    return {
        "d": cohens_d(g, c),
        "excess": float(row["value"]),
        "rate": rate,
        "floor": floor,
        "ci_low": float(row["ci_low"]),
        "ci_high": float(row["ci_high"]),
        "ci_method": row["ci_method"],
        "test": row["test"],
        "statistic": float(row["statistic"]),
        "p": float(row["p"]),
        "alternative": alternative,
        "null_hypothesis": row["null_hypothesis"],
        "effect_size_dz": float(row.get("effect_size", math.nan)),
        "n": n,
        **extra,
        "note": row.get("test_note", ""),
        "mean_gender": float(g.mean()) if g.size else math.nan,
        "mean_control": float(c.mean()) if c.size else math.nan,
    }


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
# One CJK sentence: text up to a full-width (or ASCII) terminator run and any closing quotes/brackets after it.
_CJK_SENTENCE = re.compile(r".+?(?:[。！？!?]+[”’」』）)\]]*|$)")


def normalize_language(language: str | None) -> tuple[str, str]:
    """``(code, name)`` of a reasoning language given as a code or a name.

    ``"en"``, ``"en-US"``, ``"English"`` → ``("en", "English")``; ``"zh"``, ``"zh-CN"``,
    ``"Chinese"``, ``"中文"`` → ``("zh", "Chinese")``. The name goes into the answer prompt
    ("Use Chinese to describe ..."), the code selects the step splitter and the rethink-cue
    lexicon. A language we do not know is kept as given (code = its lower-cased form).
    """
    s = str(language or "en").strip()
    low = s.lower().replace("_", "-")
    if low in _LANGUAGE_ALIASES:
        code = _LANGUAGE_ALIASES[low]
        return code, LANGUAGE_NAMES[code]
    base = low.split("-", 1)[0]
    if base in LANGUAGE_NAMES:
        return base, LANGUAGE_NAMES[base]
    return low, s


def has_rethink_lexicon(language: str | None) -> bool:
    """Whether a built-in rethink-cue lexicon exists for ``language`` (code or name)."""
    return normalize_language(language)[0] in RETHINK_LEXICONS


def split_steps(text: str, language: str = "en") -> list[str]:
    """Split a chain of thought into steps.

    Our reading. ``<think>`` tags are removed first.

    - alphabetic languages (default): steps are the non-empty lines; when the text is a
      single line, steps are its sentences (split after ``.``, ``!`` or ``?`` followed by
      whitespace);
    - Chinese and Japanese (:data:`CJK_LANGUAGES`): every line is split into sentences
      after ``。``, ``！``, ``？`` (or ASCII ``!``/``?``), no whitespace needed, a closing
      quote or bracket staying with its sentence; steps are those sentences. ``.`` does not
      end a sentence there (decimals such as 3.5 mg stay whole).
    """
    t = re.sub(r"</?think>", "\n", text or "")
    lines = [ln.strip() for ln in t.splitlines() if ln.strip()]
    if normalize_language(language)[0] in CJK_LANGUAGES:
        return [s.strip() for ln in lines for s in _CJK_SENTENCE.findall(ln) if s.strip()]
    if len(lines) == 1:
        return [s.strip() for s in _SENTENCE_END.split(lines[0]) if s.strip()]
    return lines


def _cue_pattern(cues: Sequence[str]) -> re.Pattern[str]:
    # Word boundaries only at ASCII letters/digits: CJK text has no spaces between words,
    # so a Chinese cue matches anywhere ("其实" inside "患者其实..."), an English one only as a word.
    parts = []
    for c in cues:
        left = r"\b" if c[:1].isascii() and c[:1].isalnum() else ""
        right = r"\b" if c[-1:].isascii() and c[-1:].isalnum() else ""
        parts.append(left + re.escape(c) + right)
    return re.compile("|".join(parts), re.IGNORECASE)


def rethink_ratio(text: str, cues: Sequence[str] | None = None, language: str = "en") -> float:
    """Share of reasoning steps that revisit a conclusion.

    A step (:func:`split_steps` for ``language``) is a *rethink* when it contains any cue
    phrase, case-insensitive; a cue made of ASCII letters matches on word boundaries
    ("wait" but not "awaiting"), a Chinese cue anywhere in the step. ``cues`` defaults to
    the language's built-in lexicon (:data:`RETHINK_LEXICONS`: English
    :data:`DEFAULT_RETHINK_CUES`, Chinese :data:`CHINESE_RETHINK_CUES`); a language without
    one needs explicit ``cues`` (``ValueError`` otherwise). ratio = rethink steps / steps;
    NaN for an empty text.
    """
    if cues is None:
        code = normalize_language(language)[0]
        if code not in RETHINK_LEXICONS:
            raise ValueError(f"no built-in rethink-cue lexicon for language {language!r} "
                             f"(built-in: {', '.join(sorted(RETHINK_LEXICONS))}); pass cues")
        cues = RETHINK_LEXICONS[code]
    cues = [c for c in cues if c]
    steps = split_steps(text, language)
    if not steps:
        return math.nan
    if not cues:
        return 0.0
    pattern = _cue_pattern(cues)
    return sum(1 for s in steps if pattern.search(s)) / len(steps)
