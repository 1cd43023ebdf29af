"""One registry with lazy built-ins and entry-point plugins (clinaudit.registry)."""

from __future__ import annotations

import sys
import textwrap

import pytest

from clinaudit import registry as reg
from clinaudit.registry import Registry, load_plugins, registry


def _fake_distribution(tmp_path, name, entry_points, modules):
    """A dist-info folder on sys.path: what `pip install` leaves, minus the copying."""
    dist = tmp_path / f"{name}-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1\n")
    lines = "\n".join(f"{k} = {v}" for k, v in entry_points.items())
    (dist / "entry_points.txt").write_text(f"[clinaudit.plugins]\n{lines}\n")
    for mod, src in modules.items():
        (tmp_path / f"{mod}.py").write_text(textwrap.dedent(src))
    return tmp_path


@pytest.fixture
def plugin_path(tmp_path, monkeypatch):
    src = '''
        from clinaudit.perturb.registry import register_transform
        from clinaudit.models.base import register_backend
        from clinaudit.report.base import register_section, Section
        from clinaudit.registry import register_judge, register_metric

        @register_transform("shout_test", "perturbation", "upper-cases the text (test plugin)")
        def shout(case, rng, **params):
            from clinaudit.records import Variant
            return [Variant(case_id=case.case_id, family="perturbation", name="shout_test", text=case.text.upper())]

        register_backend("echo-test", module="clinaudit.models.mock", attr="MockBackend",
                         summary="test plugin backend", capabilities=["generate"])

        @register_section("plugin_audit_test")
        def section(run):
            return Section(title="Plugin", audit="plugin_audit_test")

        @register_judge("yes_judge_test")
        class YesJudge:
            pass

        @register_metric("flip_test")
        def flip(ref, alt):
            return (ref != alt).astype(float)
    '''
    broken = "raise RuntimeError('boom')\n"
    _fake_distribution(tmp_path, "clinaudit_test_plugin", {"testplug": "ca_testplug", "broken": "ca_broken"},
                       {"ca_testplug": src, "ca_broken": broken})
    monkeypatch.syspath_prepend(str(tmp_path))
    yield tmp_path
    for m in ("ca_testplug", "ca_broken"):
        sys.modules.pop(m, None)
    load_plugins(force=True)


def test_plugin_registers_every_kind_through_entry_points(plugin_path):
    load_plugins(force=True)
    from clinaudit.models.base import list_backends
    from clinaudit.perturb.registry import get_transform, list_transforms
    from clinaudit.report.base import get_section_builder

    assert "shout_test" in list_transforms()
    assert get_transform("shout_test").summary.startswith("upper-cases")
    assert "echo-test" in [b["prefix"] for b in list_backends()]
    assert get_section_builder("plugin_audit_test") is not None
    assert "yes_judge_test" in registry("judge").names()
    flip = registry("metric").get("flip_test")
    import numpy as np

    assert flip(np.array([1, 0]), np.array([1, 1])).tolist() == [0.0, 1.0]


def test_broken_plugin_is_reported_not_fatal(plugin_path):
    load_plugins(force=True)
    info = reg.loaded_plugins()
    assert "testplug" in info["loaded"]
    assert "broken" in info["errors"] and "boom" in info["errors"]["broken"]
    # the built-ins still work
    from clinaudit.perturb.registry import get_transform

    assert get_transform("typo").name == "typo"


