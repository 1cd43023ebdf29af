"""Doctor–patient dialogs as lists of speaker turns.

Two written conventions are understood, and may even be mixed in one text:

* **MTS-Dialog style** — a line starts with a speaker label and a colon::

      Doctor: What brings you in today?
      Patient: My knee has been swelling.
      Guest_family: He twisted it playing football.

* **ACI-Bench style** — a line starts with a bracketed tag::

      [doctor] what brings you in today ?
      [patient] my knee has been swelling .

A line that does not start with a recognised label continues the previous
turn (multi-line utterances); blank lines are dropped. Speaker labels are
normalised to lower case with underscores (``Doctor`` → ``doctor``,
``Guest_family2`` → ``guest_family_2``, ``[patient_guest]`` →
``patient_guest``), and a few spelling slips seen in the public data
(``Docotr``, ``Guest_clinican``, ``Gest_family``) are mapped to the intended
role. Only labels built on a known role word count as speakers, so ordinary
prose such as ``Note: take with food`` inside an utterance is not mistaken
for a new turn.

:func:`format_dialog` writes turns back in either style; for turns with
normalised speakers, ``parse_dialog(format_dialog(turns, style)) == turns``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

__all__ = ["Turn", "parse_dialog", "format_dialog", "normalize_speaker", "DialogStyle"]

DialogStyle = Literal["mts", "aci"]

# Role words that may start a speaker label (checked case-insensitively).
_ROLE_WORDS = (
    "doctor", "docotr", "dr", "physician", "clinician", "nurse", "provider",
    "patient", "pt", "guest", "gest", "family", "caregiver", "parent", "mother", "father",
    "interpreter", "speaker", "unknown",
)
_ROLE = "(?:" + "|".join(_ROLE_WORDS) + ")"
# e.g. Doctor, Doctor_2, Guest_family, Guest_family_1, Guest_family2, Patient 2
_LABEL = _ROLE + r"(?:_[A-Za-z]+)*(?:[_ ]?\d+)?"

# "Doctor: ..." (an underscored machine label may also end with "." as in "Guest_family. Hello").
_MTS_LINE = re.compile(
    r"""^\s*["']?(?P<label>""" + _LABEL + r""")\s*(?P<sep>:|\.(?=\s))[ \t]?(?P<rest>.*)$""",
    re.IGNORECASE,
)
_ACI_LINE = re.compile(r"^\s*\[(?P<label>" + _LABEL + r")\][ \t]?(?P<rest>.*)$", re.IGNORECASE)

_ALIASES = {
    "dr": "doctor",
    "docotr": "doctor",
    "physician": "doctor",
    "pt": "patient",
    "gest_family": "guest_family",
    "guest_clinican": "guest_clinician",
}


@dataclass(frozen=True)
class Turn:
    """One speaker turn.

    ``speaker`` is normalised lower case (``"doctor"``, ``"patient"``, or another
    role such as ``"guest_family"``); ``utterance`` is the spoken text, possibly
    several lines joined by ``"\\n"``.
    """

    speaker: str
    utterance: str

    def to_dict(self) -> dict[str, str]:
        """``{"speaker": ..., "utterance": ...}`` (JSON-friendly)."""
        return {"speaker": self.speaker, "utterance": self.utterance}

    @property
    def is_doctor(self) -> bool:
        return self.speaker == "doctor"

    @property
    def is_patient(self) -> bool:
        return self.speaker == "patient"


def normalize_speaker(label: str) -> str:
    """Canonical lower-case speaker name for a raw label (``"Guest_family2"`` → ``"guest_family_2"``)."""
    s = re.sub(r"\s+", "_", label.strip().lower())
    s = re.sub(r"(?<=[a-z])(\d+)$", r"_\1", s)  # guest_family2 -> guest_family_2
    m = re.fullmatch(r"(.*?)(_\d+)?", s)
    base, num = (m.group(1), m.group(2) or "") if m else (s, "")
    if base in _ALIASES:  # whole label (gest_family, docotr_2)
        return _ALIASES[base] + num
    head, sep, tail = s.partition("_")
    if head in _ALIASES:  # leading role word (pt_guest)
        return _ALIASES[head] + sep + tail
    return s


def _match(line: str) -> tuple[str, str] | None:
    m = _ACI_LINE.match(line)
    if m:
        return normalize_speaker(m.group("label")), m.group("rest")
    m = _MTS_LINE.match(line)
    # "Label." only counts for underscored machine labels (Guest_family. Hello), never "Doctor. ..."
    if m and (m.group("sep") == ":" or "_" in m.group("label")):
        return normalize_speaker(m.group("label")), m.group("rest")
    return None


def parse_dialog(text: str) -> list[Turn]:
    """Split a dialog into :class:`Turn` s.

    Line endings (``\\r\\n``, ``\\r``) are normalised, trailing whitespace of
    each line and surrounding whitespace of each utterance are stripped, blank
    lines are dropped, and lines without a speaker label continue the previous
    turn. Text before the first labelled line becomes a turn with speaker
    ``"unknown"``; a blank text gives ``[]``.
    """
    if not isinstance(text, str):
        raise TypeError(f"parse_dialog expects a string, got {type(text).__name__}")
    speakers: list[str] = []
    lines_of: list[list[str]] = []
    for raw in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        line = raw.rstrip()
        hit = _match(line)
        if hit is not None:
            speakers.append(hit[0])
            lines_of.append([hit[1].strip()] if hit[1].strip() else [])
            continue
        if not line.strip():
            continue
        if not speakers:
            speakers.append("unknown")
            lines_of.append([])
        lines_of[-1].append(line.strip())
    return [Turn(s, "\n".join(ls)) for s, ls in zip(speakers, lines_of)]


def _mts_label(speaker: str) -> str:
    return speaker[:1].upper() + speaker[1:] if speaker else "Unknown"


def format_dialog(turns: Iterable[Turn] | Sequence[dict[str, str]], style: DialogStyle = "mts") -> str:
    """Write turns as text: ``"Doctor: ..."`` lines (``style="mts"``) or ``"[doctor] ..."`` lines (``"aci"``).

    Accepts :class:`Turn` objects or ``{"speaker", "utterance"}`` dicts (as stored
    in ``Case.fields["turns"]``). Lines are joined with ``"\\n"``.
    """
    if style not in ("mts", "aci"):
        raise ValueError(f"unknown dialog style {style!r}; use 'mts' or 'aci'")
    out: list[str] = []
    for t in turns:
        speaker, utterance = (t["speaker"], t["utterance"]) if isinstance(t, dict) else (t.speaker, t.utterance)
        label = f"{_mts_label(speaker)}:" if style == "mts" else f"[{speaker or 'unknown'}]"
        out.append(f"{label} {utterance}" if utterance else label)
    return "\n".join(out)
