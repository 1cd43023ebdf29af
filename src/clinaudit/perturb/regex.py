"""Rule-based (regex) perturbations of P2 (Appendix A, Table 7).

``exclamation``, ``uppercase``, ``lowercase``, ``typo`` and ``whitespace``, in two modes:

``compat``
    Reproduces the published code (and files) byte for byte: Python's
    ``random`` is re-seeded with 0 at the start of *every* text, so the positions
    chosen depend only on the text length, never on the case. Published
    parameters are the defaults in this mode (typo 0.03, whitespace 0.015, the
    others 1.0). At ``p=1`` ``exclamation`` also turns decimal points ("36.8" → "36!8").
``default``
    Each ``(case id, perturbation, seed)`` has its own :class:`numpy.random.Generator`
    (:func:`~clinaudit.perturb.registry.case_rng`); ``exclamation`` only turns
    statement-ending periods, sparing decimal points, abbreviations (Dr., Mr.,
    e.g., b.i.d., etc.) and ellipses; ``typo`` always substitutes a *different* letter.

In both modes ``protected`` spans (see :mod:`.protect`) are never touched: no
character inside them changes and no whitespace is inserted before one of them.
In compat mode the random stream is consumed exactly as the published code does,
so positions outside protected spans are the published ones.

Every function here works on *pieces*: ``pieces[i]`` is what replaces character
``i`` of the input (whitespace insertions are prepended to the piece), so the
output is ``"".join(pieces)`` and the effect on any span can be checked.
"""

from __future__ import annotations

import math
import random
import re
import string
from collections.abc import Callable
from typing import Any

import numpy as np

from ..records import Case, Variant
from .protect import protected_mask
from .registry import register_transform

__all__ = [
    "REGEX_PERTURBATIONS",
    "COMPAT_DEFAULTS",
    "DEFAULT_ABBREVIATIONS",
    "perturb_text",
    "perturb_pieces",
    "sentence_end_periods",
]

REGEX_PERTURBATIONS: tuple[str, ...] = ("exclamation", "uppercase", "lowercase", "typo", "whitespace")

#: Published parameters (P2): probability per position / share of positions.
COMPAT_DEFAULTS: dict[str, float] = {"exclamation": 1.0, "uppercase": 1.0, "lowercase": 1.0, "typo": 0.03, "whitespace": 0.015}

#: Abbreviations whose final period is not a sentence end (lower-cased, without the final period).
DEFAULT_ABBREVIATIONS: frozenset[str] = frozenset(
    """dr mr mrs ms mx prof sr jr st vs etc e.g i.e cf al approx appt dept est fig min max mo yr yrs wk wks hr hrs
    no nos vol pt pts inc ltd co corp jan feb mar apr jun jul aug sep sept oct nov dec mon tue wed thu fri sat sun
    b.i.d t.i.d q.i.d q.d q.h q.o.d p.o p.r i.v i.m s.c s.q p.r.n h.s a.m p.m u.s u.k n.b
    """.split()
)

_LETTERS = string.ascii_letters


# --------------------------------------------------------------------------- helpers


def sentence_end_periods(text: str, abbreviations: frozenset[str] = DEFAULT_ABBREVIATIONS) -> list[int]:
    """Indices of ``.`` characters that end a statement.

    A period ends a statement when it is followed by whitespace, a closing
    quote/bracket, or the end of the text; is not part of an ellipsis or a number
    ("36.8", ".5"); and does not close an abbreviation (``abbreviations``, a single
    initial such as "J.", or a dotted token such as "b.i.d.").
    """
    out: list[int] = []
    n = len(text)
    for m in re.finditer(r"\.", text):
        i = m.start()
        nxt = text[i + 1] if i + 1 < n else ""
        prev = text[i - 1] if i > 0 else ""
        if nxt == "." or prev == ".":
            continue  # ellipsis
        if nxt and not (nxt.isspace() or nxt in "\"')]}\u201d\u2019"):
            continue  # "36.8", "file.txt", "e.g" inside a token
        if not prev or prev.isspace():
            continue  # a lone period
        # token before the period
        j = i
        while j > 0 and not text[j - 1].isspace() and text[j - 1] not in "\"'([{\u201c\u2018":
            j -= 1
        token = text[j:i]
        core = token.lower()
        if core in abbreviations:
            continue
        if len(token) == 1 and token.isalpha() and token.isupper() and _is_initial(text, j, i):
            continue  # an initial ("J. Smith", "John F. Kennedy"), not "36.8 C."
        if "." in token and re.fullmatch(r"(?:[A-Za-z]{1,3}\.)+[A-Za-z]{1,3}", token):
            continue  # dotted abbreviation ("b.i.d.", "U.S.")
        out.append(i)
    return out


