"""A new audit family added as a contributor would: only new modules, imported only from ``clinaudit.extend``.

The family below (an audit with its section and metric declarations, a judge, a perturbation and a
backend, in six modules of a new package) is written to a temporary folder, found through the
``clinaudit.plugins`` entry point and run on its own backend; no file of clinaudit is edited, and
every ``clinaudit`` import of the new modules names ``clinaudit.extend``.
"""

from __future__ import annotations

import ast
import sys
import textwrap

import pandas as pd
import pytest

from clinaudit.registry import load_plugins

FAMILY = {
    "backend.py": '''
        from clinaudit.extend import Backend, ModelResponse, register_backend


        @register_backend("loud-ext", summary="answers LOUD to a shouted prompt (extension test)",
                          capabilities=["generate"])
        class LoudBackend(Backend):
            name = "loud-ext"

            def generate(self, requests):
                out = []
                for req in requests:
                    text = req.messages[-1].content
                    letters = [c for c in text if c.isalpha()]
                    loud = bool(letters) and all(c.isupper() for c in letters)
                    answer = ("LOUD" if loud else "calm") if req.meta.get("stage") == "target" else text
                    out.append(ModelResponse(request_key="", model=self.spec, text=answer))
                return out
    ''',
    "transform.py": '''
        from clinaudit.extend import Variant, register_transform


        @register_transform("shout_ext", "perturbation", "upper-cases the message (extension test)")
        def shout(case, rng=None, **params):
            return [Variant(variant_id=Variant.make_id(case.case_id, "perturbation", "shout_ext"),
                            case_id=case.case_id, family="perturbation", name="shout_ext",
                            text=case.text.upper())]
    ''',
    "judge.py": '''
        from clinaudit.extend import Judge, ModelRequest, Unparseable, register_judge


        @register_judge("loudness_ext")
        class LoudnessJudge(Judge):
            name = "loudness_ext"

            def build(self, item, model):
                return ModelRequest.chat(model, item, max_tokens=4, meta={"stage": "judge"})

            def parse(self, text):
                if text not in ("LOUD", "calm"):
                    raise Unparseable(text)
                return {"loud": int(text == "LOUD")}
    ''',
    "metrics.py": '''
        from clinaudit.extend import MetricDecl, register_metric, register_metric_decls


        @register_metric("louder_ext")
        def louder(ref, alt):
            return alt.astype(float) - ref.astype(float)


        register_metric_decls("shout_ext", MetricDecl("louder_rate", "higher_is_worse", margin=0.1))
    ''',
    "audit.py": '''
        from clinaudit.extend import (
            Audit,
            JudgeChoice,
            PairedFrame,
            StageOutput,
            register_audit,
            run_judge,
            to_frame,
        )
        from clinaudit.extend import ModelRequest
        from .metrics import louder
        from .transform import shout


        class ShoutParams(JudgeChoice):
            n_resamples: int = 200


        @register_audit
        class ShoutAudit(Audit[ShoutParams]):
            name = "shout_ext"
            summary = "does shouting the message change the reply? (extension test)"
            params_model = ShoutParams
            judges = {"loudness": "loudness_ext"}

            def variants(self, cases):
                return [v for c in cases for v in shout(c)]

            def calls(self, variants):
                target = self.ctx.model("target")
                reqs = [ModelRequest.chat(target, c.text, meta={"stage": "target", "case_id": c.case_id,
                                                                  "arm": "baseline"}) for c in self.stages.cases]
                reqs += [ModelRequest.chat(target, v.text, meta={"stage": "target", "case_id": v.case_id,
                                                                   "arm": "shout"}) for v in variants]
                return reqs

            def judgments(self, calls):
                ok = calls.ok()
                items = [(str(i), resp.text or "") for i, (_, resp) in enumerate(ok)]
                judged = run_judge(self.ctx.runner, self.judge("loudness"), items, self.ctx.model("target"))
                labels = [dict(req.meta, loud=j.value["loud"]) for (req, _), j in zip(ok, judged)]
                return StageOutput(to_frame(judged), labels)

            def paired(self, labels):
                import pandas as pd

                df = pd.DataFrame(labels).pivot(index="case_id", columns="arm", values="loud").reset_index()
                return df.rename(columns={"baseline": "ref", "shout": "alt"}).assign(arm="shout")

            def results(self, pairs):
                pf = PairedFrame.from_pairs(pairs, metric=louder)
                return pf.compare(metric="louder_rate", audit="shout_ext", scale=100.0, alternative="greater",
                                  n_resamples=self.params.n_resamples, family="shouting")
    ''',
    "section.py": '''
        from clinaudit.extend import Section, Table, register_section


        @register_section("shout_ext")
        def build(rundir):
            sec = Section(title="Shouting (extension test)", audit="shout_ext")
            sec.blocks.append(Table(title="Louder replies", df=rundir.table_or_empty("results"), name="shout"))
            return sec
    ''',
    "__init__.py": '''
        """A new family: shouting. Each module registers its own piece."""

        from . import audit, backend, judge, metrics, section, transform  # noqa: F401
    ''',
}


