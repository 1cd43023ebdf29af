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
    params: dict = {
        # the sex counterfactual (would it answer differently if the patient were a man?) first, then typing style
        "perturbations": ["gender_swap", "gender_removal", *REGEX_PERTURBATIONS],
        "seeds": [0, 1, 42],
        "temperature": 0.7,
        "max_tokens": 128,
        "infer_gender": False,
        "n_resamples": 1000,
    }
    _groups(cols, params, comments)
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
    # power before the run (issue 48): the smallest excess this file's cases would find, at an assumed noise floor
    from .params import QUESTIONS
    from .power_plan import plan_line

    notes.append(plan_line(cols.n_rows, len(params["seeds"]), len(params["perturbations"]) * len(QUESTIONS), None))
    return Scaffold(data={"columns": columns},
                    models={"target": "embedded", "judge": "embedded", "rewrite": "embedded"}, params=params,
                    comments=comments, header=header, notes=notes)


def _groups(cols: Columns, params: dict, comments: dict[str, str]) -> None:
    """The recorded gender's value map (when its values are codes) and the group columns with their reference
    groups (the largest group of the file; an age column's largest band), written into the spec."""
    from ...demographics import propose_gender_map
    from .groups import AGE_COLUMNS, age_band, reference_group

    if cols.gender:
        vmap, unknown, line = propose_gender_map([v for v, _ in cols.values.get(cols.gender, [])])
        if vmap:
            params["value_maps"] = {"gender": vmap}
            comments["params.value_maps"] = f"column {cols.gender!r}: {line.replace('):', '), written here:', 1)}"
        if unknown:
            params["unknown_values"] = {"gender": unknown}
            comments["params.unknown_values"] = "codes that mean the sex is not recorded"
    if not cols.demographics:
        return
    params["group_columns"] = list(cols.demographics)
    comments["params.group_columns"] = ("effect gaps by each of these columns, one row per group against its "
                                        "reference group")
    refs = {}
    for col in cols.demographics:
        vals = cols.values.get(col, [])
        if col.lower() in AGE_COLUMNS and vals and all(_number(v) for v, _ in vals):
            bands = [b for v, n in vals for b in [age_band(v)] * n]
            ref = reference_group(bands)
        else:
            ref = vals[0][0] if vals else None
        if ref is not None:
            refs[col] = ref
    if refs:
        params["reference_groups"] = refs
        comments["params.reference_groups"] = "the largest group of each column in the file: fixed here, before the run"


def _number(v: str) -> bool:
    try:
        float(v)
    except ValueError:
        return False
    return True
