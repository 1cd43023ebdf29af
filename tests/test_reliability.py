"""Issue 17 items 5-9 and 11: silent wrong results and tracebacks on bad input, one regression test each.

Every test here failed on the code before the fix (noted per test); the numbers they
assert are hand-computed from the tiny files the tests write.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pandas as pd
import pytest

from clinaudit.cli.main import main
from clinaudit.errors import InputError, SpecError
from clinaudit.loaders.base import DataSource, load_cases

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"


def _run_cli(argv: list[str], capsys) -> tuple[int, str, str]:
    root = logging.getLogger()
    handlers = list(root.handlers)
    try:
        rc = main(argv)
    except SystemExit as exc:  # argparse
        rc = int(exc.code or 0)
    finally:  # main's logging.basicConfig handler would outlive this test's captured stderr
        for h in root.handlers[:]:
            if h not in handlers:
                root.removeHandler(h)
    out, err = capsys.readouterr()
    return rc, out, err


def _error_lines(err: str) -> list[str]:
    return [line for line in err.splitlines() if "error:" in line]


# --------------------------------------------------------------------------- 5. clashing case ids


def _idless(tmp_path: Path, name: str, n: int) -> Path:
    p = tmp_path / name
    p.write_text("text\n" + "".join(f"message {name} {i}\n" for i in range(n)), encoding="utf-8")
    return p


def test_two_idless_sources_are_namespaced_not_merged(tmp_path: Path) -> None:
    # old code: both files give ids "1".."4", so a recipe keyed by case id saw 4 cases, not 8
    from clinaudit.loaders.base import load_sources

    a, b = _idless(tmp_path, "a.csv", 4), _idless(tmp_path, "b.csv", 4)
    cases = load_sources([DataSource(format="csv", path=str(a), columns={"text": "text"}),
                          DataSource(format="csv", path=str(b), columns={"text": "text"})])
    ids = [c.case_id for c in cases]
    assert ids == ["a:1", "a:2", "a:3", "a:4", "b:1", "b:2", "b:3", "b:4"]
    assert len(set(ids)) == 8


def test_one_source_listed_twice_is_an_error_naming_both(tmp_path: Path) -> None:
    from clinaudit.loaders.base import load_sources

    a = _idless(tmp_path, "a.csv", 4)
    src = DataSource(format="csv", path=str(a), columns={"text": "text"})
    with pytest.raises(InputError) as ei:
        load_sources([src, src])
    msg = str(ei.value)
    assert "data[0]" in msg and "data[1]" in msg and "'a:1'" in msg and str(a) in msg


def test_duplicate_ids_across_sources_are_an_error(tmp_path: Path) -> None:
    from clinaudit.loaders.base import load_sources

    for name in ("x.csv", "y.csv"):
        (tmp_path / name).write_text("id,text\nc1,hello\nc2,world\n", encoding="utf-8")
    srcs = [DataSource(format="csv", path=str(tmp_path / n), columns={"id": "id", "text": "text"})
            for n in ("x.csv", "y.csv")]
    with pytest.raises(InputError, match=r"case id 'c1' occurs in two data sources.*x\.csv, row 1.*y\.csv, row 1"):
        load_sources(srcs)
    # one source alone keeps its ids untouched
    assert [c.case_id for c in load_sources(srcs[:1])] == ["c1", "c2"]


def test_spec_context_uses_namespaced_ids(tmp_path: Path) -> None:
    # the recipes read cases through AuditContext.cases(): 8 cases from two id-less files of 4 rows
    from clinaudit.spec import parse_spec_dict
    from clinaudit.pipeline import make_context

    _idless(tmp_path, "a.csv", 4)
    _idless(tmp_path, "b.csv", 4)
    spec, params = parse_spec_dict({
        "audit": "reasoning_care", "models": {"target": "mock", "judge": "mock", "embedder": "mock"},
        "data": [{"format": "csv", "path": "a.csv", "columns": {"text": "text"}},
                 {"format": "csv", "path": "b.csv", "columns": {"text": "text"}}]})
    ctx = make_context(spec, params, tmp_path / "run", base_dir=tmp_path, progress=False)
    try:
        assert len({c.case_id for c in ctx.cases()}) == 8
    finally:
        ctx.rundir.close()


# --------------------------------------------------------------------------- 6. exit status


_CARE_FAIL = """audit: reasoning_care
data:
  - {{format: demo:vignettes, limit: 3}}
