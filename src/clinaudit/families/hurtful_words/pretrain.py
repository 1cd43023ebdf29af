"""Continued masked-LM pretraining of a clinical encoder (P4 §3.3, §4.4, Fig. 3).

What P4 did to SciBERT on the MIMIC-III notes, on any local masked LM directory:

* **PHI placeholders** — MIMIC's de-identification spans (``[**2126-9-19**]``,
  ``[**First Name (Titles) 123**]``, ``[**Hospital1 18**]``...) are replaced by one
  special token per identifier type (:data:`PHI_TOKENS`, :func:`replace_phi`), added to
  the tokenizer as never-split special tokens (the embedding matrix grows to match);
* **whole-word masking** — transformers' ``DataCollatorForLanguageModeling(whole_word_mask=True)``
  masks every word piece of a chosen word (15 % of words by default; transformers replaces
  every chosen word by ``[MASK]`` under whole-word masking, it has no 80/10/10 split there);
* **adversarial debiasing during pretraining** (optional, :mod:`.adversarial`) — a
  discriminator predicts the protected attribute of each sequence from the last layer's
  ``[CLS]`` vector through a gradient-reversal layer (strength λ), so the encoder is pushed
  to make the attribute unrecoverable while it learns the MLM task.

Training is transformers' ``Trainer`` (AdamW, linear warm-up/decay, checkpoints every
``save_steps`` into ``OUT/checkpoints/``, resumable with ``resume=True``), on a GPU when
one is present. The run directory holds ``model/`` (the pretrained encoder and its
tokenizer, loadable as ``hf-mlm:OUT/model`` or ``hf-embed:OUT/model``), ``loss.csv`` and
``loss.png`` (training curves), ``progress.json`` (updated at every log step) and
``pretrain.json`` (the configuration and the summary).

:func:`build_tiny_mlm` makes a small randomly initialised BERT whose WordPiece vocabulary is
BERT's uncased one cut down to the pieces the given texts use (offline, seconds; the same
model in every process for the same texts and seed): the base model of the tests and of the
synthetic example spec.
"""

from __future__ import annotations

import json
import logging
import math
import re
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import numpy as np
import pandas as pd

from ...errors import InputError
from .params import AdversaryConfig, PretrainConfig, PretrainPhase  # the spec parameters of pretraining
from ...atomic import write_text

__all__ = [
    "PHI_TOKENS",
    "phi_type",
    "replace_phi",
    "AdversaryConfig",
    "PretrainConfig",
    "PretrainPhase",
    "PretrainResult",
    "build_tiny_mlm",
    "has_checkpoint",
    "tiny_vocab",
    "wordpiece_tokenizer",
    "load_mlm",
    "encode_texts",
    "WholeWordCollator",
    "pretrain",
    "cpu_threads",
    "resolve_device",
    "mlm_loss",
    "cls_embeddings",
]

log = logging.getLogger("clinaudit.pretrain")

#: Identifier type -> the special token that replaces every MIMIC de-id span of that type.
PHI_TOKENS: dict[str, str] = {
    "date": "[PHI_DATE]", "name": "[PHI_NAME]", "hospital": "[PHI_HOSPITAL]", "location": "[PHI_LOCATION]",
    "contact": "[PHI_CONTACT]", "id": "[PHI_ID]", "age": "[PHI_AGE]", "other": "[PHI_OTHER]",
}
_PHI_SPAN = re.compile(r"\[\*\*(.*?)\*\*\]", re.S)
_DATE_SHAPES = re.compile(r"^(\d{4}-\d{1,2}(-\d{1,2})?|\d{1,2}-\d{1,2}(-\d{2,4})?|\d{1,2}/\d{1,2}(/\d{2,4})?|\d{4})$")
_TYPE_WORDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("age", ("age over",)),
    ("date", ("date", "month", "year", "holiday", "day")),
    ("contact", ("telephone", "fax", "e-mail", "email", "url", "pager", "phone")),
    ("name", ("name", "initial")),
    ("hospital", ("hospital", "university", "college", "company", "ward")),
    ("location", ("location", "address", "street", "state", "country", "zip", "apartment", "po box")),
    ("id", ("number", "record", "ssn", "serial", "job", "provider", "identifier", "unit no", "clip")),
)


def phi_type(inner: str) -> str:
    """The identifier type of a de-id span's inside (``"2126-9-19"`` → ``date``, ``"First Name3 (LF) 1"`` → ``name``)."""
    s = inner.strip().lower()
    if _DATE_SHAPES.match(s):
        return "date"
    for kind, words in _TYPE_WORDS:
        if any(w in s for w in words):
            return kind
    return "other"


