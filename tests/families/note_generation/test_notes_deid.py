"""Residual identifiers after de-identification (perturb.deid) as the note-generation audit uses them."""

from __future__ import annotations

import pytest

from clinaudit.perturb.deid import (
    DEFAULT_RESIDUAL_KINDS,
    deidentify_text,
    describe_residuals,
    find_residual_identifiers,
    residual_identifiers,
)


def test_gendered_forms_of_address_are_removed_or_reported():
    text = "Doctor: Good afternoon, ma'am. How old are you, Sir?\nPatient: Fine, thank you."
    out, rep = deidentify_text(text)  # removed as titles are (issue 31), recorded as category "address"
    assert out == "Doctor: Good afternoon. How old are you?\nPatient: Fine, thank you."
    assert [(r["kind"], r["old"], r["source"]) for r in rep.removed] == [("address", ", ma'am", "rule"),
                                                                         ("address", ", Sir", "rule")]
    assert [(r["kind"], r["text"]) for r in rep.remaining] == [("age_question", "How old")]
    # without gender neutralisation they stay and are reported
    out, rep = deidentify_text(text, gender=False)
    found = [(r["kind"], r["text"]) for r in rep.remaining]
    assert out == text and ("gendered_term", "ma'am") in found and ("gendered_term", "Sir") in found
    # "sirloin" and "madame" inside other words are not forms of address
    assert [r["kind"] for r in find_residual_identifiers("Patient: I ate sirloin at Madameville.")] == [
        "possible_name"]


def test_residual_selection_kinds_and_allow_list():
    rem = find_residual_identifiers("Doctor: How old are you?\nPatient: I'm fifty, and I take Prozac, sir.")
    assert [r["kind"] for r in rem] == ["age_question", "first_person_age", "possible_name", "gendered_term"]
    # an age question alone is not an identifier by default
    assert "age_question" not in DEFAULT_RESIDUAL_KINDS
    got = residual_identifiers(rem, allow=["PROZAC"])
    assert [(r["kind"], r["text"]) for r in got] == [("first_person_age", "I'm fifty"), ("gendered_term", "sir")]
    assert describe_residuals(got) == "first_person_age \"I'm fifty\"; gendered_term 'sir'"
    assert residual_identifiers(rem, kinds=["age_question"]) == rem[:1]
    with pytest.raises(ValueError, match="unknown residual kind"):
        residual_identifiers(rem, kinds=["zodiac"])


def test_filter_residual_identifiers_splits_and_lists():
    from clinaudit.perturb.deid import filter_residual_identifiers
    from clinaudit.records import Case

    cases = [Case(case_id="a", text="Doctor: Hello.\nPatient: Hi.", dataset="D"),
             Case(case_id="b", text="Doctor: Hello, sir.\nPatient: Hi.", dataset="D")]
    res, rows = filter_residual_identifiers(cases, deidentified=False)
    assert [c.case_id for c in res.kept] == ["a"]
    assert res.report() == [{"case_id": "b", "reason": "identifiers remain (de-identification off): "
                                                       "gendered_term 'sir'"}]
    assert rows == [{"case_id": "b", "dataset": "D", "kind": "gendered_term", "text": "sir", "start": 15,
                     "action": "excluded"}]
    res, rows = filter_residual_identifiers(cases, keep=True)
    assert [c.case_id for c in res.kept] == ["a", "b"] and rows[0]["action"] == "kept"
    # the items of a de-identification report are used as given
    res, _ = filter_residual_identifiers(cases, {"b": []})
    assert len(res.kept) == 2


# ---------------------------------------------------------------- issue 31: the audit's de-identification


def _aci_files(folder):
    import csv

    dialog = "\n".join(["[doctor] hi , zebulon quixley . how are you ?", "[patient] i have a cough .",
                        "[doctor] any fever ?", "[patient] no fever .", "[doctor] any pain ?", "[patient] no ."])
    with (folder / "s.csv").open("w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["dataset", "encounter_id", "dialogue", "note"])
        w.writerow(["virtassist", "E1", dialog, "n"])
        w.writerow(["virtassist", "E2", dialog.replace("zebulon quixley", "ms. quixley"), "n"])
    with (folder / "s_metadata.csv").open("w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["dataset", "encounter_id", "id", "doctor_name", "patient_gender", "patient_age",
                    "patient_firstname", "patient_familyname", "cc", "2nd_complaints"])
        w.writerow(["virtassist", "E1", "VA1", "", "male", "50", "Zebulon", "Quixley", "cough", ""])
        w.writerow(["virtassist", "E2", "VA2", "", "female", "40", "Ysolde", "Quixley", "cough", ""])
    return folder / "s.csv"


