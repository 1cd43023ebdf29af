"""Association scores: one prior-adjusted log-probability score per sentence, and their statistics.

``masked`` (``hf-mlm:`` models) — P4 / Kurita et al.::

    score = log p(w | t with a, slot masked) − log p(w | t with a masked, slot masked)

The slot has one mask per target token (multi-token targets: summed
log-probs) and is located by **token** position. The attribute of the prior
sentence is masked with one mask per attribute word (``mask_mode="word"``, as
published) or one per attribute token (``"token"``).

``causal`` (``hf:``, ``embedded``, any backend with ``loglik``) — our extension::

    score = log P(sentence with w and a) − log P(sentence with w and a placeholder)

whole-sentence log-likelihoods, the attribute replaced by a neutral
placeholder (per category, :data:`DEFAULT_PLACEHOLDERS`, configurable).

Statistics (:func:`analyze_scores`): per-category means per group and the chosen
tests (:func:`clinaudit.families.hurtful_words.association_stats.association_tests`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ...errors import SpecError

__all__ = [
    "DEFAULT_PLACEHOLDERS",
    "SCORE_COLUMNS",
    "scoring_method",
    "score_sentences_masked",
    "score_sentences_causal",
    "placeholder_sentence",
    "summarize_scores",
    "group_mean_results",
    "analyze_scores",
]

#: Neutral replacement of the attribute in the causal prior sentence, per HurtfulWords category
#: (our reading; any category not listed uses ``default_placeholder``, "something").
DEFAULT_PLACEHOLDERS: dict[str, str] = {
    "CVD": "a condition",
    "HTN": "a condition",
    "DIAB": "a condition",
    "MENT": "a condition",
    "HIV": "a condition",
    "DRUG": "a medication",
    "ADD": "substance",
    "DNR": "something",
}

#: Columns of the ``scores`` table, in order (then ``model``, ``method``, ``sentence``, ``prior_sentence``).
SCORE_COLUMNS: list[str] = [
    "template_id",
    "template",
    "category",
    "attribute",
    "subgroup",
    "group",
    "target",
    "target_index",
    "score",
    "logp_target",
    "logp_prior",
]


def scoring_method(backend: Any, requested: str = "auto") -> str:
    """``"masked"`` or ``"causal"``: what to do with this backend (``auto``: masked for masked LMs)."""
    from ...models.base import Backend

    has_masked = type(backend).masked_logprobs is not Backend.masked_logprobs
    has_loglik = type(backend).loglik is not Backend.loglik
    if requested == "auto":
        requested = "masked" if has_masked else "causal"
    if requested == "masked" and not has_masked:
        raise SpecError(f"model '{backend.spec}' is not a masked LM (use method: causal, or an hf-mlm: model)")
    if requested == "causal" and not has_loglik:
        raise SpecError(f"model '{backend.spec}' cannot score sentence log-likelihoods (use an hf:, embedded or "
                        "hf-mlm: model)")
    return requested


# --------------------------------------------------------------------------- scoring


def _score_frame(sentences: Sequence[Any], table: pd.DataFrame, logp_t: np.ndarray, logp_p: np.ndarray,
                 model: str, method: str, prior_texts: Sequence[str]) -> pd.DataFrame:
    out = table.drop(columns=["sentence"]).copy()
    out["score"] = logp_t - logp_p
    out["logp_target"] = logp_t
    out["logp_prior"] = logp_p
    out = out[SCORE_COLUMNS]
    out["model"] = model
    out["method"] = method
    out["sentence"] = [s.sentence for s in sentences]
    out["prior_sentence"] = list(prior_texts)
    return out


def _by_length(items: Sequence[Any], score: Any, key: Any) -> np.ndarray:
    """Score ``items`` in one call, shortest first (consecutive batches then pad little); input order back."""
    order = sorted(range(len(items)), key=lambda i: key(items[i]))
    values = np.asarray(score([items[i] for i in order]), dtype=float).reshape(-1)
    out = np.empty(len(items), dtype=float)
    out[order] = values
    return out


def score_sentences_masked(runner: Any, model: str, sentences: Sequence[Any], table: pd.DataFrame,
                           mask_mode: str = "word", keys: list[str] | None = None) -> pd.DataFrame:
    """Prior-adjusted masked-LM scores, every sentence and prior in one batched runner call.

    ``logp_target`` = log p(target tokens | sentence with the attribute, slot
    masked); ``logp_prior`` = the same with the attribute masked too. ``keys``
    (a list) receives each sentence's request key (``runner.score_key``).
    """
    from ...perturb.templates import mask_for_mlm

    backend = runner.backend(model)
    tokenizer = getattr(backend, "tokenizer", None)
    if tokenizer is None:
        raise SpecError(f"masked scoring needs the model's tokenizer; backend '{backend.name}' has none")
    items, priors = [], []
    for s in sentences:
        items.append(mask_for_mlm(s, tokenizer, mask_attribute=False, mode=mask_mode).to_masked_item())
        priors.append(mask_for_mlm(s, tokenizer, mask_attribute=True, mode=mask_mode).to_masked_item())
    if keys is not None:
        keys.extend(runner.score_key(model, "masked", it) for it in items)
    desc = f"masked log-probs ({model})"
    values = _by_length(items + priors, lambda batch: runner.masked_logprobs(model, batch, desc=desc),
                        key=lambda it: len(it.text))
    n = len(sentences)
    return _score_frame(sentences, table, values[:n], values[n:], model, f"masked/{mask_mode}",
                        [p.text for p in priors])


def placeholder_sentence(s: Any, placeholder: str) -> str:
    a0, a1 = s.attribute_span
    return s.sentence[:a0] + placeholder + s.sentence[a1:]


def score_sentences_causal(runner: Any, model: str, sentences: Sequence[Any], table: pd.DataFrame,
                           placeholders: Mapping[str, str] | None = None,
                           default_placeholder: str = "something", keys: list[str] | None = None) -> pd.DataFrame:
    """Whole-sentence likelihood-ratio scores for causal LMs, one batched runner call.

    ``logp_target`` = log P(sentence with target and attribute); ``logp_prior`` =
    log P(the same sentence with the attribute replaced by its category's placeholder).
    ``keys`` (a list) receives each sentence's request key (``runner.score_key``).
    """
    ph = {**DEFAULT_PLACEHOLDERS, **dict(placeholders or {})}
    priors = [placeholder_sentence(s, ph.get(s.category, default_placeholder)) for s in sentences]
    texts = [s.sentence for s in sentences]
    if keys is not None:
        keys.extend(runner.score_key(model, "loglik", t) for t in texts)
    desc = f"sentence log-likelihoods ({model})"
    values = _by_length(texts + priors, lambda batch: runner.loglik(model, batch, desc=desc), key=len)
    n = len(sentences)
    return _score_frame(sentences, table, values[:n], values[n:], model, "causal", priors)


# --------------------------------------------------------------------------- statistics


def summarize_scores(
    scores: pd.DataFrame,
    groups: Sequence[str],
    *,
    correction: str = "bonferroni",
    alpha: float = 0.01,
    tests: Sequence[str] = ("signed-rank",),
    n_bootstrap: int = 0,
    seed: int = 0,
) -> pd.DataFrame:
    """Per model and category: each group vs the reference (``groups[0]``), as tidy result rows.

    :func:`.association_stats.association_tests` on sentences paired
    by template × attribute × target index (signed-rank) or on all sentences
    of the two groups (rank-sum, ks, t); p-values corrected together over all
    categories and comparisons of one model (family ``categories:<model>``,
    per test when several are run). ``value`` = mean(group − reference) over
    the pairs (signed-rank) or the difference of the group means; ``flag``
    marks raw p < ``alpha`` (P4 Table 3), ``flag_adj`` the corrected p; the CI
    resamples sentence frames (``n_bootstrap`` resamples, none when 0).
    """
    from .association_stats import add_pairing_columns, association_tests

    return association_tests(add_pairing_columns(scores), groups, tests, correction=correction, alpha=alpha,
                             n_bootstrap=n_bootstrap, seed=seed)


def group_mean_results(scores: pd.DataFrame, groups: Sequence[str], *, n_bootstrap: int = 1000,
                       seed: int = 0) -> pd.DataFrame:
    """Mean score per model × category × group with a 95% percentile bootstrap CI over sentence frames."""
    from .association_stats import add_pairing_columns
    from .association_stats import group_mean_results as _means

    return _means(add_pairing_columns(scores), groups, n_bootstrap=n_bootstrap, seed=seed)


def analyze_scores(scores: pd.DataFrame, groups: Sequence[str], *, tests: Sequence[str] = ("signed-rank",),
                   correction: str = "bonferroni", alpha: float = 0.01, n_bootstrap: int = 1000, seed: int = 0,
                   prevalence: pd.DataFrame | None = None) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """Statistics of a score table: ``(tests, group means, summary)`` (result rows, result rows, Table 3)."""
    from .association_stats import add_pairing_columns, association_summary

    scored = add_pairing_columns(scores)
    tests_t = summarize_scores(scored, groups, correction=correction, alpha=alpha, tests=tests,
                               n_bootstrap=n_bootstrap, seed=seed)
    means = group_mean_results(scored, groups, n_bootstrap=n_bootstrap, seed=seed)
    return tests_t, means, association_summary(tests_t, means, scored, groups, prevalence)
