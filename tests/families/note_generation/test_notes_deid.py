"""Residual identifiers after de-identification (perturb.deid) as the note-generation audit uses them."""

from __future__ import annotations

import pytest

from clinaudit.perturb.deid import (
    DEFAULT_RESIDUAL_KINDS,
    deidentify_text,
    describe_residuals,
    find_residual_identifiers,
    residual_identifiers,
)


def test_gendered_forms_of_address_are_reported():
    out, rep = deidentify_text("Doctor: Good afternoon, ma'am. How old are you, Sir?\nPatient: Fine, thank you.")
    found = [(r["kind"], r["text"]) for r in rep.remaining]
    assert ("gendered_term", "ma'am") in found and ("gendered_term", "Sir") in found
    assert ("age_question", "How old") in found
    # "sirloin" and "madame" inside other words are not forms of address
    assert [r["kind"] for r in find_residual_identifiers("Patient: I ate sirloin at Madameville.")] == [
        "possible_name"]


def test_residual_selection_kinds_and_allow_list():
    rem = find_residual_identifiers("Doctor: How old are you?\nPatient: I'm fifty, and I take Prozac, sir.")
    assert [r["kind"] for r in rem] == ["age_question", "first_person_age", "possible_name", "gendered_term"]
    # an age question alone is not an identifier by default
    assert "age_question" not in DEFAULT_RESIDUAL_KINDS
    got = residual_identifiers(rem, allow=["PROZAC"])
    assert [(r["kind"], r["text"]) for r in got] == [("first_person_age", "I'm fifty"), ("gendered_term", "sir")]
    assert describe_residuals(got) == "first_person_age \"I'm fifty\"; gendered_term 'sir'"
    assert residual_identifiers(rem, kinds=["age_question"]) == rem[:1]
    with pytest.raises(ValueError, match="unknown residual kind"):
        residual_identifiers(rem, kinds=["zodiac"])


def test_filter_residual_identifiers_splits_and_lists():
    from clinaudit.perturb.deid import filter_residual_identifiers
    from clinaudit.records import Case

    cases = [Case(case_id="a", text="Doctor: Hello.\nPatient: Hi.", dataset="D"),
             Case(case_id="b", text="Doctor: Hello, sir.\nPatient: Hi.", dataset="D")]
    res, rows = filter_residual_identifiers(cases, deidentified=False)
    assert [c.case_id for c in res.kept] == ["a"]
    assert res.report() == [{"case_id": "b", "reason": "identifiers remain (de-identification off): "
                                                       "gendered_term 'sir'"}]
    assert rows == [{"case_id": "b", "dataset": "D", "kind": "gendered_term", "text": "sir", "start": 15,
                     "action": "excluded"}]
    res, rows = filter_residual_identifiers(cases, keep=True)
    assert [c.case_id for c in res.kept] == ["a", "b"] and rows[0]["action"] == "kept"
    # the items of a de-identification report are used as given
    res, _ = filter_residual_identifiers(cases, {"b": []})
    assert len(res.kept) == 2
