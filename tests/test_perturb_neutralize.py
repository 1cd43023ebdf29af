"""Gender neutralization (P3) and de-identification / filters (P1, P2)."""

from __future__ import annotations

from pathlib import Path

import pytest

from clinaudit.perturb import (
    DEFAULT_SEX_SPECIFIC,
    deidentify_text,
    filter_min_turns,
    filter_sex_specific,
    find_gendered_terms,
    neutralize_text,
    perturb_cases,
)
from clinaudit.records import Case

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"
BASELINE = DATA / "mim-craftmd-perturbed" / "baseline.csv"


def test_pronouns_nouns_titles():
    text = ("A 45-year-old man presents. He says his wife gave her a pill. She told her mother about him. "
            "HER2 positive. Mr. Smith and Ms. Jones. He/she and his or her. Herself, himself, hers.")
    res = neutralize_text(text)
    assert res.text == (
        "A 45-year-old patient presents. The patient says their spouse gave them a pill. The patient told their "
        "mother about them. HER2 positive. Smith and Jones. The patient and their. Themselves, themselves, theirs."
    )
    assert find_gendered_terms(res.text) == []


def test_male_female_adjective_vs_noun_and_ehr_line():
    res = neutralize_text("A 24-year-old white female graduate student presents. A 30-year-old male presents "
                          "with his male partner.\nGender: Male\nFemale students are ill.")
    assert res.text == ("A 24-year-old white graduate student presents. A 30-year-old patient presents with their "
                        "partner.\nGender: \nStudents are ill.")


def test_every_substitution_recorded_with_original_positions():
    text = "She saw her doctor. HE is fine."
    res = neutralize_text(text)
    for s in res.substitutions:
        assert text[s.start:s.end] == s.old
    assert [(s.old, s.new) for s in res.substitutions] == [("She", "The patient"), ("her", "their"),
                                                           ("HE", "THE PATIENT")]
    # re-applying the substitutions to the original gives the output
    out, pos = "", 0
    for s in res.substitutions:
        out += text[pos:s.start] + s.new
        pos = s.end
    assert out + text[pos:] == res.text


def test_registered_transform_reports_substitutions():
    v = perturb_cases([Case(case_id="a", text="He has a cough.")], "neutralize_gender")[0]
    assert v.family == "neutralization" and v.text == "The patient has a cough."
    assert v.provenance["substitutions"] == [{"start": 0, "end": 2, "old": "He", "new": "The patient"}]
    assert v.flags == []


@pytest.mark.skipif(not BASELINE.exists(), reason=f"CRAFT-MD baseline not found at {BASELINE}")
def test_neutralizes_all_craftmd_baseline_vignettes():
    import pandas as pd

    df = pd.read_csv(BASELINE, dtype=str, keep_default_na=False)
    assert len(df) == 1333
    cases = [Case(case_id=r.case_id, text=r.case_vignette) for r in df.itertuples()]
    variants = perturb_cases(cases, "neutralize_gender")
    remaining = {v.case_id: find_gendered_terms(v.text) for v in variants if find_gendered_terms(v.text)}
    assert remaining == {}
    n_subs = sum(len(v.provenance["substitutions"]) for v in variants)
    assert n_subs > 9000  # ~9.9k pronouns and gendered nouns in the published vignettes
    assert all(not v.flags for v in variants)


# ---------------------------------------------------------------- de-identification

def test_deidentify_names_ages_life_stage_origin_gender():
    text = ("Doctor: Hi Mr. John Smith, how are you? I see you are a 58-year-old white man.\n"
            "Patient: I live with my grandchildren. I'm twenty six. I am an elderly Mexican patient.\n"
            "Doctor: Any white blood cells? An 85-year-old female presents. She immigrated from Mexico. "
            "Dr. Lee agrees.")
    out, rep = deidentify_text(text)
    assert out == ("Doctor: Hi [NAME], how are you? I see you are a patient.\n"
                   "Patient: I live with my relatives. I'm [AGE]. I am a patient.\n"
                   "Doctor: Any white blood cells? A patient presents. The patient immigrated. Dr. [NAME] agrees.")
    kinds = {r["kind"] for r in rep.removed}
    assert kinds == {"name", "age", "origin", "gender", "life_stage"}
    for r in rep.removed:
        assert text[r["start"]:r["end"]] == r["old"]
    # the first-person age became [AGE] (issue 31): nothing identifying is left
    assert rep.remaining == []
    assert [r["new"] for r in rep.removed if r["kind"] == "age"] == ["", "[AGE]", ""]


def test_deidentify_known_names_and_aci_style():
    out, rep = deidentify_text("[doctor] hi , brian . how are you ?\n[patient] fine , ask jones .", names=["Jones"])
    assert out == "[doctor] hi , [NAME] . how are you ?\n[patient] fine , ask [NAME] ."


