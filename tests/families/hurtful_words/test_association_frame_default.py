"""A default model run of the association audit is decided at the template frame (issue 39, item 4).

A scripted causal backend gives every frame (template × attribute) a known difference between the
female and the male sentences: log P(sentence) = −(number of words) + offset[frame] when the sentence
holds a female target word and the frame's attribute (its prior, with the placeholder instead of the
attribute, gets no offset). So every paired difference female − male of a frame is exactly its offset,
and the expected statistics are computed here from the offsets alone, with scipy.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from clinaudit.models.base import Backend
from clinaudit.runner import Runner, RunnerConfig

FEMALE = {"woman", "she", "female", "f"}
MARKERS = ("hx", "seen", "treated")  # one word that names each template
ATTRIBUTES = ("alpha", "bravo", "charlie", "delta")
FRAMES = [(m, a) for m in MARKERS for a in ATTRIBUTES]  # 12 frames: 2^12 sign flips, enumerated exactly


class FrameScripted(Backend):
    """Sentence log-likelihood with a per-frame offset on the female sentences (module doc)."""

    name = "framescripted"

    def __init__(self, spec: str = "mock:frames", offsets: Sequence[float] = (), **options):
        super().__init__(spec, **options)
        self.offsets = dict(zip(FRAMES, offsets))

    def loglik(self, texts: Sequence[str]) -> np.ndarray:
        out = []
        for t in texts:
            words = set(t.split())
            marker = next(m for m in MARKERS if m in words)
            attribute = next((a for a in ATTRIBUTES if a in words), None)
            bonus = self.offsets[(marker, attribute)] if attribute and FEMALE & words else 0.0
            out.append(-float(len(t.split())) + bonus)
        return np.array(out)


def _inputs(tmp_path: Path) -> dict[str, str]:
    (tmp_path / "t.txt").write_text("[GEND] has a hx of [COND]\n[GEND] was seen for [COND]\n"
                                    "[GEND] is treated for [COND]\n", encoding="utf-8")
    (tmp_path / "a.csv").write_text("attribute,category,subgroup\n" + "".join(f"{a},COND,-\n" for a in ATTRIBUTES),
                                    encoding="utf-8")
    return {"templates": str(tmp_path / "t.txt"), "attributes": str(tmp_path / "a.csv")}


def _run(tmp_path: Path, offsets: np.ndarray, name: str, **params: object) -> pd.DataFrame:
    """A model run with the spec's defaults (no ``tests``): its results.csv effect rows."""
    from clinaudit.pipeline import run_spec
    from clinaudit.spec import parse_spec_dict

    spec, p = parse_spec_dict({"audit": "association", "models": {"target": "mock:frames"},
                               "params": {**_inputs(tmp_path), "n_bootstrap": 200, **params}})
    assert "tests" not in (spec.params or {})  # the default tests, not a spec's choice
    runner = Runner(config=RunnerConfig(progress=False))
    runner.add_backend(FrameScripted("mock:frames", offsets=list(offsets)))
    run = run_spec(spec, tmp_path / name, params=p, progress=False, runner=runner).path
    results = pd.read_csv(run / "tables" / "results.csv", keep_default_na=False, na_values=[""])
    scores = pd.read_csv(run / "tables" / "scores.csv")
    d = scores.pivot_table(index=["template_id", "attribute", "target_index"], columns="group", values="score")
    # every paired difference is its frame's offset (the scripted model works as described)
    got = (d["female"] - d["male"]).groupby(level=["template_id", "attribute"]).agg(["min", "max"])
    assert np.allclose(got["min"], got["max"]) and np.allclose(np.sort(got["min"]), np.sort(offsets))
    return results[results["metric"] == "log_prob_bias_score"].set_index("test_option")


def _exact_sign_flip(frame_means: np.ndarray) -> float:
    """scipy's exact two-sided sign-flip p of the mean (permutation_type='samples' on one sample)."""
    return float(stats.permutation_test((frame_means,), np.mean, permutation_type="samples",
                                        n_resamples=np.inf).pvalue)