def _is_initial(text: str, start: int, dot: int) -> bool:
    """A single capital followed by '.' is an initial when a capitalised word follows and the
    previous word is capitalised (a first name or a title) or a sentence starts there."""
    nxt = re.match(r"\s+([A-Z])", text[dot + 1:])
    if not nxt:
        return False
    prev = re.search(r"(\S+)\s+$", text[:start])
    if prev is None:
        return True
    word = prev.group(1)
    # after a sentence end or a title ("It hurts. J. Doe", "Dr. J. Doe"), or after a capitalised word
    return word[-1:] in ".!?" or word[:1].isupper()


def _published_params(name: str, p: float | None) -> float:
    return COMPAT_DEFAULTS[name] if p is None else float(p)


# --------------------------------------------------------------------------- compat mode


def _compat_pieces(name: str, text: str, p: float, mask: list[bool]) -> list[str]:
    """The published algorithms (random.seed(0) per text), skipping protected positions."""
    rnd = random.Random(0)
    pieces = list(text)
    if name in ("uppercase", "lowercase"):
        for i, c in enumerate(text):
            changed = c.upper() if name == "uppercase" else c.lower()
            choice = rnd.choices([changed, c], weights=[p, 1 - p], k=1)[0]
            if not mask[i]:
                pieces[i] = choice
    elif name == "exclamation":
        for i, c in enumerate(text):
            if c == ".":
                choice = rnd.choices(["!", "."], weights=[p, 1 - p], k=1)[0]
                if not mask[i]:
                    pieces[i] = choice
    elif name == "typo":
        indices = [i for i, c in enumerate(text) if not c.isspace()]
        k = math.floor(len(indices) * p)
        for i in rnd.sample(indices, k):
            letter = rnd.choice(_LETTERS)
            if not mask[i]:
                pieces[i] = letter
    elif name == "whitespace":
        for i, c in enumerate(text):
            if rnd.choices([True, False], weights=[p, 1 - p], k=1)[0]:
                spaces = " " * rnd.randint(1, 3)
                if not mask[i]:
                    pieces[i] = spaces + c
    else:  # pragma: no cover - guarded by callers
        raise ValueError(name)
    return pieces


# --------------------------------------------------------------------------- default mode


def _default_pieces(
    name: str, text: str, p: float, mask: list[bool], rng: np.random.Generator, abbreviations: frozenset[str]
) -> list[str]:
    pieces = list(text)
    n = len(text)
    if n == 0:
        return pieces
    if name in ("uppercase", "lowercase"):
        draws = rng.random(n) < p
        for i, c in enumerate(text):
            if draws[i] and not mask[i]:
                pieces[i] = c.upper() if name == "uppercase" else c.lower()
    elif name == "exclamation":
        cands = [i for i in sentence_end_periods(text, abbreviations) if not mask[i]]
        draws = rng.random(len(cands)) < p
        for i, d in zip(cands, draws):
            if d:
                pieces[i] = "!"
    elif name == "typo":
        indices = [i for i, c in enumerate(text) if not c.isspace() and not mask[i]]
        k = math.floor(len(indices) * p)
        if k:
            chosen = rng.choice(len(indices), size=k, replace=False)
            for j in chosen:
                i = indices[int(j)]
                letter = text[i]
                while letter == text[i]:
                    letter = _LETTERS[int(rng.integers(len(_LETTERS)))]
                pieces[i] = letter
    elif name == "whitespace":
        draws = rng.random(n) < p
        counts = rng.integers(1, 4, size=n)
        for i, c in enumerate(text):
            if draws[i] and not mask[i]:
                pieces[i] = " " * int(counts[i]) + c
    else:  # pragma: no cover
        raise ValueError(name)
    return pieces


# --------------------------------------------------------------------------- public


