"""The pipeline core: stage tables, the framework's call log, the dry-run estimate, nameable judges."""

from __future__ import annotations

import json
import re
from typing import Any

import numpy as np
import pandas as pd
import pytest
from pydantic import ConfigDict

from clinaudit.errors import InputError, SpecError
from clinaudit.judges.base import Judge, Unparseable, run_judge
from clinaudit.pipeline import (
    LAYOUTS, RESPONSE_COLUMNS, Audit, Calls, JudgeChoice, StageOutput, conform, normalize_responses, register,
)
from clinaudit.pipeline.stages import StageLayoutError
from clinaudit.records import Case, ModelRequest, Variant, to_frame
from clinaudit.registry import register_judge, registry
from clinaudit.rundir import RunDir
from clinaudit.spec import get_recipe, parse_spec_dict
from clinaudit.pipeline import make_context, run_spec

AUDIT = "pipeline_probe"


@register_judge("probe_yes")
class ProbeJudge(Judge[str]):
    """YES/NO at the start of the text."""

    name = "probe_yes"
    max_tokens = 4

    def build(self, item: str, model: str) -> ModelRequest:
        return ModelRequest.chat(model, "Is this urgent? " + item, max_tokens=self.max_tokens)

    def parse(self, text: str) -> dict[str, Any]:
        m = re.match(r"\s*(YES|NO)\b", text or "")
        if not m:
            raise Unparseable(text[:20])
        return {"yes": int(m.group(1) == "YES")}


@register_judge("probe_strict")
class StrictJudge(ProbeJudge):
    """Accepts only 'YES.' (so the mock judge's plain YES is unparseable)."""

    name = "probe_strict"

    def parse(self, text: str) -> dict[str, Any]:
        if (text or "").strip() != "YES.":
            raise Unparseable(text[:20])
        return {"yes": 1}


class ProbeParams(JudgeChoice):
    model_config = ConfigDict(extra="forbid")


FAIL = {"results": False}  # a test sets it to kill the run after the model calls


@register
class ProbeAudit(Audit[ProbeParams]):
    name = AUDIT
    summary = "test audit: two prompts per case, one judge"
    params_model = ProbeParams
    judges = {"urgency": "probe_yes"}

    def variants(self, cases: list[Case]) -> list[Variant]:
        return [Variant(variant_id=f"{c.case_id}:{arm}", case_id=c.case_id, family="test", name=arm,
                        text=(c.text if arm == "plain" else c.text.upper())) for c in cases for arm in ("plain", "upper")]

    def calls(self, variants: list[Variant]) -> list[ModelRequest]:
        return [ModelRequest.chat(self.ctx.model("target"), v.text, max_tokens=8,
                                  meta={"stage": "target", "case_id": v.case_id, "variant_id": v.variant_id})
                for v in variants]

    def judgments(self, calls: Calls) -> StageOutput:
        ok = calls.ok()
        items = [(req.meta["variant_id"], resp.text or "") for req, resp in ok]
        js = run_judge(self.ctx.runner, self.judge("urgency"), items, self.ctx.model("judge"), max_attempts=3)
        table = to_frame(js).assign(case_id=[req.meta["case_id"] for req, _ in ok])
        labels = pd.DataFrame({"case_id": table["case_id"], "arm": [i.split(":")[1] for i in table["item_id"]],
                               "label": [j.value.get("yes", np.nan) if j.status == "ok" else np.nan for j in js]})
        return StageOutput(table=table, value=labels)

    def paired(self, labels: pd.DataFrame) -> pd.DataFrame:
        wide = labels.pivot(index="case_id", columns="arm", values="label").reset_index()
        changed = np.where(wide[["plain", "upper"]].isna().any(axis=1), np.nan, wide["plain"] != wide["upper"])
        return wide.assign(changed=changed.astype(float))

    def results(self, paired: pd.DataFrame) -> pd.DataFrame:
        if FAIL["results"]:
            raise RuntimeError("boom after the calls")
        return pd.DataFrame([{"audit": AUDIT, "metric": "changed", "value": paired["changed"].mean(),
                              "n": len(paired)}])

    def finish(self) -> dict[str, Any]:
        return {"finished": True}


def _spec(**params: Any) -> dict[str, Any]:
    return {
        "audit": AUDIT, "name": "probe",
        "data": [{"format": "demo:patient_messages", "limit": 3}],
        "models": {"target": "mock:t", "judge": "mock:j"},
        "backends": {
            "mock:t": {"rules": [{"match": "(?:[A-Z,.]+ ){5}", "response": "LOUD"}, {"match": ".", "response": "quiet"}]},
            "mock:j": {"rules": [{"match": "LOUD", "response": "YES"}, {"match": ".", "response": "NO"}]},
        },
        "params": params,
    }


