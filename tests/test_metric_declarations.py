"""Metric declarations are registered pieces of kind ``metric`` that the core reads (issue 29 item 2)."""

from __future__ import annotations

import ast
from pathlib import Path

import pandas as pd
import pytest

from clinaudit.metrics.declared import (
    DEFAULT_MARGINS,
    MetricDecl,
    declaration_for,
    declare_metrics,
    declared_metrics,
)
from clinaudit.registry import registry
from clinaudit.report.compare_metrics import declared_compare_metrics, metrics_for

SRC = Path(__file__).resolve().parents[1] / "src" / "clinaudit"


def test_every_builtin_audit_declares_its_metrics():
    for audit in ("treatment_shift", "note_generation", "reasoning_care", "association", "classifier_gaps",
                  "hurtfulwords_pipeline", "adaptive_attack"):
        decls = declared_metrics(audit)
        assert decls, audit
        for name, d in decls.items():
            assert d.name == name and d.audit == audit
            assert f"{audit}/{name}" in registry("metric").names()


def test_default_margins_by_scale():
    tsr = declaration_for("treatment_shift", "TSR")
    assert (tsr.direction, tsr.scale, tsr.default_margin, tsr.effect) == ("higher_is_worse", "proportion", 0.05, True)
    dbl = declaration_for("note_generation", "ΔBL")
    assert (dbl.direction, dbl.default_margin) == ("two_sided", 5.0)  # ΔBL is in percentage points
    assert declaration_for("association", "log_prob_bias_score").default_margin is None  # no natural unit
    assert declaration_for("reasoning_care", "drift_cohens_d").default_margin == 0.2
    assert declaration_for("classifier_gaps", "attribute_auc").null == 0.5
    assert declaration_for("treatment_shift", "no_such_metric") is None
    assert DEFAULT_MARGINS == {"proportion": 0.05, "percent": 5.0, "standardized": 0.2, "other": None}


def test_a_declaration_is_validated():
    with pytest.raises(ValueError, match="direction"):
        MetricDecl("x", "lower")
    with pytest.raises(ValueError, match="scale"):
        MetricDecl("x", scale="bits")
    with pytest.raises(ValueError, match="margin"):
        MetricDecl("x", margin=-1)


def test_a_plugin_declares_metrics_the_same_way():
    score = lambda paired: pd.DataFrame({"case_id": paired["case_id"], "score": paired["flip"]})
    declare_metrics("plugin_audit_x", MetricDecl("flip_rate", "higher_is_worse", margin=0.1, compare=score))
    d = declaration_for("plugin_audit_x", "flip_rate")
    assert d.default_margin == 0.1 and d.audit == "plugin_audit_x"
    (m,) = declared_compare_metrics("plugin_audit_x")
    assert (m.name, m.direction) == ("flip_rate", "lower")
    paired = pd.DataFrame({"case_id": ["a", "b"], "flip": [1.0, 0.0]})
    assert m.score(paired)["score"].tolist() == [1.0, 0.0]


def test_compare_reads_the_declarations():
    names = [m.name for m in metrics_for("treatment_shift", pd.DataFrame())]
    assert names == ["TSR", "RCR"]  # declaration order
    assert {m.name: m.direction for m in declared_compare_metrics("reasoning_care")} == {
        "accuracy": "higher", "gender_accuracy_gap": "lower", "gender_drift": "lower", "abs_delta_len": "lower"}
    undeclared = metrics_for("no_such_audit", pd.DataFrame({"case_id": ["a"], "x": [0.5]}))
    assert [(m.name, m.direction) for m in undeclared] == [("x", "")]


def test_no_core_module_imports_a_family():
    """Outside families/, no module imports a family's modules (``clinaudit.families.<name>``)."""
    offenders = []
    for path in SRC.rglob("*.py"):
        rel = path.relative_to(SRC)
        if rel.parts[0] == "families":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                mod = node.module.split(".")
                if "families" in mod and mod.index("families") < len(mod) - 1:
                    offenders.append(f"{rel}: {node.module}")
    assert offenders == []
