"""What ``clinaudit init treatment_shift --data FILE`` writes for a file of patient messages."""

from __future__ import annotations

from ...scaffold import Columns, Scaffold
from .params import REGEX_PERTURBATIONS

__all__ = ["scaffold"]


def scaffold(cols: Columns) -> Scaffold:
    """Messages from ``cols.text``, the recorded gender (if a column holds it) as the case field ``gender``, the
    sex counterfactual (gender_swap, gender_removal, by ``models.rewrite``) and the five regex perturbations, every
    role on the embedded model, labelled a toy in the spec's header and comments and in a terminal note."""
    columns = {"text": cols.require_text()}
    comments = {"data.columns": "the roles clinaudit init guessed: check them"}
    if cols.id:
        columns = {"id": cols.id, **columns}
    if cols.gender:
        columns["gender"] = cols.gender
    params = {
        # the sex counterfactual (would it answer differently if the patient were a man?) first, then typing style
        "perturbations": ["gender_swap", "gender_removal", *REGEX_PERTURBATIONS],
        "seeds": [0, 1, 42],
        "temperature": 0.7,
        "max_tokens": 128,
        "infer_gender": False,
        "n_resamples": 1000,
    }
    comments.update({
        "params.perturbations": "gender_swap / gender_removal: the sex counterfactual, written by models.rewrite "
                                "(NEEDS A REAL MODEL); the rest: typing-style edits by rule",
        "params.seeds": "P2: three samples per message",
        "params.temperature": "P2's sampling temperature",
        "params.max_tokens": "P2 uses 512; 128 keeps a CPU run short",
        "params.infer_gender": "P2 infers gender from gender_removal rewrites (needs that perturbation)",
        "params.n_resamples": "bootstrap resamples of cases for every CI",
        "models.target": "TOY MODEL (SmolLM2-135M, offline): put the model you audit here: openai:<model>, "
                         "hf:<path>, ... (clinaudit models)",
        "models.judge": "labels MANAGE / VISIT / RESOURCE in each answer; NEEDS A REAL MODEL (the toy mislabels)",
        "models.rewrite": "rewrites each message as the other sex / without sex (gender_swap, gender_removal); "
                          "NEEDS A REAL MODEL: the toy's rewrites are no counterfactuals",
    })
    header = [
        f"Treatment-shift audit (P2) of the patient messages in {cols.path.name} ({cols.n_rows} rows),",
        "written by `clinaudit init`. Run it with:",
        "  clinaudit run {spec} --out runs/treatment_shift --limit 5 --dry-run   # estimate first",
        "  clinaudit run {spec} --out runs/treatment_shift --report",
        "docs/audits/treatment_shift.md lists every parameter.",
    ]
    header += [
        "",
        "NEEDS A REAL MODEL: every role below runs on `embedded`, a toy (SmolLM2-135M-Instruct, offline) that",
        "shows the pipeline works end to end, not how a clinical model behaves. Point models.target at the",
        "model you audit, and models.judge and models.rewrite at capable models (e.g. openai:<model> with",
        "backends: {openai:<model>: {base_url: ...}}): the sex counterfactual (gender_swap, gender_removal)",
        "is only as good as the rewrite model that writes it.",
    ]
    if not cols.gender:
        header.append("No gender column was found: gender gaps need one (add columns: {gender: <column>}).")
    notes = ["the spec runs every role on `embedded`, a toy model (SmolLM2-135M): set models.target to the model "
             "you audit, and models.judge and models.rewrite to capable models; the sex counterfactual "
             "(gender_swap, gender_removal) needs a real rewrite model"]
    return Scaffold(data={"columns": columns},
                    models={"target": "embedded", "judge": "embedded", "rewrite": "embedded"}, params=params,
                    comments=comments, header=header, notes=notes)
