"""The adversarial head of pretraining and the Trainer that runs it (P4 §4.4, Fig. 3).

During continued pretraining (:func:`.pretrain.pretrain`), a **discriminator** reads the
last layer's ``[CLS]`` vector of every sequence through a **gradient-reversal layer**
(:func:`.debias.grad_reverse`: identity forward, gradient × −λ backward) and predicts the
sequence's protected attribute. The loss is ``MLM + CE(discriminator)``: the discriminator
learns to recover the attribute, the encoder receives the reversed gradient and is pushed
to hide it (Ganin & Lempitsky's construction, as in P4's published code).

The discriminator is P4's: ``layers`` fully connected layers, each half as wide as the one
before, ReLU between them (P4: 3 layers on 768 → 384 → 192 → K with λ = 1.0). ``normalize``
(not in P4) standardises its input per batch (``BatchNorm1d`` without affine weights): the
[CLS] vectors of a small, freshly initialised encoder barely vary between texts, and an
unnormalised discriminator cannot learn from them in a few hundred steps. It is
attached to the masked LM as the submodule ``adversary`` for the length of training, so the
``Trainer``'s optimiser, checkpoints and resume cover it, and detached before the encoder
is saved (it is written next to it as ``adversary.pt``).

:class:`AdversarialTrainer` is transformers' ``Trainer`` with ``compute_loss`` adding the
adversary's loss, and its log lines split into ``mlm_loss``, ``adversary_loss`` and
``adversary_accuracy``; :class:`CurveCallback` keeps ``progress.json`` current and writes
``loss.csv`` / ``loss.png`` from the trainer's log history (which survives a resume).
"""

from __future__ import annotations

import json
import math
import time
from pathlib import Path
from typing import Any

import pandas as pd
import transformers

from ...models.hf_runtime import require_torch
from .debias import grad_reverse
from ...atomic import write_text

__all__ = ["require_torch", "Discriminator", "attach_adversary", "detach_adversary", "AdversarialTrainer",
           "CurveCallback"]

torch = require_torch()
_Module: Any = torch.nn.Module  # torch is imported at run time (an optional dependency)


