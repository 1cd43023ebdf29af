"""What a run will cost before it starts (:class:`Estimate`) and what a registered audit is (:class:`AuditRecipe`)."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

__all__ = ["Estimate", "AuditRecipe"]


@dataclass
class Estimate:
    """What a run will cost before it starts."""

    calls: dict[str, int] = field(default_factory=dict)  # model spec -> calls (before cache)
    cached: dict[str, int] = field(default_factory=dict)  # model spec -> of which already cached
    prompt_tokens: dict[str, int] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    #: model spec -> the first request the run would send that is not cached (the time probe's request)
    samples: dict[str, Any] = field(default_factory=dict, repr=False)
    #: model spec -> further uncached requests: a batching local backend's batched probe (calibrates batching)
    more_samples: dict[str, list[Any]] = field(default_factory=dict, repr=False)
    #: model spec -> (estimated seconds for its new calls, how the time per call was found)
    seconds: dict[str, tuple[float, str]] = field(default_factory=dict)
    #: model spec -> seconds one call took (the probe, or the cache's median); spec -> probe error
    per_call: dict[str, float] = field(default_factory=dict)
    #: model spec -> request shape -> [new calls of that shape, up to 8 of its uncached requests]: a batching
    #: local backend's probes time each shape in a batch of its own (DryCount.shapes)
    shapes: dict[str, dict[str, list[Any]]] = field(default_factory=dict, repr=False)
    #: model spec -> (low, high) seconds where the time was calibrated by a batched probe
    ranges: dict[str, tuple[float, float]] = field(default_factory=dict)
    #: model spec -> (low, high) seconds: the likely range of a time estimated shape by shape
    likely: dict[str, tuple[float, float]] = field(default_factory=dict)
    probe_errors: dict[str, str] = field(default_factory=dict)

    def scale(self, factor: float, note: str) -> None:
        """Scale the counts (calls, cached, prompt tokens, calls per request shape) by ``factor``: the stages counted
        a sample of the cases (``AuditContext.sample_cases``); ``note`` says so first among the notes."""
        for counts in (self.calls, self.cached, self.prompt_tokens):
            for k in counts:
                counts[k] = round(counts[k] * factor)
        for shapes in self.shapes.values():
            for entry in shapes.values():
                entry[0] = round(entry[0] * factor)
        self.notes.insert(0, note)

    def total_calls(self) -> int:
        return sum(self.calls.values())

    def new_calls(self, spec: str) -> int:
        return max(0, self.calls.get(spec, 0) - self.cached.get(spec, 0))

    def add_time(self, runner: Any, *, probe: bool = True, local_call: bool = False) -> None:
        """Estimate each model's time for its new calls: the median recorded time per call of the backend's
        answers in the cache, else (``probe``) the time of one real call, the first request the run would send
        (stored in the cache like any call, so the run does not send it again). A local backend's calls are
        counted one after another (its batching makes a run faster: an upper bound); a remote backend's are
        divided over ``runner.config.concurrency`` simultaneous calls.

        ``local_call`` (a run about to start, not ``--dry-run``): a local model (``embedded``, ``hf:``, ``vllm:``:
        a backend that ``batches_calls``; not ``mock``, whose calls cost nothing) without recorded answers is timed
        by that one call alone — the run's own first call, which it would make anyway (loading the model is the
        run's too) — with no batched or per-shape probes, so the time printed before a run starts costs the run
        nothing; an upper bound (one call at a time). A remote model is not probed."""
        import statistics
        import time

        for spec in sorted(self.calls):
            n = self.new_calls(spec)
            if n == 0:
                continue
            backend = runner.backend(spec)
            lat = runner.cache.latencies(backend.identity()) if getattr(runner, "cache", None) is not None else []
            if lat:
                per_call, how = statistics.median(lat), f"median of {len(lat)} answer{'s' if len(lat) > 1 else ''} in the cache"
            elif (probe or (local_call and _local_model(backend))) and spec in self.samples:
                quick = not probe  # the run's own first call only: no warm-up, batched or per-shape probes
                t0 = time.monotonic()
                backend.prepare()
                t1 = time.monotonic()
                if not quick and self._shaped(spec, backend):  # a first forward pass sets up kernels: not a call's
                    _warm_up(backend, self.samples[spec])
                    t1 = time.monotonic()
                resp = runner.generate([self.samples[spec]], desc="time probe")[0]
                per_call = time.monotonic() - t1
                if resp.error:
                    self.notes.append(f"time probe of {spec} failed: {resp.error}")
                    self.probe_errors[spec] = str(resp.error)
                    continue
                how = ("the run's first call, timed" if quick else "one probe call") + \
                    (f", after {_duration(t1 - t0)} of loading" if t1 - t0 >= 1 else "")
            else:
                continue
            self.per_call[spec] = per_call
            if "cache" not in how and probe and self._shaped(spec, backend):
                done = self._time_shapes(runner, spec, backend, resp, per_call, load=t1 - t0)
                if done:
                    continue
            parallel = max(1, int(getattr(getattr(runner, "config", None), "concurrency", 1) or 1))
            batch = int(getattr(backend, "batch_size", 0) or 0)
            more = list(self.more_samples.get(spec, []))[: max(0, min(batch, n - 1))]
            if _batching(backend) and probe and len(more) >= 2 and "cache" not in how:
                # a batching local backend: its calls go in batches, so one call alone overstates the time; a
                # second probe sends a batch of the next requests (stored like any call) and the run is timed by
                # it, with the one-at-a-time time as the upper bound
                t0 = time.monotonic()
                resps = runner.generate(more, desc="time probe (batch)")
                t_batch = time.monotonic() - t0
                if not any(r.error for r in resps):
                    per_batched = t_batch / len(more)
                    self.per_call[spec] = per_call
                    low, high = n * per_batched, n * per_call
                    self.seconds[spec] = (low, f"{per_batched:.2f} s per call in a batch of {len(more)} ({t_batch:.1f} s "
                                          f"for the batch; {per_call:.2f} s for one call alone, after loading: at "
                                          f"most ~{_duration(high)}); batches of up to {batch}")
                    self.ranges[spec] = (low, high)
                    continue
            if backend.is_remote:
                self.seconds[spec] = (n * per_call / parallel, f"{per_call:.2f} s per call, {how}, "
                                      f"{parallel} at a time")
            else:
                self.seconds[spec] = (n * per_call, f"{per_call:.2f} s per call, {how}, one at a time: an upper "
                                      "bound, batching is faster")

    def _shaped(self, spec: str, backend: Any) -> bool:
        """True when ``spec`` is a batching local backend whose calls come in shapes the probes can time."""
        return _batching(backend) and bool(self.shapes.get(spec))

    def _time_shapes(self, runner: Any, spec: str, backend: Any, first: Any, per_call: float, *,
                     load: float) -> bool:
        """Time a batching local backend's run shape by shape (False: not possible, use the one probe).

        The run's calls of one shape (stage, max_tokens, sampling, grammar: :func:`request_shape`) go to the
        engine together, up to ``max_batch`` rows decoding at once. Each shape's probe sends a batch of its
        own requests (up to ``batch_size``, at most 8; stored like any call; a judge request built on a
        not-yet-cached answer gets a probe answer's text in its place and is not stored) and measures the
        seconds per decoding step at that width. The single probe gives the step alone; a step's cost grows
        as ``width ** alpha`` between them (alpha in [0, 1]: 0 when a step of many rows costs what one row
        does, 1 when batching gains nothing), and each shape's calls are timed at the run's width
        ``min(max_batch, calls of the shape)`` by that power. The range: two thirds of it to 1.5 times it
        (the load of a shared machine moves), and at most the probe width's time (no gain past the probe).
        """
        import time

        shapes = self.shapes.get(spec) or {}
        if first is None or first.error:
            return False
        first_key = runner.request_key(self.samples[spec])
        step_alone = per_call / max(1, int(first.completion_tokens or 1))
        width = max(1, int(getattr(backend, "max_batch", 0) or getattr(backend, "batch_size", 1)))
        size = max(2, min(8, int(getattr(backend, "batch_size", 8) or 8)))
        answers = [first.text] if first.text else []
        measured: dict[str, tuple[int, float, float, float, int]] = {}  # shape -> (n, s/call, step s, eff. width, rows)
        for shape, (n_new, requests) in shapes.items():
            batch = [r for r in requests if runner.request_key(r) != first_key][:size]
            if first_key in {runner.request_key(r) for r in requests} and len(batch) < 2:
                measured[shape] = (n_new, per_call, step_alone, 1.0, 1)
                continue
            if not batch:
                continue
            stand_in = [_with_answer(r, answers, i) for i, r in enumerate(batch)]
            direct = any(a is not r for a, r in zip(stand_in, batch))
            t0 = time.monotonic()
            resps = (backend.generate(stand_in) if direct
                     else runner.generate(stand_in, desc="time probe (batch)"))
            took = time.monotonic() - t0
            if any(r.error for r in resps):
                self.notes.append(f"batched time probe of {spec} ({shape}) failed: "
                                  f"{next(r.error for r in resps if r.error)}")
                return False
            toks = [max(1, int(r.completion_tokens or 1)) for r in resps]
            answers.extend(r.text for r in resps if r.text and not direct)
            eff = sum(toks) / max(toks)
            step = took / max(toks)
            measured[shape] = (n_new, took / len(batch), step, eff, len(batch))
        if not measured:
            return False
        # the batching power from the widest free-text probe (a grammar's masks and a long prompt's prefill
        # are not decoding steps like the one probe's); none wide enough: no gain past one call assumed
        free = [m for shape, m in measured.items() if m[4] > 1 and m[3] >= 1.5 and "grammar" not in shape]
        if free:
            _, _, step, eff, _ = max(free, key=lambda m: m[3])
            alpha = min(1.0, max(0.0, math.log(step / step_alone) / math.log(eff)))
        else:
            alpha = 1.0
        total = high = 0.0
        parts = []
        for shape, (n_new, s_call, _step, eff, rows) in measured.items():
            run_width = max(1, min(width, n_new))
            at_run = s_call * (run_width / eff) ** (alpha - 1) if rows > 1 else s_call / run_width ** (1 - alpha)
            at_probe = s_call * (run_width / eff) ** (alpha - 1) if run_width < eff else s_call
            total += n_new * at_run
            high += n_new * max(at_run, at_probe)
            parts.append(f"{n_new} {shape}: {at_run:.3g} s per call at {run_width} rows"
                         + (f" (probe: {rows} in {s_call * rows:.3g} s)" if rows > 1 else " (the one probe)"))
        unmeasured = self.new_calls(spec) - sum(m[0] for m in measured.values())
        if unmeasured > 0:  # shapes past the probes: at the slowest measured time per call
            worst = max(m[1] for m in measured.values())
            total += unmeasured * worst
            high += unmeasured * worst
        total += load
        low, high = total / 1.5, max(total * 1.5, high + load)
        self.seconds[spec] = (total, f"by request shape, a decoding step's cost growing as rows^{alpha:.2f} "
                              f"(one call alone {per_call:.2f} s), loading {load:.0f} s: " + "; ".join(parts))
        self.likely[spec] = (low, high)
        return True

    def slow_server_note(self, timeout_s: float, token_fields: list[str]) -> None:
        """A note naming the options to set when a model's call takes more than a quarter of ``timeout_s`` (the
        runner's limit on one attempt) or its probe timed out: ``runner.timeout_s`` above the slowest call, and
        the audit's ``*max_tokens`` parameters (fewer tokens per answer, faster calls)."""
        slow = {s: t for s, t in self.per_call.items() if t > timeout_s / 4}
        slow.update({s: math.inf for s, e in self.probe_errors.items() if "timed out" in e or "timeout" in e})
        if not slow:
            return
        worst = max(slow.values())
        took = "timed out" if worst == math.inf else f"took {worst:.1f} s"
        fields = f", or lower {', '.join(token_fields)} (shorter answers)" if token_fields else ""
        least = "" if worst == math.inf else f" to at least {math.ceil(worst * 2)} s"
        self.notes.append(f"slow server: a call to {', '.join(sorted(slow))} {took}, against runner.timeout_s "
                          f"{timeout_s:g} s per attempt: raise runner.timeout_s in the spec{least}{fields}")

    def to_text(self, prices: dict[str, dict[str, float]] | None = None) -> str:
        from ..models.options import effective_prices

        lines = ["Estimated model calls:"]
        for spec, n in sorted(self.calls.items()):
            hit = self.cached.get(spec, 0)
            toks = self.prompt_tokens.get(spec)
            line = f"  {spec:40s} {n:8d} calls ({hit} cached, {n - hit} new)"
            if toks:
                line += f", ~{toks:,} prompt tokens"
            price, discount = effective_prices(spec, (prices or {}).get(spec, {}))  # batch backends: discounted
            if toks and price.get("price_per_1k_input"):
                line += f", ~${toks / 1000 * price['price_per_1k_input'] * max(0, n - hit) / max(1, n):.2f} input"
                if discount:
                    line += f" (batch price: {discount:.0%} off)"
            lines.append(line)
        lines.append(f"  total: {self.total_calls()} calls")
        if self.seconds:
            total = sum(sec for sec, _ in self.seconds.values())
            high = total + sum(hi - lo for lo, hi in self.ranges.values())
            span = f" (up to ~{_duration(high)} if the calls do not batch)" if self.ranges and high > total * 1.05 else ""
            if self.likely:
                lo = sum(self.likely[s][0] if s in self.likely else sec for s, (sec, _) in self.seconds.items())
                hi = high + sum(h - self.seconds[s][0] for s, (_, h) in self.likely.items())
                span += f", likely {_duration(lo)} to {_duration(hi)} (a shared machine's load moves it)"
            exact = f" ({total:.0f} s)" if total >= 90 else ""
            lines.append(f"  time: about {_duration(total)}{exact} for the new calls{span}")
            lines.extend(f"    {spec}: ~{_duration(sec)} ({how})" for spec, (sec, how) in sorted(self.seconds.items()))
        elif any(self.new_calls(s) for s in self.calls):
            lines.append("  time: not estimated (no recorded answers of these models yet; `--dry-run` measures one "
                         "probe call per model)")
        lines.extend(f"  note: {n}" for n in self.notes)
        return "\n".join(lines)


def _local_model(backend: Any) -> bool:
    """A model run on this machine (a backend that ``batches_calls``: embedded, hf:, vllm:), whose calls take time."""
    return bool(getattr(backend, "batches_calls", False)) and not backend.is_remote


def _batching(backend: Any) -> bool:
    """A local backend that runs a batch of calls together (``batches_calls``) with batches of more than one."""
    return (bool(getattr(backend, "batches_calls", False)) and not backend.is_remote
            and int(getattr(backend, "batch_size", 0) or 0) > 1)


def _warm_up(backend: Any, request: Any) -> None:
    """Two tokens of ``request`` straight to the backend (not stored): the first pass's set-up is not timed."""
    try:
        backend.generate([request.model_copy(update={"max_tokens": 2})])
    except Exception:  # noqa: BLE001 - the timed probe that follows reports a failing backend
        pass


def _with_answer(request: Any, answers: list[str], i: int) -> Any:
    """``request`` with a dry-run placeholder (an answer not cached yet) replaced by a probe answer's text."""
    import re

    from .calls import PLACEHOLDER_PREFIX

    if not answers or not any(PLACEHOLDER_PREFIX in (m.content or "") for m in request.messages):
        return request
    pattern = re.compile(re.escape(PLACEHOLDER_PREFIX) + r"[^\]]*\]")
    text = answers[i % len(answers)]
    messages = [m.model_copy(update={"content": pattern.sub(lambda _m: text, m.content or "")})
                for m in request.messages]
    return request.model_copy(update={"messages": messages})


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


@dataclass(frozen=True)
class AuditRecipe:
    name: str
    summary: str
    params_model: type[BaseModel]
    #: ``run(ctx)`` and ``estimate(ctx)`` take the run's :class:`clinaudit.pipeline.AuditContext`
    run: Callable[[Any], dict[str, Any] | None]
    estimate: Callable[[Any], Estimate] | None = None
    #: the :class:`clinaudit.pipeline.Audit` subclass, for audits declared as stages
    declaration: type | None = None
