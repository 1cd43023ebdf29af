"""Adversarial debiasing with gradient reversal (P4 §4.4): mechanics, determinism and the planted-attribute test.

The planted dataset: the protected attribute shifts 4 of 20 features by ±1.5
SD and also shifts the label. Without debiasing a fresh logistic regression
recovers the attribute from the learned representation almost perfectly; with
the gradient-reversed adversary it mostly cannot, while the task stays
learnable. Thresholds were checked on seeds 0–9 (n = 1200: baseline AUC
0.942–0.996, debiased 0.548–0.682, debiased task AUROC 0.843–0.911) and 0–5
(n = 600, 200 epochs: baseline 0.949–0.995, debiased 0.550–0.674, task
0.815–0.926); see docs/audits/classifier_gaps.md.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

torch = pytest.importorskip("torch")

from clinaudit.families.hurtful_words.debias import (  # noqa: E402
    DebiasConfig,
    grad_reverse,
    attribute_recovery_auc,
    debias_experiment,
    train_adversarial,
)
from clinaudit.errors import InputError  # noqa: E402


def planted(n: int = 1200, d: int = 20, seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    a = rng.integers(0, 2, n)
    x = rng.normal(size=(n, d))
    x[:, :4] += 1.5 * (2 * a[:, None] - 1)  # the attribute, planted in 4 features
    signal = x[:, 4] + x[:, 5]
    y = ((signal + 0.7 * (2 * a - 1) + rng.normal(scale=0.7, size=n)) > 0.5).astype(int)  # label correlated with a
    n_tr, n_va = int(n * 0.6), int(n * 0.2)
    split = np.array(["train"] * n_tr + ["valid"] * n_va + ["test"] * (n - n_tr - n_va))
    return x, y, np.where(a == 1, "F", "M"), split


def test_gradient_reversal_flips_and_scales_the_gradient():
    x = torch.ones(3, requires_grad=True)
    (grad_reverse(x, 2.5) * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
    assert x.grad.tolist() == [-2.5, -5.0, -7.5]
    y = grad_reverse(torch.tensor([1.0, -2.0]), 1.0)
    assert y.tolist() == [1.0, -2.0]  # identity forward


def test_training_is_deterministic_per_seed():
    X, y, a, split = planted(n=200)
    cfg = DebiasConfig(epochs=20, seed=3)
    m1 = train_adversarial(X, y, list(a), cfg)
    m2 = train_adversarial(X, y, list(a), cfg)
    m3 = train_adversarial(X, y, list(a), DebiasConfig(epochs=20, seed=4))
    assert np.array_equal(m1.transform(X), m2.transform(X))
    assert np.array_equal(m1.predict_proba(X), m2.predict_proba(X))
    assert not np.array_equal(m1.transform(X), m3.transform(X))
    assert m1.attribute_values == ["F", "M"]
    assert m1.adversary_proba(X[:5]).shape == (5, 2)
    assert m1.transform(X).shape == (200, cfg.representation)


def test_input_errors():
    X, y, a, _ = planted(n=50)
    with pytest.raises(InputError, match="two known values"):
        train_adversarial(X, y, ["F"] * 50, DebiasConfig(epochs=1))
    with pytest.raises(InputError, match="both classes"):
        train_adversarial(X, np.zeros(50), list(a), DebiasConfig(epochs=1))
    with pytest.raises(InputError, match="one row per case"):
        train_adversarial(X, y[:10], list(a), DebiasConfig(epochs=1))


def test_unknown_attribute_rows_only_count_for_the_task():
    X, y, a, _ = planted(n=120)
    a = list(a)
    a[:30] = [None] * 30
    m = train_adversarial(X, y, a, DebiasConfig(epochs=5))
    assert m.attribute_values == ["F", "M"]


def test_attribute_recovery_auc_bounds():
    X, _, a, split = planted(n=800, seed=1)
    tr, te = split == "train", split == "test"
    assert attribute_recovery_auc(X[tr], a[tr], X[te], a[te]) > 0.99
    noise = np.random.default_rng(0).normal(size=X.shape)
    assert abs(attribute_recovery_auc(noise[tr], a[tr], noise[te], a[te]) - 0.5) < 0.1
    # three values: macro one-vs-rest AUROC
    a3 = np.where(np.arange(len(a)) % 3 == 0, "X", a)
    assert 0.5 < attribute_recovery_auc(X[tr], a3[tr], X[te], a3[te]) <= 1.0


def test_debiasing_reduces_attribute_recovery_fast():
    """One seed, n = 600: the post-hoc probe's AUC drops by far more than the task AUROC."""
    X, y, a, split = planted(n=600, seed=0)
    rep = debias_experiment(X, y, a, split, config=DebiasConfig(lambda_=3.0, epochs=200, seed=0), n_resamples=100,
                            attribute_name="sex")
    auc = rep.info["attribute_auc"]
    task = rep.info["task_auroc"]
    assert auc["input features"] > 0.99
    assert auc["baseline"] > 0.9 and auc["debiased"] < 0.75
    assert auc["baseline"] - auc["debiased"] > 0.2
    assert task["debiased"] > 0.75
    res = rep.results
    assert set(res["model"]) == {"input features", "baseline", "debiased"}
    assert set(res["metric"]) == {"auroc", "auprc", "attribute_auc", "adversary_auc"}
    row = res[(res["metric"] == "attribute_auc") & (res["model"] == "baseline")].iloc[0]
    assert row["n"] == int((split == "test").sum()) and row["ci_low"] <= row["value"] <= row["ci_high"]
    assert set(rep.gaps["model"]) == {"baseline", "debiased"} and set(rep.gaps["attribute"]) == {"sex"}
    assert set(rep.summary["model"]) == {"baseline", "debiased"}
    assert {"recall_gap", "parity_gap", "specificity_gap"} <= set(rep.summary.columns)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_debiasing_reduces_attribute_recovery_across_seeds(seed):
    """Acceptance: on the planted dataset the post-hoc attribute AUC falls clearly; the task stays learnable."""
    X, y, a, split = planted(n=1200, seed=seed)
    rep = debias_experiment(X, y, a, split, config=DebiasConfig(lambda_=3.0, epochs=300, seed=seed), n_resamples=200)
    auc, task = rep.info["attribute_auc"], rep.info["task_auroc"]
    assert auc["baseline"] > 0.9
    assert auc["debiased"] < 0.75
    assert task["debiased"] > 0.8 and task["baseline"] - task["debiased"] < 0.1


