"""Conversational settings (P2 §4.3, Appendix B; after CRAFT-MD).

Settings (prompts: :mod:`.prompts`, P2 Appendix B):

``vignette``
    the doctor model diagnoses the vignette directly (system prompt
    :data:`~.prompts.VIGNETTE_PROMPT`, the vignette as the user message).
``single_turn``
    the doctor opens with :data:`OPENING` (fixed, as in CRAFT-MD), the patient agent
    answers from the vignette, and the doctor (single-turn prompt, followed by
    :data:`FORCE_DIAGNOSIS`) gives a diagnosis.
``multi_turn``
    after each patient answer the doctor (multi-turn prompt) asks another question or
    gives a final diagnosis; the conversation ends at the final diagnosis or after
    ``max_turns`` doctor questions, when the doctor is asked for its final diagnosis
    (:data:`FORCE_DIAGNOSIS`; ``Conversation.finished`` is then False).
``summarized``
    a multi-turn interview whose patient answers are converted to a third-person
    "query vignette" (:data:`~.prompts.SUMMARIZE_PROMPT` with its one-shot example),
    which the doctor then diagnoses as in ``vignette``.

Our readings (the paper does not print them): a doctor message is a final diagnosis
when it has no question mark or says "diagnosis:" / "final diagnosis"
(:func:`is_final_diagnosis`, replaceable with ``is_final=``); the doctor agent sees its
own turns as ``assistant`` messages and the patient's as ``user`` messages, and the
patient agent the reverse, with the vignette appended to its system prompt; the
specialty in the doctor prompt comes from ``specialty=``, ``case.fields["specialty"]``
or ``case.fields["category"]`` (default "general medicine").

:func:`run_conversations` advances all conversations together: one
``runner.generate`` call per agent step across all cases (concurrent and cached, so a
re-run costs nothing).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..errors import InputError
from ..records import Case, Message, ModelRequest, ModelResponse, Variant
from .prompts import (
    DOCTOR_PROMPTS,
    PATIENT_PROMPTS,
    SUMMARIZE_EXAMPLE_INPUT,
    SUMMARIZE_EXAMPLE_OUTPUT,
    SUMMARIZE_PROMPT,
    VIGNETTE_PROMPT,
)

if TYPE_CHECKING:  # pragma: no cover
    from ..runner import Runner

__all__ = [
    "SETTINGS",
    "OPENING",
    "FORCE_DIAGNOSIS",
    "Conversation",
    "is_final_diagnosis",
    "build_summary_prompt",
    "run_conversation",
    "run_conversations",
]

SETTINGS: tuple[str, ...] = ("vignette", "single_turn", "multi_turn", "summarized")
#: The doctor's fixed opening question (as in CRAFT-MD's published conversations).
OPENING = "Hi! What symptoms are you facing today?"
#: Sent to the doctor agent at the turn cap (ours).
FORCE_DIAGNOSIS = (
    "The consultation has to end now. Provide your final diagnosis in a short response, stating only the "
    "diagnosis name."
)


@dataclass
class Conversation:
    """One simulated consultation."""

    case_id: str
    setting: str
    transcript: list[tuple[str, str]] = field(default_factory=list)  # (speaker "doctor"|"patient", text)
    diagnosis: str = ""  # final diagnosis text of the doctor agent
    summary: str | None = None  # query vignette (summarized setting)
    calls: list[str] = field(default_factory=list)  # request keys, in order
    finished: bool = False  # the doctor gave a final diagnosis (False: turn cap or error)
    turns: int = 0  # doctor questions asked (the opening included)
    errors: list[str] = field(default_factory=list)
    doctor_model: str = ""
    patient_model: str = ""
    seed: int = 0

    def transcript_text(self) -> str:
        """``Doctor: ...`` / ``Patient: ...`` lines."""
        return "\n".join(f"{'Doctor' if s == 'doctor' else 'Patient'}: {t}" for s, t in self.transcript)

    def to_variant(self) -> Variant:
        """The input the final diagnosis was made from, with the diagnosis in provenance.

        Text: the vignette (``vignette``), the transcript (``single_turn``,
        ``multi_turn``) or the query vignette (``summarized``). Family ``"setting"``.
        """
        if self.setting == "summarized":
            text = self.summary or ""
        elif self.setting == "vignette":
            text = self.transcript[0][1] if self.transcript else ""
        else:
            text = self.transcript_text()
        return Variant(
            variant_id=Variant.make_id(self.case_id, "setting", self.setting, self.seed),
            case_id=self.case_id,
            family="setting",
            name=self.setting,
            text=text,
            seed=self.seed,
            description=f"{self.setting} consultation ({self.turns} doctor questions)"
            + ("" if self.finished or self.setting == "vignette" else "; ended at the turn cap"),
            provenance={
                "transform": "conversation",
                "setting": self.setting,
                "diagnosis": self.diagnosis,
                "transcript": [{"speaker": s, "text": t} for s, t in self.transcript],
                "summary": self.summary,
                "finished": self.finished,
                "turns": self.turns,
                "calls": self.calls,
                "doctor_model": self.doctor_model,
                "patient_model": self.patient_model,
                "errors": self.errors,
                "source": "P2 §4.3, Appendix B",
            },
            flags=(["model_error"] if self.errors else []) + (["turn_cap"] if self.setting in ("multi_turn", "summarized") and not self.finished else []),
        )


def is_final_diagnosis(message: str) -> bool:
    """Our reading: no question mark, or an explicit "diagnosis:" / "final diagnosis"."""
    low = message.lower()
    if re.search(r"final diagnosis|diagnosis\s*:", low):
        return True
    return "?" not in message


def build_summary_prompt(patient_answers: Sequence[str]) -> str:
    """P2's summarization prompt with its one-shot example and the query vignette."""
    query = " ".join(a.strip() for a in patient_answers if a.strip())
    return (
        f"{SUMMARIZE_PROMPT}\n\nQuery Vignette: {query}\n\n"
        f'For example, given the original vignette: "{SUMMARIZE_EXAMPLE_INPUT}" — the converted version should '
        f'read: "{SUMMARIZE_EXAMPLE_OUTPUT}"'
    )


