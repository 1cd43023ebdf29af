"""The mock backend's `answer:` option: one answer to every generation call, no regular expressions."""

from __future__ import annotations

import pandas as pd

from clinaudit.cli.main import main
from clinaudit.models.mock import MockBackend
from clinaudit.records import ModelRequest


def test_answer_is_returned_for_every_unmatched_call_and_rules_still_win():
    backend = MockBackend("mock:t", answer="Come in today.", rules=[{"match": "chest pain", "response": "Call 911."}])
    out = backend.generate([ModelRequest.chat("mock:t", "I have a rash"), ModelRequest.chat("mock:t", "chest pain")])
    assert [r.text for r in out] == ["Come in today.", "Call 911."]
    assert MockBackend("mock:t").generate([ModelRequest.chat("mock:t", "x")])[0].text == "MOCK RESPONSE"
    # a different answer is a different backend identity, so the two never share cached responses
    assert MockBackend("mock:t", answer="a").identity() != MockBackend("mock:t", answer="b").identity()


def test_a_spec_says_answer_x_to_everything(tmp_path):
    spec = tmp_path / "spec.yaml"
    spec.write_text(
        "audit: treatment_shift\n"
        "data: [{format: 'demo:patient_messages', limit: 3}]\n"
        "models: {target: 'mock:target', judge: 'mock:judge'}\n"
        "backends:\n"
        "  mock:target: {answer: 'Please come to the clinic today.'}\n"
        "  mock:judge: {answer: \"MANAGE [NO]\\nVISIT [YES]\\nRESOURCE [NO]\"}\n"
        "params: {perturbations: [uppercase], seeds: [0], infer_gender: false, n_resamples: 50}\n",
        encoding="utf-8")
    assert main(["run", str(spec), "--out", str(tmp_path / "run"), "--no-progress"]) == 0
    resp = pd.read_csv(tmp_path / "run" / "tables" / "responses.csv")
    target = resp[resp["model"] == "mock:target"]
    assert len(target) == 6 and set(target["text"]) == {"Please come to the clinic today."}
    judged = pd.read_csv(tmp_path / "run" / "tables" / "judgments.csv")
    assert (judged["status"] == "ok").all()