def perturb_pieces(
    text: str,
    name: str,
    *,
    mode: str = "default",
    rng: np.random.Generator | None = None,
    p: float | None = None,
    protected: Any = None,
    abbreviations: frozenset[str] = DEFAULT_ABBREVIATIONS,
) -> list[str]:
    """Per-character replacement pieces (``"".join`` gives the perturbed text)."""
    if name not in REGEX_PERTURBATIONS:
        raise ValueError(f"unknown regex perturbation {name!r}; known: {', '.join(REGEX_PERTURBATIONS)}")
    prob = _published_params(name, p)
    if not 0.0 <= prob <= 1.0:
        raise ValueError(f"{name}: p must be in [0, 1], got {prob}")
    mask = protected_mask(text, protected)
    if mode == "compat":
        return _compat_pieces(name, text, prob, mask)
    if mode == "default":
        if rng is None:
            rng = np.random.default_rng(0)
        return _default_pieces(name, text, prob, mask, rng, abbreviations)
    raise ValueError(f"unknown mode {mode!r}: use 'compat' or 'default'")


def perturb_text(
    text: str,
    name: str,
    *,
    mode: str = "default",
    case_id: str = "",
    seed: int = 0,
    rng: np.random.Generator | None = None,
    p: float | None = None,
    protected: Any = None,
    abbreviations: frozenset[str] = DEFAULT_ABBREVIATIONS,
) -> str:
    """Perturb one text. In default mode the generator is ``rng`` or ``case_rng(case_id, name, seed)``."""
    if rng is None and mode == "default":
        from .registry import case_rng

        rng = case_rng(case_id, name, seed)
    return "".join(perturb_pieces(text, name, mode=mode, rng=rng, p=p, protected=protected, abbreviations=abbreviations))


_DESCRIPTIONS = {
    "exclamation": "statement-ending periods turned into exclamation marks",
    "uppercase": "text upper-cased",
    "lowercase": "text lower-cased",
    "typo": "random letters substituted at a share of non-space positions",
    "whitespace": "1-3 extra spaces inserted before a share of positions",
}


def _make_apply(name: str) -> Callable[..., list[Variant]]:
    def apply(
        case: Case,
        rng: Any,
        *,
        mode: str = "default",
        seed: int = 0,
        p: float | None = None,
        protected: Any = None,
        abbreviations: frozenset[str] = DEFAULT_ABBREVIATIONS,
        **_: Any,
    ) -> list[Variant]:
        if mode == "default" and not isinstance(rng, np.random.Generator):
            from .registry import case_rng

            rng = case_rng(case.case_id, name, seed)
        pieces = perturb_pieces(case.text, name, mode=mode, rng=rng, p=p, protected=protected, abbreviations=abbreviations)
        text = "".join(pieces)
        changed = sum(1 for c, piece in zip(case.text, pieces) if piece != c)
        prob = _published_params(name, p)
        return [
            Variant(
                variant_id=Variant.make_id(case.case_id, "perturbation", name, seed),
                case_id=case.case_id,
                family="perturbation",
                name=name,
                text=text,
                seed=seed,
                description=f"{_DESCRIPTIONS[name]} (p={prob:g}, {mode} mode)",
                provenance={
                    "transform": name,
                    "kind": "regex",
                    "mode": mode,
                    "params": {"p": prob},
                    "rng": "random.seed(0) per text (published code)" if mode == "compat"
                    else "numpy Generator seeded from (case_id, name, seed)",
                    "positions_changed": changed,
                    "protected_spans": protected is not None,
                },
            )
        ]

    apply.__name__ = f"apply_{name}"
    apply.__doc__ = f"Regex perturbation ``{name}``: {_DESCRIPTIONS[name]}."
    return apply


for _name in REGEX_PERTURBATIONS:
    register_transform(
        _name,
        "perturbation",
        {
            "exclamation": "every statement-ending '.' becomes '!' (P2)",
            "uppercase": "whole message in upper case (P2)",
            "lowercase": "whole message in lower case (P2)",
            "typo": "letter substitutions at 3% of non-space characters (P2)",
            "whitespace": "1-3 spaces inserted before 1.5% of characters (P2)",
        }[_name],
        modes=("default", "compat"),
    )(_make_apply(_name))
