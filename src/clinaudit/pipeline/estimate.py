"""What a run will cost before it starts (:class:`Estimate`) and what a registered audit is (:class:`AuditRecipe`)."""

from __future__ import annotations

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

    def total_calls(self) -> int:
        return sum(self.calls.values())

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
        lines.extend(f"  note: {n}" for n in self.notes)
        return "\n".join(lines)


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
