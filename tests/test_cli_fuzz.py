"""Every CLI command on malformed input (issue 17 acceptance): hypothesis mutations of CSV/YAML/JSON
files and of number flags, run in-process through ``clinaudit.cli.main.main``.

For every input the command must either succeed (exit 0; a mutation can leave a file valid) or
fail with exit status 2 (1 for a run whose model calls failed) and then print **exactly one**
error line naming the file, row, field or argument, print no traceback, and leave nothing
behind that looks complete (no output file, no manifest with status ``complete``).

Bounded: a fixed number of examples per command (``derandomize=True``, so every run draws the
same inputs), about 30 s in all on a laptop CPU. The counts are reported in README "What to trust".
"""

from __future__ import annotations

import contextlib
import io
import json
import logging
import re
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from clinaudit.cli.main import build_parser, main

DEMO = Path(__file__).resolve().parents[1] / "src" / "clinaudit" / "data" / "demo"

# no shrinking phase: a failure is reported with the input hypothesis drew (shrinking a slow CLI call can take minutes)
FUZZ = settings(max_examples=12, deadline=None, derandomize=True, database=None, phases=[Phase.explicit, Phase.generate],
                suppress_health_check=list(HealthCheck))
FEW = settings(FUZZ, max_examples=5)
FEWER = settings(FUZZ, max_examples=3)

# names that say *where* the problem is
_WHERE = re.compile(r"file |row |field |argument |line |column |--[a-z]|spec |manifest|\.csv|\.ya?ml|\.json|\.txt|"
                    r"data\[|models\.|params\.|audit ")


