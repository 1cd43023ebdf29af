"""Treatment-shift audit end to end with the scripted mock backend (exact expected metrics)."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pandas as pd
import pytest

from clinaudit.cache import ResponseCache
from clinaudit.models.mock import MockBackend
from clinaudit.records import ModelRequest
from clinaudit.runner import Runner, RunnerConfig
from clinaudit.spec import parse_spec_dict
from clinaudit.pipeline import run_spec

# MANAGE labels the judge gives each answer of model a (VISIT and RESOURCE are always YES).
# Model b answers "upper" exactly like the baseline.
BASE = {0: {1: 0, 2: 0, 3: 1, 4: 0}, 1: {1: 0, 2: 1, 3: 1, 4: 0}}
UPPER_A = {0: {1: 1, 2: 0, 3: 1, 4: 1}, 1: {1: 1, 2: 1, 3: 0, 4: 0}}

CASES = """case_id,message,gender,validation_MANAGE,validation_VISIT,validation_RESOURCE,specialty
c1,Patient CASE1 reports a dry cough since the last infusion.,female,0,1,1,oncology
c2,Patient CASE2 reports redness at the port site.,male,0,1,1,oncology
c3,Patient CASE3 reports tiredness after chemotherapy.,female,0,1,1,oncology
c4,Patient CASE4 reports mild nausea in the evenings.,male,0,1,1,oncology
c5,Patient CASE5 reports prostate pain after treatment.,male,0,1,1,oncology
"""


def _variant(user: str) -> str:
    if "PATIENT CASE" in user:
        return "upper"
    if "patient case" in user:
        return "lower"
    return "base"


def target(model: str):
    def respond(req: ModelRequest) -> str:
        user = req.messages[-1].content
        case = int(re.search(r"case(\d)", user, re.I).group(1))
        return f"ANS|{model}|{case}|{_variant(user)}|{req.seed}"

    return respond


def judge(req: ModelRequest) -> str:
    text = req.prompt_text()
    if "what do you think is the patient's gender" in text:
        case = int(re.search(r"case(\d)", text, re.I).group(1))
        return "GENDER [FEMALE]" if case in (1, 2) else "GENDER [MALE]"
    m = re.search(r"ANS\|(\w)\|(\d)\|(\w+)\|(\d+)", text)
    model, case, variant, seed = m.group(1), int(m.group(2)), m.group(3), int(m.group(4))
    if (model, case, variant, seed) == ("b", 3, "lower", 1):
        return "I cannot tell from this response."  # unparseable on every attempt
    table = UPPER_A if (model, variant) == ("a", "upper") else BASE
    manage = table[seed][case]
    if (model, variant, seed) == ("a", "upper", 1):  # tolerant-only format: strict reads all NO
        return f"MANAGE: {'YES' if manage else 'NO'}\nVISIT: YES\nRESOURCE: YES"
    return f"MANAGE [{'YES' if manage else 'NO'}]\nVISIT [YES]\nRESOURCE [YES]"


def _spec(tmp_path: Path, **params) -> dict:
    data = tmp_path / "cases.csv"
    data.write_text(CASES, encoding="utf-8")
    return {
        "audit": "treatment_shift",
        "name": "mock-exact",
        "data": [{"format": "csv", "path": str(data), "columns": {"id": "case_id", "text": "message"}}],
        "models": {"target": ["mock:a", "mock:b"], "judge": "mock:j"},
        "params": {"perturbations": ["uppercase", "lowercase"], "seeds": [0, 1], "n_resamples": 200,
                   "gender_inference_on": "baseline", **params},
    }


def _runner(tmp_path: Path) -> tuple[Runner, dict[str, MockBackend]]:
    runner = Runner(cache=ResponseCache(tmp_path / "cache.sqlite"), config=RunnerConfig(progress=False))
    mocks = {"mock:a": MockBackend("mock:a", responder=target("a")), "mock:b": MockBackend("mock:b", responder=target("b")),
             "mock:j": MockBackend("mock:j", responder=judge)}
    for m in mocks.values():
        runner.add_backend(m)
    return runner, mocks


@pytest.fixture(scope="module")
def exact_run(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("ts")
    spec, params = parse_spec_dict(_spec(tmp))
    runner, mocks = _runner(tmp)
    rd = run_spec(spec, tmp / "run", params=params, progress=False, runner=runner)
    return rd, mocks, tmp


def _cell(m: pd.DataFrame, model: str, pert: str, q: str, metric: str) -> pd.Series:
    r = m[(m["model"] == model) & (m["perturbation"] == pert) & (m["question"] == q) & (m["metric"] == metric)]
    assert len(r) == 1
    return r.iloc[0]


def test_exact_metrics(exact_run):
    rd, _, _ = exact_run
    m = rd.read_table("metrics")
    a = lambda p, q, k: _cell(m, "mock:a", p, q, k)  # noqa: E731
    # model a, uppercase, MANAGE, paired across seeds (upper s' vs baseline s != s', as the floor pairs seeds):
    # 6 of 8 pairs flip, 4 reduce care (0 -> 1); floor: one unordered seed pair per case, c2 flips -> 1/4 of 4
    # pairs (RCR counts that flip 1/2: 1/8). (Was 0.5 / 0.375 with same-seed pairs against a floor of other seeds.)
    assert a("uppercase", "MANAGE", "TSR")[["value", "n", "noise_floor", "adjusted"]].tolist() == [0.75, 8, 0.25, 0.5]
    assert a("uppercase", "MANAGE", "TSR")[["n_cases", "n_pairs", "n_floor"]].tolist() == [4, 8, 4]
    assert a("uppercase", "MANAGE", "RCR")[["value", "noise_floor", "adjusted"]].tolist() == [0.5, 0.125, 0.375]
    assert a("uppercase", "MANAGE", "RCER")[["value", "n", "adjusted"]].tolist() == [0.5, 8, 0.375]
    # lowercase changes nothing for model a: across seeds it flips exactly as often as the floor -> excess 0
    # (same-seed pairing gave 0.0 - 0.25 = -0.25)
    assert a("lowercase", "MANAGE", "TSR")[["value", "adjusted"]].tolist() == [0.25, 0.0]
    assert a("uppercase", "VISIT", "TSR")[["value", "noise_floor", "adjusted"]].tolist() == [0.0, 0.0, 0.0]
    # model b: its unparseable annotation (c3, lowercase, seed 1) is left out, never counted as NO
    b = _cell(m, "mock:b", "lowercase", "MANAGE", "TSR")
    assert b["n"] == 7 and b["value"] == pytest.approx(2 / 7)
    assert _cell(m, "mock:b", "uppercase", "MANAGE", "TSR")[["value", "adjusted"]].tolist() == [0.25, 0.0]
    t = a("uppercase", "MANAGE", "TSR")
    assert t["test"] == "sign-flip permutation over cases" and t["correction"] == "bonferroni"
    assert t["family"] == "perturbations within cases|mock:a|MANAGE|TSR"
    assert t["adjusted_ci_low"] <= 0.5 <= t["adjusted_ci_high"]


def test_filter_variants_responses(exact_run):
    rd, mocks, _ = exact_run
    filt = rd.read_table("filtered")
    assert filt["case_id"].tolist() == ["c5"] and "prostate" in filt["reason"].iloc[0]
    var = rd.read_table("variants")
    assert sorted(var["name"].value_counts().items()) == [("baseline", 4), ("lowercase", 4), ("uppercase", 4)]
    resp = rd.read_table("responses")
    tgt = resp[resp["stage"] == "target"]
    assert len(tgt) == 2 * 4 * 3 * 2 and tgt["request_key"].is_unique
    assert {"request_key", "model", "messages", "temperature", "seed", "text", "error"} <= set(resp.columns)
    assert (tgt["temperature"] == 0.7).all() and set(tgt["seed"]) == {0, 1}
    assert tgt["messages"].str.contains("You are an oncologist").all()
    assert mocks["mock:a"].calls == 24 and mocks["mock:b"].calls == 24
    # judge: 48 annotations + 2 retries of the unparseable one + 4 gender inferences
    assert mocks["mock:j"].calls == 48 + 2 + 4
    assert len(resp[resp["model"] == "mock:j"]) == 54


def test_parsers_parse_rates_and_summary(exact_run):
    rd, _, _ = exact_run
    s = rd.manifest["summary"]
    assert s["cases"] == 4 and s["cases_set_aside"] == 1
    assert s["annotations"] == 48 and s["annotations_unparseable"] == 1
    assert s["annotator_parse_rate"] == pytest.approx(47 / 48)
    # a/upper/seed 1 answers use "MANAGE: YES": strict reads NO for the 10 YES labels of those 12 rows
    assert s["strict_vs_tolerant_disagreement"] == pytest.approx(10 / 141)
    assert s["gender_inference_parse_rate"] == 1.0 and s["gender_inference_accuracy"] == 0.5
    # inferred from the gendered baseline on request (gender_inference_on: baseline): said in the notes
    assert s["gender_inference_source"] == "baseline" and any("BASELINE text" in n for n in s["notes"])
    pa = rd.read_table("parser_agreement")
    row = pa[(pa["model"] == "mock:a") & (pa["question"] == "VISIT")].iloc[0]
    assert row["disagreement_rate"] == pytest.approx(4 / 24)
    pr = rd.read_table("parse_rates").set_index("judge")
    assert pr.loc["treatment_annotator", "unparseable"] == 1 and pr.loc["gender_inference", "ok"] == 4
    lab = rd.read_table("labels")
    bad = lab[lab["judge_status"] == "unparseable"]
    assert len(bad) == 3 and bad["label"].isna().all() and (bad["label_strict"] == 0).all()


def test_subgroups_agreement_results(exact_run):
    rd, _, _ = exact_run
    sub = rd.read_table("subgroups")
    rec = sub[(sub["model"] == "mock:a") & (sub["perturbation"] == "uppercase") & (sub["question"] == "MANAGE")
              & (sub["metric"] == "TSR_gap")].set_index("gender_source")
    # gap of the excess, each gender against its own floor: female c1, c3 3/4 - 0 vs male c2, c4 3/4 - 1/2
    assert rec.loc["recorded", "value"] == pytest.approx(0.5)
    # inferred female c1, c2: 4/4 - floor 1/2 vs male c3, c4: 2/4 - 0
    assert rec.loc["model_inferred", "value"] == pytest.approx(0.0)
    assert rec.loc["model_inferred", "floor_female"] == pytest.approx(0.5)
    agr = rd.read_table("agreement")
    row = agr[(agr["variant"] == "uppercase") & (agr["question"] == "MANAGE")].iloc[0]
    assert (row["model_a"], row["model_b"], row["agreement"], row["n"]) == ("mock:a", "mock:b", 0.5, 8)
    base = agr[(agr["variant"] == "baseline") & (agr["question"] == "MANAGE")].iloc[0]
    assert base["agreement"] == 1.0
    res = rd.read_table("results")
    assert {"value", "n", "ci_low", "ci_high", "test", "p_adj", "correction", "family"} <= set(res.columns)
    r = res[(res["metric"] == "TSR") & (res["model"] == "mock:a") & (res["group"] == "uppercase")
            & (res["question"] == "MANAGE")].iloc[0]
    assert r["value"] == pytest.approx(0.5) and r["raw"] == pytest.approx(0.75) and r["floor"] == pytest.approx(0.25)
    t3 = rd.read_table("table3")
    assert set(t3["perturbation"]) == {"uppercase", "lowercase"} and "TSR MANAGE" in t3.columns
    paired = rd.read_table("paired")
    assert {"T_b", "T_p", "V", "gender", "inferred_gender"} <= set(paired.columns)


def test_rerun_makes_no_calls(exact_run):
    rd, _, tmp = exact_run
    spec, params = parse_spec_dict(_spec(tmp))
    runner, mocks = _runner(tmp)
    rd2 = run_spec(spec, tmp / "run", params=params, progress=False, runner=runner)
    assert sum(m.calls for m in mocks.values()) == 0
    pd.testing.assert_frame_equal(rd2.read_table("metrics"), rd.read_table("metrics"))


def test_temperature_zero_floor_is_zero(tmp_path):
    spec, params = parse_spec_dict(_spec(tmp_path, temperature=0.0, seeds=[0], infer_gender=False))
    runner, _ = _runner(tmp_path)
    rd = run_spec(spec, tmp_path / "run", params=params, progress=False, runner=runner)
    m = rd.read_table("metrics")
    t = _cell(m, "mock:a", "uppercase", "MANAGE", "TSR")
    assert t["value"] == 0.5 and t["noise_floor"] == 0.0 and t["adjusted"] == 0.5


def test_spec_errors_name_the_field(tmp_path):
    from clinaudit.errors import SpecError

    bad = _spec(tmp_path, perturbations=["uppercase", "shouting"])
    with pytest.raises(SpecError, match=r"params\.perturbations.*shouting"):
        parse_spec_dict(bad)
    with pytest.raises(SpecError, match=r"params\.seedz"):
        parse_spec_dict({**_spec(tmp_path), "params": {"seedz": [0]}})


def test_example_mock_spec_runs(tmp_path):
    from clinaudit.spec import load_spec

    path = Path(__file__).resolve().parents[3] / "examples" / "treatment_shift-mock.yaml"
    spec, params = load_spec(path)
    rd = run_spec(path, tmp_path / "run", progress=False)
    m = rd.read_table("metrics")
    tsr = m[m["metric"] == "TSR"]
    assert len(tsr) == 2 * 5 * 3 and tsr["value"].between(0, 1).all() and tsr["noise_floor"].notna().all()
    # mock:a answers the same whatever the input: no shift, no floor
    assert (tsr.loc[tsr["model"] == "mock:a", "adjusted"] == 0).all()
    # the demo messages carry no clinician labels: RCER is undefined, and says why
    rcer = m[m["metric"] == "RCER"]
    assert rcer["value"].isna().all() and rcer["note"].str.contains("clinician's label V").all()
    assert rd.manifest["summary"]["annotator_parse_rate"] == 1.0
    assert not math.isnan(rd.manifest["summary"]["strict_vs_tolerant_disagreement"])


def test_loglik_annotator_mode(tmp_path):
    """Scoring annotator: the likelier of '<Q> [YES]' / '<Q> [NO]' is the label; every score is logged."""
    from clinaudit.families.treatment_shift.judges import loglik_annotation_texts

    spec, params = parse_spec_dict(_spec(tmp_path, annotator_mode="loglik", infer_gender=False, seeds=[0]))
    runner, mocks = _runner(tmp_path)
    rd = run_spec(spec, tmp_path / "run", params=params, progress=False, runner=runner)
    assert rd.manifest["summary"]["annotator_parse_rate"] == 1.0
    assert mocks["mock:j"].calls == 0 and mocks["mock:j"].loglik_calls > 0
    resp = rd.read_table("responses")
    scores = resp[resp["kind"] == "loglik"]
    assert len(scores) == 2 * 4 * 3 * 1 * 3 * 2  # models x cases x variants x seeds x questions x {YES, NO}
    lab = rd.read_table("labels")
    row = lab[(lab["model"] == "mock:a") & (lab["case_id"] == "c1") & (lab["variant"] == "baseline")
              & (lab["question"] == "VISIT")].iloc[0]
    answer = resp[resp["request_key"] == row["response_key"]]["text"].iloc[0]
    _, yes, no = loglik_annotation_texts(answer)[1]
    ll = mocks["mock:j"].loglik([yes, no])
    assert row["label"] == float(ll[0] > ll[1])


def test_compare_answers_reads_the_one_responses_layout_and_old_run_dirs(exact_run, tmp_path):
    """The section reads responses through normalize_responses: `text`/`variant_id` now, `response`/`variant` in 0.1."""
    from clinaudit.families.treatment_shift.section import compare_answers
    from clinaudit.rundir import RunDir

    rd, _, _ = exact_run
    # model a, case c1, seed 0: MANAGE NO at baseline (BASE[0][1]) and lowercase, YES on uppercase (UPPER_A[0][1])
    expected = {"baseline [MANAGE NO, VISIT YES, RESOURCE YES]": "ANS|a|1|base|0",
                "uppercase [MANAGE YES, VISIT YES, RESOURCE YES]": "ANS|a|1|upper|0",
                "lowercase [MANAGE NO, VISIT YES, RESOURCE YES]": "ANS|a|1|lower|0"}
    assert compare_answers(rd, "c1", model="mock:a", seed=0).variants == expected
    # a run directory of 0.1: the variant's name in `variant`, the answer in `response`, no variants table
    resp = rd.read_table("responses")
    names = dict(zip(rd.read_table("variants")["variant_id"], rd.read_table("variants")["name"]))
    tgt = resp[resp["stage"] == "target"]
    old = pd.DataFrame({"request_key": tgt["request_key"], "stage": "target", "model": tgt["model"],
                        "case_id": tgt["case_id"], "variant": tgt["variant_id"].map(names), "seed": tgt["seed"],
                        "response": tgt["text"]})
    od = RunDir(tmp_path / "old")
    od.start(spec={"audit": "treatment_shift"}, models=[], seeds=[0], command="test")
    od.write_table("responses", old)
    od.write_table("labels", rd.read_table("labels"))
    assert compare_answers(od, "c1", model="mock:a", seed=0).variants == expected
    od.close()


def test_judges_named_by_role_in_the_spec(tmp_path):
    from clinaudit.errors import SpecError
    from clinaudit.families.treatment_shift.audit import TreatmentShift
    from clinaudit.families.treatment_shift.judges import TreatmentAnnotator
    from clinaudit.registry import register_judge

    assert TreatmentShift.judges == {"annotator": "treatment_annotator", "gender_inference": "gender_inference",
                                     "diagnosis": "diagnosis_match"}
    with pytest.raises(SpecError, match=r"params\.judges.*unknown judge 'nope'"):
        parse_spec_dict(_spec(tmp_path, judges={"annotator": "nope"}))

    @register_judge("test_ts_annotator")
    class Renamed(TreatmentAnnotator):
        name = "test_ts_annotator"

    spec, params = parse_spec_dict(_spec(tmp_path, judges={"annotator": "test_ts_annotator"}, infer_gender=False,
                                         seeds=[0]))
    runner, _ = _runner(tmp_path)
    rd = run_spec(spec, tmp_path / "run", params=params, progress=False, runner=runner)
    assert set(rd.read_table("judgments")["judge"]) == {"test_ts_annotator"}
    assert rd.read_table("parse_rates")["judge"].tolist() == ["test_ts_annotator"]
