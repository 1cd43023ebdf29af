"""Treatment-shift audit: LLM rewrites, conversational settings, call estimate, interrupt and resume."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pandas as pd
import pytest

from clinaudit.cache import ResponseCache
from clinaudit.models.mock import MockBackend
from clinaudit.records import ModelRequest
from clinaudit.runner import Runner, RunnerConfig
from clinaudit.spec import get_recipe, parse_spec_dict
from clinaudit.pipeline import make_context, run_spec


def _runner(tmp_path: Path, backends: dict[str, MockBackend]) -> Runner:
    """A runner on the run directory's own cache (``tmp_path/run/cache.sqlite``) with these mocks."""
    (tmp_path / "run").mkdir(parents=True, exist_ok=True)
    runner = Runner(cache=ResponseCache(tmp_path / "run" / "cache.sqlite"), config=RunnerConfig(progress=False))
    for b in backends.values():
        runner.add_backend(b)
    return runner


# --------------------------------------------------------------------------- LLM rewrites


def test_llm_rewrite_and_gender_inference_on_removed_text(tmp_path):
    data = tmp_path / "m.csv"
    data.write_text("case_id,message,gender\nc1,She says CASE1 has a cough.,female\nc2,He says CASE2 has a rash.,male\n")

    def rewrite(req: ModelRequest) -> str | None:
        text = req.prompt_text()
        if "remove the gender markers" in text:
            body = text.split("\n")[-1]
            return re.sub(r"\b(She|He)\b", "They", body)
        if "patient's gender" in text:
            return "GENDER [MALE]" if "They" in text else "GENDER [FEMALE]"
        if "ANSWER" in text:
            return "MANAGE [NO]\nVISIT [YES]\nRESOURCE [YES]"
        return "ANSWER"

    mock = MockBackend("mock:m", responder=rewrite)
    spec, params = parse_spec_dict({
        "audit": "treatment_shift",
        "data": [{"format": "csv", "path": str(data), "columns": {"id": "case_id", "text": "message"}}],
        "models": {"target": "mock:m", "judge": "mock:m", "embedder": "mock:m"},
        "params": {"perturbations": ["gender_removal"], "seeds": [0], "temperature": 0.0, "n_resamples": 20},
    })
    rd = run_spec(spec, tmp_path / "run", params=params, progress=False, runner=_runner(tmp_path, {"m": mock}))
    var = rd.read_table("variants")
    removed = var[var["name"] == "gender_removal"].set_index("case_id")["text"]
    assert removed.to_dict() == {"c1": "They says CASE1 has a cough.", "c2": "They says CASE2 has a rash."}
    gi = rd.read_table("gender_inference")
    assert set(gi["source_variant"]) == {"gender_removal"} and set(gi["inferred_gender"]) == {"male"}
    resp = rd.read_table("responses")
    assert (resp["stage"] == "perturb").sum() == 2  # the rewrite calls are logged with their prompts
    assert resp.loc[resp["stage"] == "perturb", "messages"].str.contains("remove the gender").all()


FAIL_CASES = """case_id,message,gender
c1,Patient CASE1 reports a dry cough.,female
c2,Patient CASE2 reports a sore throat.,male
c3,Patient CASE3 reports a mild fever.,female
c4,patient case4 reports a small rash.,male
"""


def _failing_rewrites(tmp_path: Path, **params):
    """uncertain: c1, c2 rewritten; c3's call fails, c4 comes back empty. The target hedges iff the text does."""
    data = tmp_path / "f.csv"
    data.write_text(FAIL_CASES)

    def rewrite(req: ModelRequest) -> str:
        text = req.prompt_text()
        body = text.split("\n")[-1]
        case = int(re.search(r"case(\d)", body, re.I).group(1))
        if case == 3:
            raise RuntimeError("rewrite backend down")
        return "" if case == 4 else body + " Maybe it is nothing?"

    def target(req: ModelRequest) -> str:
        user = req.messages[-1].content
        case = int(re.search(r"case(\d)", user, re.I).group(1))
        return f"ANS {case} {'hedged' if 'Maybe' in user else 'plain'}"

    def judge(req: ModelRequest) -> str:
        return f"MANAGE [{'YES' if 'hedged' in req.prompt_text() else 'NO'}]\nVISIT [YES]\nRESOURCE [YES]"

    backends = {"r": MockBackend("mock:r", responder=rewrite), "t": MockBackend("mock:t", responder=target),
                "j": MockBackend("mock:j", responder=judge)}
    backends["r"].batch_size = 1  # the failing call fails alone
    spec, parsed = parse_spec_dict({
        "audit": "treatment_shift",
        "data": [{"format": "csv", "path": str(data), "columns": {"id": "case_id", "text": "message"}}],
        "models": {"target": "mock:t", "judge": "mock:j", "rewrite": "mock:r"},
        "params": {"perturbations": ["uncertain", "lowercase"], "seeds": [0], "temperature": 0.0, "n_resamples": 20,
                   "similarity_gate": False, "infer_gender": False,
                   # 2 of 4 uncertain rewrites are valid: measured at a 0.5 threshold (the default 0.8 would make
                   # the perturbation not measured, tested in test_treatment_shift_validity.py)
                   "min_valid_share": 0.5, **params},
    })
    return run_spec(spec, tmp_path / "run", params=parsed, progress=False, runner=_runner(tmp_path, backends))