def _responder(req):
    text = req.prompt_text()
    if "Propose the addition" in text.split("\n", 1)[0]:
        lines = text.split("\n\n", 1)[1].splitlines()
        # the augmentation brings in a name: the augmented text is checked again
        lines[0] += " natalie says money is tight ."
        return "Here is the conversation:\n" + "\n".join(lines)
    if "Now the note to judge." in text:
        return "NO"
    return "NOTE"


def test_audit_replaces_names_counts_them_and_writes_no_name(tmp_path):
    import json

    from clinaudit.cache import ResponseCache
    from clinaudit.models.mock import MockBackend
    from clinaudit.rundir import RunDir
    from clinaudit.runner import Runner, RunnerConfig
    from clinaudit.pipeline import run_spec
    from clinaudit.spec import parse_spec_dict

    data = _aci_files(tmp_path)
    spec, params = parse_spec_dict({
        "audit": "note_generation", "name": "deid", "seed": 0,
        "data": [{"format": "aci", "path": str(data)}], "models": {"target": "mock", "judge": "mock"},
        "params": {"contexts": ["Poverty"], "sources": ["doctor"], "attributes": ["race"],
                   "values": {"race": ["Black"]}, "aci_shots": 0, "language_disparity": False,
                   "n_bootstrap": 100}})
    runner = Runner(cache=ResponseCache(tmp_path / "c.sqlite"), config=RunnerConfig(progress=False))
    runner.add_backend(MockBackend("mock", responder=_responder))
    rd = run_spec(spec, tmp_path / "run", params=params, runner=runner, progress=False)
    run = RunDir(tmp_path / "run")
    deid = run.read_table("deidentification")
    got = {(r.text, r.category, r.source): (r.replacements, r.texts) for r in deid.itertuples()}
    # E1: "zebulon quixley" (one span, metadata); E2: "quixley" after "ms." (metadata wins the tie)
    assert got[("dialog", "name", "metadata")] == (2, 2)
    # each of the 2 augmented dialogs gains "natalie": replaced before the counterfactual turn is appended, so the
    # final variant texts have nothing left to replace. The detector finds "natalie" (a gazetteer given name) and,
    # since issue 50's lower-case slot rules, so does "a subject before a verb of saying" ("natalie says ..."); a
    # rule wins a tie with the detector (deid._SOURCE_RANK), so the row's source is "rule" (it was "detector")
    assert got[("augmentation", "name", "rule")] == (2, 2)
    assert not any(k[0] == "variant" for k in got)
    s = rd.manifest["summary"]["deidentification"]
    assert s["names_by_source"] == {"rule": 2, "metadata": 2}
    assert s["by_category"]["name"] == 4
    # no original name anywhere in the run directory's tables, the manifest or the requests
    for path in list((tmp_path / "run").rglob("*.csv")) + list((tmp_path / "run").rglob("*.json*")):
        body = path.read_text(encoding="utf-8", errors="replace").lower()
        for name in ("zebulon", "quixley", "ysolde"):
            assert name not in body, (path.name, name)
    variants = run.read_table("variants")
    texts = variants[variants["family"] != "deidentification"]["text"]
    assert texts.str.contains("[NAME] says money", regex=False).sum() == 6 and not texts.str.contains("natalie").any()
    assert json.loads(variants[variants["family"] == "deidentification"]["provenance"].iloc[0])["sources"] == {
        "name/metadata": 1}


def test_final_variant_text_is_checked_for_names():
    from clinaudit.families.note_generation.cases import Prepared
    from clinaudit.families.note_generation.notes import counterfactual_items
    from clinaudit.families.note_generation.params import NoteGenerationParams
    from clinaudit.records import Case, Variant

    case = Case(case_id="c", text="Doctor: Hello.\nPatient: Hi.", dataset="D")
    # an augmented dialog that was not re-checked, with a name the augmentation brought in
    av = Variant(variant_id="a", case_id="c", family="augmentation", name="Poverty", seed=0,
                 text="Doctor: Hello. Natalie says money is tight.\nPatient: Hi Quixley.",
                 provenance={"context": "Poverty", "source": "doctor"})
    prep = Prepared([case], [], [], None, None, known={"c": ["Quixley"]})
    params = NoteGenerationParams(contexts=["Poverty"], attributes=["race"], values={"race": ["Black"]})
    variants, items = counterfactual_items([av], [case], params, ["m"], 0, prep)
    assert len(variants) == 2 and len(items) == 2
    for v in variants:
        assert "Natalie" not in v.text and "Quixley" not in v.text and v.provenance["names_replaced"] == 2
        assert v.text.startswith("Doctor: Hello. [NAME] says money is tight.\nPatient: Hi [NAME].")
    assert prep.deid_counts == {("D", "variant", "name", "detector"): [2, 2], ("D", "variant", "name", "metadata"): [2, 2]}
