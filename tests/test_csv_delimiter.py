"""CSV files separated by ``;`` (Excel in many locales), tabs or ``|``: the separator is guessed from the header
(comma first), printed, and can be set with ``delimiter:`` in a data source; ``clinaudit init`` recognises the
columns of a semicolon file and writes the separator into the spec, which then runs (issue 44)."""

from __future__ import annotations

import logging

import pytest
import yaml

from clinaudit.cli.main import main
from clinaudit.errors import InputError
from clinaudit.loaders.formats import guess_delimiter, read_csv_table

ROWS = [("m1", "I have had a headache for three days; ibuprofen is not helping. Should I come in?", "F"),
        ("m2", "My chest feels tight when I climb stairs, and I am out of breath. What should I do?", "M"),
        ("m3", "I was started on chemotherapy last week and now I have a fever of 38.5. Is that serious?", "F"),
        ("m4", "My blood sugar readings have been above 250 all week despite taking my metformin.", "M")]


def _write(path, sep: str) -> None:
    def cell(v: str) -> str:
        return f'"{v}"' if sep in v or "," in v or ";" in v else v

    path.write_text("\r\n".join([sep.join(["msg_id", "message", "sex"])] +
                                [sep.join(cell(v) for v in r) for r in ROWS]) + "\r\n", encoding="utf-8-sig")


@pytest.mark.parametrize("sep", [";", "\t", "|", ","])
def test_the_separator_is_guessed_from_the_header(tmp_path, sep, caplog):
    _write(tmp_path / "d.csv", sep)
    with caplog.at_level(logging.WARNING, logger="clinaudit.loaders"):
        t = read_csv_table(tmp_path / "d.csv")
    assert t.header == ["msg_id", "message", "sex"] and (t.delimiter, t.guessed) == (sep, sep != ",")
    assert [r for _, r in t.rows][0]["message"] == ROWS[0][1]  # the quoted ';' stays in the text
    guessed = [r.getMessage() for r in caplog.records]
    assert bool(guessed) == (sep != ",")
    if sep == ";":
        assert "fields separated by semicolon ';' (guessed from the header" in guessed[0]


def test_a_comma_file_with_semicolons_in_its_text_stays_a_comma_file_and_one_column_stays_one():
    assert guess_delimiter('id,text\n1,"a; b; c"\n2,"d; e"\n') == (",", False)
    assert guess_delimiter("text\nno separator here\n") == (",", False)
    assert guess_delimiter("text\nsome; words; here\n") == (",", False)  # the header does not split on ';'


def test_a_wrong_delimiter_names_the_separator_and_the_field(tmp_path):
    _write(tmp_path / "d.csv", ";")
    # row 1 ("m1;\"I have ... headache for three days; ...\";F") is one comma-field; row 2 has a comma in its text
    with pytest.raises(InputError, match="row 2: malformed row: it has 2 fields but the header has 1 \\(fields "
                       "separated by comma ','; set delimiter: in the data source if that is wrong\\)"):
        read_csv_table(tmp_path / "d.csv", delimiter=",")


def test_init_to_run_on_a_semicolon_csv(tmp_path, capsys):
    data = tmp_path / "excel.csv"
    _write(data, ";")
    spec = tmp_path / "spec.yaml"
    assert main(["init", "treatment_shift", "--data", str(data), "--out", str(spec)]) == 0
    out = capsys.readouterr().out
    assert "delimiter    <- semicolon ';' (guessed from the header; written to the spec as delimiter:)" in out
    assert "id           <- column 'msg_id'" in out and "text         <- column 'message'" in out
    assert "gender       <- column 'sex'" in out
    doc = yaml.safe_load(spec.read_text(encoding="utf-8"))
    assert doc["data"] == [{"format": "csv", "path": "excel.csv", "delimiter": ";",
                            "columns": {"id": "msg_id", "text": "message", "gender": "sex"}}]
    # the run (the mock models in place of the embedded ones, for speed): every row, its text intact
    doc["models"] = {"target": "mock:t", "judge": "mock:judge"}
    doc["backends"] = {"mock:judge": {"rules": [{"match": ".", "response": "MANAGE [NO]\nVISIT [YES]\nRESOURCE [NO]"}]}}
    doc["params"] = {"perturbations": ["uppercase"], "seeds": [0], "infer_gender": False}
    spec.write_text(yaml.safe_dump(doc), encoding="utf-8")
    assert main(["run", str(spec), "--out", str(tmp_path / "r"), "--no-progress"]) == 0
    import pandas as pd

    cases = pd.read_csv(tmp_path / "r" / "tables" / "cases.csv")
    assert sorted(cases["case_id"]) == ["m1", "m2", "m3", "m4"]
    assert ROWS[0][1] in set(cases["text"])
    # a bad delimiter in the spec names the field
    doc["data"][0]["delimiter"] = ";;"
    spec.write_text(yaml.safe_dump(doc), encoding="utf-8")
    assert main(["run", str(spec), "--out", str(tmp_path / "r2"), "--dry-run", "--no-probe"]) == 2
    assert "delimiter" in capsys.readouterr().err