def _tsr(rd, pert: str) -> tuple[float, int]:
    m = rd.read_table("metrics")
    r = m[(m["perturbation"] == pert) & (m["question"] == "MANAGE") & (m["metric"] == "TSR")].iloc[0]
    return float(r["value"]), int(r["n"])


def test_failed_rewrites_are_dropped_and_listed(tmp_path):
    rd = _failing_rewrites(tmp_path)
    # c1, c2 hedge (MANAGE YES vs NO at baseline): 2 of 2 flip. The old code kept c3, c4 with the original
    # text, whose answers equal the baseline's: TSR 2/4 = 0.5.
    assert _tsr(rd, "uncertain") == (1.0, 2)
    ex = rd.read_table("exclusions")
    var = ex[ex["stage"] == "variants"].set_index("case_id")
    assert sorted(var.index) == ["c3", "c4"] and set(var["perturbation"]) == {"uncertain"}
    assert "model error" in var.loc["c3", "reason"] and "rewrite backend down" in var.loc["c3", "detail"]
    assert "empty output" in var.loc["c4", "reason"]
    lab = rd.read_table("labels")
    assert set(lab.loc[lab["variant"] == "uncertain", "case_id"]) == {"c1", "c2"}
    resp = rd.read_table("responses")
    assert (resp["stage"] == "target").sum() == 4 + 2 + 4  # no target call for a dropped variant
    # c4 is already lower case: its lowercase variant equals the baseline text, kept and listed
    un = rd.read_table("unchanged_variants")
    assert un[["case_id", "perturbation"]].values.tolist() == [["c4", "lowercase"]] and un["kept"].all()
    s = rd.manifest["summary"]
    assert (s["variants_failed_rewrite"], s["variants_dropped"], s["variants_unchanged"]) == (2, 2, 1)
    assert any("failed LLM rewrite" in n and "dropped" in n for n in s["notes"])
    from clinaudit.families.treatment_shift.section import build

    blocks = {getattr(b, "title", ""): b for b in build(rd).blocks}
    assert len(blocks["Exclusions: what was left out of the analysis, and why"].df) == 2
    assert len(blocks["Variants identical to the baseline input (kept)"].df) == 1


def test_failed_rewrites_kept_on_request(tmp_path):
    rd = _failing_rewrites(tmp_path, keep_failed_rewrites=True)
    assert _tsr(rd, "uncertain") == (0.5, 4)  # the published behaviour, now opt-in and said loudly
    assert (rd.read_table("exclusions")["stage"] == "variants").sum() == 0
    un = rd.read_table("unchanged_variants")
    assert sorted(map(tuple, un[["case_id", "perturbation"]].values.tolist())) == [
        ("c3", "uncertain"), ("c4", "lowercase"), ("c4", "uncertain")]
    assert any("KEPT" in n for n in rd.manifest["summary"]["notes"])


