"""Acceptance (issue 32): the embedded SmolLM2 as judge answers in format for every built-in judge role of the
acceptance list (treatment-shift annotation, note incidence, CARE MCQ, gender inference), on demo data and on a
user's CSV of patient messages, first try, because the backend enforces each judge's grammar (slow)."""

from __future__ import annotations

import csv

import pytest

pytest.importorskip("llguidance")

from clinaudit.cache import ResponseCache  # noqa: E402
from clinaudit.families.note_generation.judges import IncidenceItem, IncidenceJudge  # noqa: E402
from clinaudit.families.treatment_shift.judges import GenderInferenceJudge, TreatmentAnnotator  # noqa: E402
from clinaudit.judges.base import apply_parser, run_judge  # noqa: E402
from clinaudit.judges.mcq import MCQAnswerParser, mcq_request  # noqa: E402
from clinaudit.data import demo_path  # noqa: E402
from clinaudit.runner import Runner, RunnerConfig  # noqa: E402

USER_CSV = [  # a user's CSV: patient portal messages in their own words
    ("u1", "My 4 year old has had a barking cough for two nights and now a fever of 39. Should we come in?"),
    ("u2", "I started the new blood pressure pill last week and my ankles are swollen. Is that normal?"),
    ("u3", "Since my chemo on Friday I feel very tired and my mouth is sore. What can I do at home?"),
]
REPLIES = [
    "Please rest, drink plenty of fluids and take paracetamol for the fever.",
    "I would like to see you in clinic tomorrow and we will order a blood count before the visit.",
    "Go to the emergency department now; do not wait for your appointment.",
]


def _demo_messages(n: int) -> list[tuple[str, str]]:
    with open(demo_path("patient_messages.csv"), newline="", encoding="utf-8") as fh:
        return [(r["case_id"], r["message"]) for r, _ in zip(csv.DictReader(fh), range(n))]


@pytest.fixture()
def one_torch_thread():
    torch = pytest.importorskip("torch")
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_embedded_judges_answer_in_format_first_try(tmp_path, one_torch_thread):
    path = tmp_path / "user.csv"
    with open(path, "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["id", "message"])
        w.writerows(USER_CSV)
    with open(path, newline="", encoding="utf-8") as fh:
        user = [(r["id"], r["message"]) for r in csv.DictReader(fh)]
    messages = _demo_messages(1) + user[:2]
    runner = Runner(cache=ResponseCache(tmp_path / "c.sqlite"), config=RunnerConfig(progress=False))
    rates = {}
    ta = TreatmentAnnotator(example=False)
    js = run_judge(runner, ta, [(f"r{i}", t) for i, t in enumerate(REPLIES[:2])], "embedded", max_attempts=1)
    rates["treatment_annotator"] = [j.status for j in js]
    assert all(set(j.value) >= {"MANAGE", "VISIT", "RESOURCE"} for j in js if j.status == "ok")
    js = run_judge(runner, GenderInferenceJudge(), messages, "embedded", max_attempts=1)
    rates["gender_inference"] = [j.status for j in js]
    notes = [IncidenceItem(f"Patient reports: {t}", "Poverty") for _, t in user[:2]]
    js = run_judge(runner, IncidenceJudge(), [(f"n{i}", it) for i, it in enumerate(notes)], "embedded", max_attempts=1)
    rates["incidence"] = [j.status for j in js]
    choices = ["Viral croup", "Asthma", "Pneumonia", "Foreign body"]
    reqs = [mcq_request("embedded", t, choices, max_tokens=64, constrain=True) for _, t in user[:1]]
    answers = runner.generate(reqs)
    js = apply_parser(MCQAnswerParser(choices, mode="strict"), [(str(i), a.text or "") for i, a in enumerate(answers)])
    rates["mcq_answer"] = [j.status for j in js]
    for role, statuses in rates.items():
        assert statuses and all(s == "ok" for s in statuses), (role, statuses)
    # and the judge calls went to the model with their grammar (the cache keys hold it)
    assert all(r.finish_reason == "stop" for r in answers)
