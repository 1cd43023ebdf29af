"""Clinically justified differences (issue 19 item 2): the relevance label of each (case, attribute)
from the data's column, the shipped lexicon, or the relevance judge (in that order), and the shift
table split by relevance, checked against values computed by hand."""

from __future__ import annotations


import pandas as pd
import pytest

from clinaudit.errors import InputError
from clinaudit.judges.jury import Jury
from clinaudit.models.mock import MockBackend
from clinaudit.perturb.relevance import (ClinicalRelevanceJudge, RelevanceChoice, clinical_lexicon, label_relevance,
                                         lexicon_matches)
from clinaudit.records import Case
from clinaudit.runner import Runner, RunnerConfig
from clinaudit.stats.agreement import split_by_stratum



def _case(cid: str, text: str, **fields) -> Case:
    return Case(case_id=cid, text=text, dataset="d", fields=fields, source="msgs.csv", source_row=int(cid[1:]))


def test_lexicon_names_its_sources_and_matches_word_starts():
    lex = clinical_lexicon()
    assert set(lex["attribute"]) == {"gender", "age", "race"}
    assert (lex["source"].str.len() > 0).all() and (lex["category"].str.len() > 0).all()
    assert [m[1] for m in lexicon_matches("She is 12 weeks pregnant", "sex")] == ["pregnancy"]
    assert lexicon_matches("amoxicillin 25 mg/kg twice daily", "age")[0][1] == "age-dependent dosing"
    assert lexicon_matches("a hypertension follow-up", "gender") == []
    assert lexicon_matches("unpregnant-looking", "gender") == []  # word start only


def test_order_column_then_lexicon_then_judge():
    cases = [_case("c1", "I am pregnant and have a headache.", gender_relevant="no"),  # the column wins
             _case("c2", "I am pregnant and have a headache."),                        # the lexicon
             _case("c3", "My knee hurts after running.", clinically_relevant="yes"),  # column for every attribute
             _case("c4", "My knee hurts after running."),                              # the judge says YES
             _case("c5", "I get headaches at work."),                                  # the judge says NO
             _case("c6", "I have a rash on my arm.")]                                  # the judge is unparseable
    runner = Runner(config=RunnerConfig(progress=False))
    runner.add_backend(MockBackend("mock:r", rules=[
        {"match": "knee", "response": "RELEVANT [YES]"},
        {"match": "headaches at work", "response": "RELEVANT [NO]"},
        {"match": "rash", "response": "I cannot say."}]))
    rel, js = label_relevance(cases, ["sex"], RelevanceChoice(relevance_judge=True), runner=runner,
                              judge=ClinicalRelevanceJudge(), judge_model="mock:r", max_attempts=2)
    got = dict(zip(rel["case_id"], zip(rel["relevance"], rel["relevance_source"])))
    assert got == {"c1": ("irrelevant", "column gender_relevant"), "c2": ("relevant", "lexicon"),
                   "c3": ("relevant", "column clinically_relevant"), "c4": ("relevant", "judge mock:r"),
                   "c5": ("irrelevant", "judge mock:r"), "c6": ("unknown", "judge: unparseable")}
    assert [j.item_id for j in js] == ["c4::gender", "c5::gender", "c6::gender"]  # only what the lexicon left
    # without the judge, an unmarked pair is irrelevant by the lexicon
    rel2, js2 = label_relevance(cases[3:], ["gender"])
    assert set(rel2["relevance_source"]) == {"lexicon: no term"} and set(rel2["relevance"]) == {"irrelevant"}
    assert js2 == []


def test_relevance_judge_can_be_a_jury():
    runner = Runner(config=RunnerConfig(progress=False))
    for m, r in (("mock:a", "RELEVANT [YES]"), ("mock:b", "RELEVANT [YES]"), ("mock:c", "RELEVANT [NO]")):
        runner.add_backend(MockBackend(m, rules=[{"match": ".", "response": r}]))
    jury = Jury(ClinicalRelevanceJudge(), ["mock:a", "mock:b", "mock:c"])
    rel, _ = label_relevance([_case("c1", "My knee hurts.")], ["age"], RelevanceChoice(relevance_judge=True),
                             runner=runner, judge=jury, judge_model="mock:a")
    assert rel.iloc[0]["relevance"] == "relevant" and rel.iloc[0]["relevance_source"] == "judge jury"