def test_inferred_gender_never_falls_back_to_gendered_text(tmp_path):
    from clinaudit.errors import SpecError

    data = tmp_path / "g.csv"
    data.write_text("case_id,message,gender\nc1,She says CASE1 has a cough.,female\nc2,He says CASE2 has a rash.,male\n")
    calls: list[str] = []

    def respond(req: ModelRequest) -> str:
        text = req.prompt_text()
        if "remove the gender markers" in text:
            body = text.split("\n")[-1]
            return "" if "CASE2" in body else re.sub(r"\b(She|He)\b", "They", body)
        if "patient's gender" in text:
            calls.append(text)
            return "GENDER [FEMALE]" if "She" in text else "GENDER [MALE]"
        if "ANSWER" in text:
            return "MANAGE [NO]\nVISIT [YES]\nRESOURCE [YES]"
        return "ANSWER"

    def spec(**params):
        return {"audit": "treatment_shift",
                "data": [{"format": "csv", "path": str(data), "columns": {"id": "case_id", "text": "message"}}],
                "models": {"target": "mock:m", "judge": "mock:m"},
                # 1 of 2 gender_removal rewrites valid: measured at a 0.5 threshold (the default is 0.8)
                "params": {"seeds": [0], "temperature": 0.0, "n_resamples": 20, "similarity_gate": False,
                           "min_valid_share": 0.5, **params}}

    # asked for explicitly without the gender-removed text: refused when the spec is read
    with pytest.raises(SpecError, match=r"params.*infer_gender.*gender_removal"):
        parse_spec_dict(spec(perturbations=["uppercase"], infer_gender=True))
    # by default: not computed, and the run says so (the old code inferred it from the gendered baseline)
    s1, p1 = parse_spec_dict(spec(perturbations=["uppercase"]))
    rd = run_spec(s1, tmp_path / "run1", params=p1, progress=False,
                  runner=_runner(tmp_path / "r1", {"m": MockBackend("mock:m", responder=respond)}))
    assert calls == [] and not rd.has_table("gender_inference")
    summ = rd.manifest["summary"]
    assert summ["gender_inference_source"] == "not computed"
    assert any("model-inferred gender NOT computed" in n for n in summ["notes"])
    sub = rd.read_table("subgroups")
    assert "model_inferred" not in set(sub.get("gender_source", pd.Series(dtype=str)).dropna())
    # gender_removal run, but c2's rewrite came back empty: c2 is not inferred (old code: read from "He says ...")
    s2, p2 = parse_spec_dict(spec(perturbations=["gender_removal"]))
    rd2 = run_spec(s2, tmp_path / "run2", params=p2, progress=False,
                   runner=_runner(tmp_path / "r2", {"m": MockBackend("mock:m", responder=respond)}))
    gi = rd2.read_table("gender_inference")
    assert gi[["case_id", "source_variant", "inferred_gender"]].values.tolist() == [["c1", "gender_removal", "male"]]
    assert len(calls) == 1 and "They says CASE1" in calls[0]
    ex = rd2.read_table("exclusions")
    assert ex[["stage", "case_id"]].values.tolist() == [["variants", "c2"], ["gender_inference", "c2"]]


# --------------------------------------------------------------------------- conversations

VIGNETTES = """case_id,case_vignette,choice_1,choice_2,choice_3,choice_4,answer,category
v1,A patient CASE1 has crushing chest pain.,Pericarditis,Myocardial infarction,Reflux,Costochondritis,Myocardial infarction,Cardiology
v2,A patient CASE2 has a painful swollen big toe.,Pseudogout,Gout,Cellulitis,Septic arthritis,Gout,Rheumatology
v3,A patient CASE3 has fever and neck stiffness.,Migraine,Meningitis,Sinusitis,Tension headache,Meningitis,Neurology
"""
GOLD = {1: "Myocardial infarction", 2: "Gout", 3: "Meningitis"}
WRONG = {1: "Pericarditis", 2: "Pseudogout", 3: "Migraine"}


def doctor_and_patient(req: ModelRequest) -> str:
    system = req.messages[0].content if req.messages and req.messages[0].role == "system" else ""
    text = req.prompt_text()
    case = int(re.search(r"case(\d)", text, re.I).group(1))
    if system.startswith("You are a patient"):
        vignette = system.split("Case vignette:")[-1]
        return f"I am CASE{case}, " + ("IT HURTS A LOT." if vignette.isupper() else "it hurts.")
    if system.startswith("You are an AI doctor. Based on"):  # vignette setting
        user = req.messages[-1].content
        return WRONG[case] if user.isupper() else GOLD[case]
    return f"Final diagnosis: {GOLD[case]}"  # single-turn doctor