def test_deidentify_transform_uses_case_names_field():
    c = Case(case_id="d", text="Doctor: Hello Zed.\nPatient: Hi.", fields={"names": "Zed"})
    v = perturb_cases([c], "deidentify")[0]
    assert v.text == "Doctor: Hello [NAME].\nPatient: Hi." and v.family == "deidentification"
    assert v.provenance["counts"] == {"name": 1}


def test_filter_sex_specific_reasons():
    cases = [Case(case_id="1", text="Ovarian cancer follow-up."), Case(case_id="2", text="Cervical spine pain."),
             Case(case_id="3", text="She is pregnant."), Case(case_id="4", text="Cough.")]
    kept, removed = filter_sex_specific(cases)
    assert [c.case_id for c in kept] == ["2", "4"]
    assert [(c.case_id, r) for c, r in removed] == [("1", "sex-specific term 'Ovarian'"),
                                                   ("3", "sex-specific term 'pregnant'")]
    kept, removed = filter_sex_specific(cases, lexicon=("cough",))
    assert [c.case_id for c, _ in removed] == ["4"]
    assert "prostat" in DEFAULT_SEX_SPECIFIC


def test_filter_min_turns():
    short = Case(case_id="s", text="Doctor: Hi.\nPatient: Hello.")
    long = Case(case_id="l", text="\n".join(f"{'Doctor' if i % 2 == 0 else 'Patient'}: line {i}" for i in range(10)))
    stored = Case(case_id="f", text="x", fields={"turns": [{"speaker": "doctor", "utterance": "a"}] * 12})
    res = filter_min_turns([short, long, stored])
    assert [c.case_id for c in res.kept] == ["l", "f"]
    assert res.report() == [{"case_id": "s", "reason": "2 turns < 10"}]


@pytest.mark.skipif(not (DATA / "mts-dialog").exists(), reason="MTS-Dialog data not found")
def test_min_turns_on_mts_validation():
    import pandas as pd

    df = pd.read_csv(DATA / "mts-dialog" / "MTS-Dialog-ValidationSet.csv", dtype=str, keep_default_na=False)
    cases = [Case(case_id=r.ID, text=r.dialogue) for r in df.itertuples()]
    kept, removed = filter_min_turns(cases, 10)
    assert len(kept) + len(removed) == 100 and 0 < len(kept) < 100


def test_residual_terms_after_neutralization():
    from clinaudit.perturb.neutralize import residual_terms

    original = ("Mr. Smith, a 40-year-old man, and his ex-wife Mary joined a fraternity in St. Louis. "
                "A mass in the pouch of Douglas. Frank blood in the urine.")
    text = neutralize_text(original).text
    assert text.startswith("Smith, a 40-year-old patient, and their ex-wife Mary joined a fraternity")
    hits = residual_terms(text, original)
    assert [(h["text"], h["kind"]) for h in hits] == [
        ("Smith", "name"), ("ex-wife", "gendered_term"), ("Mary", "name"), ("fraternity", "gender_cue")]
    assert all(text[h["start"]:h["end"]] == h["text"] for h in hits)
    assert residual_terms(text) == hits[1:]  # without the original, the surname after a removed title is unknown
    # "-old-man" compounds are neutralized (CRAFT-MD has five such vignettes); other compounds are reported
    text = neutralize_text("A 45-year-old-woman with a 50-year-old husband and an ex-husband.").text
    assert text == "A 45-year-old-patient with a 50-year-old spouse and an ex-husband."
    assert residual_terms(text) == [{"start": 55, "end": 65, "text": "ex-husband", "kind": "gendered_term"}]
    assert residual_terms("The patient reports pain.") == []


def test_sex_specific_filter_keeps_serum_lactate():
    """'lactat' matched serum lactate (24 CRAFT-MD vignettes wrongly set aside); lactation still counts."""
    from clinaudit.perturb.deid import filter_sex_specific
    from clinaudit.records import Case

    cases = [Case(case_id="a", text="Serum lactate is 4.2 mmol/L; lactic acidosis suspected."),
             Case(case_id="b", text="She is lactating and asks about ibuprofen."),
             Case(case_id="c", text="Lactation consult requested.")]
    res = filter_sex_specific(cases)
    assert [c.case_id for c in res.kept] == ["a"]
    assert [c.case_id for c, _ in res.removed] == ["b", "c"]


@pytest.mark.parametrize(("text", "expected"), [
    ("She celebrated her 36th birthday.", "The patient celebrated their 36th birthday."),  # ordinal: possessive
    ("before her [AGE] birthday", "before their [AGE] birthday"),  # the age already replaced by de-identification
    ("her 3rd pregnancy", "their 3rd pregnancy"),
    ("I gave her 5 mg of morphine.", "I gave them 5 mg of morphine."),  # a cardinal (a dose): object
    ("I saw her.", "I saw them."),
])
def test_her_before_a_number(text, expected):
    assert neutralize_text(text).text == expected
