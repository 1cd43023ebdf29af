"""Dialog parsing used by perturbations: :mod:`clinaudit.loaders.dialog` when present.

A tiny private fallback (``Doctor:``/``[doctor]`` labels only) keeps this package
usable on its own.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Turn", "parse_dialog", "format_dialog"]

try:  # pragma: no cover - exercised whichever way the tree is
    from ..loaders.dialog import Turn, format_dialog, parse_dialog  # type: ignore[assignment]
except ImportError:  # pragma: no cover

    @dataclass(frozen=True)
    class Turn:  # type: ignore[no-redef]
        speaker: str
        utterance: str

    _LINE = re.compile(r"^\s*(?:\[(?P<a>[A-Za-z_]+\d*)\]|(?P<m>[A-Za-z_]+\d*)\s*:)[ \t]?(?P<rest>.*)$")

    def parse_dialog(text: str) -> list[Turn]:  # type: ignore[no-redef]
        turns: list[list[str]] = []
        for raw in text.replace("\r\n", "\n").split("\n"):
            m = _LINE.match(raw)
            if m:
                turns.append([(m.group("a") or m.group("m")).lower(), m.group("rest").strip()])
            elif raw.strip():
                if not turns:
                    turns.append(["unknown", ""])
                turns[-1][1] = (turns[-1][1] + "\n" + raw.strip()).strip()
        return [Turn(s, u) for s, u in turns]

    def format_dialog(turns, style: str = "mts") -> str:  # type: ignore[no-redef]
        out = []
        for t in turns:
            sp, ut = (t["speaker"], t["utterance"]) if isinstance(t, dict) else (t.speaker, t.utterance)
            out.append(f"[{sp}] {ut}" if style == "aci" else f"{sp[:1].upper() + sp[1:]}: {ut}")
        return "\n".join(out)