def _specialty(case: Case, specialty: str | None) -> str:
    s = specialty or case.fields.get("specialty") or case.fields.get("category") or "general medicine"
    return str(s).strip().lower() or "general medicine"


def _doctor_request(conv: Conversation, case: Case, *, model: str, seed: int, temperature: float,
                    max_tokens: int, specialty: str | None, force: bool) -> ModelRequest:
    setting = "multi_turn" if conv.setting == "summarized" else conv.setting
    msgs = [Message(role="system", content=DOCTOR_PROMPTS[setting].format(specialty=_specialty(case, specialty)))]
    for spk, text in conv.transcript:
        msgs.append(Message(role="assistant" if spk == "doctor" else "user", content=text))
    if force:
        msgs.append(Message(role="user", content=FORCE_DIAGNOSIS))
    return ModelRequest(model=model, kind="chat", messages=msgs, temperature=temperature, max_tokens=max_tokens,
                        seed=seed, meta={"case_id": case.case_id, "stage": "conversation", "agent": "doctor",
                                         "setting": conv.setting, "turn": conv.turns})


def _patient_request(conv: Conversation, case: Case, *, model: str, seed: int, temperature: float,
                     max_tokens: int) -> ModelRequest:
    setting = "multi_turn" if conv.setting == "summarized" else conv.setting
    system = f"{PATIENT_PROMPTS[setting]}\n\nCase vignette: {case.text}"
    msgs = [Message(role="system", content=system)]
    for spk, text in conv.transcript:
        msgs.append(Message(role="user" if spk == "doctor" else "assistant", content=text))
    return ModelRequest(model=model, kind="chat", messages=msgs, temperature=temperature, max_tokens=max_tokens,
                        seed=seed, meta={"case_id": case.case_id, "stage": "conversation", "agent": "patient",
                                         "setting": conv.setting, "turn": conv.turns})


def run_conversation(case: Case, setting: str, *, runner: "Runner", doctor_model: str, patient_model: str,
                     max_turns: int = 10, seed: int = 0, **params: Any) -> Conversation:
    """Run one case in one setting (see :func:`run_conversations` for the parameters)."""
    return run_conversations([case], setting, runner=runner, doctor_model=doctor_model, patient_model=patient_model,
                             max_turns=max_turns, seed=seed, **params)[0]


