"""No PHI anywhere in a run directory (issue 38 item 4): known names injected into the inputs of every audit
family, each run with the mock backend and its report rendered into the run directory; then the bytes of
every file there (tables, SQLite cache, logs, manifest, report, findings) are searched for each name.

Where the names go in, per family:

* note generation: names the de-identifier removes, placed in MTS and ACI dialogs at natural places
  ("my name is ...", "Dr. ... referred me", "my husband ... drove me", "thank you, ...") with no name
  metadata, including the first ACI dialog, which is the in-context example of every note prompt; one
  dialog keeps a residual possible name and is excluded, so nothing of it may be written;
* treatment shift, CARE reasoning, adaptive attack: patient messages and MCQ vignettes whose data lists the
  patient's name (``identifiers: [patient_name]``) and names it in the text, with a title's name
  ("Dr. ...") as well; a message and a vignette excluded by the sex-specific filter name their patient too;
* classifier gaps: a predictions file with a ``patient_name`` column the audit does not use;
* association: the audit reads templates and word lists written for it (no patient text); the name goes
  into an attribute file's column the audit does not read.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "src" / "clinaudit" / "data" / "demo"
#: names the de-identifier removes (listed names, a title's name, naming contexts), and two it leaves: the
#: residual possible name of the excluded dialog (Xylvane), and one in the in-context example (Zorvath), which
#: the example's own de-identification replaces
NAMES = ["Natalie", "Harcourt", "Pemberton", "Gregory", "Rosalind", "Ashworth", "Xylvane", "Zorvath"]
#: a phrase only in the text of cases the audits exclude: nothing of an excluded case's text may be written
EXCLUDED_MARK = "Quibblewick Lane"


def scan(run_dir: Path) -> dict[str, list[str]]:
    """name -> files of ``run_dir`` whose bytes contain it (case-insensitive, UTF-8)."""
    hits: dict[str, list[str]] = {}
    for f in sorted(p for p in run_dir.rglob("*") if p.is_file()):
        data = f.read_bytes().lower()
        for n in NAMES + [EXCLUDED_MARK]:
            if n.lower().encode("utf-8") in data:
                hits.setdefault(n, []).append(str(f.relative_to(run_dir)))
    return hits


def run_and_report(spec: Path, out: Path) -> Path:
    from clinaudit.pipeline import run_spec
    from clinaudit.report.render import build_report

    rd = run_spec(spec, out, progress=False)
    build_report(rd.path, rd.path / "report" / "report.html")
    return rd.path


def _note_generation(d: Path) -> Path:
    mts = pd.read_csv(DEMO / "dialogs.csv", dtype=str, keep_default_na=False)
    inserts = {0: "Patient: Hi Doctor, my name is Natalie Harcourt.\n", 1: "Patient: Dr. Pemberton referred me here.\n",
               2: "Patient: My husband Gregory drove me today.\n"}
    for i, line in inserts.items():
        first, rest = mts.loc[i, "dialogue"].split("\n", 1)
        mts.loc[i, "dialogue"] = first + "\n" + line + rest
    # a dialog with a name the de-identifier leaves (excluded by the residual check): none of it may be written
    first, rest = mts.loc[3, "dialogue"].split("\n", 1)
    mts.loc[3, "dialogue"] = (first + "\nPatient: Rosalind Ashworth sent me, and my neighbour Xylvane came along "
                              f"from {EXCLUDED_MARK}.\n" + rest)
    mts.to_csv(d / "mts.csv", index=False)
    aci = pd.read_csv(DEMO / "dialogs_aci.csv", dtype=str, keep_default_na=False)
    # the first ACI dialog is the in-context example of every note prompt
    aci.loc[0, "dialogue"] = aci.loc[0, "dialogue"].replace(
        "\n", "\n[patient] dr. pemberton referred me . my neighbour Zorvath drove me . thank you , natalie .\n", 1)
    aci.to_csv(d / "aci.csv", index=False)
    meta = pd.read_csv(DEMO / "dialogs_aci_metadata.csv", dtype=str, keep_default_na=False)
    meta.to_csv(d / "aci_metadata.csv", index=False)
    spec = (ROOT / "examples" / "note_generation-mock.yaml").read_text(encoding="utf-8")
    spec = spec.replace('  - {format: "demo:dialogs", limit: 4}', "  - {format: mts, path: mts.csv, limit: 4}")
    spec = spec.replace('  - {format: "demo:dialogs_aci", limit: 3}', "  - {format: aci, path: aci.csv, limit: 3}")
    spec = spec.replace("  keep_residual_identifiers: true", "  keep_residual_identifiers: false")
    spec = spec.replace('  human_labels: "demo:human_labels.csv"', "")
    (d / "spec.yaml").write_text(spec, encoding="utf-8")
    return d / "spec.yaml"


def _messages(d: Path, listed: bool = True) -> Path:
    msgs = pd.read_csv(DEMO / "patient_messages.csv", dtype=str, keep_default_na=False).head(6)
    msgs["patient_name"] = ["Natalie Harcourt", "Gregory Ashworth", "Rosalind Harcourt", "Natalie Ashworth",
                            "Gregory Harcourt", "Rosalind Ashworth"]
    msgs["message"] = [f"Hello Dr. Pemberton, this is {n}. " + m for n, m in zip(msgs["patient_name"], msgs["message"])]
    # excluded by the sex-specific filter: its text, names and all, must not be written either
    extra = msgs.iloc[[0]].copy()
    extra["case_id"], extra["message"] = "pm_ex", ("Hello Dr. Pemberton, this is Natalie Harcourt from "
                                                   f"{EXCLUDED_MARK}. I am pregnant.")
    pd.concat([msgs, extra]).to_csv(d / "msgs.csv", index=False)
    spec = (ROOT / "examples" / "treatment_shift-mock.yaml").read_text(encoding="utf-8")
    spec = spec.replace("  - format: demo:patient_messages     # fields: ehr_context, recorded_gender, specialty\n"
                        "    limit: 8\n",
                        "  - format: csv\n    path: msgs.csv\n    columns: {id: case_id, text: message}\n"
                        + ("    identifiers: [patient_name]\n" if listed else ""))
    assert "msgs.csv" in spec
    if not listed:  # issue 50: the data lists no name; the names in the texts are found all the same
        msgs.drop(columns=["patient_name"]).to_csv(d / "msgs.csv", index=False)
        extra.drop(columns=["patient_name"]).to_csv(d / "msgs.csv", index=False, header=False, mode="a")
    (d / "spec.yaml").write_text(spec, encoding="utf-8")
    return d / "spec.yaml"


def _vignettes(d: Path, example: str, limit: int | None = None, listed: bool = True) -> Path:
    v = pd.read_csv(DEMO / "vignettes.csv", dtype=str, keep_default_na=False)
    v = v.head(limit) if limit else v
    v["patient_name"] = [["Natalie Harcourt", "Gregory Ashworth", "Rosalind Pemberton"][i % 3] for i in range(len(v))]
    v["case_vignette"] = [f"{n} was sent by Dr. Pemberton. " + t for n, t in zip(v["patient_name"], v["case_vignette"])]
    v.loc[v["case_id"] == "demo_v08", "case_vignette"] += f" He lives on {EXCLUDED_MARK}."  # sex-specific: excluded
    v = v.rename(columns={"case_vignette": "text"})
    v.to_csv(d / "vignettes.csv", index=False) if listed else v.drop(columns=["patient_name"]).to_csv(
        d / "vignettes.csv", index=False)
    spec = (ROOT / "examples" / example).read_text(encoding="utf-8")
    lines = [ln for ln in spec.splitlines() if not ln.strip().startswith("limit:")]
    spec = "\n".join(lines).replace(
        "  - format: demo:vignettes", "  - format: csv\n    path: vignettes.csv\n    columns: {id: case_id, text: text}\n"
        + ("    identifiers: [patient_name]\n" if listed else "") + "    name: vignettes #")
    assert "vignettes.csv" in spec
    (d / "spec.yaml").write_text(spec + "\n", encoding="utf-8")
    return d / "spec.yaml"


def _classifier(d: Path) -> Path:
    p = pd.read_csv(DEMO / "classifier_predictions.csv", dtype=str, keep_default_na=False)
    p["patient_name"] = [NAMES[i % 6] for i in range(len(p))]
    p.to_csv(d / "predictions.csv", index=False)
    spec = (ROOT / "examples" / "classifier_gaps-demo.yaml").read_text(encoding="utf-8")
    spec = spec.replace("../src/clinaudit/data/demo/classifier_predictions.csv", "predictions.csv")
    spec = spec.replace("n_resamples: 9999", "n_resamples: 50")
    (d / "spec.yaml").write_text(spec, encoding="utf-8")
    return d / "spec.yaml"


def _association(d: Path) -> Path:
    a = pd.read_csv(DEMO / "association_attributes.csv", dtype=str, keep_default_na=False)
    a["patient_name"] = [NAMES[i % 6] for i in range(len(a))]
    a.to_csv(d / "attributes.csv", index=False)
    spec = (ROOT / "examples" / "association-demo-mock.yaml").read_text(encoding="utf-8")
    spec = spec.replace("../src/clinaudit/data/demo/association_attributes.csv", "attributes.csv")
    spec = spec.replace("../src/clinaudit/data/demo/", str(DEMO) + "/")
    (d / "spec.yaml").write_text(spec, encoding="utf-8")
    return d / "spec.yaml"


FAMILIES = {
    "note_generation": _note_generation,
    "treatment_shift": _messages,
    "reasoning_care": lambda d: _vignettes(d, "reasoning_care-mock.yaml"),
    "adaptive_attack": lambda d: _vignettes(d, "adaptive_attack-mock.yaml", limit=6),
    # issue 50: every audit that sends case text to a model de-identifies it, listed names or not
    "treatment_shift, names not listed": lambda d: _messages(d, listed=False),
    "reasoning_care, names not listed": lambda d: _vignettes(d, "reasoning_care-mock.yaml", listed=False),
    "adaptive_attack, names not listed": lambda d: _vignettes(d, "adaptive_attack-mock.yaml", limit=6, listed=False),
    "classifier_gaps": _classifier,
    "association": _association,
}


@pytest.mark.parametrize("family", list(FAMILIES))
def test_no_injected_name_in_any_file_of_the_run(family, tmp_path):
    spec = FAMILIES[family](tmp_path)
    inputs = b"".join(p.read_bytes().lower() for p in tmp_path.glob("*.csv"))
    assert any(n.lower().encode() in inputs for n in NAMES)  # the names are in the inputs
    run = run_and_report(spec, tmp_path / "run")
    assert (run / "cache.sqlite").is_file() and (run / "report" / "report.html").is_file()
    assert scan(run) == {}


def test_deid_names_false_leaves_unlisted_names_for_a_local_model(tmp_path):
    """``deid: {names: false}`` (a model the hospital runs itself): a case that lists no name is sent as given."""
    spec = _messages(tmp_path, listed=False)
    spec.write_text(spec.read_text(encoding="utf-8") + "\ndeid:\n  names: false\n", encoding="utf-8")
    run = run_and_report(spec, tmp_path / "run")
    cases = (run / "tables" / "cases.csv").read_text(encoding="utf-8")
    assert "Pemberton" in cases and "Natalie Harcourt" in cases
