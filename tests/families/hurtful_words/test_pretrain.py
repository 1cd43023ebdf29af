"""Continued MLM pretraining (P4 §3.3, §4.4): PHI tokens, whole-word masking, loss, resume, adversary.

The base model is a tiny randomly initialised BERT whose WordPiece tokenizer is
trained here on synthetic notes (:func:`build_tiny_mlm`; no download). The notes
carry a planted protected-attribute signal: "she/her/female" in group F notes,
"he/his/male" in group M notes, so the attribute is recoverable from the text.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

from clinaudit.errors import InputError  # noqa: E402
from clinaudit.families.hurtful_words.debias import attribute_recovery_auc  # noqa: E402
from clinaudit.families.hurtful_words.pretrain import (  # noqa: E402
    PHI_TOKENS,
    AdversaryConfig,
    PretrainConfig,
    WholeWordCollator,
    build_tiny_mlm,
    cls_embeddings,
    encode_texts,
    load_mlm,
    mlm_loss,
    phi_type,
    pretrain,
    replace_phi,
    tiny_vocab,
    wordpiece_tokenizer,
)

WORDS = ("patient admitted with chest pain shortness of breath hypertension diabetes renal failure sepsis "
         "pneumonia given aspirin heparin insulin stable overnight plan continue monitor labs cxr ekg normal "
         "elevated troponin intubated extubated vasopressors lasix diuresis").split()


def synthetic_notes(n: int, seed: int) -> tuple[list[str], list[str]]:
    """Notes with three gendered words each (the planted signal) and two de-id spans."""
    r = random.Random(seed)
    texts, groups = [], []
    for _ in range(n):
        fem = r.random() < 0.5
        pronouns = ["she", "her", "female"] if fem else ["he", "his", "male"]
        w = [r.choice(WORDS) for _ in range(r.randint(15, 30))]
        for _ in range(3):
            w.insert(r.randrange(len(w)), r.choice(pronouns))
        w.insert(r.randrange(len(w)), "[**2126-9-19**]")
        w.insert(r.randrange(len(w)), "[**First Name (Titles) 123**]")
        texts.append(" ".join(w))
        groups.append("F" if fem else "M")
    return texts, groups


@pytest.fixture(scope="module")
def corpus() -> tuple[list[str], list[str]]:
    return synthetic_notes(240, 0)


@pytest.fixture(scope="module")
def tiny_base(corpus: tuple[list[str], list[str]], tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_tiny_mlm(corpus[0], tmp_path_factory.mktemp("tiny-base"), seed=0)


# --------------------------------------------------------------------------- fast


_VOCAB = """
import hashlib, json, sys
from clinaudit.families.hurtful_words.pretrain import PHI_TOKENS, tiny_vocab
texts = json.loads(open(sys.argv[1], encoding="utf-8").read())
vocab = tiny_vocab(texts, 90, ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *PHI_TOKENS.values()])
print(hashlib.sha256(json.dumps(vocab).encode()).hexdigest())
"""


def test_the_tiny_vocabulary_is_the_same_in_every_process(tmp_path: Path) -> None:
    # tokenizers' WordPieceTrainer broke frequency ties in hash order: another vocabulary (and so another
    # model: build_tiny_mlm seeds the weights) in every process for the same texts. Three processes now agree
    # on a vocabulary that has to cut (90 of 122 tokens) and so to break ties.
    import json
    import subprocess
    import sys

    texts = tmp_path / "texts.json"
    texts.write_text(json.dumps([replace_phi(t) for t in synthetic_notes(60, 3)[0]]), encoding="utf-8")
    digests = {subprocess.run([sys.executable, "-c", _VOCAB, str(texts)], capture_output=True, text=True,
                              check=True).stdout.strip() for _ in range(3)}
    assert len(digests) == 1 and len(next(iter(digests))) == 64


def test_tiny_vocab_splits_the_texts_as_bert_does_and_a_cut_keeps_every_word_spellable(corpus) -> None:
    from clinaudit.models.embedded import locate_embedder

    texts = [replace_phi(t) for t in corpus[0][:80]]
    specials = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *PHI_TOKENS.values()]
    bert = transformers.AutoTokenizer.from_pretrained(str(locate_embedder()))  # independent: BERT uncased
    bert.add_special_tokens({"additional_special_tokens": list(PHI_TOKENS.values())})
    full = tiny_vocab(texts, 100_000, specials)
    assert list(full)[: len(specials)] == specials and sorted(full.values()) == list(range(len(full)))
    used = {t for text in texts for t in bert.tokenize(text)}
    assert used - set(full) == set() and len(full) < 600  # every piece BERT uses on the texts, and few more

    def pieces(vocab, text):
        tok = transformers.BertTokenizerFast(vocab_file=None, tokenizer_object=wordpiece_tokenizer(vocab, specials))
        return tok.tokenize(text)

    assert all(pieces(full, t) == bert.tokenize(t) for t in texts[:20])
    small = tiny_vocab(texts, 40, specials)  # fewer than specials + characters: those are all kept
    chars = {c for t in texts for c in t.lower() if not c.isspace()}
    assert len(small) == len(specials) + len({t for c in chars for t in (c, "##" + c) if t in bert.vocab})
    assert all("[UNK]" not in pieces(small, t) for t in texts[:20])
    cut = tiny_vocab(texts, len(small) + 25, specials)  # 25 pieces more: the most frequent ones
    assert len(cut) == len(small) + 25 and list(cut)[: len(small)] == list(small)



@pytest.mark.parametrize("inner, kind", [
    ("2126-9-19", "date"), ("9-19", "date"), ("2126", "date"), ("Month (only) 5", "date"),
    ("First Name (Titles) 123", "name"), ("Known lastname 4321", "name"), ("Hospital1 18", "hospital"),
    ("Location (un) 1234", "location"), ("Telephone/Fax (1) 567", "contact"),
    ("Medical Record Number 123", "id"), ("Age over 90 ", "age"), ("12", "other"),
])
def test_phi_type(inner: str, kind: str) -> None:
    assert phi_type(inner) == kind


def test_replace_phi_hand_checked() -> None:
    text = "Admitted [**2126-9-19**] by Dr. [**Last Name (STitle) 1234**] at [**Hospital1 18**]."
    assert replace_phi(text).split() == ["Admitted", "[PHI_DATE]", "by", "Dr.", "[PHI_NAME]", "at",
                                        "[PHI_HOSPITAL]", "."]
    assert replace_phi("no spans here") == "no spans here"


def test_phi_tokens_are_single_tokens_and_whole_words_are_masked_together(tiny_base: Path) -> None:
    _, tok = load_mlm(tiny_base)
    ids = {t: tok.convert_tokens_to_ids(t) for t in PHI_TOKENS.values()}
    assert len(set(ids.values())) == len(PHI_TOKENS) and tok.unk_token_id not in ids.values()
    # a word the 600-piece vocabulary splits into pieces, next to PHI spans
    texts = ["[**2126-9-19**] extubated vasopressorsdiuresis troponinemia [**Hospital1 18**] " * 3] * 8
    data = encode_texts(tok, texts, None, 64)
    pieces = tok.convert_ids_to_tokens(data[0]["input_ids"])
    assert "[PHI_DATE]" in pieces and "[PHI_HOSPITAL]" in pieces
    assert any(p.startswith("##") for p in pieces), pieces
    # word id of every token, recomputed from the pieces: a "##" piece continues the previous word
    word, words = -1, []
    for p in pieces:
        if p in ("[CLS]", "[SEP]"):
            words.append(None)
            continue
        word += 0 if p.startswith("##") else 1
        words.append(word)
    n_masked = 0
    for seed in range(5):
        batch = WholeWordCollator(tok, mlm_probability=0.3, seed=seed)(data)
        for row in range(len(data)):
            masked = (batch["labels"][row] != -100).numpy()
            n_masked += int(masked.sum())
            for w in set(x for x in words if x is not None):
                pos = [i for i, x in enumerate(words) if x == w]
                assert masked[pos].all() or not masked[pos].any(), (seed, w, [pieces[i] for i in pos])
            assert not masked[[i for i, x in enumerate(words) if x is None]].any()
            ids_row = batch["input_ids"][row].numpy()
            assert (ids_row[masked] == tok.mask_token_id).all()  # whole-word masking: every chosen piece -> [MASK]
    assert n_masked > 0


def test_bad_inputs_are_clear_errors(tiny_base: Path, tmp_path: Path) -> None:
    cfg = PretrainConfig(max_steps=1, adversary=AdversaryConfig(attribute="gender"))
    with pytest.raises(InputError, match="needs the protected attribute 'gender'"):
        pretrain(["a note"], tiny_base, tmp_path / "a", cfg)
    with pytest.raises(InputError, match="at least two known values"):
        pretrain(["a note", "another"], tiny_base, tmp_path / "b", cfg, attributes=["F", ""])
    with pytest.raises(InputError, match="not a local model directory"):
        pretrain(["a note"], tmp_path / "missing", tmp_path / "c", PretrainConfig(max_steps=1))
    with pytest.raises(InputError, match="2 attribute values for 1 texts"):
        pretrain(["a note"], tiny_base, tmp_path / "d", cfg, attributes=["F", "M"])


# --------------------------------------------------------------------------- slow: training


def _cfg(**kw: object) -> PretrainConfig:
    base = dict(max_steps=60, batch_size=16, max_length=64, logging_steps=10, save_steps=30, learning_rate=5e-4,
                seed=0)
    base.update(kw)
    return PretrainConfig(**base)


@pytest.mark.slow
def test_pretraining_lowers_mlm_loss_and_writes_curves(corpus, tiny_base: Path, tmp_path: Path) -> None:
    texts, groups = corpus
    held_out, _ = synthetic_notes(60, 99)
    before = mlm_loss(tiny_base, held_out, seed=3)
    res = pretrain(texts, tiny_base, tmp_path / "run", _cfg())
    after = mlm_loss(res.model_dir, held_out, seed=3)
    assert after < before - 0.5, (before, after)  # same masks (seed 3), notes never trained on
    out = tmp_path / "run"
    curve = pd.read_csv(out / "loss.csv")
    assert curve["step"].tolist() == [1, 10, 20, 30, 40, 50, 60]
    assert curve["loss"].iloc[-1] < curve["loss"].iloc[0]
    assert (out / "loss.png").stat().st_size > 1000
    prog = json.loads((out / "progress.json").read_text())
    assert prog["step"] == 60 and prog["max_steps"] == 60
    assert sorted(p.name for p in (out / "checkpoints").iterdir()) == ["checkpoint-30", "checkpoint-60"]
    info = json.loads((out / "pretrain.json").read_text())["info"]
    assert info["steps"] == 60 and info["sequences"] == len(texts)
    # the saved encoder loads as the hf-mlm backend would, with the PHI tokens in its vocabulary
    tok = transformers.AutoTokenizer.from_pretrained(res.model_dir, local_files_only=True)
    assert tok.tokenize("[PHI_DATE] she") == ["[PHI_DATE]", "she"]


class _Crash(transformers.TrainerCallback):
    """Interrupt training after ``at`` steps (the checkpoint before it is on disk)."""

    def __init__(self, at: int):
        self.at = at

    def on_step_end(self, args, state, control, **kw):  # noqa: ANN001
        if state.global_step == self.at:
            raise KeyboardInterrupt


@pytest.mark.slow
def test_resume_from_checkpoint_matches_uninterrupted_run(corpus, tiny_base: Path, tmp_path: Path) -> None:
    texts, groups = corpus
    cfg = _cfg(max_steps=20, save_steps=10, logging_steps=5,
               adversary=AdversaryConfig(attribute="g", lambda_=1.0, learning_rate=1e-2, normalize=True))
    full = pretrain(texts, tiny_base, tmp_path / "full", cfg, attributes=groups)
    with pytest.raises(KeyboardInterrupt):
        pretrain(texts, tiny_base, tmp_path / "cut", cfg, attributes=groups, callbacks=[_Crash(13)])
    assert not (tmp_path / "cut" / "model").exists()
    resumed = pretrain(texts, tiny_base, tmp_path / "cut", cfg, attributes=groups, resume=True)
    assert resumed.info["resumed_from"].endswith("checkpoint-10") and resumed.info["steps"] == 20
    a = full.history.set_index("step")
    b = resumed.history.set_index("step")
    assert list(b.index) == [1, 5, 10, 15, 20]  # the curve before the interruption is kept
    np.testing.assert_allclose(b.loc[[15, 20], "loss"], a.loc[[15, 20], "loss"], rtol=1e-4)
    wa = transformers.AutoModelForMaskedLM.from_pretrained(full.model_dir).state_dict()
    wb = transformers.AutoModelForMaskedLM.from_pretrained(resumed.model_dir).state_dict()
    for k in wa:
        torch.testing.assert_close(wa[k], wb[k], rtol=1e-4, atol=1e-5)
    adv_a = torch.load(tmp_path / "full" / "adversary.pt")
    adv_b = torch.load(tmp_path / "cut" / "adversary.pt")
    for k in adv_a:
        torch.testing.assert_close(adv_a[k], adv_b[k], rtol=1e-4, atol=1e-5)


@pytest.mark.slow
def test_adversarial_head_makes_the_attribute_less_recoverable(tmp_path: Path) -> None:
    """Over three seeds (notes, model init, training): a fresh logistic probe on the final [CLS] recovers the
    planted attribute less well after adversarial pretraining (λ = 1) than after plain pretraining (λ = 0)."""
    rows = []
    for seed in (0, 1, 2):
        texts, groups = synthetic_notes(240, 100 + seed)
        base = build_tiny_mlm(texts, tmp_path / f"base{seed}", seed=seed)
        tr, te = slice(0, 160), slice(160, None)
        aucs = {}
        for name, lam in (("baseline", 0.0), ("debiased", 1.0)):
            cfg = _cfg(max_steps=100, save_steps=1000, seed=seed,
                       adversary=AdversaryConfig(attribute="g", lambda_=lam, learning_rate=1e-2, normalize=True))
            res = pretrain(texts, base, tmp_path / f"{name}{seed}", cfg, attributes=groups)
            X = cls_embeddings(res.model_dir, texts)
            aucs[name] = attribute_recovery_auc(X[tr], groups[tr], X[te], groups[te], seed=seed)
            aucs[name + "_adv_loss"] = float(res.history["adversary_loss"].iloc[-3:].mean())
        rows.append(aucs)
    df = pd.DataFrame(rows)
    print(df)
    assert (df["debiased"] < df["baseline"]).all(), df
    assert (df["baseline"] - df["debiased"]).mean() > 0.05, df
    # the discriminator learns without reversal (CE below chance) and is fooled with it (CE near ln 2)
    assert (df["baseline_adv_loss"] < df["debiased_adv_loss"]).all(), df


def test_two_phase_schedule_in_one_config(corpus, tiny_base: Path, tmp_path: Path) -> None:
    """Issue 28 item 7: P4's 128-then-512 schedule as one config: phase 2 continues from phase 1's weights."""
    from clinaudit.families.hurtful_words.pretrain import PretrainPhase

    texts = corpus[0][:48]
    cfg = PretrainConfig(batch_size=8, device="cpu", phases=[PretrainPhase(max_length=16, max_steps=2),
                                                             PretrainPhase(max_length=48, max_steps=1)])
    res = pretrain(texts, tiny_base, tmp_path / "run", cfg)
    info = json.loads((tmp_path / "run" / "pretrain.json").read_text())["info"]
    p1, p2 = info["phases"]
    assert (p1["max_length"], p1["steps"], p2["max_length"], p2["steps"]) == (16, 2, 48, 1) and info["steps"] == 3
    assert p1["sequences"] > p2["sequences"]  # shorter sequences: the same notes cut into more chunks
    assert json.loads((tmp_path / "run" / "phase_2" / "pretrain.json").read_text())["info"]["base"] == \
        str(tmp_path / "run" / "phase_1" / "model")
    assert (res.model_dir / "config.json").is_file() and set(res.history["phase"]) == {1, 2}
    # resume: finished phases are kept, nothing is retrained
    again = pretrain(texts, tiny_base, tmp_path / "run", cfg, resume=True)
    assert again.info["phases"] == info["phases"]


def test_pretrain_cli_tiny_model(corpus, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``clinaudit pretrain --model tiny`` with the adversarial head, on a notes CSV; a few steps."""
    from clinaudit.cli.main import main

    texts, groups = corpus
    notes = tmp_path / "notes.csv"
    pd.DataFrame({"text": texts[:64], "gender": groups[:64], "split": ["train"] * 60 + ["test"] * 4}).to_csv(
        notes, index=False)
    out = tmp_path / "run"
    assert main(["pretrain", "--notes", str(notes), "--model", "tiny", "--out", str(out), "--max-steps", "2",
                 "--batch-size", "8", "--max-length", "48", "--split-column", "split", "--adversary-attribute",
                 "gender", "--adversary-normalize", "--no-progress", "--device", "cpu"]) == 0
    from clinaudit.models.hf_runtime import dir_fingerprint

    first = dir_fingerprint(out / "model")
    info = json.loads((out / "pretrain.json").read_text())
    assert info["info"]["steps"] == 2 and info["info"]["texts"] == 60
    assert info["config"]["adversary"]["lambda"] == 1.0 and info["info"]["attribute_values"] == ["F", "M"]
    assert (out / "adversary.pt").is_file() and (out / "model" / "config.json").is_file()
    # retrained into the same folder with another seed: same file sizes, but a new cache identity
    assert main(["pretrain", "--notes", str(notes), "--model", str(out / "model"), "--out", str(out),
                 "--max-steps", "2", "--batch-size", "8", "--max-length", "48", "--seed", "1", "--no-progress",
                 "--device", "cpu"]) == 0
    assert dir_fingerprint(out / "model") != first
    assert main(["pretrain", "--notes", str(notes), "--model", "tiny", "--out", str(tmp_path / "x"),
                 "--adversary-attribute", "sex"]) != 0
    assert "field 'sex': column 'sex' not found" in capsys.readouterr().err