def replace_phi(text: str) -> str:
    """Replace every ``[** ... **]`` span by its type's special token (:data:`PHI_TOKENS`), spaced as a word."""
    return _PHI_SPAN.sub(lambda m: f" {PHI_TOKENS[phi_type(m.group(1))]} ", text)


@dataclass
class PretrainResult:
    """Where the pretrained encoder is and how training went."""

    out: Path
    model_dir: Path
    history: pd.DataFrame
    info: dict[str, Any] = field(default_factory=dict)


def _torch() -> Any:
    from .adversarial import require_torch

    return require_torch()


def _tokenizer_class() -> Any:
    import transformers

    return getattr(transformers, "BertTokenizerFast", None) or transformers.BertTokenizer


def tiny_vocab(texts: Sequence[str], vocab_size: int, specials: Sequence[str]) -> dict[str, int]:
    """The tiny model's WordPiece vocabulary (token -> id), the same in every process.

    BERT's uncased vocabulary (the one the embedded all-MiniLM-L6-v2 ships), cut down to what ``texts`` use:
    the ``specials`` first, then every single character of the texts in both forms (``x`` and ``##x``, where
    BERT has them: any word can still be spelled when the cut drops its longer pieces), then the pieces BERT
    splits the texts into, most frequent first (ties in BERT's order), ``vocab_size`` tokens in all at most (more
    only if the specials and characters alone exceed it). On the texts, with nothing cut, it splits every word
    as BERT does. (tokenizers' WordPieceTrainer breaks frequency ties in hash order, which differs between
    processes: another vocabulary, and another model, in every run.)"""
    from collections import Counter

    from tokenizers import Tokenizer

    from ...models.embedded import locate_embedder

    bert = Tokenizer.from_file(str(locate_embedder() / "tokenizer.json"))
    bert.no_truncation()
    bert.no_padding()
    base = bert.get_vocab_size(with_added_tokens=False)
    bert.add_special_tokens(list(specials))  # PHI tokens stay whole, as in the tiny model's tokenizer
    counts: Counter[int] = Counter()
    chars: set[str] = set()
    for start in range(0, len(texts), 1024):  # a block at a time: memory flat in the size of the corpus
        block = list(texts[start : start + 1024])
        for text, enc in zip(block, bert.encode_batch(block, add_special_tokens=False)):
            counts.update(enc.ids)
            chars.update(bert.normalizer.normalize_str(text))
    for i in [i for i in counts if i >= base]:  # the specials added above (the PHI tokens)
        del counts[i]
    char_ids = sorted({tid for c in chars if not c.isspace() for t in (c, "##" + c)
                       if (tid := bert.token_to_id(t)) is not None and tid < base})
    vocab: dict[str, int] = {}
    for token in (*specials, *(bert.id_to_token(i) for i in char_ids)):
        if token is not None:  # every id below the base vocabulary has a token
            vocab.setdefault(token, len(vocab))
    for i in sorted(counts, key=lambda i: (-counts[i], i)):
        if len(vocab) >= vocab_size:
            break
        if (token := bert.id_to_token(i)) is not None:
            vocab.setdefault(token, len(vocab))
    return vocab


def wordpiece_tokenizer(vocab: dict[str, int], specials: Sequence[str]) -> Any:
    """A BERT-style (uncased) WordPiece ``tokenizers.Tokenizer`` over ``vocab``, ``specials`` kept whole."""
    from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers

    tok = Tokenizer(models.WordPiece(vocab=vocab, unk_token="[UNK]"))
    tok.normalizer = normalizers.BertNormalizer(lowercase=True)
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tok.decoder = decoders.WordPiece()
    tok.add_special_tokens(list(specials))
    return tok


