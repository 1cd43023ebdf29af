"""One registry with lazy built-ins and entry-point plugins (clinaudit.registry)."""

from __future__ import annotations

import sys
import textwrap

import pytest

from clinaudit import registry as reg
from clinaudit.registry import load_plugins, registry


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

        from clinaudit.models.mock import MockBackend

        @register_backend("echo-test", summary="test plugin backend", capabilities=["generate"])
        class EchoBackend(MockBackend):
            pass

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


def _package(tmp_path, name, files):
    """A package folder ``name`` under ``tmp_path`` with ``files`` ({relative path: source})."""
    root = tmp_path / name
    root.mkdir()
    (root / "__init__.py").write_text("")
    for rel, src in files.items():
        (root / rel).write_text(textwrap.dedent(src))
    return root


def test_aliased_and_qualified_registrations_are_found_and_register(tmp_path, monkeypatch):
    """The index follows how a module reached the registration function: an alias, a qualified call."""
    from clinaudit.discovery import scan_package

    root = _package(tmp_path, "ca_alias_pkg", {
        "aliased.py": """
            from clinaudit.registry import register_judge as judge

            @judge("aliased_judge_test")
            class Aliased: ...
        """,
        "qualified.py": """
            from clinaudit import registry as reg
            import clinaudit.perturb.registry

            class Qualified: ...

            reg.register_judge("qualified_judge_test")(Qualified)

            @clinaudit.perturb.registry.register_transform("qualified_transform_test", "perturbation", "s")
            def shout(case, rng, **params):
                return []
        """,
    })
    scan = scan_package(root, "ca_alias_pkg")
    assert scan.named["judge"] == {"aliased_judge_test": "ca_alias_pkg.aliased",
                                   "qualified_judge_test": "ca_alias_pkg.qualified"}
    assert scan.named["transform"] == {"qualified_transform_test": "ca_alias_pkg.qualified"}
    assert scan.silent == []
    # and importing the modules registers exactly what the index read
    monkeypatch.syspath_prepend(str(tmp_path))
    import importlib

    importlib.import_module("ca_alias_pkg.aliased")
    importlib.import_module("ca_alias_pkg.qualified")
    assert registry("judge").get("aliased_judge_test").__name__ == "Aliased"
    assert registry("judge").get("qualified_judge_test").__name__ == "Qualified"
    assert registry("transform").get("qualified_transform_test").summary == "s"
    for m in ("ca_alias_pkg.aliased", "ca_alias_pkg.qualified", "ca_alias_pkg"):
        sys.modules.pop(m, None)


def test_a_name_declared_twice_is_an_error_naming_both_files(tmp_path):
    from clinaudit.discovery import RegistryError, scan_package

    root = _package(tmp_path, "ca_dup_pkg", {
        "a.py": 'from clinaudit.registry import register_judge\n\n@register_judge("twice")\nclass A: ...\n',
        "b.py": 'from clinaudit.extend import register_judge\n\n\n@register_judge("twice")\nclass B: ...\n',
    })
    with pytest.raises(RegistryError) as err:
        scan_package(root, "ca_dup_pkg")
    assert str(err.value) == f"judge 'twice' is declared twice: {root / 'a.py'}:3 and {root / 'b.py'}:4"


def test_a_module_importing_a_registration_function_but_declaring_nothing_is_reported(tmp_path):
    """A form the index cannot read (here: the function passed through a variable) must not hide a piece."""
    from clinaudit.discovery import scan_package

    root = _package(tmp_path, "ca_silent_pkg", {
        "hidden.py": """
            from clinaudit.registry import register_judge

            deco = [register_judge][0]

            @deco("hidden_judge")
            class Hidden: ...
        """,
        "face.py": "from clinaudit.registry import register_judge\n\n__all__ = ['register_judge']\n",
    })
    scan = scan_package(root, "ca_silent_pkg")
    assert scan.silent == [f"{root / 'hidden.py'}: imports a registration function but declares nothing the "
                           "index can read"]
    assert scan.named["judge"] == {}


def test_every_builtin_module_importing_a_registration_function_declares_a_piece():
    from clinaudit.registry import builtin_scan

    assert builtin_scan().silent == []


def test_registering_a_second_piece_under_one_name_is_refused_naming_both():
    from clinaudit.discovery import RegistryError
    from clinaudit.registry import register_judge

    class First: ...

    class Second: ...

    register_judge("twice_at_runtime_test")(First)
    register_judge("twice_at_runtime_test")(First)  # the same class again (a reloaded module): replaced
    with pytest.raises(RegistryError, match=r"judge 'twice_at_runtime_test' is registered twice: by "
                                            r"test_registry:.*First \(.*test_registry.py\) and by "
                                            r"test_registry:.*Second"):
        register_judge("twice_at_runtime_test")(Second)
    # a plugin may not take a built-in's name, whether or not the built-in was imported yet
    with pytest.raises(RegistryError, match=r"judge 'incidence' .*clinaudit.families.note_generation.judges.*"
                                            r"note_generation/judges.py.*test_registry.*Second"):
        register_judge("incidence")(Second)


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
    from clinaudit.discovery import scan_module

    (tmp_path / "params.py").write_text('AUDIT = "imported_audit"\n')
    src = textwrap.dedent('''
        """Docs: an example is not a declaration:

            @register_judge("from_a_docstring")
        """
        from clinaudit.metrics.declared import declare_metrics
        from clinaudit.models.base import register_backend
        from clinaudit.perturb.registry import register_transform
        from clinaudit.pipeline import Audit, register
        from clinaudit.registry import register_judge
        from clinaudit.report.base import register_section
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
    found = [(d.kind, d.name) for d in scan_module(src, "pkg.mod", package="pkg", root=tmp_path).declarations]
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


def test_the_kept_index_follows_edits_of_a_module_and_of_the_file_its_constant_comes_from(tmp_path):
    import os

    from clinaudit.discovery import scan_package

    root = _package(tmp_path, "ca_cache_pkg", {
        "names.py": 'JUDGE = "first_name"\n',
        "a.py": "from clinaudit.registry import register_judge\nfrom .names import JUDGE\n\n"
                "@register_judge(JUDGE)\nclass A: ...\n",
    })
    cache = tmp_path / "index.json"
    assert scan_package(root, "ca_cache_pkg", cache=cache).named["judge"] == {"first_name": "ca_cache_pkg.a"}
    assert cache.exists()
    (root / "names.py").write_text('JUDGE = "renamed"\n')  # a.py itself is unchanged
    os.utime(root / "names.py", ns=(1, 1))
    assert scan_package(root, "ca_cache_pkg", cache=cache).named["judge"] == {"renamed": "ca_cache_pkg.a"}
    (root / "b.py").write_text('from clinaudit.registry import register_judge as j\n\n@j("new_one")\nclass B: ...\n')
    assert scan_package(root, "ca_cache_pkg", cache=cache).named["judge"] == {"renamed": "ca_cache_pkg.a",
                                                                             "new_one": "ca_cache_pkg.b"}
