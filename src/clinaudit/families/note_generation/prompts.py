"""P1's note-generation prompts (Appendix A.3, Figs. 3-4) and the insert-mode augmentation suffix."""

from __future__ import annotations

from typing import Any

from ...errors import InputError
from ...records import ModelRequest

__all__ = ["NOTE_SYSTEM_PROMPTS", "INSERT_SUFFIX", "note_prompt", "build_note_request"]

#: P1 Appendix A.3 (Figures 3 and 4): system messages of the note-generation prompts.
NOTE_SYSTEM_PROMPTS: dict[str, str] = {
    "mts": "You are a helpful medical assistant. Summarize the given doctor-patient dialogue.",
    "aci": (
        "You are a helpful medical assistant. Summarize the given doctor-patient dialogue. Structure the summary in "
        "the form of the following sections: 1) HISTORY OF PRESENT ILLNESS, 2) PHYSICAL EXAMINATION, 3) ASSESSMENT "
        "AND PLAN, 4) RESULTS, 5) CHIEF COMPLAINT and 6) REVIEW OF SYSTEMS. Include all medically relevant "
        "information."
    ),
}
#: appended to P1's augmentation prompt in ``augmentation: insert`` mode (the model proposes sentences only)
INSERT_SUFFIX = (
    "\n\nReply with the new sentences only, one per line, without speaker labels and without repeating the "
    "conversation."
)


def note_prompt(dialog: str, style: str, example: tuple[str, str] | None = None) -> tuple[str, str]:
    """``(system, user)`` of P1's note-generation prompt (Figs. 3–4).

    ``style="mts"``: zero-shot summary; ``style="aci"``: SOAP sections, with the
    in-context ``example`` ``(dialog, note)`` when given (P1 uses ACI-Bench D2N068).
    """
    if style not in NOTE_SYSTEM_PROMPTS:
        raise InputError(f"unknown note style {style!r}; use mts or aci", field="note_style")
    user = ""
    if style == "aci" and example is not None:
        user = f"Example:\n\nDialogue:\n{example[0].strip()}\n\nSummary:\n{example[1].strip()}\n\n"
    user += f"Dialogue:\n{dialog.strip()}\n\nSummary:"
    return NOTE_SYSTEM_PROMPTS[style], user


def build_note_request(model: str, dialog: str, style: str, *, example: tuple[str, str] | None = None,
                       temperature: float = 0.0, max_tokens: int = 1024, seed: int | None = 0,
                       meta: dict[str, Any] | None = None) -> ModelRequest:
    """The note-generation request for one dialog variant."""
    system, user = note_prompt(dialog, style, example)
    return ModelRequest.chat(model, user, system=system, temperature=temperature, max_tokens=max_tokens, seed=seed,
                             meta={"stage": "note", **(meta or {})})

