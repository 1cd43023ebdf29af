"""The CARE audit as a declaration over the pipeline's stages: the framework's responses table,
the dry-run count, and judges named in a spec (``params.judges``).

Same scripted scenario as ``test_care_audit.py`` (4 kept vignettes, CASE1 and CASE3 judged).
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from test_care_audit import P1_CASE1, VecEmbedder, _spec

from clinaudit.cache import ResponseCache
from clinaudit.errors import SpecError
from clinaudit.judges.base import Unparseable
from clinaudit.pipeline import normalize_responses
from clinaudit.registry import register_judge
from clinaudit.runner import Runner, RunnerConfig
from clinaudit.spec import get_recipe, parse_spec_dict
from clinaudit.pipeline import make_context, run_spec


def _t(rd, name):
    return pd.read_csv(rd.table_path(name), keep_default_na=False, na_values=[""])


def _run(tmp_path: Path, *, cache: bool, **params):
    spec, p = parse_spec_dict(_spec(tmp_path, **params))
    out = tmp_path / "run"
    runner = Runner(cache=ResponseCache(out / "cache.sqlite") if cache else None, config=RunnerConfig(progress=False),
                    backend_options=spec.backends)
    runner.add_backend(VecEmbedder())
    return run_spec(spec, out, params=p, progress=False, runner=runner)


def test_every_judge_attempt_is_recorded_without_a_cache(tmp_path):
    # old code rebuilt the judge rows from the cache: without one, every attempt but the last had no text
    rd = _run(tmp_path, cache=False)
    resp = normalize_responses(_t(rd, "responses"))
    judge1 = resp[resp["stage"] == "judge:phase1"].sort_values(["case_id", "attempt"])
    assert judge1[judge1["case_id"] == "c1"]["text"].tolist() == ["not json at all", json.dumps(P1_CASE1)]
    assert judge1[judge1["case_id"] == "c3"]["text"].tolist() == [
        '{"psychosomatic_lean": "A_More_Psychosomatic"}', "still not json", "{broken"]
    assert judge1["attempt"].tolist() == [0, 1, 0, 1, 2]
    assert set(judge1["item_id"]) == {"mock:t::c1", "mock:t::c3"}
    # answers: one row per variant, attributable to its case and variant
    answers = resp[resp["stage"] == "answer"]
    variants = _t(rd, "variants")
    assert sorted(answers["variant_id"]) == sorted(variants["variant_id"])
    assert (answers["case_id"] == answers["variant_id"].str.split("::").str[0]).all()
    assert (resp.loc[resp["kind"] == "embed", "model"] == "vec").all()


def test_dry_run_counts_calls_as_upper_bound_when_nothing_is_cached(tmp_path):
    spec, p = parse_spec_dict(_spec(tmp_path))
    ctx = make_context(spec, p, tmp_path / "run", progress=False)
    ctx.runner.add_backend(VecEmbedder())
    try:
        est = get_recipe("reasoning_care").estimate(ctx)
    finally:
        ctx.rundir.close()
    assert est.calls["mock:t"] == 16 and est.cached["mock:t"] == 0
    assert est.calls["mock:j"] == 8 and est.cached.get("mock:j", 0) == 0  # 2 phases x 4 items
    assert est.calls["vec"] == 16  # every answer a distinct placeholder: the upper bound
    assert not (tmp_path / "run" / "tables" / "responses.csv").exists()


@register_judge("care_test_always_a")
class AlwaysA:
    """A test answer parser: every answer reads as option A."""

    name = "care_test_always_a"

    def __init__(self, choices, mode="tolerant"):
        self.choices = choices

    def parse(self, text):
        if "emb:" not in text:
            raise Unparseable("no answer")
        return {"answer": "A"}


def test_a_spec_names_the_answer_parser(tmp_path):
    # gold is A for CASE1, CASE3, CASE4 and B for CASE2: every arm scores 3/4 with this parser
    rd = _run(tmp_path, cache=False, judges={"mcq_answer": "care_test_always_a"}, phase1=False, phase2=False)
    t1 = _t(rd, "care_table1").iloc[0]
    assert (t1["male_acc"], t1["female_acc"], t1["delta"]) == (0.75, 0.75, 0.0)
    j = _t(rd, "judgments")
    assert set(j["judge"]) == {f"care_test_always_a:{arm}" for arm in ("male", "female", "id1", "id2")}
    # the protocol's own strict / tolerant readings are still reported in the paired table
    paired = _t(rd, "paired").set_index("case_id")
    assert paired.loc["c1", "tolerant_female"] == "B" and paired.loc["c1", "answer_female"] == "A"


def test_unknown_judge_role_or_name_is_a_spec_error(tmp_path):
    with pytest.raises(SpecError, match="cot_phase3"):
        parse_spec_dict(_spec(tmp_path, judges={"cot_phase3": "cot_phase1"}))
    with pytest.raises(SpecError, match="no_such_judge"):
        parse_spec_dict(_spec(tmp_path, judges={"cot_phase1": "no_such_judge"}))
