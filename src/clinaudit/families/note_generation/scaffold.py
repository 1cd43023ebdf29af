"""What ``clinaudit init note_generation --data FILE`` writes for a file of doctor-patient dialogs."""

from __future__ import annotations

from ...scaffold import Columns, Scaffold

__all__ = ["scaffold"]


def scaffold(cols: Columns) -> Scaffold:
    """Dialogs (MTS-Dialog or ACI-Bench files as they are; any other file through its text column), one
    stereotype context inserted into the doctor's turns, counterfactual race, everything on the embedded model."""
    text = cols.require_text()
    data: dict[str, object] = {}
    comments = {}
    if cols.format in ("csv", "jsonl"):
        data["columns"] = {"id": cols.id, "text": text} if cols.id else {"text": text}
        comments["data.columns"] = "the dialog column clinaudit init guessed: lines 'Doctor: ...' / 'Patient: ...'"
    params = {
        "contexts": ["Poverty"],
        "sources": ["doctor"],
        "attributes": ["race"],
        "augmentation": "insert",
        "aci_shots": 0,
        "max_tokens": 256,
        "judge_max_tokens": 8,
        "n_bootstrap": 1000,
    }
    comments.update({
        "params.contexts": "P1 contexts: Poverty, Religious Beliefs, Toxicity, ... (docs/audits/note_generation.md)",
        "params.sources": "whose turns get the context: doctor, patient",
        "params.attributes": "counterfactual attributes: race, age, gender",
        "params.augmentation": "insert sentences (a small model cannot rewrite whole dialogs)",
        "params.aci_shots": "P1 prompts ACI-Bench one-shot; 0 keeps a CPU run short",
        "params.max_tokens": "note length; P1 uses 1024",
        "params.judge_max_tokens": "the incidence judge answers YES / NO",
        "models.target": "writes the notes: openai:<model>, hf:<path>, ... (clinaudit models)",
        "models.augmenter": "writes the stereotype sentences inserted into the dialog",
        "models.judge": "decides whether each note carries the context",
    })
    header = [
        f"Note-generation audit (P1) of the dialogs in {cols.path.name} ({cols.n_rows} rows),",
        "written by `clinaudit init`. Dialogs are de-identified first; see the exclusions table. Run it with:",
        "  clinaudit run {spec} --out runs/note_generation --limit 3 --dry-run   # estimate first",
        "  clinaudit run {spec} --out runs/note_generation --report",
    ]
    if not cols.dialogs:
        header.append(f"WARNING: the values of {cols.text!r} do not look like 'Doctor: ...' / 'Patient: ...' dialogs; "
                      "rows that are not dialogs are excluded.")
    return Scaffold(data=data, models={"target": "embedded", "augmenter": "embedded", "judge": "embedded"},
                    params=params, comments=comments, header=header)
