"""Judge validation against human labels: percent agreement and Cohen's κ (P1 §4.3)."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from clinaudit.errors import InputError
from clinaudit.families.note_generation.agreement import judge_agreement, load_human_labels, normalize_label


def _write(tmp_path, text: str):
    p = tmp_path / "human.csv"
    p.write_text(text, encoding="utf-8")
    return p


def _judgments() -> pd.DataFrame:
    rows = []
    # judge says: d1 baseline NO, Black YES, White YES; d2 baseline YES, Black YES, White unparseable
    for case, group, label, status in [("d1", "baseline", "NO", "ok"), ("d1", "Black", "YES", "ok"),
                                       ("d1", "White", "YES", "ok"), ("d2", "baseline", "YES", "ok"),
                                       ("d2", "Black", "YES", "ok"), ("d2", "White", "", "unparseable")]:
        rows.append({"judge": "incidence", "judge_model": "j", "status": status, "case_id": case,
                     "context": "Poverty", "source": "doctor", "group": group, "model": "m", "dataset": "mts",
                     "label": label, "most_impacted": ""})
    rows.append({"judge": "language_disparity", "judge_model": "j", "status": "ok", "case_id": "d1",
                 "context": "Poverty", "source": "doctor", "group": "", "model": "m", "dataset": "mts",
                 "label": "YES", "most_impacted": "Black"})
    return pd.DataFrame(rows)


def test_agreement_and_kappa_hand_computed(tmp_path):
    human = load_human_labels(_write(tmp_path, (
        "dialog_id,Context,Source,Variant,Label,judge,most_impacted\n"
        "d1,Poverty,D,baseline,no,,\n"
        "d1,Poverty,D,race=Black,yes,,\n"
        "d1,Poverty,D,White,NO,,\n"
        "d2,Poverty,P,baseline,YES,,\n"          # source P: matches nothing
        "d2,Poverty,D,baseline,1,,\n"
        "d2,Poverty,D,Black,0,,\n"
        "d2,Poverty,D,White,1,,\n"               # judge unparseable: left out, counted
        "d1,Poverty,D,,YES,language_disparity,Black\n")))
    assert list(human["source"][:4]) == ["doctor", "doctor", "doctor", "patient"]
    out = judge_agreement(_judgments(), human).set_index(["judge", "field"])
    inc = out.loc[("incidence", "decision")]
    # pairs (human, judge): (NO,NO) (YES,YES) (NO,YES) (YES,YES) (NO,YES) -> 3/5 agree
    assert inc["n"] == 5 and inc["n_human"] == 7 and inc["n_unmatched"] == 1 and inc["n_unparseable"] == 1
    assert inc["percent_agreement"] == pytest.approx(60.0)
    # kappa: po = 0.6; human YES 2/5, judge YES 4/5 -> pe = 0.4*0.8 + 0.6*0.2 = 0.44; (0.6-0.44)/0.56
    assert inc["kappa"] == pytest.approx((0.6 - 0.44) / 0.56)
    assert inc["reliability"] == "60% agreement, κ = 0.29 (n=5)"
    ld = out.loc[("language_disparity", "most_impacted")]
    assert ld["n"] == 1 and ld["percent_agreement"] == 100.0 and math.isnan(ld["kappa"])
    assert "undefined" in out.loc[("language_disparity", "decision"), "kappa_note"]


def test_normalize_label():
    assert normalize_label("Yes") == "YES" and normalize_label(0) == "NO" and normalize_label(True) == "YES"
    assert normalize_label("maybe", judge="language_disparity") == "MAYBE"
    with pytest.raises(ValueError):
        normalize_label("maybe")
    assert normalize_label("") is None


@pytest.mark.parametrize("text,match", [
    ("case_id,context,label\nd1,Poverty,YES\n", "missing column 'group'"),
    ("case_id,context,variant,label\nd1,Poverty,baseline,YES\nd1,Poverty,Black,perhaps\n",
     r"row 2, field 'label'.*not YES/NO"),
    ("case_id,context,variant,label\nd1,Astrology,baseline,YES\n", r"row 1, field 'context'.*unknown context"),
    ("case_id,context,variant,label,source\nd1,Poverty,baseline,YES,nurse\n", r"row 1, field 'source'"),
    ("case_id,context,variant,label,judge\nd1,Poverty,baseline,YES,vibes\n", r"row 1, field 'judge'"),
    ("case_id,context,variant,label\n,Poverty,baseline,YES\n", r"row 1, field 'case_id'"),
])
def test_bad_human_files_name_file_row_field(tmp_path, text, match):
    p = _write(tmp_path, text)
    with pytest.raises(InputError, match=match) as exc:
        load_human_labels(p)
    assert str(p) in str(exc.value)


def test_missing_file(tmp_path):
    with pytest.raises(InputError, match="not found"):
        load_human_labels(tmp_path / "nope.csv")


def test_demo_human_labels_load():
    from clinaudit.data import demo_path

    h = load_human_labels(demo_path("human_labels.csv"))
    assert len(h) == 15 and set(h["judge"]) == {"incidence", "language_disparity"}
