"""Regex perturbations: compat mode against the published files, default-mode properties."""

from __future__ import annotations

import random
import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clinaudit.perturb import REGEX_PERTURBATIONS, get_transform, perturb_cases, perturb_text
from clinaudit.perturb.protect import ehr_lines, is_tabular_line, resolve_protected
from clinaudit.perturb.regex import perturb_pieces, sentence_end_periods
from clinaudit.records import Case

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "mim-craftmd-perturbed"
needs_data = pytest.mark.skipif(not (DATA / "baseline.csv").exists(), reason=f"published data not found at {DATA}")


def _published(name: str):
    import pandas as pd

    base = pd.read_csv(DATA / "baseline.csv", dtype=str, keep_default_na=False)
    pub = pd.read_csv(DATA / f"{name}.first50.csv", dtype=str, keep_default_na=False)
    return base, pub


@needs_data
@pytest.mark.parametrize("name", REGEX_PERTURBATIONS)
def test_compat_reproduces_published_rows(name):
    base, pub = _published(name)
    assert len(pub) == 50
    # rows align one to one with the baseline, and only case_vignette differs
    assert (pub["case_id"].values == base["case_id"].values[:50]).all()
    cases = [Case(case_id=r.case_id, text=r.case_vignette) for r in base.iloc[:50].itertuples()]
    out = perturb_cases(cases, [name], mode="compat")
    assert [v.text for v in out] == pub["case_vignette"].tolist()
    assert all(v.provenance["mode"] == "compat" for v in out)


def test_compat_reseeds_per_text():
    # the published flaw: positions depend only on the text, not on the case
    a = perturb_text("Hello world. This is fine.", "typo", mode="compat", p=0.2, case_id="a")
    b = perturb_text("Hello world. This is fine.", "typo", mode="compat", p=0.2, case_id="b")
    assert a == b


def test_compat_exclamation_turns_decimals_like_the_paper():
    assert perturb_text("Temp 36.8 C.", "exclamation", mode="compat") == "Temp 36!8 C!"


def test_default_exclamation_spares_decimals_and_abbreviations():
    text = ("Dr. Smith saw Mr. Jones at 3 p.m. today. Temp 36.8 C. Take 5 mg b.i.d. with food, e.g. toast. "
            "He has pain, etc. and fever... It hurts. J. Doe agreed. Vitamin C. Done.")
    out = perturb_text(text, "exclamation", case_id="c1")
    assert "Dr. Smith" in out and "Mr. Jones" in out and "36.8" in out and "b.i.d." in out and "e.g." in out
    assert "etc." in out and "fever..." in out and "J. Doe" in out
    assert "today!" in out and "36.8 C!" in out and "It hurts!" in out and "agreed!" in out and out.endswith("Done!")
    # "Vitamin C. Done." is ambiguous (initial or sentence end): read as an initial, documented


def test_sentence_end_periods_ignores_file_names_and_numbers():
    text = "See report.pdf. Value .5 and 2. Next."
    idx = sentence_end_periods(text)
    assert [text[: i + 1].split()[-1] for i in idx] == ["report.pdf.", "2.", "Next."]


def test_default_typo_changes_exact_share_and_always_a_different_letter():
    text = "The patient reports a persistent cough and shortness of breath for two weeks."
    pieces = perturb_pieces(text, "typo", rng=np.random.default_rng(1), p=0.1)
    changed = [i for i, (c, pc) in enumerate(zip(text, pieces)) if c != pc]
    nonspace = sum(1 for c in text if not c.isspace())
    assert len(changed) == int(nonspace * 0.1)
    assert all(pieces[i].isascii() and pieces[i].isalpha() for i in changed)


def test_default_whitespace_inserts_one_to_three_spaces():
    text = "abcdefghij" * 20
    pieces = perturb_pieces(text, "whitespace", rng=np.random.default_rng(0), p=0.2)
    inserted = [len(p) - 1 for p in pieces if len(p) > 1]
    assert inserted and all(1 <= n <= 3 for n in inserted)
    assert "".join(p[-1] for p in pieces) == text


def test_same_seed_same_output_and_seed_matters():
    c = Case(case_id="x1", text="The patient has a cough. It is worse at night. " * 5)
    a = perturb_cases([c], "typo,whitespace", seed=3)
    b = perturb_cases([c], "typo,whitespace", seed=3)
    d = perturb_cases([c], "typo,whitespace", seed=4)
    assert [v.text for v in a] == [v.text for v in b]
    assert [v.text for v in a] != [v.text for v in d]
    assert all(v.case_id == "x1" and v.family == "perturbation" and v.seed == 3 for v in a)


