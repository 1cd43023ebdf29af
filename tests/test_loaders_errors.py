"""Generic CSV/JSONL loading and bad input: every error names the file, row and field."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from clinaudit.errors import InputError
from clinaudit.loaders import DataSource, load_cases


def _write(path: Path, text: str, encoding: str = "utf-8") -> Path:
    path.write_bytes(text.encode(encoding))
    return path


def _csv(tmp_path: Path, text: str, name: str = "in.csv", **kw: object) -> list:
    p = _write(tmp_path / name, text)
    return load_cases(DataSource(format="csv", path=str(p), **kw))  # type: ignore[arg-type]


# --------------------------------------------------------------------------- generic CSV


def test_csv_mapping_and_kept_columns(tmp_path: Path) -> None:
    cases = _csv(tmp_path, "pid,msg,sex,site\np1,Hello there,F,A\np2,Second,M,B\n",
                 columns={"id": "pid", "text": "msg", "gender": "sex"})
    assert [c.case_id for c in cases] == ["p1", "p2"]
    assert cases[0].text == "Hello there"
    assert cases[0].fields == {"gender": "F", "site": "A"}
    assert (cases[1].source_row, cases[1].dataset, cases[1].source) == (2, "in", str(tmp_path / "in.csv"))


def test_csv_keep_columns_false_and_row_number_ids(tmp_path: Path) -> None:
    cases = _csv(tmp_path, "msg,site\na,1\nb,2\n", columns={"text": "msg"}, options={"keep_columns": False})
    assert [(c.case_id, c.fields) for c in cases] == [("1", {}), ("2", {})]


def test_csv_bom_and_crlf_and_quoted_newlines(tmp_path: Path) -> None:
    p = tmp_path / "bom.csv"
    p.write_bytes(b"\xef\xbb\xbfid,text\r\na,\"two\r\nlines\"\r\n\r\nb,x\r\n")
    cases = load_cases(DataSource(format="csv", path=str(p), columns={"id": "id", "text": "text"}))
    assert [(c.case_id, c.source_row) for c in cases] == [("a", 1), ("b", 2)]
    assert cases[0].text == "two\r\nlines"


def test_csv_encoding_option(tmp_path: Path) -> None:
    p = _write(tmp_path / "latin.csv", "id,text\n1,caf\u00e9 au lait\n2,na\u00efve\n", encoding="latin-1")
    cases = load_cases(DataSource(format="csv", path=str(p), columns={"id": "id", "text": "text"},
                                  options={"encoding": "latin-1"}))
    assert [c.text for c in cases] == ["caf\u00e9 au lait", "na\u00efve"]


def test_csv_bad_encoding_names_file_and_row(tmp_path: Path) -> None:
    p = _write(tmp_path / "latin.csv", "id,text\n1,plain\n2,\"multi\nline\"\n3,caf\u00e9\n", encoding="latin-1")
    with pytest.raises(InputError) as ei:
        load_cases(DataSource(format="csv", path=str(p), columns={"id": "id", "text": "text"}))
    e = ei.value
    assert (e.file, e.row) == (str(p), 3)
    assert "byte offset 36" in str(e) and "line 5" in str(e) and "0xe9" in str(e)
    assert "options.encoding" in str(e)
    # a bad byte inside a quoted multi-line field belongs to that field's row
    p = _write(tmp_path / "q.csv", "id,text\n1,\"a\nb\u00e9\"\n", encoding="latin-1")
    with pytest.raises(InputError) as ei:
        load_cases(DataSource(format="csv", path=str(p), columns={"text": "text"}))
    assert ei.value.row == 1
    # ... and one in the header is reported as such
    p = _write(tmp_path / "h.csv", "id,t\u00e9xt\n1,a\n", encoding="latin-1")
    with pytest.raises(InputError) as ei:
        load_cases(DataSource(format="csv", path=str(p), columns={"text": "text"}))
    assert (ei.value.row, ei.value.field) == (None, "header")


def test_unknown_encoding(tmp_path: Path) -> None:
    with pytest.raises(InputError) as ei:
        _csv(tmp_path, "id,text\n1,a\n", columns={"text": "text"}, options={"encoding": "klingon-8"})
    assert ei.value.field == "options.encoding"


def test_missing_file(tmp_path: Path) -> None:
    missing = tmp_path / "nope.csv"
    with pytest.raises(InputError) as ei:
        load_cases(DataSource(format="csv", path=str(missing), columns={"text": "t"}))
    assert ei.value.file == str(missing) and "not found" in str(ei.value)


def test_missing_column_lists_available(tmp_path: Path) -> None:
    with pytest.raises(InputError) as ei:
        _csv(tmp_path, "id,message\n1,a\n", columns={"id": "id", "text": "body"})
    e = ei.value
    assert (e.file, e.field) == (str(tmp_path / "in.csv"), "body")
    assert "mapped to 'text'" in str(e) and "available columns: id, message" in str(e)


def test_text_mapping_required(tmp_path: Path) -> None:
    with pytest.raises(InputError) as ei:
        _csv(tmp_path, "id,message\n1,a\n", columns={"id": "id"})
    assert ei.value.field == "columns.text"


def test_empty_text_error_and_skip(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    text = "id,text\na,hello\nb,   \nc,\nd,bye\n"
    with pytest.raises(InputError) as ei:
        _csv(tmp_path, text, columns={"id": "id", "text": "text"})
    assert (ei.value.file, ei.value.row, ei.value.field) == (str(tmp_path / "in.csv"), 2, "text")
    with caplog.at_level(logging.WARNING, logger="clinaudit.loaders"):
        cases = _csv(tmp_path, text, columns={"id": "id", "text": "text"}, options={"skip_empty": True})
    assert [c.case_id for c in cases] == ["a", "d"]
    assert [c.source_row for c in cases] == [1, 4]
    assert "skipped 2 row(s)" in caplog.text and "rows 2, 3" in caplog.text


def test_duplicate_ids_name_both_rows(tmp_path: Path) -> None:
    with pytest.raises(InputError) as ei:
        _csv(tmp_path, "id,text\nx,1\ny,2\nx,3\n", columns={"id": "id", "text": "text"})
    e = ei.value
    assert (e.row, e.field) == (3, "id")
    assert "duplicate id 'x': rows 1 and 3" in str(e)


def test_malformed_csv_row(tmp_path: Path) -> None:
    with pytest.raises(InputError) as ei:
        _csv(tmp_path, "id,text\na,ok\nb,too,many\n", columns={"text": "text"})
    assert ei.value.row == 2 and "3 fields but the header has 2" in str(ei.value)


def test_duplicate_header_and_empty_file(tmp_path: Path) -> None:
    with pytest.raises(InputError) as ei:
        _csv(tmp_path, "id,text,text\n1,a,b\n", columns={"text": "text"})
    assert ei.value.field == "text" and "duplicate column" in str(ei.value)
    with pytest.raises(InputError) as ei:
        _csv(tmp_path, "", name="empty.csv", columns={"text": "text"})
    assert "empty" in str(ei.value)


def test_unknown_option_and_bad_bool(tmp_path: Path) -> None:
    with pytest.raises(InputError) as ei:
        _csv(tmp_path, "id,text\n1,a\n", columns={"text": "text"}, options={"skip_emtpy": True})
    assert ei.value.field == "options.skip_emtpy" and "skip_empty" in str(ei.value)
    with pytest.raises(InputError) as ei:
        _csv(tmp_path, "id,text\n1,a\n", columns={"text": "text"}, options={"skip_empty": "yes"})
    assert ei.value.field == "options.skip_empty"


def test_unknown_format_and_missing_path() -> None:
    with pytest.raises(InputError) as ei:
        load_cases(DataSource(format="parquetish", path=None))
    assert ei.value.field == "format" and "mts" in str(ei.value)
    with pytest.raises(InputError) as ei:
        load_cases(DataSource(format="mts"))
    assert ei.value.field == "path"


# --------------------------------------------------------------------------- JSONL


def test_jsonl_mapping_keeps_json_types(tmp_path: Path) -> None:
    lines = [{"uid": 7, "body": "hi", "meta": {"a": 1}}, {"uid": 8, "body": "yo", "meta": None}]
    p = _write(tmp_path / "d.jsonl", "\n".join(json.dumps(x) for x in lines) + "\n\n")
    cases = load_cases(DataSource(format="jsonl", path=str(p), columns={"id": "uid", "text": "body"}))
    assert [(c.case_id, c.text, c.fields, c.source_row) for c in cases] == [
        ("7", "hi", {"meta": {"a": 1}}, 1), ("8", "yo", {"meta": None}, 2)]


def test_jsonl_malformed_line(tmp_path: Path) -> None:
    p = _write(tmp_path / "d.jsonl", '{"id": 1, "text": "a"}\n\n{"id": 2, "text": "b"\n')
    with pytest.raises(InputError) as ei:
        load_cases(DataSource(format="jsonl", path=str(p), columns={"id": "id", "text": "text"}))
    assert (ei.value.file, ei.value.row) == (str(p), 3)
    assert "malformed JSON" in str(ei.value)


def test_jsonl_not_an_object_and_missing_key_and_bad_text(tmp_path: Path) -> None:
    p = _write(tmp_path / "a.jsonl", '[1, 2]\n')
    with pytest.raises(InputError) as ei:
        load_cases(DataSource(format="jsonl", path=str(p), columns={"text": "text"}))
    assert ei.value.row == 1 and "JSON object" in str(ei.value)
    p = _write(tmp_path / "b.jsonl", '{"text": "a"}\n{"body": "b"}\n')
    with pytest.raises(InputError) as ei:
        load_cases(DataSource(format="jsonl", path=str(p), columns={"text": "text"}))
    assert (ei.value.row, ei.value.field) == (2, "text") and "available columns: body" in str(ei.value)
    p = _write(tmp_path / "c.jsonl", '{"text": 5}\n')
    with pytest.raises(InputError) as ei:
        load_cases(DataSource(format="jsonl", path=str(p), columns={"text": "text"}))
    assert (ei.value.row, ei.value.field) == (1, "text")
    p = _write(tmp_path / "d.jsonl", '{"text": null}\n')
    with pytest.raises(InputError) as ei:
        load_cases(DataSource(format="jsonl", path=str(p), columns={"text": "text"}))
    assert "empty text" in str(ei.value)


def test_jsonl_bad_encoding_reports_line(tmp_path: Path) -> None:
    p = tmp_path / "e.jsonl"
    p.write_bytes(b'{"text": "a"}\n{"text": "caf\xe9"}\n')
    with pytest.raises(InputError) as ei:
        load_cases(DataSource(format="jsonl", path=str(p), columns={"text": "text"}))
    assert (ei.value.file, ei.value.row) == (str(p), 2)


# --------------------------------------------------------------------------- dataset formats on bad files


def test_mts_missing_column(tmp_path: Path) -> None:
    p = _write(tmp_path / "m.csv", "ID,section_header,dialogue\n1,GENHX,Doctor: hi\n")
    with pytest.raises(InputError) as ei:
        load_cases(DataSource(format="mts", path=str(p)))
    assert (ei.value.file, ei.value.field) == (str(p), "section_text")
    assert "available columns: ID, section_header, dialogue" in str(ei.value)


def test_mts_empty_dialogue_and_duplicate_id(tmp_path: Path) -> None:
    p = _write(tmp_path / "m.csv", "ID,section_header,section_text,dialogue\n1,CC,x,Doctor: hi\n2,CC,y,\n")
    with pytest.raises(InputError) as ei:
        load_cases(DataSource(format="mts", path=str(p)))
    assert (ei.value.row, ei.value.field) == (2, "dialogue")
    p = _write(tmp_path / "m2.csv", "ID,section_header,section_text,dialogue\n1,CC,x,Doctor: hi\n1,CC,y,Doctor: yo\n")
    with pytest.raises(InputError) as ei:
        load_cases(DataSource(format="mts", path=str(p)))
    assert "rows 1 and 2" in str(ei.value)


def test_mts_column_override(tmp_path: Path) -> None:
    p = _write(tmp_path / "m.csv", "key,section_header,section_text,conv\nk1,CC,x,Doctor: hi\nPatient: yo\n")
    with pytest.raises(InputError):
        load_cases(DataSource(format="mts", path=str(p), columns={"dialog": "conv"}))
    p = _write(tmp_path / "m.csv", 'key,section_header,section_text,conv\nk1,CC,x,"Doctor: hi\nPatient: yo"\n')
    cases = load_cases(DataSource(format="mts", path=str(p), columns={"id": "key", "text": "conv"}))
    assert cases[0].case_id == "k1" and cases[0].fields["n_turns"] == 2


def test_craftmd_answer_not_among_choices(tmp_path: Path) -> None:
    header = "case_vignette,choice_1,choice_2,choice_3,choice_4,answer,category,dataset,case_id\n"
    p = _write(tmp_path / "q.csv", header + "A vignette.,Flu,Cold,Strep,Mono,Flu,ID,demo,q1\n"
                                            "Another.,Flu,Cold,Strep,Mono,Measles,ID,demo,q2\n")
    with pytest.raises(InputError) as ei:
        load_cases(DataSource(format="craftmd", path=str(p)))
    assert (ei.value.file, ei.value.row, ei.value.field) == (str(p), 2, "answer")
    assert "'Measles' is not among the choices" in str(ei.value)
    kept = load_cases(DataSource(format="craftmd", path=str(p), options={"unmatched_answer": "keep"}))
    assert kept[1].fields["answer_letter"] is None and kept[1].fields["answer"] == "Measles"
    aliased = load_cases(DataSource(format="craftmd", path=str(p), options={"answer_aliases": {"measles": "Mono"}}))
    assert aliased[1].fields["answer_letter"] == "D" and aliased[1].fields["answer_raw"] == "Measles"
    with pytest.raises(InputError) as ei:
        load_cases(DataSource(format="craftmd", path=str(p), options={"unmatched_answer": "ignore"}))
    assert ei.value.field == "options.unmatched_answer"


def test_craftmd_id_fallbacks(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    header = ",case_vignette,choice_1,choice_2,answer,case_id\n"
    p = _write(tmp_path / "q.csv", header + "10,V1,a,b,a,dup\n11,V2,a,b,b,dup\n")
    with caplog.at_level(logging.WARNING, logger="clinaudit.loaders"):
        cases = load_cases(DataSource(format="craftmd", path=str(p)))
    assert [c.case_id for c in cases] == ["10", "11"] and "index column" in caplog.text
    assert [c.fields["answer_letter"] for c in cases] == ["A", "B"]
    p = _write(tmp_path / "r.csv", "case_vignette,choice_1,choice_2,answer\nV1,a,b,b\nV2,a,b,a\n")
    assert [c.case_id for c in load_cases(DataSource(format="craftmd", path=str(p)))] == ["1", "2"]


def test_aci_metadata_option_and_recorded_gender(tmp_path: Path) -> None:
    dlg = "dataset,encounter_id,dialogue,note\nx,E1,\"[doctor] hi\n[patient] hello\",NOTE\n"
    p = _write(tmp_path / "enc.csv", dlg)
    meta = ("dataset,encounter_id,id,doctor_name,patient_gender,patient_age,patient_firstname,patient_familyname,cc,"
            "2nd_complaints\nx,E1,M1,,female ,33.0,Ann ,Lee,knee pain ,\n")
    _write(tmp_path / "enc_metadata.csv", meta)
    c = load_cases(DataSource(format="aci", path=str(p)))[0]
    assert c.fields["cc"] == "knee pain" and c.fields["2nd_complaints"] is None
    assert c.fields["patient_gender"] == "female" and "patient_firstname" not in c.fields  # "female " stripped
    c = load_cases(DataSource(format="aci", path=str(p), options={"keep_metadata": True}))[0]
    assert (c.fields["patient_age"], c.fields["patient_firstname"]) == (33, "Ann")
    assert c.fields["patient_gender"] == "female"
    with pytest.raises(InputError) as ei:
        load_cases(DataSource(format="aci", path=str(p), options={"metadata": "other.csv"}))
    assert ei.value.field == "options.metadata"


def test_aci_recorded_gender_reaches_the_exclusions_by_group_audit(tmp_path: Path) -> None:
    """A made-up ACI-Bench pair of files (the published columns; 'female ', 'Male' and an empty cell as the
    published files have them): 10 female, 9 male, 1 not recorded. A planted exclusion of 6 of the 10 women and
    none of the men is caught by gender: Fisher's exact two-sided p for [[6, 4], [0, 9]], the tables of 6 exclusions
    among 19 cases no likelier than it: 6 women (C(10,6)·C(9,0) = 210) or 6 men (C(10,0)·C(9,6) = 84), over
    C(19,6) = 27,132: p = 294/27132 = 0.0108, below 0.05."""
    from collections import Counter

    from clinaudit.exclusion_skew import case_attributes, exclusion_rates

    genders = ["female ", "Female", "female"] * 3 + ["female"] + ["male", "Male", "male "] * 3 + [""]
    rows = ["dataset,encounter_id,dialogue,note"] + [
        f'x,E{i:02d},"[doctor] how are you ?\n[patient] my knee hurts .",NOTE' for i in range(len(genders))]
    p = _write(tmp_path / "enc.csv", "\n".join(rows) + "\n")
    meta = ["dataset,encounter_id,id,doctor_name,patient_gender,patient_age,patient_firstname,patient_familyname,cc,"
            "2nd_complaints"] + [f"x,E{i:02d},M{i:02d},,{g},40,Ann,Lee,knee pain," for i, g in enumerate(genders)]
    _write(tmp_path / "enc_metadata.csv", "\n".join(meta) + "\n")
    cases = load_cases(DataSource(format="aci", path=str(p)))
    assert Counter(c.fields["patient_gender"] for c in cases) == {"female": 10, "male": 9, None: 1}
    women = [c.case_id for c in cases if c.fields["patient_gender"] == "female"]
    rates = exclusion_rates(case_attributes(cases), set(women[:6]))
    g = rates[rates["attribute"] == "gender"].set_index("group")
    assert (g.loc["female", "n_excluded"], g.loc["female", "n_cases"], g.loc["male", "n_excluded"]) == (6, 10, 0)
    assert g.loc["female", "p"] == pytest.approx(294 / 27132, rel=1e-6) and bool(g.loc["female", "skewed"])


def test_medperturb_bad_label(tmp_path: Path) -> None:
    header = "Index,dataset,dataset_id,context_id,original_patient_gender,clinical_context,MANAGE_1,GPT4_MANAGE\n"
    p = _write(tmp_path / "mp.csv", header + "0,oncqa,1,N1,F,some text,1,0\n1,oncqa,2,N1,F,other,2,0\n")
    with pytest.raises(InputError) as ei:
        load_cases(DataSource(format="medperturb", path=str(p)))
    assert (ei.value.row, ei.value.field) == (2, "MANAGE_1")