def test_lazy_builtin_and_unknown_name_lists_known(tmp_path, monkeypatch):
    mod = tmp_path / "ca_lazy_mod.py"
    mod.write_text("from clinaudit.registry import registry\nregistry('judge').add('lazy_one', object())\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    r: Registry = Registry("thing", builtin={"lazy_one": "ca_lazy_mod"})
    assert "lazy_one" in r.declared()
    assert "ca_lazy_mod" not in sys.modules
    with pytest.raises(KeyError, match="unknown thing 'nope'"):
        r.get("nope")
    sys.modules.pop("ca_lazy_mod", None)


def test_unknown_kind():
    with pytest.raises(KeyError, match="unknown registry kind"):
        registry("gizmo")


def test_loader_registry_lists_builtin_formats_and_names_unknown():
    from clinaudit.errors import InputError
    from clinaudit.loaders.base import DataSource, list_loaders, load_cases

    assert {"csv", "mts", "aci", "craftmd", "medperturb", "demo"} <= set(list_loaders())
    with pytest.raises(InputError, match="unknown data format 'nope'.*csv"):
        load_cases(DataSource(format="nope"))


def test_builtin_judges_are_registered_by_name():
    judges = registry("judge")
    assert {"treatment_annotator", "gender_inference", "diagnosis_match", "incidence", "language_disparity",
            "cot_phase1", "cot_phase2", "mcq_answer"} <= set(judges.names())
    assert judges.get("incidence")().name == "incidence"


def test_scan_finds_each_declaration_form(tmp_path):
    """A built-in piece is declared by its decorator in its own module; the index reads it from the source."""
    from clinaudit.registry import scan_declarations

    (tmp_path / "params.py").write_text('AUDIT = "imported_audit"\n')
    src = textwrap.dedent('''
        """Docs: an example is not a declaration:

            @register_judge("from_a_docstring")
        """
        from .params import AUDIT
        NAME = "constant_judge"

        @register_judge("literal_judge")
        class A: ...

        @register_judge(NAME)
        class B: ...

        @register_section(AUDIT)
        def build(rundir): ...

        register_backend(
            "multi-line", module="m", attr="C", summary="s", capabilities=[])

        for _n in ("x", "y"):
            register_transform(_n, "perturbation", "computed names")

        METRICS = declare_metrics("some_audit")

        @register
        class MyAudit(Audit[P]):
            """An audit."""
            name = "my_audit"
    ''')
    found = scan_declarations(src, tmp_path / "mod.py")
    assert found == [("judge", "literal_judge"), ("judge", "constant_judge"), ("section", "imported_audit"),
                     ("backend", "multi-line"), ("transform", None), ("metric", None), ("audit", "my_audit")]


def test_builtin_index_declares_every_builtin_without_importing_it():
    code = ("import sys\n"
            "from clinaudit.registry import builtin_index, registry\n"
            "idx = builtin_index()\n"
            "print(idx['audit'][0]['treatment_shift'], idx['judge'][0]['mcq_answer'], idx['backend'][0]['hf'])\n"
            "print(registry('judge').module_of('incidence'))\n"
            "print(sorted(m for m in ('torch', 'transformers', 'matplotlib', 'sklearn', "
            "'clinaudit.families.treatment_shift.audit', 'clinaudit.models.hf') if m in sys.modules))\n"
            "import clinaudit.cli.main as m\n"
            "m.build_parser()\n"
            "print(sorted(m for m in ('torch', 'transformers', 'matplotlib', 'sklearn') if m in sys.modules))\n")
    import os
    import subprocess

    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    lines = out.stdout.splitlines()
    assert lines[0].split() == ["clinaudit.families.treatment_shift.audit", "clinaudit.judges.mcq",
                                "clinaudit.models.hf"]
    assert lines[1] == "clinaudit.families.note_generation.judges"
    assert lines[2] == "[]"  # reading the index imports none of them
    assert lines[3] == "[]"  # `clinaudit --help` imports nothing heavy


def test_a_miss_names_the_known_and_the_closest():
    with pytest.raises(KeyError, match=r"unknown judge 'incidense'; known: .*incidence.*; did you mean 'incidence'\?"):
        registry("judge").get("incidense")


def test_misses_of_audits_backends_and_formats_suggest_the_closest():
    from clinaudit.errors import BackendError, InputError, SpecError
    from clinaudit.loaders.base import DataSource, load_cases
    from clinaudit.models.base import get_backend
    from clinaudit.spec import get_recipe

    with pytest.raises(SpecError, match=r"unknown audit 'treatment_shfit'; known audits: .*; did you mean "
                                        r"'treatment_shift'\?"):
        get_recipe("treatment_shfit")
    with pytest.raises(BackendError, match=r"unknown model backend 'mokc'.*; did you mean 'mock'\?"):
        get_backend("mokc:x")
    with pytest.raises(InputError, match=r"unknown data format 'jsnol'.*; did you mean 'jsonl'\?"):
        load_cases(DataSource(format="jsnol"))
    with pytest.raises(SpecError) as far:
        get_recipe("zzzzzz")
    assert "did you mean" not in str(far.value)