def test_debias_cli_with_mock_encoder(tmp_path: Path, capsys):
    """The `debias` command wires probe + debiasing through the recipe (tiny settings; mechanics only)."""
    from clinaudit.cli.main import main
    from clinaudit.report.base import get_section_builder
    from clinaudit.rundir import RunDir

    rng = np.random.default_rng(0)
    rows = []
    for i in range(150):
        sex = "F" if i % 2 else "M"
        y = int(rng.random() < 0.4)
        words = ["she" if sex == "F" else "he", "reports", "pain"] + (["fever", "chills"] if y else ["cough"])
        rows.append({"id": i, "note": " ".join(words), "y": y, "sex": sex})
    inp = tmp_path / "notes.csv"
    pd.DataFrame(rows).to_csv(inp, index=False)
    out = tmp_path / "deb"
    rc = main(["debias", "--input", str(inp), "--text-column", "note", "--id-column", "id", "--label-column", "y",
               "--group-column", "sex", "--encoder", "mock", "--attribute", "sex", "--lambda", "2", "--epochs", "30",
               "--hidden-sizes", "8", "--alphas", "0.01", "--n-resamples", "50", "--no-progress", "--out", str(out)])
    assert rc == 0
    for name in ("debias", "debias_gaps", "debias_summary", "gaps", "summary", "predictions"):
        assert (out / f"{name}.csv").is_file(), name
    deb = pd.read_csv(out / "debias.csv")
    assert set(deb["model"]) == {"input features", "baseline", "debiased"}
    assert set(deb["lambda_"].dropna()) == {0.0, 2.0}
    gaps = pd.read_csv(out / "debias_gaps.csv")
    assert set(gaps["family"].str.split("|").str[0]) == {"baseline", "debiased"}  # BH per model × metric × attribute
    sec = get_section_builder("classifier_gaps")(RunDir(out))
    assert any(getattr(b, "title", "") == "Significant gaps before and after debiasing (P4 Table 5)"
               for b in sec.blocks)
    assert "attribute_auc" in capsys.readouterr().out