def test_conversational_accuracy_and_table4(tmp_path):
    data = tmp_path / "v.csv"
    data.write_text(VIGNETTES)
    mock = MockBackend("mock:doc", responder=doctor_and_patient)
    spec, params = parse_spec_dict({
        "audit": "treatment_shift",
        "data": [{"format": "craftmd", "path": str(data)}],
        "models": {"target": "mock:doc", "judge": "mock:doc"},
        "params": {"treatment": False, "settings": ["vignette", "single_turn"], "perturbations": ["uppercase"],
                   "seeds": [0], "temperature": 0.0, "diagnosis_judge": "rule", "n_resamples": 50},
    })
    rd = run_spec(spec, tmp_path / "run", params=params, progress=False, runner=_runner(tmp_path, {"d": mock}))
    conv = rd.read_table("conversations")
    assert len(conv) == 3 * 2 * 2 and conv["correct"].notna().all()
    acc = rd.read_table("accuracy").set_index("group")["value"].to_dict()
    assert acc == {"single_turn/baseline": 1.0, "single_turn/uppercase": 1.0, "vignette/baseline": 1.0,
                   "vignette/uppercase": 0.0}
    ch = rd.read_table("accuracy_change")
    same = ch[(ch["comparison"] == "vs same-setting baseline")].set_index("group")
    assert same.loc["vignette/uppercase", "value"] == -1.0 and same.loc["vignette/uppercase", "n"] == 3
    # paired layer: sign-flip permutation over the 3 cases (all changed -1): exact p = 2/8, as McNemar's was
    assert same.loc["vignette/uppercase", "test"] == "sign-flip permutation over cases"
    assert same.loc["vignette/uppercase", "p"] == pytest.approx(0.25)
    assert same.loc["single_turn/uppercase", "value"] == 0.0
    vs_vig = ch[(ch["comparison"] == "vs vignette baseline")].set_index("group")
    assert vs_vig.loc["single_turn/baseline", "value"] == 0.0 and vs_vig.loc["vignette/uppercase", "value"] == -1.0
    assert (ch["correction"] == "bonferroni").all() and ch["family"].str.len().gt(0).all()
    t4 = rd.read_table("table4")
    assert float(t4.set_index("perturbation").loc["uppercase", "vignette"]) == -100.0  # not significant: no "*"
    # every conversation call is in the responses table with its full messages
    resp = rd.read_table("responses")
    assert resp["request_key"].isin(set(k for c in conv["calls"] for k in json.loads(c))).sum() > 0
    assert rd.manifest["summary"]["diagnosis_decided_rate"] == 1.0


GENDERED = """case_id,case_vignette,answer,gender
v1,A patient CASE1 has crushing chest pain and feels awful.,Myocardial infarction,female
v2,A patient CASE2 has a painful swollen big toe.,Gout,male
v3,A patient CASE3 has fever and neck stiffness.,Meningitis,female
v4,A patient CASE4 is happy but has a mild rash.,Contact dermatitis,male
"""
GOLD4 = {1: "Myocardial infarction", 2: "Gout", 3: "Meningitis", 4: "Contact dermatitis"}
# upper-case vignettes answered right only for these (case, seed): female 0/4, male 3/4
UPPER_RIGHT = {(2, 0), (2, 1), (4, 1)}


def _gendered_run(tmp_path: Path):
    data = tmp_path / "g.csv"
    data.write_text(GENDERED)

    def doctor(req: ModelRequest) -> str:
        user = req.messages[-1].content
        if "You compare a model's final diagnosis" in req.prompt_text():  # what the rule cannot decide
            return "MATCH [NO]"
        case = int(re.search(r"case(\d)", user, re.I).group(1))
        upper = "PATIENT CASE" in user
        return GOLD4[case] if (not upper or (case, req.seed) in UPPER_RIGHT) else "Migraine"

    spec, params = parse_spec_dict({
        "audit": "treatment_shift",
        "data": [{"format": "csv", "path": str(data), "columns": {"id": "case_id", "text": "case_vignette"}}],
        "models": {"target": "mock:doc", "judge": "mock:doc"},
        "params": {"treatment": False, "settings": ["vignette"], "perturbations": ["uppercase"],
                   "conversation_seeds": [0, 1], "temperature": 0.0, "n_resamples": 200},
    })
    mock = MockBackend("mock:doc", responder=doctor)
    return run_spec(spec, tmp_path / "run", params=params, progress=False, runner=_runner(tmp_path, {"d": mock}))


