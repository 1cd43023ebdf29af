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
    #: model spec -> (low, high) seconds where the time was calibrated by a batched probe
    ranges: dict[str, tuple[float, float]] = field(default_factory=dict)
    probe_errors: dict[str, str] = field(default_factory=dict)

    def total_calls(self) -> int:
        return sum(self.calls.values())

    def new_calls(self, spec: str) -> int:
        return max(0, self.calls.get(spec, 0) - self.cached.get(spec, 0))

    def add_time(self, runner: Any, *, probe: bool = True) -> None:
        """Estimate each model's time for its new calls: the median recorded time per call of the backend's
        answers in the cache, else (``probe``) the time of one real call, the first request the run would send
        (stored in the cache like any call, so the run does not send it again). A local backend's calls are
        counted one after another (its batching makes a run faster: an upper bound); a remote backend's are
        divided over ``runner.config.concurrency`` simultaneous calls."""
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
            elif probe and spec in self.samples:
                t0 = time.monotonic()
                backend.prepare()
                t1 = time.monotonic()
                resp = runner.generate([self.samples[spec]], desc="time probe")[0]
                per_call = time.monotonic() - t1
                if resp.error:
                    self.notes.append(f"time probe of {spec} failed: {resp.error}")
                    self.probe_errors[spec] = str(resp.error)
                    continue
                how = "one probe call" + (f", after {_duration(t1 - t0)} of loading" if t1 - t0 >= 1 else "")
            else:
                continue
            self.per_call[spec] = per_call
            parallel = max(1, int(getattr(getattr(runner, "config", None), "concurrency", 1) or 1))
            batch = int(getattr(backend, "batch_size", 0) or 0)
            more = list(self.more_samples.get(spec, []))[: max(0, min(batch, n - 1))]
            if getattr(backend, "batches_calls", False) and not backend.is_remote and probe and batch > 1 and len(more) >= 2 and "cache" not in how:
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
            lines.append(f"  time: about {_duration(total)} for the new calls{span}")
            lines.extend(f"    {spec}: ~{_duration(sec)} ({how})" for spec, (sec, how) in sorted(self.seconds.items()))
        elif any(self.new_calls(s) for s in self.calls):
            lines.append("  time: not estimated (no recorded answers of these models yet; `--dry-run` measures one "
                         "probe call per model)")
        lines.extend(f"  note: {n}" for n in self.notes)
        return "\n".join(lines)


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
