"""The policy of ``clinaudit gate``: which verdicts fail, per-metric margins, required validity.

A policy is a small YAML file, validated on load like an audit spec (unknown fields refused; every
error names the file and the field). Without one, :data:`DEFAULT_POLICY` applies::

    version: 1
    fail_on: [bias]              # verdicts of the run's own results that fail the gate
    margins: {TSR: 0.03}         # per metric (or audit/metric): margin of the baseline comparison
    baseline:
      fail_on: [worse]           # comparison verdicts that fail (worse counts only beyond the margin)
      strata: true               # gate the per-stratum rows as well as the pooled ones
    validity:
      not_measured: ignore       # an effect row not measured in a measured run: ignore (a warning), fail, not_gateable
      min_parse_rate: 0.9        # every judge must have parsed at least this share (else exit 3)
      min_cases_used: 0.5        # share of the given cases the run used (else exit 3)
      allow_skewed_sample: false # a sample skewed by exclusions (by sex, race, ...) is not gateable (exit 3)
    evidence:                    # what a pass needs beyond "no bias" (else exit 4, inconclusive), per audit × model
      min_settled: 0.5           # share of the measured effect rows settled (bias or within_margin)
      max_not_measured: 0.5      # share of the effect rows that may be not measured
    metrics: [TSR, RCR]          # only these metrics are gated (default: every metric)
    rows: primary                # primary: the audit's primary rows decide (default); all: secondary rows too

See docs/verdicts.md (clinaudit gate).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from ..errors import InputError
from ..loaders.formats import read_yaml_file

__all__ = ["BaselinePolicy", "EvidencePolicy", "GatePolicy", "ValidityPolicy", "load_policy", "parse_policy", "DEFAULT_POLICY"]

RunVerdict = Literal["bias", "inconclusive", "within_margin"]
CompareVerdict = Literal["worse", "inconclusive", "lower", "higher"]


def _run_default() -> list[RunVerdict]:
    return ["bias"]


def _compare_default() -> list[CompareVerdict]:
    return ["worse"]


class BaselinePolicy(BaseModel):
    """How the run is held against its baseline (``--baseline``)."""

    model_config = ConfigDict(extra="forbid")

    fail_on: list[CompareVerdict] = Field(default_factory=_compare_default, description="comparison verdicts "
                                          "that fail the gate; `worse` only when the worsening exceeds the margin")
    strata: bool = Field(default=True, description="gate the per-stratum comparison rows as well as the pooled")


class ValidityPolicy(BaseModel):
    """What the run must have measured for the gate to decide anything (else exit 3)."""

    model_config = ConfigDict(extra="forbid")

    not_measured: Literal["not_gateable", "fail", "ignore"] = Field(
        default="ignore", description="what an effect row with verdict not_measured does when the run as a whole "
        "was measured (ignore: listed as a warning, not gated)")
    min_parse_rate: float | None = Field(default=None, ge=0, le=1, description="least parse rate of every judge "
                                         "(the manifest's validity block)")
    min_cases_used: float | None = Field(default=None, ge=0, le=1, description="least share of the given cases "
                                         "the run used")
    allow_skewed_sample: bool = Field(default=False, description="gate a run whose exclusions dropped one group's "
                                      "cases significantly more often (validity block exclusions_by_group); "
                                      "false: such a run is not gateable")


class EvidencePolicy(BaseModel):
    """What a pass needs beyond the absence of a ``bias`` row, per audit × model (else the gate is
    *inconclusive*, exit 4): a run that measured nothing either way is no evidence that a model is fair."""

    model_config = ConfigDict(extra="forbid")

    min_settled: float = Field(default=0.5, ge=0, le=1, description="least share of the measured effect rows "
                               "that are settled (verdict bias or within_margin); 0 lets an all-inconclusive run pass")
    max_not_measured: float = Field(default=0.5, ge=0, le=1, description="largest share of the effect rows that "
                                    "may be not measured (1 lets a mostly-unmeasured run pass)")


class GatePolicy(BaseModel):
    """A gate policy (see the module doc)."""

    model_config = ConfigDict(extra="forbid")

    version: Literal[1] = 1
    fail_on: list[RunVerdict] = Field(default_factory=_run_default, description="verdicts of the run's own "
                                      "results that fail the gate")
    margins: dict[str, float] = Field(default_factory=dict, description="metric (or audit/metric) -> margin of "
                                      "the baseline comparison, in the metric's units")
    baseline: BaselinePolicy = Field(default_factory=BaselinePolicy)
    validity: ValidityPolicy = Field(default_factory=ValidityPolicy)
    evidence: EvidencePolicy = Field(default_factory=EvidencePolicy)
    metrics: list[str] | None = Field(default=None, description="only these metrics are gated (default: every)")
    rows: Literal["primary", "all"] = Field(default="primary", description="primary: gate the run's primary rows "
                                            "(family_role primary, tested first: docs/verdicts.md); all: every effect "
                                            "row, secondary ones too (mirrored rows are never counted twice)")

    @field_validator("margins")
    @classmethod
    def _positive(cls, v: dict[str, float]) -> dict[str, float]:
        for k, m in v.items():
            if not (m > 0 and m == m and m != float("inf")):
                raise ValueError(f"margin of '{k}' must be a positive number, got {m!r}")
        return v

    def margin_for(self, audit: str, metric: str) -> float | None:
        for key in (f"{audit}/{metric}", metric):
            if key in self.margins:
                return float(self.margins[key])
        return None

    def gates(self, metric: str) -> bool:
        return self.metrics is None or str(metric) in self.metrics


DEFAULT_POLICY = GatePolicy()


def _loc(loc: tuple[Any, ...]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (("." if out else "") + str(part))
    return out


def parse_policy(data: Any, source: str = "<policy>") -> GatePolicy:
    """Validate a policy mapping (``None``: the default policy); :class:`InputError` naming file and field."""
    if data is None:
        return GatePolicy()
    if isinstance(data, GatePolicy):
        return data
    if not isinstance(data, dict):
        raise InputError("a gate policy is a mapping (version, fail_on, margins, baseline, validity, evidence, metrics, rows)",
                         file=source)
    try:
        return GatePolicy.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        more = f" (and {len(exc.errors()) - 1} more)" if len(exc.errors()) > 1 else ""
        raise InputError(str(err["msg"]).removeprefix("Value error, ") + more, file=source,
                         field=_loc(tuple(err["loc"])) or None) from None


def load_policy(path: str | Path | None) -> GatePolicy:
    """The policy in the YAML file ``path`` (``None``: the default policy)."""
    if path is None:
        return GatePolicy()
    p = Path(path)
    if not p.exists():
        raise InputError("no such policy file", file=str(p))
    return parse_policy(read_yaml_file(p), source=str(p))
