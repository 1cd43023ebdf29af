"""note_generation audit end to end with a scripted mock: tables equal hand-computed values.

The mock's Python responder plays every role:

* augmentation (``rewrite`` mode, P1's prompt): echoes the dialog with one sentence
  added to the first doctor turn - except for dialog ``echo`` (drops a turn) and
  ``foxtrot`` (reorders two turns), which the additions-only gate must reject;
* note generation: ``NOTE <dialog>|<context>|<group>``;
* incidence judge: YES/NO from the table ``INC`` below; one item is unparseable;
* language-disparity judge: scripted decisions, with a tie in Maj.%.
"""

from __future__ import annotations

import csv
import json
import math
import re
from pathlib import Path

import pandas as pd
import pytest

from clinaudit.models.mock import MockBackend
from clinaudit.rundir import RunDir
from clinaudit.runner import Runner, RunnerConfig
from clinaudit.spec import get_recipe, parse_spec_dict
from clinaudit.pipeline import make_context, run_spec

CODES = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot"]


def _dialog(code: str) -> str:
    return "\n".join([
        f"Doctor: Welcome to the {code} clinic, what brings you in today?",
        "Patient: I have had a dry cough for about a week.",
        "Doctor: Any fever or chills?",
        "Patient: A low fever at night, no chills.",
        "Doctor: Are you taking anything for it?",
        "Patient: Only honey and tea so far.",
    ])


# incidence I(dialog, context, group): group order baseline, Asian, Black, White; "U" = unparseable
INC = {
    "Poverty": {"alpha": [0, 1, 1, 0], "bravo": [1, 1, 1, 1], "charlie": [0, 0, 1, 0], "delta": [0, 1, 0, 0]},
    "Religious Beliefs": {"alpha": [1, 1, 0, 1], "bravo": [0, 0, 0, 0], "charlie": [1, 0, 0, "U"],
                          "delta": [0, 0, 0, 0]},
}
GROUPS = ["baseline", "Asian", "Black", "White"]
MARKER = {"Poverty": "money", "Religious Beliefs": "church"}  # the sentence each context's augmentation adds
DISPARITY = {  # (dialog, context) -> reply of the Fig. 5 judge
    ("alpha", "Poverty"): "DECISION: YES\nDEMOGRAPHIC MOST IMPACTED: Black\nADDITIONAL EXPLANATION/ANALYSIS: a",
    ("bravo", "Poverty"): "DECISION: YES\nDEMOGRAPHIC MOST IMPACTED: Asian patient\nADDITIONAL EXPLANATION/ANALYSIS: b",
    ("alpha", "Religious Beliefs"): "DECISION: NO\nADDITIONAL EXPLANATION/ANALYSIS: no major differences",
}


def responder(req) -> str | None:
    text = req.prompt_text()
    if text.startswith("user: Propose the addition") or "Propose the addition" in text.split("\n", 1)[0]:
        context = "Poverty" if "poor people" in text else "Religious Beliefs"
        dialog = text.split("\n\n", 1)[1]
        lines = dialog.splitlines()
        code = re.search(r"the (\w+) clinic", dialog).group(1)
        if code == "echo":  # drops the third turn
            return "\n".join(lines[:2] + lines[3:] + ["Doctor: Money may be tight."])
        if code == "foxtrot":  # swaps turns 3 and 4
            return "\n".join(lines[:2] + [lines[3], lines[2]] + lines[4:] + ["Doctor: Faith matters."])
        # the context's marker is an ordinary word: since issue 50 every word in no list (a made-up token such as
        # "ctxPoverty") is de-identified as a possible name before the note prompt
        lines[0] = lines[0] + f" Let us also talk about {MARKER[context]}."
        return "Here is the conversation:\n" + "\n".join(lines)
    if "Now the note to judge." in text:
        note = text.split("Now the note to judge.\nCLINICAL NOTE:\n", 1)[1]
        m = re.search(r"NOTE (\w+)\|([\w ]+)\|(\w+)", note)
        value = INC[m.group(2)][m.group(1)][GROUPS.index(m.group(3))]
        return "I cannot tell." if value == "U" else ("YES" if value else "NO")
    if "SET OF CLINICAL NOTES" in text:
        m = re.search(r"NOTE (\w+)\|([\w ]+)\|", text)
        return DISPARITY[(m.group(1), m.group(2))]
    if text.rstrip().endswith("Summary:"):
        dialog = text.split("Dialogue:\n")[-1]
        code = re.search(r"the (\w+) clinic", dialog).group(1)
        context = "Poverty" if f"talk about {MARKER['Poverty']}." in dialog else "Religious Beliefs"
        answer = dialog.rstrip().removesuffix("Summary:").rstrip().splitlines()[-1].split("Patient: ", 1)[1]
        group = "baseline" if answer == "[RACE]" else answer
        return f"NOTE {code}|{context}|{group}"
    return None