def build_tiny_mlm(texts: Sequence[str], out: str | Path, *, vocab_size: int = 600, hidden: int = 32,
                   layers: int = 2, heads: int = 2, intermediate: int = 64, max_position: int = 256,
                   dropout: float = 0.0, initializer_range: float = 0.2, seed: int = 0) -> Path:
    """A randomly initialised ``BertForMaskedLM`` with a WordPiece tokenizer made for ``texts`` (:func:`tiny_vocab`;
    no download): the same model for the same texts and seed in every process.

    No dropout and a wide initialisation by default: a few hundred steps of a tiny model then
    give [CLS] vectors that differ between texts by more than dropout noise (with BERT's 0.02
    and 0.1 they barely differ, and no adversary can learn from them).
    """
    torch = _torch()
    import transformers

    specials = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *PHI_TOKENS.values()]
    tok = wordpiece_tokenizer(tiny_vocab([replace_phi(t) for t in texts], vocab_size, specials), specials)
    fast = _tokenizer_class()(tokenizer_object=tok, unk_token="[UNK]", pad_token="[PAD]", cls_token="[CLS]",
                              sep_token="[SEP]", mask_token="[MASK]", do_lower_case=True,
                              additional_special_tokens=list(PHI_TOKENS.values()))
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    cfg = transformers.BertConfig(vocab_size=len(fast), hidden_size=hidden, num_hidden_layers=layers,
                                  num_attention_heads=heads, intermediate_size=intermediate,
                                  max_position_embeddings=max_position, hidden_dropout_prob=dropout,
                                  attention_probs_dropout_prob=dropout, initializer_range=initializer_range)
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        transformers.BertForMaskedLM(cfg).save_pretrained(out)
    fast.save_pretrained(out)
    return out


def load_mlm(path: str | Path, *, add_phi_tokens: bool = True) -> tuple[Any, Any]:
    """``(model, tokenizer)`` of a local masked LM; the PHI tokens are added (embeddings resized) when missing."""
    import transformers

    p = Path(path)
    if not p.is_dir():
        raise InputError("not a local model directory (pretraining never downloads)", file=str(p))
    try:
        tok = transformers.AutoTokenizer.from_pretrained(p, local_files_only=True)
        model = transformers.AutoModelForMaskedLM.from_pretrained(p, local_files_only=True)
    except (OSError, ValueError) as exc:
        raise InputError(f"cannot load a masked LM from this folder: {exc}", file=str(p)) from None
    if not getattr(tok, "is_fast", False):
        raise InputError("whole-word masking needs a fast tokenizer (tokenizer.json)", file=str(p))
    if add_phi_tokens:
        missing = [t for t in PHI_TOKENS.values() if t not in tok.get_vocab()]
        if missing:
            tok.add_special_tokens({"additional_special_tokens": missing})
            model.resize_token_embeddings(len(tok), mean_resizing=False)
    return model, tok


def encode_texts(tok: Any, texts: Sequence[str], attributes: Sequence[int] | None, max_length: int,
                 phi: bool = True) -> list[dict[str, Any]]:
    """Tokenise texts into sequences of at most ``max_length`` tokens (long texts → several), with offsets."""
    out: list[dict[str, Any]] = []
    clean = [replace_phi(t) if phi else t for t in texts]
    enc = tok(clean, truncation=True, max_length=max_length, return_overflowing_tokens=True,
              return_special_tokens_mask=True, return_offsets_mapping=True)
    owners = enc["overflow_to_sample_mapping"]
    for k, owner in enumerate(owners):
        row = {"index": k, "input_ids": enc["input_ids"][k], "attention_mask": enc["attention_mask"][k],
               "special_tokens_mask": enc["special_tokens_mask"][k], "offset_mapping": enc["offset_mapping"][k]}
        if attributes is not None:
            row["attribute"] = int(attributes[owner])
        out.append(row)
    return out


