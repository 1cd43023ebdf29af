"""`clinaudit perturbations` / `clinaudit perturb`."""

from __future__ import annotations

from pathlib import Path

import pytest

from clinaudit.cli.main import main

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "mim-craftmd-perturbed"
REGEX = ["exclamation", "uppercase", "lowercase", "typo", "whitespace"]


def test_perturbations_lists_names(capsys):
    assert main(["perturbations"]) == 0
    out = capsys.readouterr().out
    for name in REGEX + ["gender_swap", "gender_removal", "uncertain", "colorful", "neutralize_gender", "deidentify"]:
        assert name in out


@pytest.mark.skipif(not (DATA / "baseline.csv").exists(), reason=f"published data not found at {DATA}")
def test_compat_reproduces_published_files(tmp_path):
    import pandas as pd

    out = tmp_path / "p.csv"
    rc = main(["perturb", "--input", str(DATA / "baseline.csv"), "--id-column", "case_id", "--text-column",
               "case_vignette", "--perturbation", ",".join(REGEX), "--mode", "compat", "--limit", "50",
               "--out", str(out)])
    assert rc == 0
    got = pd.read_csv(out, dtype=str, keep_default_na=False)
    base = pd.read_csv(DATA / "baseline.csv", dtype=str, keep_default_na=False)
    assert list(got.columns) == list(base.columns) + ["perturbation", "perturbed_text", "flags"]
    assert len(got) == 250 and got["perturbation"].tolist()[:5] == REGEX
    for name in REGEX:
        pub = pd.read_csv(DATA / f"{name}.first50.csv", dtype=str, keep_default_na=False)
        mine = got[got["perturbation"] == name].reset_index(drop=True)
        assert mine["perturbed_text"].tolist() == pub["case_vignette"].tolist(), name
        for col in base.columns:  # every other column passes through unchanged
            if col != "case_vignette":
                assert mine[col].tolist() == pub[col].tolist(), (name, col)


def _write(tmp_path, rows):
    import pandas as pd

    p = tmp_path / "in.csv"
    pd.DataFrame(rows).to_csv(p, index=False)
    return p


def test_default_mode_and_llm_with_mock(tmp_path, capsys):
    import pandas as pd

    inp = _write(tmp_path, [{"id": "a", "msg": "He has a cough. Help."}, {"id": "b", "msg": "She has a fever."}])
    rules = tmp_path / "rules.yaml"
    rules.write_text("rules:\n  - match: swap the gender\n    response: 'Here is the text:\n\n  I swapped it.'\n")
    out = tmp_path / "o.csv"
    args = ["perturb", "--input", str(inp), "--id-column", "id", "--text-column", "msg",
            "--perturbation", "exclamation,gender_swap,neutralize_gender", "--model", "mock", "--embedder", "mock",
            "--mock-rules", str(rules), "--cache", str(tmp_path / "c.sqlite"), "--no-progress", "--out", str(out)]
    assert main(args) == 0
    got = pd.read_csv(out, dtype=str, keep_default_na=False)
    assert got[["id", "perturbation"]].values.tolist() == [
        ["a", "exclamation"], ["a", "gender_swap"], ["a", "neutralize_gender"],
        ["b", "exclamation"], ["b", "gender_swap"], ["b", "neutralize_gender"]]
    assert got["perturbed_text"].tolist()[0] == "He has a cough! Help!"
    assert got["perturbed_text"].tolist()[1] == "I swapped it."
    assert got["perturbed_text"].tolist()[2] == "The patient has a cough. Help."
    assert "low_similarity" in got["flags"].tolist()[1]
    err = capsys.readouterr().err
    assert "2 new" in err or "model calls" in err
    assert main(args) == 0
    assert "model calls: 0 new" in capsys.readouterr().err


def test_input_errors(tmp_path, capsys):
    inp = _write(tmp_path, [{"id": "a", "msg": "x"}, {"id": "a", "msg": "y"}])
    base = ["perturb", "--input", str(inp), "--text-column", "msg", "--out", str(tmp_path / "o.csv")]
    assert main(base + ["--id-column", "id", "--perturbation", "typo"]) == 2
    assert "duplicate id" in capsys.readouterr().err
    assert main(base + ["--id-column", "nope", "--perturbation", "typo"]) == 2
    assert "field 'nope'" in capsys.readouterr().err
    inp2 = _write(tmp_path, [{"id": "a", "msg": "x"}])
    assert main(["perturb", "--input", str(inp2), "--id-column", "id", "--text-column", "msg", "--perturbation",
                 "colorful", "--out", str(tmp_path / "o.csv")]) == 2
    assert "--model" in capsys.readouterr().err
    assert main(["perturb", "--input", str(inp2), "--id-column", "id", "--text-column", "msg", "--perturbation",
                 "bogus", "--out", str(tmp_path / "o.csv")]) == 2
    assert "unknown perturbation" in capsys.readouterr().err