class Discriminator(_Module):
    """P4's discriminator: widths halve at every layer, ReLU between layers, logits over the attribute's values."""

    def __init__(self, width: int, n_values: int, layers: int = 3, normalize: bool = False):
        super().__init__()
        mods: list[Any] = [torch.nn.BatchNorm1d(int(width), affine=False)] if normalize else []
        d = int(width)
        for _ in range(int(layers) - 1):
            nxt = max(2, d // 2)
            mods += [torch.nn.Linear(d, nxt), torch.nn.ReLU()]
            d = nxt
        mods.append(torch.nn.Linear(d, int(n_values)))
        self.net = torch.nn.Sequential(*mods)

    def forward(self, x: Any) -> Any:  # noqa: ANN401
        return self.net(x)


def attach_adversary(model: Any, n_values: int, layers: int, lambda_: float, normalize: bool = False) -> Any:
    """Give ``model`` an ``adversary`` submodule (on its device) and remember λ; returns the discriminator."""
    disc = Discriminator(model.config.hidden_size, n_values, layers, normalize).to(next(model.parameters()).device)
    model.add_module("adversary", disc)
    model.adversary_lambda = float(lambda_)
    return disc


def detach_adversary(model: Any) -> Any:
    """Remove and return the ``adversary`` submodule (None when there is none)."""
    disc = getattr(model, "adversary", None)
    if disc is not None:
        del model.adversary
    return disc


class AdversarialTrainer(transformers.Trainer):
    """``Trainer`` whose loss adds the gradient-reversed discriminator's cross-entropy (when one is attached)."""

    def __init__(self, *args: Any, adversary_lr: float | None = None, **kwargs: Any):
        self.adversary_lr = adversary_lr
        super().__init__(*args, **kwargs)
        self.model_accepts_loss_kwargs = False  # the MLM loss is a mean over masked tokens; Trainer scales as usual
        self._parts: dict[str, list[float]] = {"mlm_loss": [], "adversary_loss": [], "adversary_accuracy": []}

    def create_optimizer(self, model: Any = None) -> Any:
        """Trainer's AdamW; the discriminator's parameters get ``adversary_lr`` when one is given."""
        opt = super().create_optimizer(model) if model is not None else super().create_optimizer()
        adversary = getattr(self.model, "adversary", None)
        if self.adversary_lr is not None and adversary is not None:
            ids = {id(p) for p in adversary.parameters()}
            moved = []
            for group in opt.param_groups:
                keep = [p for p in group["params"] if id(p) not in ids]
                moved += [p for p in group["params"] if id(p) in ids]
                group["params"] = keep
            opt.param_groups[:] = [g for g in opt.param_groups if g["params"]]
            opt.add_param_group({"params": moved, "lr": self.adversary_lr, "weight_decay": 0.0})
        return opt

    def compute_loss(self, model: Any, inputs: dict[str, Any], return_outputs: bool = False,
                     num_items_in_batch: Any = None) -> Any:
        attribute = inputs.pop("attribute", None)
        inner = getattr(model, "module", model)
        adversary = getattr(inner, "adversary", None)
        outputs = model(**inputs, output_hidden_states=adversary is not None)
        loss = outputs.loss
        self._parts["mlm_loss"].append(float(loss.detach()))
        if adversary is not None and attribute is not None:
            known = attribute >= 0
            if bool(known.any()):
                cls = outputs.hidden_states[-1][:, 0][known]
                logits = adversary(grad_reverse(cls, inner.adversary_lambda))
                target = attribute[known]
                adv_loss = torch.nn.functional.cross_entropy(logits, target)
                loss = loss + adv_loss
                self._parts["adversary_loss"].append(float(adv_loss.detach()))
                self._parts["adversary_accuracy"].append(float((logits.argmax(1) == target).float().mean()))
        return (loss, outputs) if return_outputs else loss

    def log(self, logs: dict[str, float], start_time: float | None = None) -> None:
        if "loss" in logs:
            for k, vals in self._parts.items():
                if vals:
                    logs[k] = round(sum(vals) / len(vals), 6)
                vals.clear()
        super().log(logs, start_time)


class CurveCallback(transformers.TrainerCallback):
    """``progress.json`` at every log step; ``loss.csv`` and ``loss.png`` from the log history at the end;
    tells the collator which epoch it masks."""

    COLUMNS = ["step", "epoch", "loss", "mlm_loss", "adversary_loss", "adversary_accuracy", "learning_rate",
               "grad_norm"]

    def __init__(self, out: Path, collator: Any = None):
        self.out = Path(out)
        self.collator = collator
        self.t0 = time.perf_counter()

    def on_epoch_begin(self, args: Any, state: Any, control: Any, **kw: Any) -> None:
        if self.collator is not None:  # masks depend on the epoch, so a resumed run masks as the original did
            self.collator.epoch = int(math.floor((state.epoch or 0.0) + 1e-9))

    def on_log(self, args: Any, state: Any, control: Any, logs: dict[str, Any] | None = None, **kw: Any) -> None:
        info = {"step": int(state.global_step), "max_steps": int(state.max_steps),
                "epoch": float(state.epoch or 0.0), "elapsed_s": round(time.perf_counter() - self.t0, 3),
                "last": {k: v for k, v in (logs or {}).items() if isinstance(v, (int, float))}}
        write_text(self.out / "progress.json", json.dumps(info, indent=2))

    def write(self, log_history: list[dict[str, Any]]) -> pd.DataFrame:
        rows = [r for r in log_history if "loss" in r]
        hist = pd.DataFrame(rows).reindex(columns=self.COLUMNS)
        hist = hist.drop_duplicates("step", keep="last").sort_values("step").reset_index(drop=True)
        write_text(self.out / "loss.csv", hist.to_csv(index=False), newline="")
        self._plot(hist)
        return hist

    def _plot(self, hist: pd.DataFrame) -> None:
        from matplotlib.figure import Figure

        fig = Figure(figsize=(6, 3.2))
        ax = fig.add_subplot(1, 1, 1)
        for col, label in (("loss", "total"), ("mlm_loss", "MLM"), ("adversary_loss", "adversary (CE)")):
            if col in hist and hist[col].notna().any():
                ax.plot(hist["step"], hist[col], marker=".", label=label)
        ax.set_xlabel("step")
        ax.set_ylabel("training loss")
        ax.legend(fontsize=8)
        fig.tight_layout()
        fig.savefig(self.out / "loss.png", dpi=100)
