"""Association audit end to end with the offline ``embedded`` model (SmolLM2-135M, causal scoring).

Slow: loads the embedded model. Uses the published HurtfulWords templates, the
first template of each of the 8 categories and the first two attributes of
each category (128 sentences + 64 prior sentences), through the CLI.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pandas as pd
import pytest

DATA = Path(__file__).resolve().parents[3].parent / "shared" / "data" / "hurtfulwords"
CATEGORIES = ["ADD", "CVD", "DIAB", "DNR", "DRUG", "HIV", "HTN", "MENT"]

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def subset_attributes(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not (DATA / "templates.txt").is_file():
        pytest.skip(f"HurtfulWords data not found at {DATA}")
    rows = list(csv.DictReader((DATA / "attributes.csv").open(encoding="utf-8")))
    kept, seen = [], {}
    for r in rows:
        if seen.get(r["category"], 0) < 2:
            kept.append(r)
            seen[r["category"]] = seen.get(r["category"], 0) + 1
    out = tmp_path_factory.mktemp("hw") / "attributes_subset.csv"
    with out.open("w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=["attribute", "category", "subgroup"])
        w.writeheader()
        w.writerows(kept)
    return out


def test_cli_hurtfulwords_embedded_all_categories(tmp_path: Path, subset_attributes: Path) -> None:
    pytest.importorskip("torch")
    from clinaudit.cli.main import main
    from clinaudit.models.base import get_backend

    out = tmp_path / "assoc"
    rc = main(["association", "--templates", str(DATA / "templates.txt"), "--attributes", str(subset_attributes),
               "--model", "embedded", "--max-templates-per-category", "1", "--batch-size", "64", "--no-progress",
               "--out", str(out)])
    assert rc == 0
    summary = pd.read_csv(out / "summary.csv")
    scores = pd.read_csv(out / "scores.csv")
    assert list(summary["category"]) == CATEGORIES
    assert len(scores) == 8 * 1 * 2 * 8 and (summary["n_sentences"] == 16).all() and (summary["n_pairs"] == 8).all()
    # the default: sign-flip over frames fills p; with 1 template x 2 attributes a category has 2 frames, whose
    # 2^2 sign patterns give p = 2/4 at the smallest (so no category can be bias with 2 frames)
    assert (summary["test"] == "sign_flip_frames").all() and (summary["n_frames"] == 2).all()
    assert summary["p"].between(0.5, 1).all() and summary["p_signed_rank"].between(0, 1).all()
    assert (summary["correction"] == "bonferroni").all() and (summary["family"] == "categories:embedded|sign-flip").all()
    assert {"mean_male", "mean_female", "p_adj", "sample_template"} <= set(summary.columns)
    assert scores["score"].notna().all() and scores["method"].eq("causal").all()
    # a score is the difference of two sentence log-likelihoods, recomputed here one sentence at a time
    backend = get_backend("embedded", batch_size=1)
    for r in scores.iloc[[0, 37, 127]].itertuples(index=False):
        ll = backend.loglik([r.sentence, r.prior_sentence])
        assert r.logp_target == pytest.approx(ll[0], abs=1e-3) and r.logp_prior == pytest.approx(ll[1], abs=1e-3)
        assert r.score == pytest.approx(r.logp_target - r.logp_prior, abs=1e-9)
    manifest = (out / "manifest.json").read_text(encoding="utf-8")
    assert '"status": "complete"' in manifest