def _clinaudit_imports(source: str) -> set[str]:
    out = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and not node.level and (node.module or "").startswith("clinaudit"):
            out.add(node.module or "")
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.startswith("clinaudit"))
    return out


@pytest.fixture
def family(tmp_path, monkeypatch):
    pkg = tmp_path / "ca_shout_family"
    pkg.mkdir()
    for name, src in FAMILY.items():
        (pkg / name).write_text(textwrap.dedent(src))
    dist = tmp_path / "ca_shout_family-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: ca-shout-family\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text("[clinaudit.plugins]\nshout = ca_shout_family\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    yield pkg
    for m in [m for m in sys.modules if m.startswith("ca_shout_family")]:
        sys.modules.pop(m)
    load_plugins(force=True)


def test_new_family_imports_only_the_one_surface(family):
    imports = {name: _clinaudit_imports((family / name).read_text()) for name in FAMILY}
    assert {m for found in imports.values() for m in found} == {"clinaudit.extend"}
    assert all(imports[name] for name in FAMILY if name != "__init__.py")


def test_new_family_registers_every_piece_and_runs(family, tmp_path):
    load_plugins(force=True)
    from clinaudit.extend import registry

    assert registry("audit").get("shout_ext").summary.startswith("does shouting")
    assert registry("transform").get("shout_ext").family == "perturbation"
    assert "loudness_ext" in registry("judge").names()
    assert "louder_ext" in registry("metric").names() and "shout_ext/louder_rate" in registry("metric").names()
    assert registry("backend").get("loud-ext").module == "ca_shout_family.backend"
    assert registry("section").get("shout_ext").__module__ == "ca_shout_family.section"

    from clinaudit.extend import run_audit

    spec = {"audit": "shout_ext", "name": "shout", "seed": 0,
            "data": [{"format": "demo:patient_messages", "limit": 6}],
            "models": {"target": "loud-ext:x"}, "params": {"n_resamples": 200}}
    res = run_audit(spec, tmp_path / "run")
    results = pd.read_csv(tmp_path / "run" / "tables" / "results.csv")
    # every shouted message gets LOUD, every plain one calm: the change is +1 in each of the 6 cases
    assert results.loc[0, "metric"] == "louder_rate" and results.loc[0, "value"] == 100.0
    assert results.loc[0, "n_cases"] == 6 and results.loc[0, "family"] == "shouting"
    assert results.loc[0, "p"] == pytest.approx(2.0 ** -6)  # exact one-sided sign-flip test over 6 cases
    assert results.loc[0, "verdict"] == "bias"  # through the declared margin (0.1, higher is worse)
    html = res.report().read_text(encoding="utf-8")
    assert "Shouting (extension test)" in html


def test_extending_guide_imports_only_the_one_surface():
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "docs" / "extending.md").read_text(encoding="utf-8")
    modules = set(re.findall(r"\bfrom (clinaudit[\w.]*) import", text)) | set(re.findall(r"\bimport (clinaudit[\w.]*)", text))
    assert modules == {"clinaudit.extend"}


def test_names_moved_since_0_1_still_import_with_one_deprecation_warning():
    import warnings

    import clinaudit.pipeline

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        from clinaudit.spec import run_spec
    assert run_spec is clinaudit.pipeline.run_spec
    assert [(w.category, str(w.message)) for w in caught] == [
        (DeprecationWarning, "clinaudit.spec.run_spec moved to clinaudit.pipeline.run_spec; import it from there "
                             "(the old place goes in 0.4)")]
    with pytest.raises(ImportError):
        from clinaudit.spec import no_such_name  # noqa: F401