class WholeWordCollator:
    """Pads a batch (offsets included) and masks it with transformers' whole-word masking; passes ``attribute``.

    With a ``seed``, a batch's masks are a function of (seed, :attr:`epoch`, the batch's
    sequence indices) only — not of a random state that runs on — so a run resumed from a
    checkpoint masks exactly as the uninterrupted run (the trainer sets :attr:`epoch`).
    Without one, masks come from torch's global generator.
    """

    def __init__(self, tok: Any, mlm_probability: float = 0.15, whole_word_mask: bool = True, seed: int | None = None):
        self.seed = seed
        self.epoch = 0
        import warnings

        from transformers import DataCollatorForLanguageModeling

        with warnings.catch_warnings():  # "random token replacement is not supported with whole word masking"
            warnings.simplefilter("ignore", UserWarning)
            self.base = DataCollatorForLanguageModeling(tok, mlm=True, whole_word_mask=whole_word_mask,
                                                        mlm_probability=mlm_probability, seed=seed)
        self.tok = tok
        self.whole_word_mask = whole_word_mask

    def __call__(self, features: list[dict[str, Any]]) -> dict[str, Any]:
        torch = _torch()
        width = max(len(f["input_ids"]) for f in features)
        pad = self.tok.pad_token_id
        ids = torch.full((len(features), width), pad, dtype=torch.long)
        att = torch.zeros((len(features), width), dtype=torch.long)
        special = torch.ones((len(features), width), dtype=torch.long)
        offsets = torch.zeros((len(features), width, 2), dtype=torch.long)
        for i, f in enumerate(features):
            n = len(f["input_ids"])
            ids[i, :n] = torch.as_tensor(f["input_ids"])
            att[i, :n] = torch.as_tensor(f["attention_mask"])
            special[i, :n] = torch.as_tensor(f["special_tokens_mask"])
            offsets[i, :n] = torch.as_tensor(f["offset_mapping"]).reshape(n, 2)
        if self.seed is not None:
            from ...records import stable_hash

            key = stable_hash("mlm-mask", int(self.seed), int(self.epoch),
                              ",".join(str(f.get("index", i)) for i, f in enumerate(features)), length=15)
            self.base.generator = torch.Generator().manual_seed(int(key, 16))
        inputs, labels = self.base.torch_mask_tokens(ids, special_tokens_mask=special,
                                                     offset_mapping=offsets if self.whole_word_mask else None)
        batch = {"input_ids": inputs, "attention_mask": att, "labels": labels}
        if "attribute" in features[0]:
            batch["attribute"] = torch.as_tensor([int(f["attribute"]) for f in features], dtype=torch.long)
        return batch


def resolve_device(name: str) -> str:
    """``auto`` → ``cuda`` when a GPU is visible, else ``cpu``; ``cuda`` without a GPU is an error."""
    torch = _torch()
    if name == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    if name == "cuda" and not torch.cuda.is_available():
        raise InputError("device 'cuda' asked for but no GPU is visible", field="device")
    return name


def _attribute_codes(attributes: Sequence[Any] | None) -> tuple[list[int] | None, list[str]]:
    if attributes is None:
        return None, []
    vals = [None if v is None or (isinstance(v, float) and math.isnan(v)) or not str(v).strip() else str(v).strip()
            for v in attributes]
    values = sorted({v for v in vals if v is not None})
    index = {v: i for i, v in enumerate(values)}
    return [index[v] if v is not None else -1 for v in vals], values


def has_checkpoint(folder: Path) -> bool:
    """Whether ``folder`` holds a Trainer checkpoint (``checkpoint-N/``) to resume from."""
    return folder.is_dir() and any(p.is_dir() and p.name.startswith("checkpoint-") for p in folder.iterdir())