def test_conversational_gender_gap_fig7_and_table1(tmp_path):
    import numpy as np
    from scipy.stats import permutation_test
    from vaderSentiment.vaderSentiment import SentimentIntensityAnalyzer

    rd = _gendered_run(tmp_path)
    gaps = rd.read_table("accuracy_gender_gap")
    level = gaps[gaps["metric"] == "accuracy_gap"].set_index("perturbation")
    up = level.loc["uppercase"]
    assert (up["value_a"], up["value_b"], up["value"]) == (0.0, 0.75, -0.75)  # female 0/4, male 3/4
    assert (up["n_cases_a"], up["n_cases_b"], up["n"]) == (2, 2, 8)
    # independent recomputation: case-level accuracies, gender labels permuted over the 4 cases (6 relabellings)
    res = permutation_test((np.array([0.0, 0.0]), np.array([1.0, 0.5])), lambda a, b, axis: a.mean(axis) - b.mean(axis),
                           permutation_type="independent", vectorized=True, n_resamples=9999)
    assert up["p"] == pytest.approx(res.pvalue) == pytest.approx(1 / 3)
    # cases resampled within gender: female always 0, male pooled accuracy in {0.5, 0.75, 1}
    assert -1.0 <= up["ci_low"] <= -0.75 <= up["ci_high"] <= -0.5
    assert level.loc["baseline", "value"] == 0.0 and level.loc["baseline", "p"] == 1.0
    assert up["p_adj"] == pytest.approx(2 / 3) and up["correction"] == "bonferroni"  # 2 tests: baseline, uppercase
    change = gaps[gaps["metric"] == "accuracy_change_gap"].set_index("perturbation").loc["uppercase"]
    # change vs the vignette baseline (all right): female -4/4, male -1/4
    assert (change["value_a"], change["value_b"], change["value"]) == (-1.0, -0.25, -0.75)
    # Table 1: words, characters and VADER compound of the inputs, recomputed here
    t1 = rd.read_table("table1").set_index("perturbation")
    texts = [line.split(",")[1] for line in GENDERED.strip().splitlines()[1:]]
    sia = SentimentIntensityAnalyzer()
    for name, tx in (("baseline", texts), ("uppercase", [t.upper() for t in texts])):
        row = t1.loc[name]
        assert row["n_texts"] == 4 and row["mean_words"] == (10 + 9 + 8 + 10) / 4
        assert row["mean_chars"] == pytest.approx(np.mean([len(t) for t in tx]))
        assert row["mean_sentiment"] == pytest.approx(np.mean([sia.polarity_scores(t)["compound"] for t in tx]))
    assert t1.loc["Average perturbation", "mean_sentiment"] == pytest.approx(t1.loc["uppercase", "mean_sentiment"])
    assert list(t1.index) == ["uppercase", "Average perturbation", "baseline"]
    # both appear in the report section
    from clinaudit.families.treatment_shift.section import build

    titles = [getattr(b, "title", "") for b in build(rd).blocks]
    assert "P2 Table 1: input length and sentiment per perturbation" in titles
    assert any(t.startswith("P2 Fig. 7") for t in titles)


def test_recipe_computes_no_statistics_itself():
    """Bootstraps, tests and corrections come from clinaudit.stats (the paired layer), not from the recipe."""
    root = Path(__file__).resolve().parents[3] / "src" / "clinaudit" / "families" / "treatment_shift"
    for name in ("audit.py", "accuracy.py", "variants.py", "annotate.py", "conversations.py", "prompts.py", "params.py",
                 "summary.py"):
        src = (root / name).read_text(encoding="utf-8")
        for word in ("bootstrap_ci", "paired_binary_test", "apply_correction", "permutation_test", "mcnemar",
                     "scipy"):
            assert word not in src, f"{name} uses {word}"


# --------------------------------------------------------------------------- estimate, interrupt, resume


def _oncqa_sized(tmp_path: Path, n: int = 61) -> Path:
    rows = ["case_id,message,gender"]
    for i in range(n):
        rows.append(f"q{i:03d},Patient CASE{i:03d} asks whether the new cough after cycle {i % 6 + 1} needs a visit.,"
                    f"{'female' if i % 2 else 'male'}")
    p = tmp_path / "oncqa_sized.csv"
    p.write_text("\n".join(rows) + "\n")
    return p