def invoke(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    root = logging.getLogger()
    handlers = list(root.handlers)
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            rc = main(argv)
        except SystemExit as exc:  # argparse errors
            rc = exc.code if isinstance(exc.code, int) else 2
        finally:  # main's logging.basicConfig handler writes to this call's stderr: do not keep it
            for h in root.handlers[:]:
                if h not in handlers:
                    root.removeHandler(h)
    return int(rc), out.getvalue(), err.getvalue()


def error_lines(err: str) -> list[str]:
    return [line for line in err.splitlines() if re.search(r"\berror:", line)]


def looks_complete(paths: list[Path]) -> list[str]:
    """Outputs that a failed command must not leave: files, or run directories marked complete."""
    bad = []
    for p in paths:
        if p.is_file():
            bad.append(str(p))
        m = p / "manifest.json"
        if p.is_dir() and m.is_file():
            try:
                status = json.loads(m.read_text(encoding="utf-8")).get("status", "")
            except ValueError:
                status = ""
            if str(status).startswith("complete"):
                bad.append(f"{m} (status {status!r})")
    return bad


def check(argv: list[str], outputs: list[Path]) -> tuple[int, str]:
    """Run the command and assert the contract; returns (exit status, the error line or '')."""
    rc, out, err = invoke(argv)
    STATS["inputs"] += 1
    assert "Traceback" not in out + err, f"traceback for {argv}:\n{err}"
    # 3: a run that cannot be compared or gated (documented: compare, gate); the gate says why on stdout;
    # 4: the gate found too little evidence to pass (docs/verdicts.md)
    assert rc in (0, 1, 2) or (rc == 3 and argv[0] in ("compare", "gate")) or (rc == 4 and argv[0] == "gate"), \
        f"exit {rc} for {argv}:\n{err}"
    if rc == 0 or (rc in (3, 4) and argv[0] == "gate"):
        return rc, ""
    lines = error_lines(err)
    assert len(lines) == 1, f"expected one error line for {argv}, got {lines}\n{err}"
    assert "unexpected" not in lines[0], f"unhandled exception for {argv}: {lines[0]}"
    assert _WHERE.search(lines[0]), f"error names no file/row/field: {lines[0]}"
    assert not looks_complete(outputs), f"{argv} failed but left {looks_complete(outputs)}"
    STATS["failed_cleanly"] += 1
    return rc, lines[0]


STATS = {"inputs": 0, "failed_cleanly": 0}

# --------------------------------------------------------------------------- mutations


def _mutate_bytes(data: bytes, kind: str, pos: int, junk: bytes) -> bytes:
    i = pos % (len(data) + 1)
    if kind == "quote":  # an unterminated or stray quote
        return data[:i] + b'"' + data[i:]
    if kind == "truncate":
        return data[:i]
    if kind == "delete":
        return data[:i] + data[i + 1:]
    if kind == "comma":
        return data[:i] + b"," + data[i:]
    if kind == "latin1":  # not UTF-8
        return data[:i] + b"\xe9\xff" + data[i:]
    if kind == "junk":
        return data[:i] + junk + data[i:]
    if kind == "dup_line":
        lines = data.split(b"\n")
        j = pos % len(lines)
        return b"\n".join(lines[: j + 1] + [lines[j]] + lines[j + 1:])
    if kind == "drop_line":
        lines = data.split(b"\n")
        j = pos % len(lines)
        return b"\n".join(lines[:j] + lines[j + 1:])
    if kind == "blank_cell":
        return re.sub(rb",[^,\n]+", b",", data, count=1 + pos % 3)
    raise AssertionError(kind)


MUTATION = st.tuples(
    st.sampled_from(["quote", "truncate", "delete", "comma", "latin1", "junk", "dup_line", "drop_line", "blank_cell"]),
    st.integers(min_value=0, max_value=10_000),
    st.binary(min_size=1, max_size=6),
)


def _write(tmp: Path, name: str, data: bytes) -> Path:
    p = tmp / name
    p.write_bytes(data)
    return p


# --------------------------------------------------------------------------- inputs of each command

CSV_ROWS = b"id,text\n1,Patient reports chest pain.\n2,\"Cough, three days\"\n3,Knee swelling\n4,Headache\n"


@FUZZ
@given(mut=MUTATION)
def test_generate_on_mutated_csv(mut) -> None:
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        src = _write(tmp, "in.csv", _mutate_bytes(CSV_ROWS, *mut))
        out = tmp / "g"
        rc, line = check(["generate", "--input", str(src), "--id-column", "id", "--text-column", "text",
                          "--model", "mock", "--out", str(out), "--no-progress"], [out / "responses.csv", out])
        if rc:
            assert str(src) in line or "argument" in line


@FUZZ
@given(mut=MUTATION)
def test_perturb_on_mutated_csv(mut) -> None:
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        src = _write(tmp, "in.csv", _mutate_bytes(CSV_ROWS, *mut))
        out = tmp / "p.csv"
        check(["perturb", "--input", str(src), "--id-column", "id", "--text-column", "text",
               "--perturbation", "uppercase,typo", "--out", str(out)], [out])


SPEC = {
    "audit": "reasoning_care",
    "data": [{"format": "demo:vignettes", "limit": 2}],
    "models": {"target": "mock:care", "embedder": "mock", "judge": "mock"},
    "runner": {"concurrency": 2, "max_retries": 1},
    "params": {"n_bootstrap": 100},
}
# (path in the spec, replacement): each a plausible slip
_BAD_VALUES = [[], {}, "", -1, 0, 1.5, None, "((", "nan", [None], {"x": 1}, "mock:", 10**12]
_PATHS = [("audit",), ("data",), ("data", 0), ("data", 0, "format"), ("data", 0, "limit"), ("data", 0, "path"),
          ("models",), ("models", "target"), ("models", "judge"), ("runner",), ("runner", "concurrency"),
          ("runner", "timeout_s"), ("runner", "fail_fast"), ("params",), ("params", "n_bootstrap"), ("seed",),
          ("backends",), ("cache",), ("typo_key",), ("data", 0, "columns")]


def _set(spec: dict, path: tuple, value) -> dict:
    spec = json.loads(json.dumps(spec))
    node = spec
    for k in path[:-1]:
        node = node[k]
    if value == "<delete>":
        if isinstance(node, dict):
            node.pop(path[-1], None)
    else:
        node[path[-1]] = value
    return spec


@FUZZ
@given(path=st.sampled_from(_PATHS), value=st.sampled_from(_BAD_VALUES + ["<delete>"]),
       raw=st.one_of(st.none(), MUTATION))
def test_run_on_mutated_spec(path, value, raw) -> None:
    import yaml

    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        text = yaml.safe_dump(_set(SPEC, path, value)).encode()
        if raw is not None:
            text = _mutate_bytes(text, *raw)
        spec = _write(tmp, "spec.yaml", text)
        out = tmp / "r"
        check(["run", str(spec), "--out", str(out), "--dry-run"], [out])


LONG_LABELS = (b"case_id,variant,model,seed,question,label\n"
               + b"".join(f"c{c},{v},m,0,{q},{(c + i) % 2}\n".encode()
                          for c in range(3) for i, v in enumerate(["baseline", "typo"])
                          for q in ["MANAGE", "VISIT", "RESOURCE"]))


@FEW
@given(mut=MUTATION)
def test_treatment_shift_on_mutated_labels(mut) -> None:
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        src = _write(tmp, "labels.csv", _mutate_bytes(LONG_LABELS, *mut))
        out = tmp / "ts"
        check(["treatment-shift", "--labels", str(src), "--format", "long", "--out", str(out),
               "--resamples", "20"], [out / "metrics.csv"])


HUMAN = (DEMO / "human_labels.csv").read_bytes()
JUDGMENTS = (b"judge,judge_model,status,case_id,context,source,group,label\n"
             b"incidence,mock,ok,d1,Poverty,doctor,baseline,NO\nincidence,mock,ok,d1,Poverty,doctor,Black,YES\n")


@FUZZ
@given(which=st.sampled_from(["human", "judgments"]), mut=MUTATION)
def test_judge_agreement_on_mutated_inputs(which, mut) -> None:
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        human = _write(tmp, "human.csv", _mutate_bytes(HUMAN, *mut) if which == "human" else HUMAN)
        judg = _write(tmp, "judgments.csv", _mutate_bytes(JUDGMENTS, *mut) if which == "judgments" else JUDGMENTS)
        out = tmp / "ja"
        check(["judge-agreement", "--judgments", str(judg), "--human", str(human), "--out", str(out)],
              [out / "judge_agreement.csv"])


MANIFEST = json.dumps({"audit": "note_generation", "status": "complete", "spec": {"audit": "note_generation"},
                       "runs": [{"started": "2026-01-01T00:00:00+00:00", "finished": "2026-01-01T00:01:00+00:00"}]},
                      indent=1).encode()


@FUZZ
@given(cmd=st.sampled_from(["report", "note-tables", "care-tables", "compare", "gate"]), mut=MUTATION)
def test_run_dir_commands_on_mutated_manifest(cmd, mut) -> None:
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        run = tmp / "run"
        (run / "tables").mkdir(parents=True)
        _write(run, "manifest.json", _mutate_bytes(MANIFEST, *mut))
        outs = {"report": ["--out", str(tmp / "r.html")], "note-tables": ["--out", str(tmp / "x")],
                "care-tables": ["--export", str(tmp / "x")], "compare": [str(run), "--out", str(tmp / "x")], "gate": ["--out", str(tmp / "x")]}[cmd]
        # a run directory without tables cannot give note/CARE tables or a comparison: those must fail
        # cleanly, never exit 0
        rc, _ = check([cmd, str(run), *outs], [tmp / "r.html", tmp / "x"])
        if cmd != "report":
            assert rc != 0


TEMPLATES = (DEMO / "association_templates.txt").read_bytes()
ATTRIBUTES = (DEMO / "association_attributes.csv").read_bytes()
TARGETS = b"groups:\n  male: [he, man]\n  female: [she, woman]\n"


@FEW
@given(which=st.sampled_from(["templates", "attributes", "targets"]), mut=MUTATION)
def test_association_on_mutated_inputs(which, mut) -> None:
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        files = {"templates": TEMPLATES, "attributes": ATTRIBUTES, "targets": TARGETS}
        files[which] = _mutate_bytes(files[which], *mut)
        t = _write(tmp, "templates.txt", files["templates"])
        a = _write(tmp, "attributes.csv", files["attributes"])
        g = _write(tmp, "targets.yaml", files["targets"])
        out = tmp / "assoc"
        check(["association", "--templates", str(t), "--attributes", str(a), "--targets", str(g),
               "--model", "mock", "--max-templates-per-category", "1", "--out", str(out), "--no-progress"],
              [out / "summary.csv", out])


NOTES = b"note_id,text,gender\n1,given oxycodone for pain,F\n2,ibuprofen at night,M\n3,oxycodone again,M\n"


@FUZZ
@given(mut=MUTATION)
def test_prevalence_on_mutated_notes(mut) -> None:
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        notes = _write(tmp, "notes.csv", _mutate_bytes(NOTES, *mut))
        a = _write(tmp, "attributes.csv", ATTRIBUTES)
        out = tmp / "prev"
        check(["prevalence", "--notes", str(notes), "--text-column", "text", "--group-column", "gender",
               "--attributes", str(a), "--out", str(out)], [out / "prevalence.csv"])


PREDICTIONS = (b"task,label,pred,gender\n"
               + b"".join(f"t,{i % 2},{(i // 2) % 2},{'F' if i % 3 else 'M'}\n".encode() for i in range(12)))


@FUZZ
@given(mut=MUTATION)
def test_classifier_gaps_on_mutated_predictions(mut) -> None:
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        src = _write(tmp, "pred.csv", _mutate_bytes(PREDICTIONS, *mut))
        out = tmp / "cg"
        check(["classifier-gaps", "--predictions", str(src), "--pred-column", "pred", "--group-column", "gender",
               "--n-resamples", "20", "--out", str(out), "--no-progress"], [out / "gaps.csv", out])


PROBE_IN = (b"id,text,label,gender\n"
            + b"".join(f"{i},note {i} {'fever' if i % 2 else 'rash'},{i % 2},{'F' if i % 3 else 'M'}\n".encode()
                       for i in range(16)))


def _probe_argv(cmd: str, src: Path, out: Path) -> list[str]:
    extra = ["--attribute", "gender", "--epochs", "2"] if cmd == "debias" else []
    # the MLP grid is kept tiny: a mutation may leave the file valid, and then the probe runs
    return [cmd, "--input", str(src), "--format", "csv", "--text-column", "text", "--id-column", "id",
            "--label-column", "label", "--group-column", "gender", "--encoder", "mock", "--hidden-sizes", "2",
            "--alphas", "0.01", "--n-resamples", "20", "--out", str(out), "--no-progress", *extra]


@FEWER
@given(mut=MUTATION)
def test_probe_on_mutated_input(mut) -> None:
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        src = _write(tmp, "in.csv", _mutate_bytes(PROBE_IN, *mut))
        out = tmp / "pr"
        check(_probe_argv("probe", src, out), [out / "gaps.csv", out])


# debias reads its input exactly as probe does; a valid input trains a network (seconds of torch), so it gets
# fixed malformed inputs only
@pytest.mark.parametrize("mut", [("latin1", 40, b""), ("quote", len(PROBE_IN) - 3, b""), ("comma", 30, b""),
                                 ("truncate", 10, b"")])
def test_debias_on_malformed_input(mut) -> None:
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        src = _write(tmp, "in.csv", _mutate_bytes(PROBE_IN, *mut))
        out = tmp / "db"
        rc, line = check(_probe_argv("debias", src, out), [out / "gaps.csv", out])
        assert rc == 2 and str(src) in line


# --------------------------------------------------------------------------- number flags of every command

_INT_BAD = ["0", "-1", "-5", "1.5", "abc", "", "1e3"]
_FLOAT_BAD = ["nan", "inf", "-inf", "abc", ""]
# command -> [(flag, bad values)] ; base arguments make the rest of the command line valid
_NUMBER_FLAGS: dict[str, tuple[list[str], list[tuple[str, list[str]]]]] = {
    "generate": (["--input", "x.csv", "--id-column", "id", "--text-column", "t", "--model", "mock", "--out", "o"],
                 [("--limit", _INT_BAD), ("--samples", _INT_BAD), ("--max-tokens", _INT_BAD),
                  ("--temperature", ["-1", "-0.5"] + _FLOAT_BAD), ("--top-p", ["0", "5", "-1"] + _FLOAT_BAD),
                  ("--concurrency", _INT_BAD), ("--max-retries", ["-1", "1.5", "x"]),
                  ("--timeout", ["0", "-3"] + _FLOAT_BAD), ("--rate-limit", ["0", "-1"] + _FLOAT_BAD),
                  ("--batch-size", _INT_BAD)]),
    "perturb": (["--input", "x.csv", "--id-column", "id", "--text-column", "t", "--perturbation", "typo", "--out", "o"],
                [("--p", ["2", "-0.1"] + _FLOAT_BAD), ("--limit", _INT_BAD), ("--temperature", ["-1"] + _FLOAT_BAD),
                 ("--protect", ["(", "[a-", "*x", "(?P<1>x)"]), ("--max-tokens", _INT_BAD)]),
    "run": (["spec.yaml", "--out", "o"], [("--max-calls", ["-1", "x", "1.5"])]),
    "treatment-shift": (["--labels", "x.csv", "--format", "long", "--out", "o"],
                        [("--resamples", _INT_BAD), ("--seed", ["x", "1.5"])]),
    "classifier-gaps": (["--predictions", "x.csv", "--group-column", "g", "--pred-column", "p", "--out", "o"],
                        [("--n-resamples", _INT_BAD), ("--confidence", ["0", "1", "95"] + _FLOAT_BAD),
                         ("--alpha", ["0", "1", "-0.05"] + _FLOAT_BAD), ("--threshold", _FLOAT_BAD)]),
    "probe": (["--input", "x.csv", "--encoder", "mock", "--out", "o"],
              [("--top-k", _INT_BAD), ("--sample", _INT_BAD), ("--window-words", ["-1", "x"]),
               ("--max-windows", _INT_BAD), ("--batch-size", _INT_BAD), ("--n-resamples", _INT_BAD)]),
    "debias": (["--input", "x.csv", "--encoder", "mock", "--attribute", "g", "--out", "o"],
               [("--epochs", _INT_BAD), ("--adversary-steps", ["-1", "x"]), ("--lambda", ["-1"] + _FLOAT_BAD)]),
    "compare": (["run_a", "run_b", "--out", "o"], [("--n-resamples", _INT_BAD), ("--alpha", ["0", "1"] + _FLOAT_BAD),
                                                   ("--margin", ["0", "1"] + _FLOAT_BAD),
                                                   ("--seed", ["x", "1.5"])]),
    "gate": (["run", "--out", "o"], [("--n-resamples", _INT_BAD), ("--seed", ["x", "1.5"])]),
    "association": (["--templates", "t", "--attributes", "a", "--model", "mock", "--out", "o"],
                    [("--batch-size", _INT_BAD), ("--max-templates-per-category", _INT_BAD),
                     ("--alpha", ["0", "2"] + _FLOAT_BAD)]),
}
_NUMBER_CASES = [(cmd, flag, v) for cmd, (_, flags) in _NUMBER_FLAGS.items() for flag, vals in flags for v in vals]


@pytest.mark.parametrize("cmd,flag,value", _NUMBER_CASES)
def test_number_flags_are_validated(cmd: str, flag: str, value: str, tmp_path: Path) -> None:
    base = [a if a != "o" else str(tmp_path / "o") for a in _NUMBER_FLAGS[cmd][0]]
    rc, out, err = invoke([cmd, *base, f"{flag}={value}"])
    assert rc == 2 and "Traceback" not in err
    lines = error_lines(err)
    assert len(lines) == 1 and f"argument {flag}" in lines[0] and repr(value) in lines[0], err
    assert not (tmp_path / "o").exists()


# --------------------------------------------------------------------------- every command is covered


COVERED = {"generate", "perturb", "run", "treatment-shift", "judge-agreement", "report", "note-tables",
           "care-tables", "association", "prevalence", "classifier-gaps", "probe", "debias", "compare", "gate",
           # below: commands without input files; their bad input is a bad option
           "models", "audits", "perturbations", "demo"}


def test_every_command_is_fuzzed() -> None:
    from clinaudit.registry import registry

    sub = next(a for a in build_parser()._actions if a.dest == "command")
    plugin_commands = set(sub.choices) - COVERED if registry("command") else set()
    assert set(sub.choices) - plugin_commands == COVERED


@pytest.mark.parametrize("argv", [["models", "--bogus"], ["audits", "extra"], ["perturbations", "-x"],
                                  ["demo", "--audits", "no_such_audit"], ["demo", "--audits", ","],
                                  ["report"], ["run"], ["nonsense-command"]])
def test_commands_without_inputs_reject_bad_options(argv: list[str], tmp_path: Path) -> None:
    rc, out, err = invoke(argv + (["--out", str(tmp_path / "d")] if argv[0] == "demo" else []))
    assert rc == 2 and "Traceback" not in err
    assert len(error_lines(err)) == 1
    assert not (tmp_path / "d").exists()


def test_fuzz_found_failures(request) -> None:
    """Runs last in this module: the mutations above did produce clean failures (not only valid files)."""
    print(f"\nfuzzed inputs: {STATS['inputs']}, failed cleanly: {STATS['failed_cleanly']}, "
          f"accepted as valid: {STATS['inputs'] - STATS['failed_cleanly']}")
    assert STATS["failed_cleanly"] > 0 or request.config.getoption("-k")