def _run(tmp_path, **params: Any) -> RunDir:
    spec, p = parse_spec_dict(_spec(**params))
    return run_spec(spec, tmp_path / "run", params=p, progress=False)


def test_stage_tables_written_in_their_layout(tmp_path):
    rd = _run(tmp_path)
    assert rd.manifest["status"] == "complete"
    stages = rd.manifest["stages"]
    # 3 cases, 2 variants each, 6 target calls; 2 distinct replies -> judged per variant (6 judgments)
    assert {k: v["rows"] for k, v in stages.items()} == {
        "cases": 3, "variants": 6, "calls": 6, "judgments": 6, "paired": 3, "results": 1}
    for stage in ("cases", "variants", "judgments", "paired"):
        df = rd.read_table(LAYOUTS[stage].table)
        assert list(df.columns[: len(LAYOUTS[stage].keys)]) == list(LAYOUTS[stage].keys)
    res = rd.read_table("results")
    assert res.loc[0, "value"] == 1.0 and res.loc[0, "n"] == 3  # upper case -> LOUD -> YES in every case
    assert rd.manifest["summary"]["finished"] is True


def test_responses_one_layout_every_call(tmp_path):
    rd = _run(tmp_path)
    resp = rd.read_table("responses")
    assert list(resp.columns) == RESPONSE_COLUMNS
    target = resp[resp["stage"] == "target"]
    assert len(target) == 6 and set(target["text"]) == {"LOUD", "quiet"}
    assert set(target["variant_id"]) == {f"{c}:{a}" for c in target["case_id"].unique() for a in ("plain", "upper")}
    judge = resp[resp["model"] == "mock:j"]
    # one row per judged item (its item_id in the row), two distinct prompts (one per distinct reply)
    assert sorted(judge["item_id"]) == sorted(target["variant_id"]) and judge["request_key"].nunique() == 2
    assert (judge["stage"] == "judge:probe_yes").all() and (judge["prompt"].str.startswith("user: Is this")).all()


def test_every_judge_retry_is_a_row_and_unparseable_is_counted(tmp_path):
    rd = _run(tmp_path, judges={"urgency": "probe_strict"})
    js = rd.read_table("judgments")
    assert (js["judge"] == "probe_strict").all()
    # the mock answers "YES"/"NO", never "YES.": every item unparseable after 3 attempts, never NO
    assert (js["status"] == "unparseable").all() and (js["attempts"] == 3).all()
    judge_rows = rd.read_table("responses").query("model == 'mock:j'")
    assert sorted(judge_rows["attempt"].value_counts().to_dict().items()) == [(0, 6), (1, 6), (2, 6)]
    assert rd.read_table("paired")["changed"].isna().all()


def test_unknown_judge_name_or_role_is_a_spec_error():
    with pytest.raises(SpecError, match=r"params\.judges.*unknown judge 'nope'"):
        parse_spec_dict(_spec(judges={"urgency": "nope"}))
    with pytest.raises(SpecError, match=r"params\.judges\.severity.*no judge role 'severity'.*urgency"):
        parse_spec_dict(_spec(judges={"severity": "probe_yes"}))


def test_killed_run_keeps_its_calls_and_resumes_from_cache(tmp_path, monkeypatch):
    monkeypatch.setitem(FAIL, "results", True)
    with pytest.raises(RuntimeError, match="boom"):
        _run(tmp_path)
    monkeypatch.setitem(FAIL, "results", False)
    streamed = pd.read_csv(tmp_path / "run" / "tables" / "responses.csv")
    # streamed as the calls completed: 6 target calls and 6 judge requests (2 distinct prompts)
    assert list(streamed.columns) == RESPONSE_COLUMNS and len(streamed) == 12
    assert streamed["request_key"].nunique() == 8
    rd = _run(tmp_path)  # the same spec again: a resume
    usage = rd.manifest["runs"][-1]["usage_total"]
    assert usage["calls"] == 0 and usage["cache_hits"] == 12  # every request answered from the cache


def test_dry_run_estimate_counts_the_declared_stages(tmp_path):
    spec, p = parse_spec_dict(_spec())
    ctx = make_context(spec, p, tmp_path / "dry")
    est = get_recipe(AUDIT).estimate(ctx)
    # 6 target calls; the judge sees 6 distinct placeholder replies (an upper bound of the 2 real ones)
    assert est.calls == {"mock:t": 6, "mock:j": 6} and est.cached == {"mock:t": 0, "mock:j": 0}
    assert list((tmp_path / "dry" / "tables").iterdir()) == []  # a dry run writes nothing
    ctx.rundir.close()
    _run(tmp_path)
    ctx = make_context(spec, p, tmp_path / "run")
    est = get_recipe(AUDIT).estimate(ctx)
    assert est.calls == {"mock:t": 6, "mock:j": 2} and est.cached == {"mock:t": 6, "mock:j": 2}
    ctx.rundir.close()