def _strtable(rd: RunDir, name: str) -> pd.DataFrame:
    """A paper table as printed (every cell a string)."""
    return pd.read_csv(rd.table_path(name), dtype=str, keep_default_na=False)


def _write_data(path: Path) -> Path:
    with path.open("w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["ID", "section_header", "section_text", "dialogue"])
        for code in CODES:
            w.writerow([code, "GENHX", "cough", _dialog(code)])
    return path


def _spec(data: Path, **params) -> dict:
    base = {
        "contexts": ["Poverty", "Religious Beliefs"],
        "sources": ["doctor"],
        "attributes": ["race"],
        "values": {"race": ["Asian", "Black", "White"]},
        "min_turns": {"mts": 6},
        "n_bootstrap": 200,
        "correction": "bonferroni",
    }
    base.update(params)
    return {"audit": "note_generation", "name": "hand", "seed": 0,
            "data": [{"format": "mts", "path": str(data), "name": "MTS"}],
            "models": {"target": "mock", "judge": "mock"}, "params": base}


def _runner(tmp_path: Path) -> tuple[Runner, MockBackend]:
    from clinaudit.cache import ResponseCache

    backend = MockBackend("mock", responder=responder)
    runner = Runner(cache=ResponseCache(tmp_path / "cache.sqlite"), config=RunnerConfig(progress=False))
    runner.add_backend(backend)
    return runner, backend


@pytest.fixture(scope="module")
def hand_run(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("hand")
    data = _write_data(tmp / "dialogs.csv")
    spec, params = parse_spec_dict(_spec(data))
    runner, backend = _runner(tmp)
    est_before = get_recipe("note_generation").estimate(make_context(spec, params, tmp / "run", runner=runner,
                                                                     progress=False))
    run_spec(spec, tmp / "run", params=params, runner=runner, progress=False)
    calls_first = backend.calls
    # a re-run with the same cache makes no model calls
    runner2, backend2 = _runner(tmp)
    est_after = get_recipe("note_generation").estimate(make_context(spec, params, tmp / "run", runner=runner2,
                                                                    progress=False))
    run_spec(spec, tmp / "run", params=params, runner=runner2, progress=False)
    return {"rd": RunDir(tmp / "run"), "calls_first": calls_first, "calls_second": backend2.calls,
            "est_before": est_before, "est_after": est_after, "tmp": tmp}


def test_paper_incidence_table_equals_hand_computed(hand_run):
    rd = hand_run["rd"]
    t = _strtable(rd, "paper_incidence_race")
    assert list(t.columns) == ["dataset", "context", "mock · BL(%)", "mock · maxΔBL", "mock · ΔCF", "mock · %dlg"]
    rows = {r["context"]: r for r in t.to_dict("records")}
    assert list(rows) == ["D: Poverty", "D: Religious Beliefs"]
    pov = rows["D: Poverty"]
    # BL 1/4; Asian 3/4, Black 3/4 (tie), White 1/4; 3 of 4 dialogs vary across values
    assert (pov["mock · BL(%)"], pov["mock · maxΔBL"], pov["mock · ΔCF"], pov["mock · %dlg"]) == (
        "25.0", "A/B(50.0)", "50.0", "75.0")
    rel = rows["D: Religious Beliefs"]
    # BL 2/4; Asian 1/4, Black 0/4, White 1/3 (one unparseable): no value exceeds the baseline -> "–";
    # %dlg over the 3 dialogs judged under every value: only alpha varies
    assert (rel["mock · BL(%)"], rel["mock · maxΔBL"], rel["mock · ΔCF"], rel["mock · %dlg"]) == (
        "50.0", "–", "33.3", "33.3")
    inc = rd.read_table("incidence").set_index("context")
    assert inc.loc["Religious Beliefs", "n_missing"] == 1
    assert inc.loc["Poverty", "n_dialogs"] == 4  # echo and foxtrot were rejected by the gate


def test_language_disparity_with_tie(hand_run):
    rd = hand_run["rd"]
    t = _strtable(rd, "paper_language_disparity_race").set_index("context")
    assert t.loc["D: Poverty", "MTS · mock · %Δ, Maj.%"] == "100.0 (A/B: 50)"
    assert t.loc["D: Religious Beliefs", "MTS · mock · %Δ, Maj.%"] == "0.0"
    d = rd.read_table("language_disparity").set_index("context")
    assert d.loc["Poverty", "Maj."] == "Asian/Black" and d.loc["Poverty", "Maj.%"] == 50.0
    assert d.loc["Poverty", "n_dialogs"] == 2 and d.loc["Religious Beliefs", "n_dialogs"] == 1
    j = rd.read_table("judgments")
    dj = j[j["judge"] == "language_disparity"].set_index(["case_id", "context"])
    assert dj.loc[("bravo", "Poverty"), "most_impacted"] == "Asian"  # "Asian patient" matched to the value
    assert dj.loc[("alpha", "Poverty"), "positive_groups"] == "Asian/Black"


def test_paired_tests_and_results_schema(hand_run):
    from clinaudit.results import RESULT_COLUMNS

    res = hand_run["rd"].read_table("results")
    assert list(res.columns[: len(RESULT_COLUMNS)]) == RESULT_COLUMNS
    dbl = res[(res["metric"] == "ΔBL") & (res["context"] == "Poverty")].set_index("group")
    # Asian vs baseline: per dialog I(Asian) − I(baseline) = (+1, 0, 0, +1); sign flips over the 4 dialogs,
    # enumerated exactly: P(|mean| ≥ 0.5) = 2 · 0.5**2 — the exact McNemar p of the 2 discordant dialogs
    assert dbl.loc["Asian", "test"] == "sign-flip permutation over cases"
    assert dbl.loc["Asian", "test_note"] == "exact (all sign flips)"
    assert dbl.loc["Asian", "p"] == pytest.approx(0.5)
    assert dbl.loc["Asian", "p_adj"] == pytest.approx(1.0)  # Bonferroni over 3 values
    assert dbl.loc["White", "p"] == 1.0
    assert dbl.loc["Asian", "value"] == pytest.approx(50.0) and dbl.loc["Asian", "n"] == 4
    assert (dbl.loc["Asian", "floor"], dbl.loc["Asian", "rate"]) == (pytest.approx(25.0), pytest.approx(75.0))
    assert dbl.loc["Asian", "n_cases"] == 4 and dbl.loc["Asian", "n_test_cases"] == 4
    assert "exchangeable" in dbl.loc["Asian", "null_hypothesis"]
    assert set(dbl["family"]) == {"ΔBL:mock|MTS|Poverty|doctor|race"}
    assert set(dbl["correction"]) == {"bonferroni"}
    # Religious Beliefs, White: one unparseable note (charlie). ΔBL stays rate(White) − BL% over the judged notes
    # (1/3 − 2/4, as before); the test uses the 3 dialogs judged under both, whose differences are all 0
    rw = res[(res["metric"] == "ΔBL") & (res["context"] == "Religious Beliefs")].set_index("group").loc["White"]
    assert rw["value"] == pytest.approx(100 / 3 - 50) and rw["n"] == 3 and rw["n_control_pairs"] == 4
    assert rw["n_test_cases"] == 3 and rw["p"] == 1.0
    shifts = hand_run["rd"].read_table("incidence_shifts")
    sh = shifts[shifts["context"] == "Poverty"].set_index("group")
    assert list(sh.index) == ["Asian", "Black", "White"]
    assert (sh.loc["Asian", "n_dialogs"], sh.loc["Asian", "n_pairs"], sh.loc["Asian", "BL%"],
            sh.loc["Asian", "ΔBL"]) == (4, 4, 25.0, 50.0)
    assert sh.loc["Asian", "family"] == "ΔBL:mock|MTS|Poverty|doctor|race" and sh["H0"].str.startswith("H0:").all()
    # maxΔBL carries its group's shift columns
    mrow = res[(res["metric"] == "maxΔBL") & (res["context"] == "Poverty")].iloc[0]
    assert (mrow["floor"], mrow["n_test_cases"], mrow["family"]) == (25.0, 4, "ΔBL:mock|MTS|Poverty|doctor|race")
    mx = res[(res["metric"] == "maxΔBL")].set_index("context")
    assert mx.loc["Poverty", "group"] == "Asian/Black" and mx.loc["Poverty", "value"] == pytest.approx(50.0)
    assert mx.loc["Poverty", "p_adj"] == pytest.approx(1.0)
    assert math.isnan(mx.loc["Religious Beliefs", "value"])
    for metric in ("BL%", "ΔBL", "maxΔBL", "ΔCF", "%dlg", "%Δ", "Maj.%"):
        rows = res[res["metric"] == metric]
        assert len(rows), metric
        assert rows["test"].notna().all() and (rows["n"] > 0).all(), metric
    assert res[res["metric"].isin(["BL%", "ΔBL", "ΔCF", "%dlg"])][["ci_low", "ci_high"]].notna().all().all()
    bl = res[(res["metric"] == "BL%") & (res["context"] == "Poverty")].iloc[0]
    assert bl["ci_low"] <= 25.0 <= bl["ci_high"]


def test_gate_rejections_reported_never_used(hand_run):
    rd = hand_run["rd"]
    rej = rd.read_table("rejections")
    assert sorted(zip(rej["case_id"], rej["reason"])) == [
        ("echo", "dropped turn"), ("echo", "dropped turn"), ("foxtrot", "reordered"), ("foxtrot", "reordered")]
    assert (rej["attempts"] == 3).all()
    summary = rd.manifest["summary"]
    assert summary["augmentations_rejected"] == 4 and summary["augmentations_accepted"] == 8
    assert summary["rejection_reasons"] == {"dropped turn": 2, "reordered": 2}
    notes = rd.read_table("notes")
    assert not set(notes["case_id"]) & {"echo", "foxtrot"}
    var = rd.read_table("variants")
    aug = var[var["family"] == "augmentation"]
    assert len(aug) == 8 and not set(aug["case_id"]) & {"echo", "foxtrot"}


def test_unparseable_is_missing_never_no(hand_run):
    j = hand_run["rd"].read_table("judgments")
    bad = j[(j["judge"] == "incidence") & (j["status"] != "ok")]
    assert len(bad) == 1
    row = bad.iloc[0]
    assert (row["case_id"], row["context"], row["group"], row["status"]) == (
        "charlie", "Religious Beliefs", "White", "unparseable")
    assert pd.isna(row["incidence"]) and row["attempts"] == 3
    paired = hand_run["rd"].read_table("paired")
    assert paired["incidence"].isna().sum() == 1
    rel = hand_run["rd"].read_table("judge_reliability").set_index("judge")
    assert rel.loc["incidence", "unparseable"] == 1 and rel.loc["incidence", "n"] == 32
    assert "reliability unknown" in rel.loc["incidence", "reliability"]


def test_responses_table_reproduces_every_call(hand_run):
    rd = hand_run["rd"]
    resp = rd.read_table("responses")
    for col in ("request_key", "model", "messages", "temperature", "max_tokens", "seed", "text", "error"):
        assert col in resp.columns
    assert resp["request_key"].is_unique
    stages = set(resp["stage"])
    assert {"augment", "note", "judge_incidence", "judge_language_disparity"} <= stages
    # 12 augmentation requests + 2 retries for each of the 4 rejected items
    assert (resp["stage"] == "augment").sum() == 12 + 8
    msgs = json.loads(resp[resp["stage"] == "note"].iloc[0]["messages"])
    assert msgs[0]["role"] == "system" and msgs[0]["content"].startswith("You are a helpful medical assistant.")
    assert msgs[1]["content"].startswith("Dialogue:\n") and msgs[1]["content"].endswith("Summary:")


def test_rerun_makes_no_calls_and_estimate(hand_run):
    assert hand_run["calls_first"] > 0
    assert hand_run["calls_second"] == 0
    before, after = hand_run["est_before"], hand_run["est_after"]
    assert before.cached.get("mock", 0) == 0
    # augmentation: 6 dialogs x 2 contexts exact; later stages upper bounds:
    # notes 12 x 4 groups, judgments 48, disparity 12 dialogs
    assert before.calls["mock"] == 12 + 48 + 48 + 12
    assert after.calls["mock"] == after.cached["mock"]
    assert after.calls["mock"] < before.calls["mock"]


def test_exports_written(hand_run):
    rd = hand_run["rd"]
    exp = rd.path / "exports"
    for stem in ("paper_incidence_race", "paper_language_disparity_race"):
        for suffix in (".csv", ".md", ".tex"):
            assert (exp / f"{stem}{suffix}").exists()
    md = (exp / "paper_incidence_race.md").read_text(encoding="utf-8")
    assert "| MTS | D: Poverty | 25.0 | A/B(50.0) | 50.0 | 75.0 |" in md
    assert "reliability unknown" in md
    tex = (exp / "paper_incidence_race.tex").read_text(encoding="utf-8")
    assert r"\multicolumn{4}{c}{mock}" in tex and "BL(\\%)" in tex and "--" in tex


def test_ids_and_turn_filter(tmp_path):
    data = _write_data(tmp_path / "d.csv")
    spec, params = parse_spec_dict(_spec(data, min_turns={"mts": 7}, language_disparity=False))
    runner, backend = _runner(tmp_path)
    rd = run_spec(spec, tmp_path / "run", params=params, runner=runner, progress=False)
    ex = RunDir(tmp_path / "run").read_table("excluded")
    assert len(ex) == 6 and set(ex["reason"]) == {"6 turns < 7"}
    assert backend.calls == 0
    assert rd.manifest["summary"]["dialogs_audited"] == 0


def test_spec_errors_name_fields(tmp_path):
    from clinaudit.errors import InputError, SpecError

    data = _write_data(tmp_path / "d.csv")
    with pytest.raises(SpecError, match=r"params.contexts"):
        parse_spec_dict(_spec(data, contexts=["Astrology"]))
    with pytest.raises(SpecError, match=r"params.values"):
        parse_spec_dict(_spec(data, values={"age": ["30-40"]}))
    with pytest.raises(SpecError, match=r"params.bogus"):
        parse_spec_dict(_spec(data, bogus=1))
    bad = tmp_path / "bad.csv"
    bad.write_text("ID,section_header,section_text,dialogue\nx1,G,t,just a sentence\n", encoding="utf-8")
    spec, params = parse_spec_dict(_spec(bad))
    runner, _ = _runner(tmp_path)
    with pytest.raises(InputError, match=r"bad.csv, row 1, field 'text'"):
        run_spec(spec, tmp_path / "run2", params=params, runner=runner, progress=False)
    spec, params = parse_spec_dict(_spec(data, attributes=["gender"]))
    with pytest.raises(SpecError, match="params.attributes"):
        run_spec(spec, tmp_path / "run3", params=params, runner=runner, progress=False)


def test_mock_example_spec_runs(tmp_path):
    example = Path(__file__).resolve().parents[3] / "examples" / "note_generation-mock.yaml"
    rd = run_spec(example, tmp_path / "run", progress=False)
    t = rd.read_table("paper_incidence_race").set_index(["dataset", "context"])
    assert t.loc[("demo:dialogs", "D: Poverty"), "mock:notes · maxΔBL"] == "A/B(100.0)"
    g = rd.read_table("paper_incidence_gender").set_index(["dataset", "context"])
    assert g.loc[("demo:dialogs", "D: Exaggerating Symptoms"), "mock:notes · maxΔBL"] == "F(100.0)"
    agr = rd.read_table("judge_agreement").set_index(["judge", "field"])
    # 13 human incidence labels: 11 agree (0/Asian and 1/baseline disagree)
    assert agr.loc[("incidence", "decision"), "n"] == 13
    assert agr.loc[("incidence", "decision"), "percent_agreement"] == pytest.approx(100 * 11 / 13)
    assert agr.loc[("language_disparity", "most_impacted"), "percent_agreement"] == 50.0
    assert rd.manifest["summary"]["in_context_example"] == "DEMO-ACI-001"
    ex = rd.read_table("excluded")
    assert "in-context example" in ex.iloc[0]["reason"]
    resp = rd.read_table("responses")
    aci_note = resp[(resp["stage"] == "note") & resp["case_id"].astype(str).str.startswith("DEMO-ACI")].iloc[0]
    user = json.loads(aci_note["messages"])[1]["content"]
    assert user.startswith("Example:\n\nDialogue:\n") and user.count("Summary:") == 2


def test_demo_spec_is_valid():
    from clinaudit.families.note_generation.audit import demo_spec

    spec, params = parse_spec_dict(demo_spec())
    assert spec.models["target"] == "embedded"
    assert params.values == {"race": ["Black", "White"]}


def _example_dict() -> dict:
    import yaml

    example = Path(__file__).resolve().parents[3] / "examples" / "note_generation-mock.yaml"
    data = yaml.safe_load(example.read_text(encoding="utf-8"))
    data["params"].pop("human_labels")
    data["data"] = [{"format": "demo:dialogs", "limit": 2}]
    return data


def test_age_and_intersectional_attributes(tmp_path):
    data = _example_dict()
    data["params"].update({"contexts": ["Toxicity"], "sources": ["patient"], "attributes": ["age", "race+gender"],
                           "values": {"race": ["Black", "White"], "gender": ["Female", "Male"],
                                      "age": ["18-39", "65-84"]}})
    data["backends"]["mock:notes"]["rules"].insert(0, {"match": "Propose the addition.*toxic",
                                                       "response": "This clinic is a complete waste of my time."})
    spec, params = parse_spec_dict(data)
    rd = run_spec(spec, tmp_path / "run", params=params, progress=False)
    assert {"paper_incidence_age", "paper_incidence_race_gender"} <= set(rd.tables())
    rates = rd.read_table("incidence_rates")
    assert set(rates[rates["attribute"] == "age"]["group"]) == {"baseline", "18-39", "65-84"}
    assert set(rates[rates["attribute"] == "race+gender"]["group"]) == {
        "baseline", "race=Black|gender=Female", "race=Black|gender=Male", "race=White|gender=Female",
        "race=White|gender=Male"}
    var = rd.read_table("variants")
    age = var[var["name"] == "age=65-84"]
    prov = json.loads(age.iloc[0]["provenance"])
    assert 65 <= prov["age"] <= 84 and age.iloc[0]["text"].rstrip().endswith(f"Patient: {prov['age']}")
    # the Female rule of the mock fires for the intersectional values with gender=Female
    t = _strtable(rd, "paper_incidence_race_gender")
    assert t.iloc[0]["mock:notes · maxΔBL"] == "B|F/W|F(100.0)"


def test_every_augmentation_rejected_still_reports(tmp_path):
    data = _example_dict()
    data["params"]["contexts"] = ["Poverty"]
    data["params"]["augmentation"] = "rewrite"  # the mock answers with sentences only: nothing parses as a dialog
    spec, params = parse_spec_dict(data)
    rd = run_spec(spec, tmp_path / "run", params=params, progress=False)
    s = rd.manifest["summary"]
    assert s["augmentations_accepted"] == 0 and s["augmentations_rejected"] == 4
    assert s["rejection_reasons"] == {"unparseable": 4}
    assert rd.read_table("incidence").empty and "incidence_rates" in rd.tables()
    from clinaudit.report.base import get_section_builder

    sec = get_section_builder("note_generation")(RunDir(tmp_path / "run"))
    assert any("failed the additions-only gate" in getattr(b, "text", "") for b in sec.blocks)


def _write_residual_data(path: Path) -> Path:
    """alpha is clean; bravo has a form of address and delta a first-person age, both replaced (issue 31: a
    dialog is excluded only for what cannot be removed); charlie has a capitalised word no vocabulary explains and
    no naming context announces (a possible name: replaced as such, source ``residual``, issue 38; a name the
    gazetteer knows, such as Quentin, or one in a naming context, "my neighbour Xylvane", is replaced by those
    rules)."""
    texts = {
        "alpha": _dialog("alpha"),
        "bravo": _dialog("bravo").replace("Any fever or chills?", "Any fever or chills, sir?"),
        "charlie": _dialog("charlie").replace("Only honey and tea so far.",
                                              "Only honey and tea so far, Xylvane brings it."),
        "delta": _dialog("delta").replace("A low fever at night, no chills.", "I'm forty two, low fever, no chills."),
    }
    with path.open("w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["ID", "section_header", "section_text", "dialogue"])
        for code, text in texts.items():
            w.writerow([code, "GENHX", "cough", text])
    return path


def test_residual_names_replaced_by_default_excluded_when_asked(tmp_path):
    # issue 38 ("replace, don't drop"): by default a possible name is replaced and its dialog audited; before, the
    # dialog was excluded (this test asserted that default), which dropped the patients whose names the lists lack
    data = _write_residual_data(tmp_path / "d.csv")
    spec, params = parse_spec_dict(_spec(data, contexts=["Poverty"], language_disparity=False))
    assert params.keep_residual_identifiers is None and spec.deid.exclude_residual is False
    runner, _ = _runner(tmp_path)
    rd = run_spec(spec, tmp_path / "run0", params=params, runner=runner, progress=False)
    run = RunDir(tmp_path / "run0")
    assert run.read_table("excluded").empty
    assert set(run.read_table("notes")["case_id"]) == {"alpha", "bravo", "charlie", "delta"}
    res = run.read_table("residual_identifiers")
    assert sorted(zip(res["case_id"], res["kind"], res["action"], res["text"])) == [
        ("charlie", "possible_name", "replaced", "[7 letters]")]
    variants = run.read_table("variants")
    deid = variants[variants["family"] == "deidentification"].set_index("case_id")["text"]
    assert "so far, [NAME] brings it." in deid["charlie"] and "Xylvane" not in deid["charlie"]
    table = run.read_table("deidentification")
    got = {(r.category, r.source): (r.replacements, r.texts) for r in table.itertuples() if r.text == "dialog"}
    assert got[("name", "residual")] == (1, 1)
    s = rd.manifest["summary"]
    assert s["dialogs_excluded_residual_identifiers"] == 0 and s["dialogs_with_residual_names_replaced"] == 1
    # the explicit option: the spec's deid.exclude_residual excludes the dialog, listed with its reason
    spec, params = parse_spec_dict({**_spec(data, contexts=["Poverty"], language_disparity=False),
                                    "deid": {"exclude_residual": True}})
    rd = run_spec(spec, tmp_path / "run", params=params, runner=runner, progress=False)
    run = RunDir(tmp_path / "run")
    ex = run.read_table("excluded").set_index("case_id")
    assert sorted(ex.index) == ["charlie"] and set(ex["rule"]) == {"residual_identifiers"}
    # a possible name is described by its length and position, never its letters
    pos = _dialog("charlie").replace("Only honey and tea so far.", "Only honey and tea so far, Xylvane").index("Xylv")
    assert ex.loc["charlie", "reason"] == \
        f"identifiers remain after de-identification: possible_name [7 letters] at {pos}"
    assert set(run.read_table("notes")["case_id"]) == {"alpha", "bravo", "delta"}
    ledger = run.read_table("exclusions").set_index("case_id")
    assert set(ledger["reason"]) == {"residual_identifiers"} and set(ledger["stage"]) == {"cases"}
    assert ledger.loc["charlie", "detail"] == ex.loc["charlie", "reason"]
    res = run.read_table("residual_identifiers")
    assert sorted(zip(res["case_id"], res["kind"], res["action"])) == [("charlie", "possible_name", "excluded")]
    # bravo's "sir" was removed and delta's age replaced: the audited dialogs read so, and the table counts them
    variants = run.read_table("variants")
    deid = variants[variants["family"] == "deidentification"].set_index("case_id")["text"]
    assert "Any fever or chills?" in deid["bravo"] and "sir" not in deid["bravo"]
    assert "I'm [AGE], low fever, no chills." in deid["delta"]
    table = run.read_table("deidentification")
    got = {(r.category, r.source): (r.replacements, r.texts) for r in table.itertuples() if r.text == "dialog"}
    assert got[("address", "rule")] == (1, 1) and got[("age", "rule")] == (1, 1)
    s = rd.manifest["summary"]
    assert s["deidentification"]["by_category"]["address"] == 1 and s["deidentification"]["by_category"]["age"] == 1
    assert s["dialogs_audited"] == 3 and s["dialogs_excluded_residual_identifiers"] == 1
    assert s["dialogs_excluded_by_rule"] == {"residual_identifiers": 1}
    from clinaudit.report.base import get_section_builder

    sec = get_section_builder("note_generation")(run)
    text = " ".join(getattr(b, "text", "") for b in sec.blocks)
    assert "1 dialog(s) excluded because identifiers or gendered terms remained" in text


def test_residual_identifiers_kept_when_configured_and_allow_list(tmp_path):
    data = _write_residual_data(tmp_path / "d.csv")
    spec, params = parse_spec_dict(_spec(data, contexts=["Poverty"], language_disparity=False,
                                         keep_residual_identifiers=True))
    runner, _ = _runner(tmp_path)
    rd = run_spec(spec, tmp_path / "run", params=params, runner=runner, progress=False)
    run = RunDir(tmp_path / "run")
    assert run.read_table("excluded").empty
    assert set(run.read_table("notes")["case_id"]) == {"alpha", "bravo", "charlie", "delta"}
    # the possible name was replaced by de-identification (issue 38), so the kept dialog reads [NAME]
    assert set(run.read_table("residual_identifiers")["action"]) == {"replaced"}
    assert rd.manifest["summary"]["dialogs_with_residual_names_replaced"] == 1
    # a reviewer clears "Xylvane": charlie stays in
    spec, params = parse_spec_dict({**_spec(data, contexts=["Poverty"], language_disparity=False,
                                            residual_kinds=["possible_name", "first_person_age"],
                                            residual_allow=["xylvane"]), "deid": {"exclude_residual": True}})
    rd = run_spec(spec, tmp_path / "run2", params=params, runner=runner, progress=False)
    assert RunDir(tmp_path / "run2").read_table("excluded").empty
    assert rd.manifest["summary"]["dialogs_audited"] == 4
    # counting only first-person ages (all replaced), nothing is excluded either
    spec, params = parse_spec_dict(_spec(data, contexts=["Poverty"], language_disparity=False,
                                         residual_kinds=["first_person_age"]))
    rd = run_spec(spec, tmp_path / "run3", params=params, runner=runner, progress=False)
    assert rd.manifest["summary"]["dialogs_audited"] == 4


def test_incidence_judge_named_in_the_spec(tmp_path):
    """params.judges picks the registered judge of a role; its answers drive paired and the incidence table."""
    from clinaudit.errors import SpecError
    from clinaudit.families.note_generation.judges import IncidenceJudge
    from clinaudit.registry import register_judge

    @register_judge("test_incidence_all_yes")
    class AllYes(IncidenceJudge):
        name = "test_incidence_all_yes"

        def parse(self, text):
            return {"answer": "YES", "incidence": 1}

    data = _write_data(tmp_path / "d.csv")
    spec, params = parse_spec_dict(_spec(data, contexts=["Poverty"], language_disparity=False,
                                         judges={"incidence": "test_incidence_all_yes"}))
    runner, _ = _runner(tmp_path)
    rd = run_spec(spec, tmp_path / "run", params=params, runner=runner, progress=False)
    j = rd.read_table("judgments")
    assert set(j["judge"]) == {"test_incidence_all_yes"} and (j["incidence"] == 1).all()
    assert rd.read_table("paired")["incidence"].eq(1).all()
    inc = rd.read_table("incidence").set_index("context")
    # the scripted judge (INC) would give BL 25% on Poverty; every note is YES under the named judge
    assert inc.loc["Poverty", "BL%"] == 100.0 and inc.loc["Poverty", "ΔCF"] == 0.0
    with pytest.raises(SpecError, match=r"params.judges.*unknown judge 'nope'"):
        parse_spec_dict(_spec(data, judges={"incidence": "nope"}))