def pretrain(texts: Sequence[str], base: str | Path, out: str | Path, config: PretrainConfig | None = None, *,
             attributes: Sequence[Any] | None = None, resume: bool = False, callbacks: Sequence[Any] = (),
             progress: bool = False) -> PretrainResult:
    """Continue MLM pretraining of the local model ``base`` on ``texts``; write the run directory ``out``.

    ``attributes`` (one value per text; blank = unknown, left out of the adversary's loss)
    is needed when ``config.adversary`` is set. ``resume=True`` continues from the newest
    checkpoint in ``out/checkpoints`` (same texts and config); with no checkpoint there it is refused
    (an :class:`~clinaudit.errors.InputError`), never a silent fresh start.
    """
    from .adversarial import AdversarialTrainer, CurveCallback, attach_adversary, detach_adversary

    cfg = config or PretrainConfig()
    if cfg.phases:
        return _pretrain_phases(texts, base, out, cfg, attributes=attributes, resume=resume, callbacks=callbacks,
                                progress=progress)
    texts = [str(t) for t in texts]
    if not texts:
        raise InputError("no texts to pretrain on", field="texts")
    ckpt_dir = Path(out) / "checkpoints"
    if resume and not has_checkpoint(ckpt_dir):
        raise InputError("--resume: no checkpoint to continue from (none saved yet: a run saves one every "
                         "save_steps steps); run without --resume to start afresh", file=str(ckpt_dir),
                         field="resume")
    if cfg.adversary is not None and attributes is None:
        raise InputError(f"the adversarial head needs the protected attribute '{cfg.adversary.attribute}' per text",
                         field="attributes")
    if attributes is not None and len(attributes) != len(texts):
        raise InputError(f"{len(attributes)} attribute values for {len(texts)} texts", field="attributes")
    codes, values = _attribute_codes(attributes if cfg.adversary is not None else None)
    if cfg.adversary is not None and len(values) < 2:
        raise InputError(f"the protected attribute needs at least two known values, got {values}",
                         field=cfg.adversary.attribute)
    torch = _torch()
    import transformers

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    device = resolve_device(cfg.device)
    transformers.set_seed(cfg.seed)
    model, tok = load_mlm(base)
    if cfg.adversary is not None:
        attach_adversary(model, len(values), cfg.adversary.layers, cfg.adversary.lambda_,
                         cfg.adversary.normalize)
    data = encode_texts(tok, texts, codes, cfg.max_length, cfg.replace_phi)
    args = transformers.TrainingArguments(
        output_dir=str(ckpt_dir), max_steps=cfg.max_steps, per_device_train_batch_size=cfg.batch_size,
        learning_rate=cfg.learning_rate, weight_decay=cfg.weight_decay,
        warmup_steps=int(math.ceil(cfg.warmup_ratio * cfg.max_steps)), lr_scheduler_type="linear",
        logging_steps=cfg.logging_steps, logging_first_step=True, save_steps=cfg.save_steps,
        save_total_limit=cfg.save_total_limit, seed=cfg.seed, report_to="none", disable_tqdm=not progress,
        remove_unused_columns=False, dataloader_num_workers=0, use_cpu=device == "cpu")
    collator = WholeWordCollator(tok, cfg.mlm_probability, cfg.whole_word_mask, seed=cfg.seed)
    curves = CurveCallback(out, collator)
    trainer = AdversarialTrainer(model=model, args=args, train_dataset=data,
                                 adversary_lr=cfg.adversary.learning_rate if cfg.adversary else None,
                                 data_collator=collator, callbacks=[curves, *callbacks])
    last = transformers.trainer_utils.get_last_checkpoint(str(ckpt_dir)) if resume and ckpt_dir.is_dir() else None
    t0 = time.perf_counter()
    log.info("pretrain: %d text(s) -> %d sequence(s), %d step(s) on %s%s%s", len(texts), len(data), cfg.max_steps,
             device, f", adversary on '{cfg.adversary.attribute}' (λ={cfg.adversary.lambda_:g})"
             if cfg.adversary else "", f", resuming from {last}" if last else "")
    with cpu_threads(cfg.cpu_threads if device == "cpu" else None):
        trainer.train(resume_from_checkpoint=last)
    seconds = time.perf_counter() - t0
    history = curves.write(trainer.state.log_history)
    model = cast(Any, trainer.model)  # the masked LM given to the trainer (Trainer types it as a torch Module)
    adversary = detach_adversary(model)
    model_dir = out / "model"
    # which training made these weights, in config.json: the hf backends' cache identity includes
    # config.json, so encoders retrained into the same folder never reuse each other's cached outputs
    from ...records import stable_hash

    model.config.clinaudit_pretrain = stable_hash("pretrain", str(base), cfg.model_dump_json(), len(texts),
                                                  stable_hash("texts", *texts), trainer.state.global_step, length=16)
    model.save_pretrained(model_dir)
    tok.save_pretrained(model_dir)
    if adversary is not None:
        torch.save(adversary.state_dict(), out / "adversary.pt")
    info = {"base": str(base), "texts": len(texts), "sequences": len(data), "steps": int(trainer.state.global_step),
            "device": device, "seconds": round(seconds, 3), "resumed_from": str(last) if last else None,
            "attribute_values": values, "phi_tokens": list(PHI_TOKENS.values()),
            "final_loss": float(history["loss"].dropna().iloc[-1]) if len(history) and history["loss"].notna().any()
            else math.nan}
    write_text(out / "pretrain.json", json.dumps({"config": cfg.model_dump(by_alias=True), "info": info},
                                                indent=2, default=str))
    return PretrainResult(out=out, model_dir=model_dir, history=history, info=info)


@contextmanager
def cpu_threads(n: int | None) -> Iterator[None]:
    """torch's CPU thread count set to ``n`` for the block (None: unchanged)."""
    torch = _torch()
    before = torch.get_num_threads()
    if n:
        torch.set_num_threads(int(n))
    try:
        yield
    finally:
        torch.set_num_threads(before)