def test_conform_checks_key_columns_and_orders_them():
    df = pd.DataFrame({"extra": [1], "case_id": ["c1"], "text": ["t"], "dataset": ["d"]})
    assert list(conform("cases", df).columns) == ["case_id", "dataset", "text", "extra"]
    with pytest.raises(StageLayoutError, match="judgments.*status"):
        conform("judgments", pd.DataFrame({"item_id": ["1"], "judge": ["j"]}), audit="x")
    assert list(conform("variants", pd.DataFrame()).columns) == list(LAYOUTS["variants"].keys)


def test_responses_of_older_run_dirs_are_normalized():
    old = pd.DataFrame({"request_key": ["k"], "stage": ["target"], "variant": ["v1"], "response": ["hi"]})
    new = normalize_responses(old)
    assert list(new.columns) == RESPONSE_COLUMNS
    assert new.loc[0, "text"] == "hi" and new.loc[0, "variant_id"] == "v1"


def test_builtin_families_declare_what_they_provide():
    from clinaudit.families import audit_order, family_modules
    from clinaudit.registry import builtin_index

    from clinaudit.families import family_of

    # derived, not listed: the families are the packages under families/, in their ORDER; the audits are
    # every @register class a family module declares, family by family (a new one needs no edit here)
    fams = family_modules()
    names = [m.__name__.rsplit(".", 1)[1] for m in fams]
    assert [getattr(m, "ORDER", 100) for m in fams] == sorted(getattr(m, "ORDER", 100) for m in fams)
    declared = {a: family_of(mod) for a, mod in builtin_index()["audit"][0].items() if family_of(mod)}
    order = audit_order()
    assert sorted(order) == sorted(declared) and len(order) == len(set(order))
    assert [names.index(declared[a]) for a in order] == sorted(names.index(declared[a]) for a in order)
    # the report's order of today's built-ins (a subsequence, so adding an audit or family keeps it true)
    today = ["treatment_shift", "note_generation", "reasoning_care", "association", "classifier_gaps",
             "hurtfulwords_pipeline", "adaptive_attack"]
    assert [a for a in order if a in today] == today
    assert [n for n in names if n in declared.values()] == names
    # every piece a built-in module declares (read from the source, nothing imported) registers under its name
    for kind, (declared, _) in builtin_index().items():
        for name, module in declared.items():
            assert name in registry(kind), (module, kind, name)
    judges = set(registry("judge").names())
    assert {"treatment_annotator", "incidence", "cot_phase1", "mcq_answer", "probe_yes"} <= judges


def test_audit_transforms_listed_but_not_row_wise():
    from clinaudit.perturb import get_transform, perturb_cases

    case = Case(case_id="c1", text="She has had a cough for two weeks.")
    quad = get_transform("care_quadruplet")(case)
    assert [v.name for v in quad] == ["male", "female", "id1", "id2"]
    with pytest.raises(InputError, match="applied by an audit"):
        perturb_cases([case], ["care_quadruplet"])
    assert get_transform("multi_turn").family == "setting"
    assert json.loads(json.dumps(quad[0].provenance))  # provenance is plain data


@register
class MinimalAudit(Audit):
    """Only cases and a result: the run directory still has every stage table and the ledger."""

    name = "pipeline_minimal"
    summary = "test audit without model calls"

    def results(self, paired: Any) -> pd.DataFrame:
        return pd.DataFrame([{"audit": self.name, "metric": "cases", "value": 3.0, "n": 3}])


def test_every_audit_leaves_the_same_run_dir_layout(tmp_path):
    spec, p = parse_spec_dict({"audit": "pipeline_minimal", "data": [{"format": "demo:patient_messages",
                                                                      "limit": 3}]})
    rd = run_spec(spec, tmp_path / "min", params=p, progress=False)
    probe = _run(tmp_path)
    core = {"cases", "variants", "responses", "judgments", "paired", "results", "exclusions"}
    assert core <= set(rd.tables()) and core <= set(probe.tables())
    for table in core - {"cases", "results"}:
        assert rd.read_table(table).empty if table != "exclusions" else rd.table_or_empty(table).empty
    assert list(rd.read_table("judgments").columns) == list(LAYOUTS["judgments"].keys)
    assert list(rd.table_or_empty("exclusions").columns[:3]) == ["stage", "case_id", "reason"]


