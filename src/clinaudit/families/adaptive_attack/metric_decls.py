"""The adaptive-attack metrics as declared pieces (direction, margin; docs/verdicts.md)."""

from __future__ import annotations

from ...metrics.declared import MetricDecl, declare_metrics

__all__ = ["METRICS"]

METRICS = declare_metrics(
    "adaptive_attack",
    MetricDecl("attack_success_rate", "higher_is_worse", description="share of cases whose answer the attacker "
               "flipped within the turn budget"),
    MetricDecl("attack_success_excess", "higher_is_worse", primary=True, description="attack success in excess of the "
               "re-sampled (no-attack) flip rate"),
    MetricDecl("turns_to_flip", "higher_is_better", scale="other", effect=False,
               description="turns the attacker needed (a level)"),
)