def mlm_loss(model_dir: str | Path, texts: Sequence[str], *, max_length: int = 128, mlm_probability: float = 0.15,
             seed: int = 0, batch_size: int = 32, threads: int | None = 1) -> float:
    """Mean masked-token cross-entropy of a model on ``texts`` with seeded (reproducible) whole-word masks."""
    torch = _torch()
    model, tok = load_mlm(model_dir)
    model.eval()
    data = encode_texts(tok, texts, None, max_length)
    collate = WholeWordCollator(tok, mlm_probability, True, seed=seed)
    total, n = 0.0, 0
    with torch.no_grad(), cpu_threads(threads):
        for s in range(0, len(data), batch_size):
            batch = collate(data[s : s + batch_size])
            k = int((batch["labels"] != -100).sum())
            if k == 0:
                continue
            total += float(model(**batch).loss) * k
            n += k
    return total / n if n else math.nan


def cls_embeddings(model_dir: str | Path, texts: Sequence[str], *, max_length: int = 128,
                   batch_size: int = 32, threads: int | None = 1) -> np.ndarray:
    """The last layer's ``[CLS]`` vector of each text (what the adversary of pretraining sees)."""
    torch = _torch()
    model, tok = load_mlm(model_dir)
    model.eval()
    rows = []
    clean = [replace_phi(t) for t in texts]
    with torch.no_grad(), cpu_threads(threads):
        for s in range(0, len(clean), batch_size):
            enc = tok(clean[s : s + batch_size], truncation=True, max_length=max_length, padding=True,
                      return_tensors="pt")
            hs = model(**enc, output_hidden_states=True).hidden_states[-1]
            rows.append(hs[:, 0].numpy().astype(float))
    return np.concatenate(rows, axis=0)


def _pretrain_phases(texts: Sequence[str], base: str | Path, out: str | Path, cfg: PretrainConfig, *,
                     attributes: Sequence[Any] | None, resume: bool, callbacks: Sequence[Any],
                     progress: bool) -> PretrainResult:
    """``cfg.phases`` one after the other: phase k trains in ``out/phase_k`` from phase k−1's model (the first
    from ``base``); the last phase's model is copied to ``out/model``. With ``resume``, a finished phase
    (its ``pretrain.json`` written) is kept and an interrupted one continues from its checkpoint."""
    import shutil

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    current: str | Path = base
    results: list[PretrainResult] = []
    for k, ph in enumerate(cfg.phases or [], start=1):
        sub = cfg.model_copy(update={"phases": None, "max_length": ph.max_length, "max_steps": ph.max_steps,
                                     "batch_size": ph.batch_size or cfg.batch_size})
        folder = out / f"phase_{k}"
        if resume and (folder / "pretrain.json").is_file() and (folder / "model").is_dir():
            done = json.loads((folder / "pretrain.json").read_text(encoding="utf-8"))
            history = pd.read_csv(folder / "loss.csv") if (folder / "loss.csv").is_file() else pd.DataFrame()
            res = PretrainResult(out=folder, model_dir=folder / "model", history=history, info=done["info"])
        else:
            res = pretrain(texts, current, folder, sub, attributes=attributes,
                           resume=resume and has_checkpoint(folder / "checkpoints"), callbacks=callbacks,
                           progress=progress)
        results.append(res)
        current = res.model_dir
    model_dir = out / "model"
    if model_dir.exists():
        shutil.rmtree(model_dir)
    shutil.copytree(results[-1].model_dir, model_dir)
    if (results[-1].out / "adversary.pt").is_file():
        shutil.copyfile(results[-1].out / "adversary.pt", out / "adversary.pt")
    history = pd.concat([r.history.assign(phase=k) for k, r in enumerate(results, start=1) if len(r.history)],
                        ignore_index=True) if any(len(r.history) for r in results) else pd.DataFrame()
    write_text(out / "loss.csv", history.to_csv(index=False), newline="")
    last = results[-1].info
    info = {**last, "base": str(base), "steps": int(sum(r.info["steps"] for r in results)),
            "seconds": round(sum(float(r.info.get("seconds", 0.0)) for r in results), 3),
            "phases": [{"phase": k, "max_length": p.max_length, "max_steps": p.max_steps,
                        "batch_size": p.batch_size or cfg.batch_size, "sequences": r.info["sequences"],
                        "steps": r.info["steps"], "final_loss": r.info["final_loss"]}
                       for k, (p, r) in enumerate(zip(cfg.phases or [], results), start=1)]}
    write_text(out / "pretrain.json", json.dumps({"config": cfg.model_dump(by_alias=True), "info": info},
                                                indent=2, default=str))
    return PretrainResult(out=out, model_dir=model_dir, history=history, info=info)