def test_later_stages_read_earlier_outputs_from_self_stages(tmp_path):
    """The framework hands every stage's output on in `self.stages` (no audit keeps its cases on `self`)."""
    seen: dict[str, Any] = {}

    @register
    class StagesProbe(Audit):
        name = "pipeline_stages_probe"
        summary = "test audit reading self.stages"

        def variants(self, cases: Any) -> Any:
            seen["cases_in_variants"] = [c.case_id for c in self.stages.cases]
            return None

        def results(self, paired: Any) -> pd.DataFrame:
            seen["variants_in_results"] = self.stages.variants
            seen["n_cases"] = len(self.stages.cases)
            return pd.DataFrame([{"audit": self.name, "metric": "cases", "value": float(len(self.stages.cases)),
                                  "n": len(self.stages.cases)}])

    spec, p = parse_spec_dict({"audit": "pipeline_stages_probe",
                               "data": [{"format": "demo:patient_messages", "limit": 2}]})
    rd = run_spec(spec, tmp_path / "stages", params=p, progress=False)
    assert seen["cases_in_variants"] == list(rd.read_table("cases")["case_id"].astype(str))
    assert seen["n_cases"] == 2 and seen["variants_in_results"] is None


def test_model_of_a_role_refuses_a_list_and_models_reads_it(tmp_path):
    """`ctx.model(role)` is one model: a list in the spec is a SpecError naming models.<role>, never its first."""
    spec, p = parse_spec_dict({**_spec(), "models": {"target": ["mock:t", "mock:u"], "judge": "mock:j",
                                                       "augmenter": ["mock:a"]}})
    ctx = make_context(spec, p, tmp_path / "run", progress=False)
    with pytest.raises(SpecError, match=r"models\.target.*got a list of 2 \(mock:t, mock:u\)"):
        ctx.model("target")
    with pytest.raises(SpecError, match=r"models\.augmenter.*got a list of 1"):
        ctx.model("augmenter")
    assert ctx.models("target") == ["mock:t", "mock:u"]
    assert ctx.model("judge") == "mock:j" and ctx.models("judge") == ["mock:j"]
    assert ctx.model("rewrite", "mock:r") == "mock:r"
    with pytest.raises(SpecError, match=r"models\.rewrite.*required"):
        ctx.model("rewrite")


def test_calls_stage_hands_on_more_than_its_requests_with_a_call_plan(tmp_path):
    """`CallPlan(requests, value)`: the framework sends the requests and the next stage reads `calls.value`."""
    from clinaudit.pipeline import CallPlan

    seen: dict[str, Any] = {}

    @register
    class PlanProbe(Audit):
        name = "pipeline_plan_probe"
        summary = "test audit whose calls stage hands on a value"

        def calls(self, variants: Any) -> CallPlan:
            reqs = [ModelRequest.chat("mock:t", c.text, max_tokens=4, meta={"stage": "target", "case_id": c.case_id})
                    for c in self.stages.cases]
            return CallPlan(reqs, value={"consultations": len(reqs)})

        def judgments(self, calls: Calls) -> None:
            seen["value"], seen["texts"] = calls.value, [r.text for r in calls.responses]
            seen["stage_calls"] = self.stages.calls
            return None

    spec, p = parse_spec_dict({"audit": "pipeline_plan_probe", "models": {"target": "mock:t"},
                               "backends": {"mock:t": {"rules": [{"match": ".", "response": "ok"}]}},
                               "data": [{"format": "demo:patient_messages", "limit": 2}]})
    rd = run_spec(spec, tmp_path / "plan", params=p, progress=False)
    assert seen["value"] == {"consultations": 2} and seen["texts"] == ["ok", "ok"]
    assert seen["stage_calls"].value == {"consultations": 2} and len(seen["stage_calls"].requests) == 2
    assert len(rd.read_table("responses")) == 2


def test_stage_output_without_a_table_hands_its_value_on_and_writes_nothing(tmp_path):
    """`StageOutput(table=None, value=v)`: no table and no manifest entry for the stage, `v` reaches the next."""
    seen: dict[str, Any] = {}

    @register
    class NoTableProbe(Audit):
        name = "pipeline_no_table_probe"
        summary = "test audit whose judgments stage hands on a value without a table"

        def judgments(self, calls: Any) -> StageOutput:
            return StageOutput(table=None, value={"n": len(self.stages.cases)})

        def paired(self, judged: Any) -> None:
            seen["paired_got"], seen["stage_value"] = judged, self.stages.judgments
            return None

    spec, p = parse_spec_dict({"audit": "pipeline_no_table_probe",
                               "data": [{"format": "demo:patient_messages", "limit": 2}]})
    rd = run_spec(spec, tmp_path / "nt", params=p, progress=False)
    assert seen["paired_got"] == {"n": 2} and seen["stage_value"] == {"n": 2}
    assert rd.read_table("judgments").empty  # the layout's empty table, written at the end as for any unused stage
    assert "judgments" not in rd.manifest["stages"] and "cases" in rd.manifest["stages"]