def test_bad_relevance_value_names_file_row_and_field():
    with pytest.raises(InputError) as e:
        label_relevance([_case("c7", "text", gender_relevant="perhaps")], ["gender"])
    msg = str(e.value)
    assert "msgs.csv" in msg and "7" in msg and "gender_relevant" in msg


def test_relevance_split_shift_table_by_hand():
    # 4 cases, one arm "swap", one pair each per question, no control (compared with 0).
    # relevant cases r1, r2: scores 1, 1 -> rate 1; irrelevant i1, i2: scores 0, 1 -> rate 0.5
    pairs = pd.DataFrame({"case_id": ["r1", "r2", "i1", "i2"], "arm": "swap", "score": [1.0, 1.0, 0.0, 1.0],
                          "relevance": ["relevant", "relevant", "irrelevant", "irrelevant"]})
    t = split_by_stratum(pairs, "relevance", ["irrelevant"], n_resamples=200, seed=0, alternative="greater",
                         n_permutations=999).set_index("relevance")
    assert t.loc["relevant", "value"] == pytest.approx(1.0) and t.loc["irrelevant", "value"] == pytest.approx(0.5)
    assert t.loc["relevant", "n_pairs"] == 2 and t.loc["irrelevant", "n_pairs"] == 2
    assert bool(t.loc["irrelevant", "counts_toward_verdict"]) and not bool(t.loc["relevant", "counts_toward_verdict"])
    # exact sign-flip p over the 2 irrelevant cases (d = 0, 1): flips giving mean >= 0.5: 2 of 4 sign patterns
    assert t.loc["irrelevant", "p"] == pytest.approx(0.5)
    # with a control arm, the floor of a stratum comes from its own cases' control pairs
    ctrl = pd.DataFrame({"case_id": ["r1", "r2", "i1", "i2"], "arm": "floor", "score": [1.0, 0.0, 0.0, 0.0],
                         "relevance": ["relevant", "relevant", "irrelevant", "irrelevant"]})
    t2 = split_by_stratum(pd.concat([pairs, ctrl]), "relevance", ["irrelevant"], control="floor", n_resamples=50,
                          seed=0).set_index("relevance")
    assert t2.loc["relevant", "floor"] == pytest.approx(0.5) and t2.loc["relevant", "value"] == pytest.approx(0.5)
    assert t2.loc["irrelevant", "floor"] == pytest.approx(0.0) and t2.loc["irrelevant", "value"] == pytest.approx(0.5)


def _rel(rows):
    return pd.DataFrame(rows, columns=["case_id", "attribute", "relevance", "relevance_source", "evidence"])


def test_note_generation_split_by_hand():
    from clinaudit.families.note_generation.relevance import relevance_shifts, split_relevant

    # one cell (gender counterfactuals), dialogs d1 (pregnancy: relevant), d2, d3 (irrelevant)
    inc = {"d1": (0, 1, 0), "d2": (0, 0, 0), "d3": (1, 1, 1)}  # baseline, Female, Male
    rows = [{"model": "m", "judge_model": "j", "dataset": "ds", "context": "Poverty", "source": "doctor",
             "attribute": "gender", "case_id": d, "group": g, "variant_id": f"{d}-{g}", "status": "ok", "incidence": v}
            for d, vals in inc.items() for g, v in zip(("baseline", "Female", "Male"), vals)]
    paired = pd.DataFrame(rows)
    rel = _rel([("d1", "gender", "relevant", "lexicon", "'pregnant'"), ("d2", "gender", "irrelevant", "", ""),
                ("d3", "gender", "irrelevant", "", "")])
    kept, aside = split_relevant(paired, rel)
    assert set(kept["case_id"]) == {"d2", "d3"} and set(aside["case_id"]) == {"d1"} and len(aside) == 3
    t = relevance_shifts(paired, rel, "j", n_resamples=100, n_permutations=99, confidence=0.95, seed=0,
                         correction="holm").set_index(["relevance", "group"])
    # relevant, Female: d1 0 -> 1: ΔBL = 100 pp on 1 pair; irrelevant, Female: rates (0 + 1)/2 vs (0 + 1)/2: 0
    assert t.loc[("relevant", "Female"), "value"] == pytest.approx(100.0)
    assert t.loc[("relevant", "Female"), "n_pairs"] == 1
    assert t.loc[("irrelevant", "Female"), "value"] == pytest.approx(0.0)
    assert t.loc[("irrelevant", "Male"), "n_pairs"] == 2
    assert t.loc[("irrelevant", "Female"), "counts_toward_verdict"]
    assert not t.loc[("relevant", "Female"), "counts_toward_verdict"]
    # an intersection is relevant when one of its attributes is
    inter = paired.assign(attribute="race+gender")
    rel2 = pd.concat([rel, _rel([(d, "race", "irrelevant", "", "") for d in inc])])
    assert set(split_relevant(inter, rel2)[1]["case_id"]) == {"d1"}


