"""The benchmark's seventh development set (benchmarks/deid_dev7.py, issue 50, eighth session): forms taken from real
speech, built at run time from the shared dialogs that host no form in bench_deid_origin.py (skipped when
../shared/data is absent)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from script_modules import load_script

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"


@pytest.fixture(scope="module")
def dev7():
    return load_script("benchmarks/deid_dev7.py", "clinaudit_deid_dev7")


def test_dev7_sources_host_no_form(dev7):
    """The files the forms come from are none of the host files (read from bench_deid_origin.load_dialogs' text)."""
    bench = (ROOT / "benchmarks" / "bench_deid_origin.py").read_text(encoding="utf-8")
    hosts = bench[bench.index("def load_dialogs"): bench.index("def _style")]
    assert re.search(r'"valid"', hosts) and "MTS-Dialog-TestSet-1" in hosts
    for _folder, name in dev7.SOURCES:
        assert f'"{name}' not in hosts, name


def test_dev7_rules_on_written_sentences(dev7):
    """Each kind's rule on sentences written here (the shared data aside)."""
    assert dev7._pronoun("and she said it hurt .", 0) == "and {g} said it hurt ."
    assert dev7._pronoun("i told him that .", 1) == "i told {s} that ."
    assert dev7._pronoun("her knee hurts .", 0) is None  # a possessive "her" is not a person's slot
    assert dev7._relation("my wife made me come in .", 0) == "{g} made me come in ."
    assert dev7._relation("my son and i .", 2) == "my son {g} and i ."
    assert dev7._doctor("i saw doctor lee last week .") == "i saw doctor {s} last week ."
    assert dev7._doctor("the doctor and me .") is None
    assert dev7._question("are you still smoking ?", 0, True) == "{g} , are you still smoking ?"
    assert dev7._question("Do you smoke?", 2, False) == "{g} {s}, do you smoke?"
    assert dev7._question("you are fine .", 0, True) is None
    assert dev7._vocative(["okay .", "any fever ?"], 0, True) == "okay , {g} . any fever ?"
    assert dev7._vocative(["That helps.", "Thank you."], 1, False) == "That helps. Thank you {g}."
    assert dev7._named("hi , martha .", {"patient_firstname": "Martha", "patient_familyname": "Collins"}) \
        == "hi , {g} ."


def test_dev7_forms_shape(dev7):
    if not (DATA / "aci-bench" / "train.csv").exists():
        pytest.skip("../shared/data is absent")
    kinds = dev7.build_kinds(DATA)
    forms = dev7.build(DATA)
    assert forms == dev7.build(DATA)  # a fixed rule: the same forms every run
    assert 150 <= len(forms) <= 300 and len({f.lower() for _, f in forms}) == len(forms)
    assert all(len(v) >= 10 for v in kinds.values()), {k: len(v) for k, v in kinds.items()}
    assert all(who in ("D", "P") and ("{g}" in f or "{s}" in f) for who, f in forms)
    assert all(f.format(g="Ana", s="Lima") for _, f in forms)  # no stray brace
    # both styles of the real files: ACI-Bench lower case with a space before punctuation, MTS-Dialog cased
    assert any(re.search(r"\w ,", f) and f == f.lower() for _, f in forms)
    assert any(re.match(r"[A-Z]", f) for _, f in forms)
    dev5 = load_script("benchmarks/deid_dev5.py", "clinaudit_deid_dev5").DEV5_FORMS
    assert not {f.lower() for _, f in forms} & {f.lower() for _, f in dev5}