@pytest.mark.slow
def test_full_finetuning_option_learns_a_planted_label(corpus, tiny_base: Path) -> None:
    """finetune_task: the whole encoder + a classification head; label = the planted group of each 'stay'."""
    from sklearn.metrics import roc_auc_score

    from clinaudit.families.hurtful_words.finetune import finetune_task

    texts, groups = corpus
    n = 120
    windows = [[texts[i], texts[(i + n) % len(texts)] if groups[(i + n) % len(texts)] == groups[i] else texts[i]]
               for i in range(n)]
    y = [int(g == "F") for g in groups[:n]]
    split = ["train"] * 80 + ["valid"] * 20 + ["test"] * 20
    scores, info = finetune_task(str(tiny_base), windows, y, split, epochs=3, learning_rate=1e-3, batch_size=16,
                                 max_length=48, seed=0)
    assert scores.shape == (n,) and ((scores >= 0) & (scores <= 1)).all()
    assert info["c"] in (0.5, 1.0, 2.0, 4.0, 8.0) and info["train_windows"] == 160
    # held-out stays (validation + test, 40): chance is 0.5. (While build_tiny_mlm's vocabulary came from the
    # tokenizers trainer, which breaks frequency ties in hash order, the tiny model and this AUC varied between
    # runs: 0.76 to 0.93 seen. The bar stays 'learned the planted label', not a fixed high AUC.)
    assert roc_auc_score(y[80:], scores[80:]) > 0.6