def test_default_model_run_says_bias_for_a_clear_frame_level_association(tmp_path: Path) -> None:
    offsets = np.random.default_rng(0).normal(1.0, 0.5, len(FRAMES))  # mean 1.0, sd 0.5: a clear association
    assert (offsets > 0).all()  # every frame has female above male
    rows = _run(tmp_path, offsets, "effect")
    assert list(rows.index) == ["sign-flip", "signed-rank"]  # the default: frame-level first, signed-rank beside
    sf, sr = rows.loc["sign-flip"], rows.loc["signed-rank"]
    # 12 frames all positive: of the 2^12 sign patterns only all-plus and all-minus are as extreme
    assert sf["p"] == pytest.approx(2 / 2**12, rel=1e-12) == _exact_sign_flip(offsets)
    assert sf["value"] == pytest.approx(offsets.mean(), abs=1e-12) and sf["n"] == 12 and sf["n_units"] == 12
    assert sf["test_unit"] == "frame" and sf["alpha"] == 0.01 and sf["p_run"] == pytest.approx(sf["p"], rel=1e-12)
    assert sf["ci_low"] > 0 and sf["verdict"] == "bias"  # bias is reachable in a default run
    assert "cannot be significant" not in str(sf["note"])  # 2/2^12 < 0.01: 12 frames can be
    assert sr["test_unit"] == "sentence" and sr["verdict"] == "inconclusive" and np.isnan(sr["p_run"])
    assert sr["p"] == pytest.approx(stats.wilcoxon(np.repeat(offsets, 4)).pvalue, rel=1e-9)


def test_default_model_run_with_frame_level_null_noise_is_not_bias(tmp_path: Path) -> None:
    """Mean 0, sd 0.5 at the frame: not bias. The seed was chosen as a draw where the sentence-level signed-rank
    would have called it (p < 0.01 over 48 pairs that are 12 frames four times; issue 39: ~a third of null runs)."""
    offsets = np.random.default_rng(1).normal(0.0, 0.5, len(FRAMES))
    rows = _run(tmp_path, offsets, "null")
    sf, sr = rows.loc["sign-flip"], rows.loc["signed-rank"]
    expected = _exact_sign_flip(offsets)
    assert expected > 0.2 and sf["p"] == pytest.approx(expected, rel=1e-9)
    assert sf["verdict"] == "inconclusive" and sf["n_units"] == 12
    assert sr["p"] == pytest.approx(stats.wilcoxon(np.repeat(offsets, 4)).pvalue, rel=1e-9) and sr["p"] < 0.01
    assert sr["verdict"] == "inconclusive" and sr["verdict_reason"].startswith("a sentence-level test")


def test_alpha_is_the_level_of_the_default_runs_verdicts(tmp_path: Path) -> None:
    """9 frames at +1, 3 at −1: the exact sign-flip p is the binomial sign test's, 2·P(X ≥ 9 | 12, ½) = 598/4096
    = 0.146; not bias at the default alpha 0.01, bias at params.alpha (association --alpha) 0.2."""
    offsets = np.array([1.0] * 9 + [-1.0] * 3)
    expected = 2 * sum(stats.binom.pmf(k, 12, 0.5) for k in range(9, 13))
    assert expected == pytest.approx(598 / 4096, rel=1e-12) == stats.binomtest(9, 12).pvalue
    default = _run(tmp_path, offsets, "a01").loc["sign-flip"]
    assert default["p"] == pytest.approx(expected, rel=1e-12) and default["alpha"] == 0.01
    assert default["verdict"] == "inconclusive"
    wide = _run(tmp_path, offsets, "a20", alpha=0.2).loc["sign-flip"]
    assert wide["p"] == pytest.approx(expected, rel=1e-12) and wide["alpha"] == 0.2 and wide["verdict"] == "bias"
    # the report section states the level the verdicts used (it said the spec's default 0.05 before)
    from clinaudit.report.base import Text, get_section_builder
    from clinaudit.rundir import RunDir

    build = get_section_builder("association")
    assert build is not None
    for name, level, n_sig in (("a01", "0.01", 0), ("a20", "0.2", 1)):
        texts = " ".join(b.text for b in build(RunDir(tmp_path / name)).blocks if isinstance(b, Text))
        assert f"{n_sig} of 1 category comparisons significant (verdict 'bias found': bonferroni-corrected " \
               f"p_adj < {level})" in texts and "< 0.05" not in texts


def test_cli_default_tests_and_alpha(tmp_path: Path) -> None:
    """clinaudit association --model: sign-flip then signed-rank by default, --alpha written on every effect row."""
    from clinaudit.cli.main import main

    inputs = _inputs(tmp_path)
    out = tmp_path / "cli"
    assert main(["association", "--templates", inputs["templates"], "--attributes", inputs["attributes"],
                 "--model", "mock", "--alpha", "0.2", "--n-bootstrap", "0", "--no-progress", "--out", str(out)]) == 0
    tests = pd.read_csv(out / "tests.csv")
    assert list(tests["test"]) == ["sign-flip", "signed-rank"] and list(tests["n"]) == [12, 48]
    results = pd.read_csv(out / "tables" / "results.csv")
    effects = results[results["metric"] == "log_prob_bias_score"]
    assert (effects["alpha"] == 0.2).all() and list(effects["test_unit"]) == ["frame", "sentence"]
    summary = pd.read_csv(out / "summary.csv")
    assert summary["test"].iloc[0] == "sign_flip_frames" and summary["n_frames"].iloc[0] == 12
