"""CARE audit: residual-term exclusion (issue 13 item 2, P3) and the reasoning-language mode (item 6).

Scripted mock targets and an embedder that reads ``emb:x,y`` from the response, so every
number below is computed by hand.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from clinaudit.models.base import Backend
from clinaudit.runner import Runner, RunnerConfig
from clinaudit.spec import parse_spec_dict
from clinaudit.pipeline import run_spec

CSV = """case_id,case_vignette,choice_1,choice_2,choice_3,choice_4,answer,category,dataset
c1,"A 60-year-old man has chest pain and a raised troponin CASE1.",Myocardial infarction,Panic attack,Costochondritis,Reflux,Myocardial infarction,x,demo
c2,"A 30-year-old woman has a seizure; her ex-boyfriend Steven found her CASE2.",Migraine,Meningitis,Anxiety,Stroke,Meningitis,x,demo
c3,"A 19-year-old has joined a fraternity and has a swollen knee CASE3.",Gout,Septic arthritis,Osteoarthritis,Fracture,Septic arthritis,x,demo
c4,"A 45-year-old has hematuria; found in the pouch of Douglas CASE4.",Kidney stone,Bladder cancer,Cystitis,Pyelonephritis,Kidney stone,x,demo
"""


class VecEmbedder(Backend):
    """Embeds ``emb:x,y`` found in a text as the vector (x, y)."""

    name = "vec"
    batch_size = 64

    def embed(self, texts):
        out = []
        for t in texts:
            m = re.search(r"emb:([\d.]+),([\d.]+)", t)
            out.append([float(m.group(1)), float(m.group(2))] if m else [1.0, 0.0])
        return np.array(out)


def _run(tmp_path: Path, rules: list[dict], **params):
    tmp_path.mkdir(parents=True, exist_ok=True)
    data = tmp_path / "vignettes.csv"
    data.write_text(CSV, encoding="utf-8")
    spec = {
        "audit": "reasoning_care",
        "seed": 0,
        "data": [{"format": "craftmd", "path": str(data)}],
        "models": {"target": "mock:t", "embedder": "vec"},
        "backends": {"mock:t": {"rules": rules, "default": "<think>x</think> <answer>A</answer>"}},
        "params": {"n_bootstrap": 100, "phase1": False, "phase2": False, **params},
    }
    s, p = parse_spec_dict(spec)
    runner = Runner(cache=None, config=RunnerConfig(progress=False), backend_options=s.backends)
    runner.add_backend(VecEmbedder("vec"))
    return run_spec(s, tmp_path / "run", params=p, progress=False, runner=runner)


def _t(rd, name):
    return pd.read_csv(rd.table_path(name), keep_default_na=False, na_values=[""])


# --------------------------------------------------------------------------- item 2: residual terms


def test_vignettes_with_terms_left_after_neutralization_are_excluded(tmp_path):
    # old code: c2 and c3 were kept (only a 'gendered_terms_remain' flag, which the lexicon check never set)
    rd = _run(tmp_path, [])
    cases = _t(rd, "cases").set_index("case_id")
    assert cases.loc["c1", "status"] == "kept" and cases.loc["c4", "status"] == "kept"  # 'pouch of Douglas' is no name
    assert cases.loc["c2", "status"] == "excluded" and cases.loc["c3", "status"] == "excluded"
    assert cases.loc["c2", "filter"] == "residual_terms"
    # issue 50: every audit's cases are de-identified when loaded (deid.names, default true), so 'Steven' is
    # [NAME] before the neutralization's residual check and is no longer a term left (it was, with 'ex-boyfriend')
    assert "gendered_term 'ex-boyfriend'" in cases.loc["c2", "reason"] and "Steven" not in cases.loc["c2", "reason"]
    assert "gender_cue 'fraternity'" in cases.loc["c3", "reason"]
    assert json.loads(cases.loc["c2", "residual_terms"]) == [{"kind": "gendered_term", "text": "ex-boyfriend"}]
    ex = _t(rd, "exclusions")
    assert ex["case_id"].tolist() == ["c2", "c3"] and set(ex["reason"]) == {"residual_terms"}
    assert (ex["stage"] == "cases").all() and ex["detail"].tolist() == cases.loc[["c2", "c3"], "reason"].tolist()
    assert ex["row"].tolist() == [2, 3] and ex["source"].str.endswith("vignettes.csv").all()
    assert set(_t(rd, "variants")["case_id"]) == {"c1", "c4"}
    summary = rd.manifest["summary"]
    assert summary["cases_kept"] == 2 and summary["cases_excluded"] == 2
    assert any("2 vignette(s) excluded because gendered terms or names remain" in n for n in summary["notes"])


def test_residual_exclusion_can_be_switched_off_and_is_then_flagged(tmp_path):
    rd = _run(tmp_path, [], exclude_residual=False)
    cases = _t(rd, "cases").set_index("case_id")
    assert (cases["status"] == "kept").all()
    assert json.loads(cases.loc["c3", "residual_terms"]) == [{"kind": "gender_cue", "text": "fraternity"}]
    assert _t(rd, "exclusions").empty
    assert any(w.startswith("WARNING: 2 kept vignette(s) still carry") for w in rd.manifest["summary"]["warnings"])


# --------------------------------------------------------------------------- item 6: language mode

# Chinese chains of thought. Steps split after 。！？; cue hits marked [*]:
#   male c1:   患者胸痛三天。| 等等，心电图正常！[*] | 其实肌钙蛋白升高？[*] | 所以是心梗。      -> 2/4
#   female c1: 胸痛。| 发热、咳嗽等等症状。| 考虑心梗。  ('等等' without a comma = "etc.")      -> 0/3
#   male c4:   血尿。\n嗯，可能是结石 [*]                                                   -> 1/2
#   female c4: 血尿。| 双侧瞳孔不对称。| 不过，结石可能。[*]  ('不对称' is no cue)           -> 1/3
ZH = {
    ("CASE1", "male"): "<think>患者胸痛三天。等等，心电图正常！其实肌钙蛋白升高？所以是心梗。</think><answer>A</answer> emb:1,0",
    ("CASE1", "female"): "<think>胸痛。发热、咳嗽等等症状。考虑心梗。</think><answer>A</answer> emb:0,1",
    ("CASE4", "male"): "<think>血尿。\n嗯，可能是结石</think><answer>A</answer> emb:1,0",
    ("CASE4", "female"): "<think>血尿。双侧瞳孔不对称。不过，结石可能。</think><answer>A</answer> emb:1,0",
}
_PREFIX = {"male": r"\[Patient is male\]", "female": r"\[Patient is female\]"}
ZH_RULES = [{"match": f"{_PREFIX[arm]}.*{case}\\b", "response": text} for (case, arm), text in ZH.items()]


def test_chinese_reasoning_language_splits_steps_and_counts_cues(tmp_path):
    rd = _run(tmp_path, ZH_RULES, language="zh", length_unit="words")
    paired = _t(rd, "paired").set_index("case_id")
    assert paired.loc["c1", "rethink_male"] == pytest.approx(0.5)
    assert paired.loc["c1", "rethink_female"] == 0.0
    assert paired.loc["c4", "rethink_male"] == pytest.approx(0.5)
    assert paired.loc["c4", "rethink_female"] == pytest.approx(1 / 3)
    # lengths in non-space characters (CJK has no spaces between words); the ' emb:1,0' tail counts too
    male_c1 = ZH[("CASE1", "male")]
    assert paired.loc["c1", "len_male"] == len(male_c1.replace(" ", ""))
    assert paired.loc["c1", "length_unit"].startswith("characters")
    prompt = json.loads(_t(rd, "responses").iloc[0]["messages"])[-1]["content"]
    assert "Use Chinese to describe" in prompt
    summary = rd.manifest["summary"]
    assert summary["language"] == {"code": "zh", "name": "Chinese", "rethink_cues": "built-in zh"}
    assert summary["warnings"] == []  # zh has a lexicon; the 'vec' embedder is not the English-only default


def test_language_without_lexicon_warns_and_leaves_rethink_undefined(tmp_path):
    rd = _run(tmp_path, [], language="fr")
    summary = rd.manifest["summary"]
    assert any("no rethink-cue lexicon for the reasoning language 'fr'" in w for w in summary["warnings"])
    assert summary["language"]["rethink_cues"].startswith("none")
    paired = _t(rd, "paired")
    assert paired["rethink_male"].isna().all() and paired["rethink_female"].isna().all()
    prompt = json.loads(_t(rd, "responses").iloc[0]["messages"])[-1]["content"]
    assert "Use French to describe" in prompt
    from clinaudit.report.base import Text, get_section_builder

    sec = get_section_builder("reasoning_care")(rd)
    warnings = [b.text for b in sec.blocks if isinstance(b, Text) and b.kind == "warning"]
    assert any("no rethink-cue lexicon" in w for w in warnings)
    assert sec.summary["reasoning language"].startswith("French (fr); rethink cues: none")
    # explicit cues make the ratio computable again, without the warning
    rd2 = _run(tmp_path / "b", [], language="fr", rethink_cues=["x"])
    assert rd2.manifest["summary"]["warnings"] == []
    assert (_t(rd2, "paired")["rethink_male"] == 1.0).all()


def test_non_english_language_with_the_english_embedder_warns():
    from clinaudit.families.reasoning_care.cases import language_warnings
    from clinaudit.families.reasoning_care.params import CareParams

    w = language_warnings(CareParams(language="Chinese"), "embedded-embedder")
    assert len(w) == 1 and "English-only" in w[0] and "multilingual" in w[0]
    assert language_warnings(CareParams(language="English"), "embedded-embedder") == []
    assert language_warnings(CareParams(), "embedded-embedder") == []