def run_conversations(
    cases: Sequence[Case],
    setting: str,
    *,
    runner: "Runner",
    doctor_model: str,
    patient_model: str | None = None,
    max_turns: int = 10,
    seed: int = 0,
    temperature: float = 0.0,
    doctor_max_tokens: int = 128,
    patient_max_tokens: int = 128,
    summary_max_tokens: int = 512,
    specialty: str | None = None,
    is_final: Callable[[str], bool] = is_final_diagnosis,
) -> list[Conversation]:
    """Run many cases turn by turn; one ``runner.generate`` per agent step across all cases.

    ``patient_model`` defaults to ``doctor_model``; ``max_turns`` caps the doctor's
    questions in ``multi_turn`` / ``summarized`` (the opening question counts).
    """
    if setting not in SETTINGS:
        raise InputError(f"unknown setting {setting!r}; known: {', '.join(SETTINGS)}", field="setting")
    if max_turns < 1:
        raise InputError("max_turns must be at least 1", field="max_turns")
    patient_model = patient_model or doctor_model
    convs = [Conversation(case_id=c.case_id, setting=setting, doctor_model=doctor_model, patient_model=patient_model,
                          seed=seed) for c in cases]

    def call(reqs: list[ModelRequest], desc: str) -> list[ModelResponse]:
        return runner.generate(reqs, desc=desc) if reqs else []

    if setting == "vignette":
        reqs = [ModelRequest.chat(doctor_model, c.text, system=VIGNETTE_PROMPT, temperature=temperature,
                                  max_tokens=doctor_max_tokens, seed=seed,
                                  meta={"case_id": c.case_id, "stage": "conversation", "agent": "doctor",
                                        "setting": setting})
                for c in cases]
        for conv, c, resp in zip(convs, cases, call(reqs, "vignette diagnosis")):
            conv.transcript.append(("patient", c.text))
            conv.calls.append(resp.request_key)
            if resp.error:
                conv.errors.append(resp.error)
            else:
                conv.diagnosis = (resp.text or "").strip()
                conv.finished = True
        return convs

    for conv in convs:
        conv.transcript.append(("doctor", OPENING))
        conv.turns = 1
    active = list(range(len(cases)))
    single = setting == "single_turn"
    while active:
        # patient answers the last doctor question
        reqs = [_patient_request(convs[i], cases[i], model=patient_model, seed=seed, temperature=temperature,
                                 max_tokens=patient_max_tokens) for i in active]
        still = []
        for i, resp in zip(active, call(reqs, f"{setting}: patient turn")):
            convs[i].calls.append(resp.request_key)
            if resp.error:
                convs[i].errors.append(resp.error)
                continue
            convs[i].transcript.append(("patient", (resp.text or "").strip()))
            still.append(i)
        active = still
        if not active:
            break
        # doctor asks again or diagnoses (forced at the cap, and always in single_turn)
        force = {i: single or convs[i].turns >= max_turns for i in active}
        reqs = [_doctor_request(convs[i], cases[i], model=doctor_model, seed=seed, temperature=temperature,
                                max_tokens=doctor_max_tokens, specialty=specialty, force=force[i])
                for i in active]
        still = []
        for i, resp in zip(active, call(reqs, f"{setting}: doctor turn")):
            conv = convs[i]
            conv.calls.append(resp.request_key)
            if resp.error:
                conv.errors.append(resp.error)
                continue
            msg = (resp.text or "").strip()
            if force[i] or is_final(msg):
                conv.diagnosis = msg
                conv.finished = single or not force[i]
                conv.transcript.append(("doctor", msg))
            else:
                conv.transcript.append(("doctor", msg))
                conv.turns += 1
                still.append(i)
        active = still

    if setting == "summarized":
        ok = [i for i, conv in enumerate(convs) if not conv.errors]
        reqs = [ModelRequest.chat(doctor_model, build_summary_prompt([t for s, t in convs[i].transcript if s == "patient"]),
                                  temperature=temperature, max_tokens=summary_max_tokens, seed=seed,
                                  meta={"case_id": cases[i].case_id, "stage": "conversation", "agent": "summarizer",
                                        "setting": setting})
                for i in ok]
        done = []
        for i, resp in zip(ok, call(reqs, "summarized: query vignette")):
            convs[i].calls.append(resp.request_key)
            if resp.error:
                convs[i].errors.append(resp.error)
                continue
            convs[i].summary = (resp.text or "").strip().strip('"').strip()
            done.append(i)
        reqs = [ModelRequest.chat(doctor_model, convs[i].summary or "", system=VIGNETTE_PROMPT, temperature=temperature,
                                  max_tokens=doctor_max_tokens, seed=seed,
                                  meta={"case_id": cases[i].case_id, "stage": "conversation", "agent": "doctor",
                                        "setting": setting})
                for i in done]
        for i, resp in zip(done, call(reqs, "summarized: diagnosis")):
            convs[i].calls.append(resp.request_key)
            if resp.error:
                convs[i].errors.append(resp.error)
                continue
            convs[i].diagnosis = (resp.text or "").strip()
    return convs