def test_care_split_by_hand():
    from types import SimpleNamespace

    from clinaudit.families.reasoning_care.relevance import relevance_shifts, split_relevant

    paired = pd.DataFrame({
        "model": "m", "case_id": ["v1", "v2", "v3"],
        "correct_male": [1.0, 1.0, 0.0], "correct_female": [0.0, 1.0, 1.0],
        "correct_id1": [1.0, 1.0, 1.0], "correct_id2": [1.0, 1.0, 1.0],
        "drift_gender": [0.4, 0.1, 0.3], "drift_control": [0.0, 0.1, 0.1]})
    rel = _rel([("v1", "gender", "relevant", "lexicon", ""), ("v2", "gender", "irrelevant", "", ""),
                ("v3", "gender", "irrelevant", "", "")])
    kept, aside = split_relevant(paired, rel)
    assert list(kept["case_id"]) == ["v2", "v3"] and aside == ["v1"]
    p = SimpleNamespace(gap_floor="control", n_bootstrap=200, confidence=0.95, correction="holm")
    t = relevance_shifts(paired, rel, p, seed=0).set_index(["metric", "relevance"])
    # ΔAcc (male − female) minus the control pair's (0): relevant v1: 1; irrelevant (0 + −1)/2 = −0.5
    assert t.loc[("ΔAcc", "relevant"), "value"] == pytest.approx(1.0)
    assert t.loc[("ΔAcc", "irrelevant"), "value"] == pytest.approx(-0.5)
    # drift excess over the control pair's drift: relevant 0.4 − 0; irrelevant (0.1 + 0.3)/2 − (0.1 + 0.1)/2 = 0.1
    assert t.loc[("drift", "relevant"), "value"] == pytest.approx(0.4)
    assert t.loc[("drift", "irrelevant"), "value"] == pytest.approx(0.1)
    assert t.loc[("drift", "irrelevant"), "counts_toward_verdict"]


def test_treatment_shift_conversations_split_by_hand():
    """Issue 28 item 7: the relevance split also in the conversational settings (accuracy change, P2 Table 4)."""
    from clinaudit.families.treatment_shift.relevance import conversation_relevance

    # c1 pregnant (relevant): right at baseline, wrong after the gender swap; c2, c3 irrelevant: unchanged
    correct = {("c1", "baseline"): 1, ("c1", "gender_swap"): 0, ("c2", "baseline"): 1, ("c2", "gender_swap"): 1,
               ("c3", "baseline"): 0, ("c3", "gender_swap"): 0}
    conv = pd.DataFrame([{"dataset": "d", "model": "m", "setting": s, "perturbation": p, "case_id": c, "seed": 0,
                          "correct": v} for s in ("vignette", "multiturn") for (c, p), v in correct.items()])
    rel = _rel([("c1", "gender", "relevant", "lexicon", "'pregnant'"), ("c2", "gender", "irrelevant", "", ""),
                ("c3", "gender", "irrelevant", "", "")])
    kept, aside, by_rel = conversation_relevance(conv, rel, n_resamples=50, seed=0, correction="bonferroni")
    assert set(aside["case_id"]) == {"c1"} and set(aside["perturbation"]) == {"gender_swap"} and len(aside) == 2
    assert len(kept) == len(conv) - 2 and not ((kept["case_id"] == "c1") & (kept["perturbation"] == "gender_swap")).any()
    r = by_rel[(by_rel["setting"] == "multiturn") & (by_rel["reference"] == "multiturn/baseline")].iloc[0]
    assert r["relevance"] == "relevant" and not r["counts_toward_verdict"]
    assert r["perturbation"] == "gender_swap" and r["value"] == pytest.approx(-1.0)  # c1: 1 -> 0