models:
  target: mock:care
  embedder: mock
  judge: mock:judge
backends:
  mock:care:
    rules:
      - {{match: "{match}", error: "HTTP 503: overloaded"}}
params: {{n_bootstrap: 100}}
"""


_CARE_DEAD = """audit: reasoning_care
data:
  - {format: demo:vignettes, limit: 3}
models:
  target: openai:dead
  embedder: mock
  judge: mock:judge
backends:
  openai:dead: {base_url: "http://127.0.0.1:9/v1", api_key_env: CLINAUDIT_TEST_NO_KEY}
runner: {max_retries: 0, timeout_s: 5}
params: {n_bootstrap: 100}
"""


def test_run_where_every_target_call_fails_exits_nonzero_with_status_failed(tmp_path: Path, capsys) -> None:
    # old code: exit 0, manifest status "complete", no word of the 12 failed calls beyond a count.
    # The target is an OpenAI-compatible endpoint on a closed loopback port: every call is refused.
    spec = tmp_path / "fail.yaml"
    spec.write_text(_CARE_DEAD, encoding="utf-8")
    rc, out, err = _run_cli(["run", str(spec), "--out", str(tmp_path / "r"), "--no-progress"], capsys)
    assert rc == 1
    m = json.loads((tmp_path / "r" / "manifest.json").read_text(encoding="utf-8"))
    assert m["status"].startswith("failed: every model call to openai:dead (12 call(s)) failed")
    assert "openai:dead" in m["summary"]["failure"]
    assert len(_error_lines(err)) == 1 and "run failed" in _error_lines(err)[0]
    assert "Traceback" not in err


def test_run_with_some_failed_calls_says_how_many(tmp_path: Path, capsys) -> None:
    # 3 vignettes x 4 variants = 12 target calls; the rule fails the 3 calls of patient ID 001's variant
    spec = tmp_path / "part.yaml"
    spec.write_text(_CARE_FAIL.format(match="ID: 001"), encoding="utf-8")
    rc, out, err = _run_cli(["run", str(spec), "--out", str(tmp_path / "r"), "--no-progress"], capsys)
    assert rc == 1
    m = json.loads((tmp_path / "r" / "manifest.json").read_text(encoding="utf-8"))
    failed = m["runs"][-1]["usage_total"]["failures"]
    total = sum(m["runs"][-1]["usage_total"][k] for k in ("calls", "cache_hits", "failures"))
    assert failed == 3
    assert m["status"] == f"complete ({failed} of {int(total)} model calls failed)"
    assert f"{failed} of {int(total)} model calls failed" in err


def test_call_status_accounting() -> None:
    from clinaudit.runner import Usage
    from clinaudit.pipeline import call_status

    assert call_status({"a": Usage(calls=3)}) == ("complete", None)
    status, reason = call_status({"a": Usage(failures=4), "j": Usage(calls=2)})
    assert status.startswith("failed: every model call to a (4 call(s))")
    status, reason = call_status({"a": Usage(calls=1, cache_hits=2, failures=1)})
    assert status == "complete (1 of 4 model calls failed)"


def test_fail_fast_is_one_error_line(tmp_path: Path, capsys) -> None:
    # old code: RuntimeError traceback
    spec = tmp_path / "ff.yaml"
    spec.write_text(_CARE_FAIL.format(match=".") + "runner: {fail_fast: true}\n", encoding="utf-8")
    rc, out, err = _run_cli(["run", str(spec), "--out", str(tmp_path / "r"), "--no-progress"], capsys)
    assert rc == 2
    lines = _error_lines(err)
    assert len(lines) == 1 and "runner.fail_fast" in lines[0] and "HTTP 503" in lines[0]
    assert "Traceback" not in err


# --------------------------------------------------------------------------- 7. silent wrong inputs


def test_unterminated_quote_is_an_error_not_swallowed_rows(tmp_path: Path) -> None:
    # old code: 1 case whose text swallowed rows 2-4 ("abc\n3,def\n4,ghi\n")
    p = tmp_path / "q.csv"
    p.write_text('id,text\n1,fine\n2,"abc\n3,def\n4,ghi\n', encoding="utf-8")
    with pytest.raises(InputError) as ei:
        load_cases(DataSource(format="csv", path=str(p), columns={"id": "id", "text": "text"}))
    assert ei.value.row == 2 and ei.value.file == str(p)
    assert "line 3" in str(ei.value) and "never closed" in str(ei.value)


def test_quote_closed_in_a_later_row_is_an_error(tmp_path: Path) -> None:
    # old code: rows 2-4 merged into one text 'abc\n3,def\n4,ghi"' and row 5 kept: 2 cases instead of 5
    p = tmp_path / "q.csv"
    p.write_text('id,text\n1,fine\n2,"abc\n3,def\n4,"ghi"\n5,x\n', encoding="utf-8")
    with pytest.raises(InputError, match="closed in the middle"):
        load_cases(DataSource(format="csv", path=str(p), columns={"id": "id", "text": "text"}))


def test_perturb_rejects_an_unterminated_quote(tmp_path: Path, capsys) -> None:
    p = tmp_path / "q.csv"
    p.write_text('id,text\n1,fine\n2,"abc\n3,def\n', encoding="utf-8")
    out = tmp_path / "out.csv"
    rc, _, err = _run_cli(["perturb", "--input", str(p), "--id-column", "id", "--text-column", "text",
                           "--perturbation", "uppercase", "--out", str(out)], capsys)
    assert rc == 2 and not out.exists()
    assert _error_lines(err) == [line for line in err.splitlines() if "row 2" in line]


_JUDGMENTS = pd.DataFrame({
    "judge": "incidence", "judge_model": "mock", "status": "ok", "case_id": ["d1", "d2", "d3", "d4"],
    "context": "Poverty", "source": "doctor", "group": "baseline", "label": ["YES", "NO", "YES", "NO"],
})


def _human(tmp_path: Path, rows: list[str]) -> Path:
    p = tmp_path / "human.csv"
    p.write_text("case_id,context,source,variant,label\n" + "\n".join(rows) + "\n", encoding="utf-8")
    return p


def test_conflicting_duplicate_human_labels_are_an_error(tmp_path: Path) -> None:
    # old code: both rows of d1 counted: 5 pairs, agreement 4/5 = 80% instead of 4/4
    from clinaudit.families.note_generation.agreement import load_human_labels

    p = _human(tmp_path, ["d1,Poverty,doctor,baseline,YES", "d2,Poverty,doctor,baseline,NO",
                          "d3,Poverty,doctor,baseline,YES", "d4,Poverty,doctor,baseline,NO",
                          "d1,Poverty,doctor,baseline,NO"])
    with pytest.raises(InputError) as ei:
        load_human_labels(p)
    assert ei.value.row == 5 and ei.value.field == "label" and "row 1 says 'YES', row 5 says 'NO'" in str(ei.value)


def test_identical_duplicate_human_labels_count_once(tmp_path: Path) -> None:
    from clinaudit.families.note_generation.agreement import judge_agreement, load_human_labels

    p = _human(tmp_path, ["d1,Poverty,doctor,baseline,YES", "d2,Poverty,doctor,baseline,NO",
                          "d3,Poverty,doctor,baseline,NO", "d1,Poverty,doctor,baseline,YES"])
    human = load_human_labels(p)
    assert len(human) == 3
    res = judge_agreement(_JUDGMENTS, human).iloc[0]
    assert res["n"] == 3 and res["percent_agreement"] == pytest.approx(200 / 3)  # d3 disagrees


def test_unequal_target_lists_are_an_error(tmp_path: Path) -> None:
    # old code: accepted; the pairing by position silently dropped the 4th male word
    from clinaudit.families.hurtful_words.sentences import load_targets_file

    p = tmp_path / "targets.yaml"
    p.write_text("groups:\n  male: [man, he, male, m]\n  female: [woman, she, female]\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"equal lengths.*male: 4, female: 3") as ei:
        load_targets_file(p)
    assert ei.value.field == "groups" and ei.value.file == str(p)
    p.write_text("male: [man, he]\nfemale: [woman]\n", encoding="utf-8")  # bare mapping
    with pytest.raises(InputError, match="equal lengths"):
        load_targets_file(p)


def test_blank_group_rows_are_reported(tmp_path: Path) -> None:
    # old code: the blank-gender rows vanished from the gaps (n 12 -> 9) without a word
    from clinaudit.families.hurtful_words.gap_table import audit_predictions

    rows = []
    for i in range(12):
        gender = "" if i % 4 == 3 else ("F" if i % 2 else "M")
        rows.append({"task": "t", "label": i % 2, "pred": (i // 2) % 2, "gender": gender})
    res = audit_predictions(pd.DataFrame(rows), task_column="task", label_column="label", pred_column="pred",
                            group_columns="gender", n_resamples=20, exclude_groups=[])
    assert res.info["excluded_test_rows"] == {"gender": {"blank group": 3, "excluded_groups": 0}}
    one_metric = res.gaps[res.gaps["base_metric"] == res.gaps["base_metric"].iloc[0]]
    assert dict(zip(one_metric["group"], one_metric["n_group"])) == {"M": 6, "F": 3}  # 9 of 12 rows


def test_report_on_a_broken_manifest_names_it(tmp_path: Path, capsys) -> None:
    # old code: exit 0 and a report of an "unknown" audit
    run = tmp_path / "run"
    run.mkdir()
    (run / "manifest.json").write_text('{"audit": "treatment_shift", "runs": [', encoding="utf-8")
    rc, _, err = _run_cli(["report", str(run), "--out", str(tmp_path / "r.html")], capsys)
    assert rc == 2 and not (tmp_path / "r.html").exists()
    lines = _error_lines(err)
    assert len(lines) == 1 and str(run / "manifest.json") in lines[0] and "broken manifest" in lines[0]


# --------------------------------------------------------------------------- 8. numbers on the command line


@pytest.mark.parametrize("flag,value", [
    ("--limit", "0"), ("--limit", "-1"), ("--max-retries", "-1"), ("--timeout", "0"), ("--rate-limit", "0"),
    ("--concurrency", "0"), ("--temperature", "-1"), ("--top-p", "5"), ("--samples", "0"), ("--timeout", "nan"),
])
def test_generate_number_flags(tmp_path: Path, capsys, flag: str, value: str) -> None:
    src = tmp_path / "in.csv"
    src.write_text("id,text\n1,hi\n", encoding="utf-8")
    rc, _, err = _run_cli(["generate", "--input", str(src), "--id-column", "id", "--text-column", "text",
                           "--model", "mock", "--out", str(tmp_path / "g"), flag, value], capsys)
    assert rc == 2 and not (tmp_path / "g").exists()
    assert len(_error_lines(err)) == 1 and f"argument {flag}" in err and repr(value) in err


@pytest.mark.parametrize("argv", [
    ["perturb", "--p", "2"], ["perturb", "--protect", "(unclosed"], ["perturb", "--limit", "0"],
    ["treatment-shift", "--resamples", "0"], ["treatment-shift", "--resamples", "-5"],
    ["classifier-gaps", "--n-resamples", "0"], ["classifier-gaps", "--confidence", "1.5"],
])
def test_other_number_flags(tmp_path: Path, capsys, argv: list[str]) -> None:
    base = {"perturb": ["--input", "x.csv", "--id-column", "id", "--text-column", "t", "--perturbation", "typo"],
            "treatment-shift": ["--labels", "x.csv", "--format", "long"],
            "classifier-gaps": ["--predictions", "x.csv", "--group-column", "g", "--pred-column", "p"]}[argv[0]]
    rc, _, err = _run_cli([argv[0], *base, "--out", str(tmp_path / "o"), *argv[1:]], capsys)
    assert rc == 2 and len(_error_lines(err)) == 1 and f"argument {argv[1]}" in err
    assert "Traceback" not in err


def test_bad_regex_in_mock_rules(tmp_path: Path, capsys) -> None:
    rules = tmp_path / "rules.yaml"
    rules.write_text("rules:\n  - {match: '(', response: x}\n", encoding="utf-8")
    src = tmp_path / "in.csv"
    src.write_text("id,text\n1,hi\n", encoding="utf-8")
    rc, _, err = _run_cli(["generate", "--input", str(src), "--id-column", "id", "--text-column", "text",
                           "--model", "mock", "--mock-rules", str(rules), "--out", str(tmp_path / "g")], capsys)
    assert rc == 2
    lines = _error_lines(err)
    assert len(lines) == 1 and "rule 0 field 'match': invalid regular expression" in lines[0] and str(rules) in lines[0]


# --------------------------------------------------------------------------- 9. other tracebacks


def test_empty_target_list_in_a_spec(tmp_path: Path) -> None:
    from clinaudit.spec import load_spec

    p = tmp_path / "s.yaml"
    p.write_text("audit: reasoning_care\nmodels: {target: [], judge: mock}\n", encoding="utf-8")
    with pytest.raises(SpecError, match=r"s\.yaml: field 'models': models\.target is an empty list"):
        load_spec(p)


def test_non_utf8_spec(tmp_path: Path) -> None:
    from clinaudit.spec import load_spec

    p = tmp_path / "s.yaml"
    p.write_bytes(b"audit: reasoning_care\nname: caf\xe9\n")
    with pytest.raises(SpecError, match="not UTF-8"):
        load_spec(p)


def test_output_path_that_is_a_file(tmp_path: Path, capsys) -> None:
    src = tmp_path / "in.csv"
    src.write_text("id,text\n1,hi\n", encoding="utf-8")
    rc, _, err = _run_cli(["generate", "--input", str(src), "--id-column", "id", "--text-column", "text",
                           "--model", "mock", "--out", str(src)], capsys)
    assert rc == 2 and _error_lines(err) == [f"clinaudit: error: cannot use {src}: File exists (a file is in the "
                                             "way of a folder (choose another path))"]


def test_unwritable_output_folder_is_one_line(tmp_path: Path, capsys, monkeypatch) -> None:
    # tests may run as root, where chmod cannot make a folder unwritable: the OS refusal is simulated
    import clinaudit.rundir as rundir

    def refuse(self, *a, **k):
        raise PermissionError(13, "Permission denied", str(self))

    monkeypatch.setattr(rundir.Path, "mkdir", refuse)
    src = tmp_path / "in.csv"
    src.write_text("id,text\n1,hi\n", encoding="utf-8")
    rc, _, err = _run_cli(["generate", "--input", str(src), "--id-column", "id", "--text-column", "text",
                           "--model", "mock", "--out", str(tmp_path / "locked")], capsys)
    assert rc == 2 and "Traceback" not in err
    assert _error_lines(err) == [f"clinaudit: error: cannot access {tmp_path / 'locked'}: Permission denied"]


def test_truncated_and_non_object_manifest_in_a_run_dir(tmp_path: Path) -> None:
    from clinaudit.rundir import RunDir

    for text, what in (('{"runs": [', "broken manifest"), ("[1, 2]", "expected a JSON object, got list")):
        (tmp_path / "manifest.json").write_text(text, encoding="utf-8")
        with pytest.raises(InputError, match=what) as ei:
            RunDir(tmp_path)
        assert ei.value.file == str(tmp_path / "manifest.json")


@pytest.mark.cli_errors_expected  # the last-resort handler itself, with and without -v
def test_unexpected_exception_is_one_line_with_a_pointer_to_v(capsys, monkeypatch) -> None:
    import clinaudit.cli.core as core

    def boom(args):
        raise ZeroDivisionError("division by zero\nsecond line")

    monkeypatch.setattr(core, "cmd_models", boom)
    rc, _, err = _run_cli(["models"], capsys)
    assert rc == 1 and "Traceback" not in err
    assert err.strip() == ("clinaudit: error: unexpected ZeroDivisionError: division by zero second line; run with "
                           "-v for the traceback (please report it)")
    rc, _, err = _run_cli(["-v", "models"], capsys)
    assert rc == 1 and "Traceback" in err and "run with -v" not in err


# --------------------------------------------------------------------------- 11. real files


def _mts2_shape(tmp_path: Path) -> Path:
    """A small file shaped like MTS-Dialog-TestSet-2-MEDIQA-Sum-2023.csv: its ID 20 has one doctor turn."""
    p = tmp_path / "MTS-Dialog-TestSet-2-MEDIQA-Sum-2023.csv"
    pd.DataFrame({
        "ID": [19, 20, 21],
        "section_header": ["CC", "ASSESSMENT", "GENHX"],
        "section_text": ["Cough.", "Viral gastroenteritis.", "Knee pain."],
        "dialogue": [
            "Doctor: What brings you in?\r\nPatient: A cough for a week.\r\nDoctor: Any fever?\r\nPatient: No.",
            "Doctor: I belive you caught a virus.  You have the stomach flu.",
            "Doctor: Where does it hurt?\nPatient: My left knee.\nDoctor: Since when?\nPatient: Two days.",
        ],
    }).to_csv(p, index=False)
    return p


def test_mts_testset2_short_dialog_is_excluded_not_fatal(tmp_path: Path) -> None:
    # old code: InputError "not a doctor-patient dialog" for row 2, the whole file refused
    from clinaudit.families.note_generation.cases import check_dialogs as _check_dialogs

    cases = load_cases(DataSource(format="mts", path=str(_mts2_shape(tmp_path))))
    kept, excluded = _check_dialogs(cases)
    assert [c.case_id for c in kept] == ["19", "21"]
    assert len(excluded) == 1 and excluded[0]["case_id"] == "20"
    assert "1 speaker turn(s)" in excluded[0]["reason"] and "row 2" in excluded[0]["reason"]


def test_aci_asr_experiment_files_use_id(tmp_path: Path) -> None:
    # shape of ACI-Bench data/src_experiment_data/test1_aci_asr.csv and its _metadata.csv
    # old code: "column 'encounter_id' not found"
    data = tmp_path / "test1_aci_asr.csv"
    pd.DataFrame({"dataset": ["aci", "aci"], "id": ["ACI066", "ACI086"],
                  "dialogue": ["[doctor] hey charles\n[patient] sure", "[doctor] hi\n[patient] hello"],
                  "note": ["CC: asthma", "CC: back pain"]}).to_csv(data, index=False)
    pd.DataFrame({"dataset": ["aci", "aci"], "id": ["ACI086", "ACI066"], "doctor_name": ["", ""],
                  "patient_gender": ["male", "male"], "patient_age": [39.0, 45.0],
                  "patient_firstname": ["bryan", "kimberly"], "patient_familyname": ["brooks", "sullivan"],
                  "cc": ["Low back pain", "Allergic asthma"], "2nd_complaints": ["", ""]}
                 ).to_csv(tmp_path / "test1_aci_asr_metadata.csv", index=False)
    cases = load_cases(DataSource(format="aci", path=str(data)))
    assert [c.case_id for c in cases] == ["ACI066", "ACI086"]
    assert [c.fields["cc"] for c in cases] == ["Allergic asthma", "Low back pain"]
    assert [c.fields["patient_gender"] for c in cases] == ["male", "male"] and "metadata_id" not in cases[0].fields


def test_aci_challenge_files_still_join_on_encounter_id() -> None:
    path = DATA / "aci-bench" / "valid.csv"
    if not path.exists():
        pytest.skip("public data not available")
    cases = load_cases(DataSource(format="aci", path=str(path)))
    first = cases[0]
    assert first.case_id == "D2N068" and first.fields["metadata_id"] == "VA052"
    assert first.fields["cc"] == "follow-up of chronic problems"


def test_a_file_with_only_a_header_is_an_error_naming_it(tmp_path: Path) -> None:
    # old code: zero cases, and the audit failed later with "no cases to probe" (no file named)
    p = tmp_path / "empty.csv"
    p.write_text("id,text\n", encoding="utf-8")
    with pytest.raises(InputError, match="no data rows") as ei:
        load_cases(DataSource(format="csv", path=str(p), columns={"id": "id", "text": "text"}))
    assert ei.value.file == str(p)