def test_different_case_ids_choose_independent_positions():
    text = "The patient reports a persistent cough and fever for two weeks now. " * 4
    cases = [Case(case_id=f"c{i}", text=text) for i in range(6)]
    outs = [v.text for v in perturb_cases(cases, "typo")]
    assert len(set(outs)) == len(outs)


def test_protected_ehr_lines_untouched():
    text = ("EHR Context:\nAge: 55 years\nGender: Male\nCurrent medication list: lisinopril, aspirin\n\n"
            "Patient message:\nI have had a cough. It is worse.")
    for name in REGEX_PERTURBATIONS:
        for mode in ("default", "compat"):
            out = perturb_text(text, name, mode=mode, case_id="e1", p=1.0 if name != "typo" else 0.5, protected="ehr")
            for line in ("Age: 55 years", "Gender: Male", "Current medication list: lisinopril, aspirin"):
                assert line in out.splitlines(), (name, mode, out)


def test_tabular_line_heuristic():
    assert is_tabular_line("Age: 55 years")
    assert is_tabular_line("Current medication list: metformin, lisinopril")
    assert not is_tabular_line("Summary of visit: 55-year-old male. He is well.")
    assert is_tabular_line("EHR Context:") and not is_tabular_line("EHR Context:", headers=False)
    assert ehr_lines("Age: 5\nhello there\nPMH: none") == ["Age: 5", "PMH: none"]


def test_protected_argument_forms():
    text = "abc Key: v\nxyz"
    assert resolve_protected(text, [(0, 2), (1, 3)]) == [(0, 3)]
    assert resolve_protected(text, r"x\w+") == [(11, 14)]
    with pytest.raises(TypeError):
        resolve_protected(text, 3.5)


def test_unknown_names_and_modes_are_input_errors():
    from clinaudit.errors import InputError

    c = Case(case_id="a", text="x")
    with pytest.raises(InputError, match="unknown perturbation"):
        perturb_cases([c], "nope")
    with pytest.raises(InputError, match="mode"):
        perturb_cases([c], "neutralize_gender", mode="compat")
    with pytest.raises(InputError, match="need a runner"):
        perturb_cases([c], "gender_swap")


def test_transform_call_uses_case_rng_by_default():
    t = get_transform("typo")
    c = Case(case_id="q", text="hello world " * 10)
    assert t(c)[0].text == perturb_cases([c], "typo")[0].text


# ---------------------------------------------------------------- property tests

_span_texts = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=120)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=_span_texts, name=st.sampled_from(REGEX_PERTURBATIONS), mode=st.sampled_from(["default", "compat"]),
       seed=st.integers(0, 2**31), p=st.floats(0, 1))
def test_never_crashes_on_unicode(text, name, mode, seed, p):
    out = perturb_text(text, name, mode=mode, seed=seed, case_id="u", p=p)
    assert isinstance(out, str)


@settings(max_examples=60, deadline=None)
@given(text=_span_texts, name=st.sampled_from(REGEX_PERTURBATIONS), mode=st.sampled_from(["default", "compat"]),
       a=st.integers(0, 120), b=st.integers(0, 120), seed=st.integers(0, 1000))
def test_protected_spans_never_touched(text, name, mode, a, b, seed):
    s, e = sorted((min(a, len(text)), min(b, len(text))))
    pieces = perturb_pieces(text, name, mode=mode, rng=np.random.default_rng(seed), p=1.0 if name != "typo" else 0.5,
                            protected=[(s, e)])
    for i in range(s, e):
        assert pieces[i] == text[i]
    assert "".join(pieces).count(text[s:e]) >= 1


@settings(max_examples=40, deadline=None)
@given(text=_span_texts, name=st.sampled_from(REGEX_PERTURBATIONS), seed=st.integers(0, 1000),
       cid=st.text(max_size=8))
def test_same_seed_identical(text, name, seed, cid):
    assert perturb_text(text, name, case_id=cid, seed=seed) == perturb_text(text, name, case_id=cid, seed=seed)


def test_compat_matches_reference_implementation_on_random_text():
    # independent re-statement of the published algorithm (METHODS §1.1) for typo
    import math
    import string

    text = "".join(random.Random(5).choice("ab cd.\n") for _ in range(300))
    random.seed(0)
    idx = [i for i, c in enumerate(text) if not c.isspace()]
    chars = list(text)
    for i in random.sample(idx, math.floor(len(idx) * 0.03)):
        chars[i] = random.choice(string.ascii_letters)
    assert perturb_text(text, "typo", mode="compat") == "".join(chars)
    assert re.sub(r"\s", "", text)  # non-trivial input