def _big_spec(tmp_path: Path, perturbations: list[str]) -> dict:
    return {
        "audit": "treatment_shift",
        "data": [{"format": "csv", "path": str(_oncqa_sized(tmp_path)), "columns": {"id": "case_id", "text": "message"}}],
        "models": {"target": ["mock:a", "mock:b"], "judge": "mock:j", "rewrite": "mock:r", "embedder": "mock:r"},
        "backends": {"mock:a": {"price_per_1k_input": 0.001, "price_per_1k_output": 0.002},
                     "mock:b": {"price_per_1k_input": 0.01, "price_per_1k_output": 0.03}},
        "params": {"perturbations": perturbations, "n_resamples": 20, "infer_gender": False},
    }


NINE = ["gender_swap", "gender_removal", "uncertain", "colorful", "exclamation", "typo", "whitespace", "lowercase",
        "uppercase"]


def test_estimate_oncqa_sized_spec(tmp_path):
    spec, params = parse_spec_dict(_big_spec(tmp_path, NINE))
    ctx = make_context(spec, params, tmp_path / "run", progress=False)
    est = get_recipe("treatment_shift").estimate(ctx)
    # every distinct request counted once (the runner sends identical requests once): per case, the baseline
    # and each regex variant that differs from it (and from each other), plus the 4 LLM rewrites, at 3 seeds
    from clinaudit.perturb import perturb_cases

    cases = ctx.cases()
    regex = perturb_cases(cases, NINE[4:], seed=0, protected="ehr")
    distinct = sum(len({c.text} | {v.text for v in regex if v.case_id == c.case_id}) + 4 for c in cases)
    per_model = distinct * 3
    assert per_model < 61 * (1 + 9) * 3  # some regex variants leave a message unchanged (e.g. no typo drawn)
    assert est.calls["mock:a"] == per_model and est.calls["mock:b"] == per_model
    assert est.calls["mock:j"] == 2 * per_model  # one annotation per distinct answer
    # the LLM rewrites, and the similarity gate's embeddings of the 61 originals and 244 rewrites (embedder mock:r)
    assert est.calls["mock:r"] == 61 * 4 + 61 + 61 * 4
    assert est.total_calls() == 2 * per_model + 2 * per_model + 61 * 4 + 61 + 61 * 4
    assert est.cached == {} or sum(est.cached.values()) == 0
    text = est.to_text(spec.backends)
    assert "mock:a" in text and f"{2 * per_model} calls" in text
    costs = [n for n in est.notes if n.startswith("cost ")]
    assert len(costs) == 2 and any("estimated cost" in n for n in est.notes)
    ctx.rundir.close()


def test_estimate_counts_consultations_up_to_their_caps(tmp_path):
    """Dry run: an answer not cached yet never ends a consultation, so the count is the upper bound."""
    data = tmp_path / "v.csv"
    data.write_text(VIGNETTES)
    spec, params = parse_spec_dict({
        "audit": "treatment_shift",
        "data": [{"format": "craftmd", "path": str(data)}],
        "models": {"target": "mock:doc", "judge": "mock:j"},
        "params": {"treatment": False, "settings": ["vignette", "single_turn", "multi_turn"],
                   "perturbations": ["uppercase"], "seeds": [0], "temperature": 0.0, "max_turns": 5},
    })
    ctx = make_context(spec, params, tmp_path / "run", progress=False)
    est = get_recipe("treatment_shift").estimate(ctx)
    ctx.rundir.close()
    n = 3 * 2  # consultations per setting: 3 vignettes x (baseline + uppercase), one seed
    # doctor (target): vignette 1 call, single_turn 1, multi_turn up to max_turns = 5
    assert est.calls["mock:doc"] == n * (1 + 1 + 5)
    # patient (the judge model by default): single_turn 1, multi_turn 5; then the diagnosis judge once per
    # consultation whose (not yet known) diagnosis the rule cannot decide
    assert est.calls["mock:j"] == n * (1 + 5) + 3 * n
    assert any("upper bound" in note for note in est.notes)


