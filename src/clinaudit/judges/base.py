"""Shared judge machinery: build a request, parse and validate, retry, never guess.

A judge turns an item into a model request and parses the model's text into a
dict. Parsing either returns the validated dict or raises :class:`Unparseable`.
:func:`run_judge` retries unparseable outputs (each retry is a *different*
request: ``extra.attempt`` changes, and the seed moves on when one is set), and
records what is still unparseable as ``status="unparseable"``, never as NO.

Rule-based judges (no model) implement ``parse`` only and are run with
:func:`apply_parser`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from ..grammar import OutputGrammar, attach
from ..records import Judgment, ModelRequest
from ..runner import ModelCalls

__all__ = ["Judge", "Unparseable", "run_judge", "retry_request", "apply_parser", "extract_json", "parse_rate"]

T = TypeVar("T")


class Unparseable(ValueError):
    """Raised by a parser when the text does not contain a valid verdict."""


class Judge(Generic[T]):
    """Subclass and implement :meth:`build` and :meth:`parse`."""

    name: str = "judge"
    #: the fields of a parsed value a jury votes on (``None``: every field; see :mod:`clinaudit.judges.jury`)
    verdict_fields: tuple[str, ...] | None = None
    max_tokens: int = 256
    temperature: float = 0.0

    def build(self, item: T, model: str) -> ModelRequest:
        raise NotImplementedError

    def parse(self, text: str) -> dict[str, Any]:
        raise NotImplementedError

    def grammar(self) -> OutputGrammar | None:
        """The answer's grammar (:mod:`clinaudit.grammar`), declared next to :meth:`parse`; None: free text.

        Every answer the grammar allows must parse; backends that can enforce it do
        (docs/backends.md, *Structured output*)."""
        return None

    def request(self, item: T, model: str, *, constrain: bool = True) -> ModelRequest:
        """:meth:`build`'s request carrying :meth:`grammar` (unless ``constrain`` is false)."""
        req = self.build(item, model)
        return attach(req, self.grammar()) if constrain else req


def retry_request(req: ModelRequest, attempt: int) -> ModelRequest:
    """The request of retry ``attempt`` (0 = the original): a new cache key, a moved-on seed."""
    if attempt == 0:
        return req
    extra = dict(req.extra)
    extra["attempt"] = attempt
    seed = None if req.seed is None else req.seed + 1000 * attempt
    return req.model_copy(update={"extra": extra, "seed": seed})


def run_judge(
    runner: ModelCalls,
    judge: Judge[T],
    items: Sequence[tuple[str, T]],
    model: str,
    *,
    max_attempts: int = 3,
    desc: str | None = None,
    constrain: bool = True,
) -> list[Judgment]:
    """Judge every ``(item_id, item)``; returns one :class:`Judgment` per item, in order.

    Each request carries the judge's answer grammar (``judge.grammar()``; ``constrain=False`` leaves it
    out, e.g. to measure what the grammar changes).

    ``judge`` may be a :class:`~clinaudit.judges.jury.Jury` (several judge models): then every juror
    judges every item and the jury decisions are returned (``model`` is not used).
    """
    if getattr(judge, "is_jury", False):
        return judge.run(runner, items, max_attempts=max_attempts, desc=desc,  # type: ignore[attr-defined]
                         constrain=constrain)
    base = []
    for item_id, item in items:  # the item id goes into meta (not hashed), so every call row is attributable
        req = judge.request(item, model, constrain=constrain)
        meta = {"stage": f"judge:{judge.name}", **req.meta, "judge": req.meta.get("judge", judge.name)}
        meta.setdefault("item_id", str(item_id))
        base.append(req.model_copy(update={"meta": meta}))
    results: list[Judgment | None] = [None] * len(items)
    pending = list(range(len(items)))
    last_raw: dict[int, str | None] = {}
    last_key: dict[int, str] = {}
    last_err: dict[int, str] = {}
    for attempt in range(max_attempts):
        if not pending:
            break
        reqs = [retry_request(base[i], attempt) for i in pending]
        resps = runner.generate(reqs, desc=desc or f"judge {judge.name}" + (f" (retry {attempt})" if attempt else ""))
        still: list[int] = []
        for i, resp in zip(pending, resps):
            last_key[i] = resp.request_key
            if resp.error is not None:
                last_err[i] = resp.error
                still.append(i)
                continue
            last_raw[i] = resp.text
            try:
                value = judge.parse(resp.text or "")
            except Unparseable as exc:
                last_err[i] = str(exc)
                still.append(i)
                continue
            results[i] = Judgment(
                item_id=items[i][0], judge=judge.name, status="ok", value=value, raw=resp.text,
                attempts=attempt + 1, request_key=resp.request_key,
            )
        pending = still
    for i in pending:
        status = "unparseable" if i in last_raw else "error"
        results[i] = Judgment(
            item_id=items[i][0], judge=judge.name, status=status, value={}, raw=last_raw.get(i),
            attempts=max_attempts, request_key=last_key.get(i), meta={"error": last_err.get(i, "")},
        )
    return [r for r in results if r is not None]


def apply_parser(judge: Judge[Any], items: Sequence[tuple[str, str]]) -> list[Judgment]:
    """Run a judge's parser over texts that already exist (rule-based judging)."""
    out = []
    for item_id, text in items:
        try:
            out.append(Judgment(item_id=item_id, judge=judge.name, status="ok", value=judge.parse(text), raw=text))
        except Unparseable as exc:
            out.append(Judgment(item_id=item_id, judge=judge.name, status="unparseable", raw=text, meta={"error": str(exc)}))
    return out


_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.DOTALL)


def extract_json(text: str) -> Any:
    """The first JSON object in ``text`` (inside a code fence or bare); raises :class:`Unparseable`."""
    candidates = [m.group(1) for m in _FENCE.finditer(text)] + [text]
    decoder = json.JSONDecoder()
    for cand in candidates:
        for start in [m.start() for m in re.finditer(r"\{", cand)]:
            try:
                obj, _ = decoder.raw_decode(cand[start:])
                return obj
            except json.JSONDecodeError:
                continue
    raise Unparseable("no JSON object found")


@dataclass
class ParseRate:
    judge: str
    n: int
    ok: int
    unparseable: int
    error: int

    @property
    def rate(self) -> float:
        return self.ok / self.n if self.n else float("nan")


def parse_rate(judgments: Sequence[Judgment]) -> list[ParseRate]:
    """Per judge: how many verdicts parsed, were unparseable or errored."""
    by: dict[str, list[Judgment]] = {}
    for j in judgments:
        by.setdefault(j.judge, []).append(j)
    return [
        ParseRate(name, len(js), sum(j.status == "ok" for j in js), sum(j.status == "unparseable" for j in js),
                  sum(j.status == "error" for j in js))
        for name, js in sorted(by.items())
    ]
