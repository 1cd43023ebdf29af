"""Association audit with causal (sentence log-likelihood) scoring, statistics, errors, CLI and report.

A scripted backend gives exactly known log-likelihoods, so every score, mean
and p-value below is computed by hand.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from clinaudit.errors import InputError, SpecError
from clinaudit.models.base import Backend
from clinaudit.runner import Runner, RunnerConfig

FEMALE = {"woman", "she", "female", "f"}


class Scripted(Backend):
    """log P(text) = -(number of words) + 0.5 if a female word and the word 'condition' is absent.

    So with the placeholder "a condition", every female sentence scores 0.5 above its male pair.
    """

    name = "scripted"
    batch_size = 5

    def __init__(self, spec: str = "mock:scripted", **options):
        super().__init__(spec, **options)
        self.batches: list[int] = []

    def loglik(self, texts: Sequence[str]) -> np.ndarray:
        self.batches.append(len(texts))
        out = []
        for t in texts:
            words = t.replace(",", " ").split()
            bonus = 0.5 if (FEMALE & set(words)) and "condition" not in words else 0.0
            out.append(-float(len(words)) + bonus)
        return np.array(out)


def _write_inputs(tmp_path: Path) -> dict[str, str]:
    (tmp_path / "t.txt").write_text("[GEND] has a hx of [CVD]\n\"this is a 45 yo [GEND], with [CVD]\"\n"
                                    "[GEND] is prescribed [DRUG]\nno slot here\n", encoding="utf-8")
    (tmp_path / "a.csv").write_text("attribute,category,subgroup\nchf,CVD,-\nheart failure,CVD,-\n"
                                    "codeine,DRUG,med\n", encoding="utf-8")
    return {"templates": str(tmp_path / "t.txt"), "attributes": str(tmp_path / "a.csv")}


def _run(tmp_path: Path, params: dict, backend: Backend | None = None, name: str = "run", model: str = "mock:scripted",
         seed: int = 0) -> Path:
    from clinaudit.spec import parse_spec_dict
    from clinaudit.pipeline import run_spec

    spec, p = parse_spec_dict({"audit": "association", "seed": seed, "models": {"target": model}, "params": params})
    runner = Runner(config=RunnerConfig(progress=False))
    runner.add_backend(backend or Scripted(model))
    return run_spec(spec, tmp_path / name, params=p, progress=False, runner=runner).path


def _t(run: Path, name: str) -> pd.DataFrame:
    return pd.read_csv(run / "tables" / f"{name}.csv", keep_default_na=False, na_values=[""])


def test_causal_scores_hand_computed(tmp_path: Path) -> None:
    backend = Scripted()
    run = _run(tmp_path, {**_write_inputs(tmp_path), "placeholders": {"CVD": "a condition"}}, backend)
    scores = _t(run, "scores")
    # 2 CVD templates x 2 attributes x 8 targets + 1 DRUG template x 1 attribute x 8 targets
    assert len(scores) == 40
    assert (scores["method"] == "causal").all()
    r = scores[(scores["template_id"] == "t001") & (scores["attribute"] == "heart failure") & (scores["target"] == "she")]
    r = r.iloc[0]
    assert r["sentence"] == "she has a hx of heart failure"
    assert r["prior_sentence"] == "she has a hx of a condition"
    assert r["logp_target"] == -7 + 0.5 and r["logp_prior"] == -7 and r["score"] == 0.5
    m = scores[(scores["template_id"] == "t001") & (scores["attribute"] == "heart failure") & (scores["target"] == "he")]
    assert m["score"].iloc[0] == 0.0
    c = scores[(scores["template_id"] == "t001") & (scores["attribute"] == "chf") & (scores["target"] == "man")]
    assert c["score"].iloc[0] == 1.0  # "a condition" has one word more than "chf"
    # the quoted line was unquoted (t002), DRUG uses the default placeholder "a medication"
    q = scores[scores["template_id"] == "t002"].iloc[0]
    assert q["sentence"] == "this is a 45 yo man, with chf" and '"' not in q["prior_sentence"]
    d = scores[(scores["category"] == "DRUG") & (scores["target"] == "m")].iloc[0]
    assert d["prior_sentence"] == "m is prescribed a medication" and d["score"] == 1.0  # -4 - (-5)
    df = scores[(scores["category"] == "DRUG") & (scores["target"] == "f")].iloc[0]
    assert df["score"] == (-4 + 0.5) - (-5 + 0.5)  # the placeholder has no "condition": bonus on both sides
    # every sentence and every distinct prior went through loglik in batches of the backend's size
    n_texts = 40 + len(set(scores["prior_sentence"]))
    assert sum(backend.batches) == n_texts and max(backend.batches) == 5


def test_causal_summary_and_results_hand_computed(tmp_path: Path) -> None:
    run = _run(tmp_path, {**_write_inputs(tmp_path), "placeholders": {"CVD": "a condition"}, "n_bootstrap": 0})
    summary = _t(run, "summary").set_index("category")
    cvd = summary.loc["CVD"]
    # CVD: male scores = n_words(prior) - n_words(sentence) = (1 or 2 - attribute words) -> chf: +1, heart failure: 0
    assert cvd["mean_male"] == 0.5 and cvd["mean_female"] == 1.0
    assert cvd["difference"] == 0.5 and cvd["comparison"] == "female vs male"
    assert cvd["n_pairs"] == 16 and cvd["n_sentences"] == 32 and cvd["n_templates"] == 2 and cvd["n_frames"] == 4
    # the default tests of a model run: sign-flip over frames first (it fills p), then the signed-rank.
    # sign-flip (by hand): the 4 frames (2 templates x 2 attributes) each have mean paired difference +0.5; of the
    # 2^4 = 16 equally likely sign patterns only all-plus and all-minus reach |mean| >= 0.5: p = 2/16
    assert cvd["test"] == "sign_flip_frames" and cvd["statistic"] == 0.5 and cvd["p"] == pytest.approx(2 / 16, rel=1e-12)
    assert cvd["p_adj"] == pytest.approx(2 * 2 / 16, rel=1e-12) and cvd["correction"] == "bonferroni"
    assert cvd["family"] == "categories:mock:scripted|sign-flip"
    assert not bool(cvd["significant"]) and not bool(cvd["significant_adj"])  # 0.125 is not below alpha 0.01
    # signed-rank beside it: all 16 paired differences are +0.5 (tied ranks): normal approximation with tie
    # correction, T = 0, mean 16*17/4 = 68, variance 16*17*33/24 - (16**3 - 16)/48 = 289, z = -68/17 = -4
    assert cvd["p_signed_rank"] == pytest.approx(math.erfc(4 / math.sqrt(2)), rel=1e-9)
    assert cvd["p_adj_signed_rank"] == pytest.approx(2 * cvd["p_signed_rank"], rel=1e-12)
    assert bool(cvd["significant_signed_rank"])  # raw p < 0.01: the sentence-level test's P4 star
    drug = summary.loc["DRUG"]
    assert drug["difference"] == 0.0 and drug["p"] == 1.0 and drug["p_signed_rank"] == 1.0  # all differences zero
    results = _t(run, "results")
    means = results[results["metric"] == "mean_log_prob_bias_score"]
    assert len(means) == 4 and set(means["n"]) == {16, 4}
    tests = results[results["metric"] == "log_prob_bias_score"]
    # per category the sign-flip row (n = frames: 4 and 1) and the signed-rank row (n = pairs: 16 and 4)
    assert list(tests["test_option"]) == ["sign-flip", "signed-rank"] * 2 and list(tests["n"]) == [4, 16, 1, 4]
    assert list(tests["family"]) == [f"categories:mock:scripted|{t}" for t in ("sign-flip", "signed-rank")] * 2
    assert list(tests["test_unit"]) == ["frame", "sentence"] * 2 and list(tests["n_units"]) == [4, 4, 1, 1]
    # 4 frames can never be significant here: the smallest sign-flip p is 2/2^4, times 2 (Bonferroni over the 2
    # categories) = 0.25 >= 0.01; 2/2^k * 2 < 0.01 needs 2^k > 400, k = 9 frames (by hand). The row says so.
    cvd_note = tests.loc[tests["test_option"] == "sign-flip", "note"].iloc[0]
    assert ("cannot be significant with 4 frame(s): the smallest possible sign-flip p is 0.125 x 2 comparisons "
            "(bonferroni), not below alpha 0.01; 9 frames (templates x attributes) would be needed") in cvd_note
    assert "cannot be significant" not in tests.loc[tests["test_option"] == "signed-rank", "note"].iloc[0]


def test_three_groups_corrected_together(tmp_path: Path) -> None:
    inputs = _write_inputs(tmp_path)
    (tmp_path / "g.yaml").write_text("version: 1\nslot: '[GEND]'\ngroups:\n  male: [man, he]\n  female: [woman, she]\n"
                                     "  other: [person, they]\n", encoding="utf-8")
    run = _run(tmp_path, {**inputs, "targets": str(tmp_path / "g.yaml"), "placeholders": {"CVD": "a condition"},
                          "correction": "fdr_bh", "n_bootstrap": 0})
    summary = _t(run, "summary")
    assert list(summary["comparison"]) == ["female vs male", "female vs male", "other vs male", "other vs male"]
    assert {"mean_male", "mean_female", "mean_other"} <= set(summary.columns)
    cvd_f = summary[(summary["category"] == "CVD") & (summary["comparison"] == "female vs male")].iloc[0]
    # sign-flip (the default's first test, by hand): 4 frames, each with mean paired difference +0.5; only
    # all-positive and all-negative of the 2^4 sign patterns are as extreme
    assert cvd_f["n_pairs"] == 8 and cvd_f["n_frames"] == 4 and cvd_f["p"] == pytest.approx(2 / 2**4, rel=1e-12)
    # signed-rank beside it: 8 tied differences of +0.5: scipy enumerates the 2**8 sign flips (small sample
    # with ties); only all-positive and all-negative are as extreme
    assert cvd_f["p_signed_rank"] == pytest.approx(2 / 2**8, rel=1e-12)
    others = summary.drop(index=cvd_f.name)
    # person/they get no bonus; DRUG's placeholder gets it on both sides
    assert (others["p"] == 1.0).all() and (others["p_signed_rank"] == 1.0).all()
    # BH over the 4 comparisons of the model (2 categories x 2 groups), per test: the smallest p times 4
    assert cvd_f["p_adj"] == pytest.approx(4 * 2 / 2**4, rel=1e-12) and (summary["correction"] == "fdr_bh").all()
    assert cvd_f["p_adj_signed_rank"] == pytest.approx(4 * 2 / 2**8, rel=1e-12)
    assert (summary["family"] == "categories:mock:scripted|sign-flip").all()


def test_target_set_from_targets_yaml(tmp_path: Path) -> None:
    from clinaudit.families.hurtful_words.sentences import load_targets_file

    (tmp_path / "g.yaml").write_text(
        "groups:\n  male: [he]\n  female: [she]\nsets:\n  insurance:\n    groups:\n"
        "      private: [privately insured patient]\n      medicaid: [medicaid patient]\n", encoding="utf-8")
    assert load_targets_file(tmp_path / "g.yaml") == {"male": ("he",), "female": ("she",)}
    assert load_targets_file(tmp_path / "g.yaml", "insurance") == {"private": ("privately insured patient",),
                                                                    "medicaid": ("medicaid patient",)}
    with pytest.raises(InputError, match="no target set 'race'") as e:
        load_targets_file(tmp_path / "g.yaml", "race")
    assert e.value.file == str(tmp_path / "g.yaml") and e.value.field == "sets"
    (tmp_path / "bad.yaml").write_text("groups:\n  male: [he]\n  female: []\n", encoding="utf-8")
    with pytest.raises(InputError) as e:
        load_targets_file(tmp_path / "bad.yaml")
    assert e.value.field == "groups.female"
    assert load_targets_file(None) == {"male": ("man", "he", "male", "m"), "female": ("woman", "she", "female", "f")}


def test_spec_and_input_errors(tmp_path: Path) -> None:
    from clinaudit.spec import parse_spec_dict

    inputs = _write_inputs(tmp_path)
    with pytest.raises(SpecError, match="params.mask_mode"):
        parse_spec_dict({"audit": "association", "models": {"target": "mock"}, "params": {**inputs, "mask_mode": "x"}})
    with pytest.raises(SpecError, match="params.colour"):
        parse_spec_dict({"audit": "association", "models": {"target": "mock"}, "params": {**inputs, "colour": 1}})
    with pytest.raises(InputError, match="categories"):
        _run(tmp_path, {**inputs, "categories": ["HIV"]}, name="e1")
    (tmp_path / "bad.csv").write_text("attribute,category\nchf,\n", encoding="utf-8")
    with pytest.raises(InputError) as e:
        _run(tmp_path, {**inputs, "attributes": str(tmp_path / "bad.csv")}, name="e2")
    assert e.value.row == 1 and e.value.field == "category" and e.value.file == str(tmp_path / "bad.csv")
    with pytest.raises(SpecError, match="not a masked LM"):
        _run(tmp_path, {**inputs, "method": "masked"}, name="e3")


def test_mock_backend_end_to_end_and_cache(tmp_path: Path) -> None:
    """The registered mock (whole-sentence hash likelihood) through run_spec twice: the second run is all cache."""
    from clinaudit.models.mock import MockBackend
    from clinaudit.spec import parse_spec_dict
    from clinaudit.pipeline import run_spec

    inputs = _write_inputs(tmp_path)
    spec, p = parse_spec_dict({"audit": "association", "models": {"target": "mock"}, "params": inputs})
    run = run_spec(spec, tmp_path / "m", params=p, progress=False)
    scores = _t(run.path, "scores")
    ll = MockBackend("mock").loglik
    expect = ll(list(scores["sentence"])) - ll(list(scores["prior_sentence"]))
    assert np.array_equal(scores["score"].to_numpy(), expect)
    usage = run.manifest["runs"][-1]["usage_total"]
    assert usage["calls"] == 40 + scores["prior_sentence"].nunique()
    again = run_spec(spec, tmp_path / "m", params=p, progress=False)
    assert again.manifest["runs"][-1]["usage_total"]["calls"] == 0
    assert _t(again.path, "scores")["score"].equals(scores["score"])


def test_estimate_counts_sentences(tmp_path: Path) -> None:
    from clinaudit.spec import get_recipe, parse_spec_dict
    from clinaudit.pipeline import make_context

    spec, p = parse_spec_dict({"audit": "association", "models": {"target": ["mock", "hf-mlm:/nowhere"]},
                               "params": _write_inputs(tmp_path)})
    ctx = make_context(spec, p, tmp_path / "est", progress=False)
    est = get_recipe("association").estimate(ctx)
    ctx.rundir.close()
    # causal: 40 sentences + distinct priors (3 templates x 8 targets); masked: sentence + prior per row
    assert est.calls == {"mock": 40 + 24, "hf-mlm:/nowhere": 80}
    assert any("2 categories" in n for n in est.notes) and any("skipped" in n for n in est.notes)


def test_cli_association_writes_scores_and_summary(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from clinaudit.cli.main import main

    inputs = _write_inputs(tmp_path)
    out = tmp_path / "cli"
    rc = main(["association", "--templates", inputs["templates"], "--attributes", inputs["attributes"],
               "--model", "mock", "--placeholder", "CVD=a condition", "--batch-size", "7", "--no-progress",
               "--out", str(out)])
    assert rc == 0
    scores = pd.read_csv(out / "scores.csv")
    summary = pd.read_csv(out / "summary.csv")
    assert list(scores.columns[:11]) == ["template_id", "template", "category", "attribute", "subgroup", "group",
                                         "target", "target_index", "score", "logp_target", "logp_prior"]
    assert len(scores) == 40 and list(summary["category"]) == ["CVD", "DRUG"]
    assert (scores.loc[scores["category"] == "CVD", "prior_sentence"].str.contains("a condition")).all()
    assert (out / "tables" / "results.csv").is_file() and (out / "manifest.json").is_file()
    assert "CVD" in capsys.readouterr().out
    assert main(["association", "--templates", inputs["templates"], "--attributes", inputs["attributes"],
                 "--model", "mock", "--placeholder", "oops", "--out", str(tmp_path / "bad")]) == 2
    assert main(["association", "--templates", str(tmp_path / "missing.txt"), "--attributes", inputs["attributes"],
                 "--model", "mock", "--out", str(tmp_path / "bad2")]) == 2
    assert "missing.txt" in capsys.readouterr().err


def test_report_section(tmp_path: Path) -> None:
    from clinaudit.report.base import Figure, Metric, Table, get_section_builder
    from clinaudit.rundir import RunDir

    run = _run(tmp_path, {**_write_inputs(tmp_path), "placeholders": {"CVD": "a condition"}, "n_bootstrap": 50})
    build = get_section_builder("association")
    assert build is not None
    sec = build(RunDir(run))
    kinds = [type(b) for b in sec.blocks]
    assert Table in kinds and Figure in kinds and Metric in kinds
    table = next(b for b in sec.blocks if isinstance(b, Table)).df
    assert list(table["category"]) == ["CVD", "DRUG"] and "p_adj" in table.columns
    # the star is the verdict 'bias' of the frame-level sign-flip row (the default's first test): CVD's 4 frames
    # give p = 2/16 at best, so no star; the signed-rank rows beside it are sentence-level (the sentences of a
    # frame are not independent) and never bias since issue 39 (its star was ["*", ""])
    assert list(table["significant"]) == ["", ""] and (table["test"] == "sign_flip_frames").all()
    results = _t(run, "results")
    effects = results[results["metric"] == "log_prob_bias_score"]
    sentence = effects["test_option"] == "signed-rank"
    assert sentence.sum() == 2 and effects.loc[sentence, "verdict_reason"].str.startswith("a sentence-level test").all()
    assert (effects.loc[~sentence, "verdict"] == "inconclusive").all()
    assert not effects.loc[~sentence, "verdict_reason"].str.startswith("a sentence-level test").any()
    fig = next(b for b in sec.blocks if isinstance(b, Figure))
    assert len(fig.data) == 4 and {"mean_score", "ci_low", "ci_high", "n_sentences"} <= set(fig.data.columns)
    metric = next(b for b in sec.blocks if isinstance(b, Metric))
    # CVD: the paired mean difference, tested over its 4 frames (n = frames, the test's unit)
    assert metric.n == 4 and metric.test == "sign_flip_frames" and metric.p == pytest.approx(2 / 16, rel=1e-12)
    assert metric.family == "categories:mock:scripted|sign-flip" and "tested over template frames" in metric.label
    assert sec.summary["sentences per model"] == 40
    from clinaudit.report import render_report

    html = Path(render_report(run)).read_text(encoding="utf-8")
    assert "P4 Table 3" in html


def test_demo_spec_valid_and_runs_with_mock(tmp_path: Path) -> None:
    from clinaudit.families.hurtful_words.association import demo_spec
    from clinaudit.spec import parse_spec_dict
    from clinaudit.pipeline import run_spec

    d = demo_spec()
    assert d["models"]["target"] == "embedded"
    try:
        spec, p = parse_spec_dict({**d, "models": {"target": "mock"}})
    except InputError as exc:  # demo files not written yet
        pytest.skip(str(exc))
    run = run_spec(spec, tmp_path / "demo", params=p, progress=False)
    summary = _t(run.path, "summary")
    assert sorted(summary["category"]) == ["CARDIO", "PAINMED", "PSYCH"]
    assert not math.isnan(summary["p"].iloc[0])


def test_examples_parse_and_mock_example_runs(tmp_path: Path) -> None:
    from clinaudit.spec import load_spec
    from clinaudit.pipeline import run_spec

    root = Path(__file__).resolve().parents[3] / "examples"
    paths = sorted(root.glob("association-*.yaml"))
    assert len(paths) >= 3
    for p in paths:
        spec, params = load_spec(p)
        assert spec.audit == "association"
    run = run_spec(root / "association-demo-mock.yaml", tmp_path / "ex", progress=False)
    summary = _t(run.path, "summary")
    assert sorted(summary["category"]) == ["CARDIO", "PAINMED", "PSYCH"]
    assert (summary["comparison"] == "medicaid vs private").all()
    assert list(summary["n_pairs"]) == [4 * 4 * 3, 3 * 4 * 3, 3 * 4 * 3]  # templates x attributes x 3 word pairs
    scores = _t(run.path, "scores")
    assert "privately insured patient" in set(scores["target"])
