"""Issue 51, Build 2: the estimate of a large input counts a seeded random sample of its cases and scales it
(cli.core.ESTIMATE_SAMPLE_CASES; AuditContext.sample_cases; Estimate.scale), so `run --dry-run` on 100,000
patient messages takes seconds, not the 285 s / 3.1 GB of counting every case."""

from __future__ import annotations

import csv
import random
import re

import pytest

from clinaudit.cli import core
from clinaudit.cli.main import main
from clinaudit.pipeline.estimate import Estimate

MESSAGES = ["I have had a headache for three days, should I come in?",
            "My cough is worse at night and I am short of breath on the stairs.",
            "I noticed a rash on my arm after starting the new medication."]


def _spec(tmp_path, n: int):
    rng = random.Random(0)
    data = tmp_path / "m.csv"
    with data.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["msg_id", "message", "sex"])
        for i in range(n):
            w.writerow([i, rng.choice(MESSAGES) + f" Note {i}.", rng.choice("FM")])
    spec = tmp_path / "spec.yaml"
    spec.write_text(
        "audit: treatment_shift\nseed: 0\n"
        "data:\n  - {format: csv, path: m.csv, columns: {id: msg_id, text: message, gender: sex}}\n"
        "models: {target: 'mock:t', judge: 'mock:j'}\n"
        "params: {perturbations: [uppercase, typo], seeds: [0, 1]}\n")
    return spec


def _total(err: str) -> int:
    return int(re.search(r"total: (\d+) calls", err).group(1))


def test_a_large_input_is_counted_on_a_sample_and_scaled(tmp_path, capsys, monkeypatch):
    spec = _spec(tmp_path, 60)
    assert main(["run", str(spec), "--out", str(tmp_path / "a"), "--dry-run", "--no-probe"]) == 0
    exact = _total(capsys.readouterr().err)
    monkeypatch.setattr(core, "ESTIMATE_SAMPLE_CASES", 20)
    assert main(["run", str(spec), "--out", str(tmp_path / "b"), "--dry-run", "--no-probe"]) == 0
    err = capsys.readouterr().err
    assert "counted on a seeded random sample of 20 of the data's 60 cases and scaled x3.0" in err
    assert "with 60 cases" in err  # the power line speaks of the data's cases, not the sample's
    # every case of this audit costs the same calls: the scaled count is the exact one
    assert _total(err) == exact


def test_a_small_input_is_counted_whole(tmp_path, capsys):
    spec = _spec(tmp_path, 12)
    assert main(["run", str(spec), "--out", str(tmp_path / "a"), "--dry-run", "--no-probe"]) == 0
    assert "sample" not in capsys.readouterr().err


def test_scale_multiplies_every_count_and_says_so_first():
    est = Estimate(calls={"m": 10}, cached={"m": 3}, prompt_tokens={"m": 100}, notes=["n1"],
                   shapes={"m": {"s": [7, ["r"]]}})
    est.scale(2.5, "sampled")
    assert (est.calls, est.cached, est.prompt_tokens) == ({"m": 25}, {"m": 8}, {"m": 250})
    assert est.shapes["m"]["s"] == [18, ["r"]] and est.notes == ["sampled", "n1"]


@pytest.mark.slow
def test_dry_run_of_100000_messages_is_sampled(tmp_path, capsys):
    spec = _spec(tmp_path, 100_000)
    assert main(["run", str(spec), "--out", str(tmp_path / "a"), "--dry-run", "--no-probe"]) == 0
    err = capsys.readouterr().err
    assert "sample of 500 of the data's 100,000 cases and scaled x200.0" in err
    assert _total(err) > 0