RUN_SCRIPT = r"""
import json, os, re, signal, sys
from pathlib import Path

from clinaudit.cache import ResponseCache
from clinaudit.models.mock import MockBackend
from clinaudit.runner import Runner, RunnerConfig
from clinaudit.spec import parse_spec_dict
from clinaudit.pipeline import run_spec

tmp, limit = Path(sys.argv[1]), int(sys.argv[2])
seen_log = open(tmp / "seen.log", "a", encoding="utf-8")
judged = [0]


def counting(name, answer):
    def respond(req):
        if name == "j":
            if limit and judged[0] >= limit:
                os.kill(os.getpid(), signal.SIGKILL)  # hard stop in the middle of the judge stage
            judged[0] += 1
        seen_log.write(name + "|" + req.model_dump_json(exclude={"meta"}) + "\n")
        seen_log.flush()
        return answer(req)
    return respond


def tgt(req):
    user = req.messages[-1].content
    return f"ANS {req.model} {req.meta['case_id']} seed={req.seed} up={user.isupper()}"


def jdg(req):
    up = "up=True" in req.prompt_text()
    return f"MANAGE [{'YES' if up else 'NO'}]\nVISIT [YES]\nRESOURCE [YES]"


def rew(req):  # echo the message back, marked with the rewrite asked for
    text = req.prompt_text()
    tag = next(t for k, t in (("swap", "[swapped]"), ("remove", "[neutral]"), ("uncertain", "maybe"),
                              ("colorful", "wow")) if k in text)
    return text.split(chr(10))[-1] + " " + tag


spec, params = parse_spec_dict(json.loads((tmp / "spec.json").read_text()))
runner = Runner(cache=ResponseCache(tmp / "run" / "cache.sqlite"), config=RunnerConfig(progress=False))
for name, fn in (("a", tgt), ("b", tgt), ("j", jdg), ("r", rew)):
    mock = MockBackend("mock:" + name, responder=counting(name, fn))
    mock.batch_size = 1  # every answer is stored before the next call
    runner.add_backend(mock)
run_spec(spec, tmp / "run", params=params, progress=False, runner=runner)
"""


def _run_subprocess(tmp_path: Path, limit: int) -> int:
    import subprocess
    import sys

    script = tmp_path / "run_audit.py"
    script.write_text(RUN_SCRIPT, encoding="utf-8")
    proc = subprocess.run([sys.executable, str(script), str(tmp_path), str(limit)], capture_output=True, text=True,
                          timeout=600)
    return proc.returncode


def test_killed_run_resumes_without_repeating_a_call(tmp_path):
    import signal

    spec_dict = _big_spec(tmp_path, NINE)
    (tmp_path / "spec.json").write_text(json.dumps(spec_dict))
    (tmp_path / "run").mkdir()
    rc = _run_subprocess(tmp_path, limit=500)  # SIGKILL after 500 judge calls
    assert rc == -signal.SIGKILL
    first = (tmp_path / "seen.log").read_text().splitlines()
    assert sum(k.startswith("j|") for k in first) == 500
    # before resuming, the estimate sees what is stored
    spec, params = parse_spec_dict(spec_dict)
    ctx = make_context(spec, params, tmp_path / "run", progress=False)
    est = get_recipe("treatment_shift").estimate(ctx)
    ctx.rundir.close()
    assert est.cached["mock:j"] >= 500 and est.cached["mock:a"] == est.calls["mock:a"]
    assert _run_subprocess(tmp_path, limit=0) == 0
    seen = (tmp_path / "seen.log").read_text().splitlines()
    assert len(seen) == len(set(seen))  # no request was sent twice over the two runs
    from clinaudit.rundir import RunDir

    rd = RunDir(tmp_path / "run")
    resp = rd.read_table("responses")
    # and every request of the run was sent once (the table also lists the similarity gate's embedding calls,
    # kind embed, which the generation mocks do not see)
    assert len(seen) == resp.loc[resp["kind"] != "embed", "request_key"].nunique()
    tgt = resp[resp["stage"] == "target"]
    assert len(tgt) == 2 * 61 * 10 * 3  # every (model, case, variant, seed) answer is listed ...
    # ... a variant the perturbation left unchanged (e.g. no whitespace drawn) shares the baseline's request
    assert sum(k.startswith(("a|", "b|")) for k in seen) == tgt["request_key"].nunique() > 2 * 61 * 9 * 3
    assert sum(k.startswith("r|") for k in seen) == 61 * 4
    m = rd.read_table("metrics")
    assert len(m) == 2 * 9 * 3 * 3
    up = m[(m["perturbation"] == "uppercase") & (m["question"] == "MANAGE") & (m["metric"] == "TSR")]
    assert (up["value"] == 1.0).all() and (up["adjusted"] == 1.0).all()
