"""Judge juries: several judge models give a verdict on the same items; the jury decides by majority.

A :class:`Jury` wraps one registered judge (its prompt and parser) and several models. It is what
:meth:`clinaudit.pipeline.Audit.judge` returns when the spec names several judge models
(``models.judge: [a, b, c]``) for a model-based judge, and :func:`~clinaudit.judges.base.run_judge`
runs it like a judge: every model judges every item (each with its own retries), and the returned
judgment of an item is the **jury decision**:

* per verdict field (the judge's ``verdict_fields``, else every field of the parsed value; nested
  values are fields ``a.b``), the value given by the most jurors among those whose verdict parsed;
* a field whose top count is shared by two values is a **tie**: the decision's ``status`` is
  ``tie``, its value holds only the decided fields and ``meta["ties"]`` names the tied ones;
* an item no juror could judge is ``unparseable`` (or ``error`` when every juror's call failed):
  an unparseable verdict is never a vote, never NO.

The jury keeps every juror's verdict (:attr:`Jury.members`); the pipeline writes them into the
``judgments`` table (one row per juror, ``jury = member``, ``judge_model`` = the model, next to the
decision rows, ``jury = decision``, ``judge_model = jury``) and writes the jury tables of
:func:`jury_tables`: per-judge parse rates, agreement (Krippendorff's α, case-bootstrap CI, from
:mod:`clinaudit.stats.agreement`), decisions and ties, and — where the audit has human labels — each
juror's and the jury's Cohen's κ against them.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from ..records import Judgment
from .base import Judge, run_judge

__all__ = ["JURY", "Jury", "is_model_judge", "decide", "flatten_value", "jury_tables", "member_rows",
           "JURY_TABLES"]

#: ``judge_model`` of the jury's decision rows
JURY = "jury"
#: the tables :func:`jury_tables` returns (written to ``RUN/tables/<name>.csv``)
JURY_TABLES = ("jury_parse_rates", "jury_agreement", "jury_decisions", "jury_kappa")


def is_model_judge(judge: Any) -> bool:
    """True for a judge that calls a model (implements ``build``); rule-based parsers never form a jury."""
    build = getattr(type(judge), "build", None)
    return build is not None and build is not Judge.build


def flatten_value(value: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    """``{"a": {"b": 1}, "c": 2}`` → ``{"a.b": 1, "c": 2}`` (lists kept as JSON text)."""
    out: dict[str, Any] = {}
    for k, v in value.items():
        key = f"{prefix}{k}"
        if isinstance(v, Mapping):
            out.update(flatten_value(v, key + "."))
        elif isinstance(v, (list, tuple)):
            out[key] = json.dumps(list(v), sort_keys=True, default=str)
        else:
            out[key] = v
    return out


def _set(value: dict[str, Any], dotted: str, v: Any) -> None:
    parts = dotted.split(".")
    cur = value
    for p in parts[:-1]:
        nxt = cur.get(p)
        if not isinstance(nxt, dict):
            nxt = cur[p] = {}
        cur = nxt
    cur[parts[-1]] = v


def _key(v: Any) -> str:
    return json.dumps(v, sort_keys=True, default=str)


def _fields(judge: Any, parsed: Sequence[dict[str, Any]]) -> list[str]:
    declared = getattr(judge, "verdict_fields", None)
    seen: list[str] = []
    for flat in parsed:
        for k in flat:
            if k not in seen and (declared is None or k in declared):
                seen.append(k)
    return seen


def decide(judge: Any, votes: Sequence[Judgment], models: Sequence[str]) -> Judgment:
    """The jury decision of one item from its jurors' judgments (see the module docstring)."""
    item_id = votes[0].item_id
    name = getattr(judge, "name", votes[0].judge)
    parsed = [(m, flatten_value(v.value)) for m, v in zip(models, votes) if v.status == "ok"]
    meta: dict[str, Any] = {"jury": list(models), "decision": "majority of parsed verdicts",
                            "votes": {m: (flatten_value(v.value) if v.status == "ok" else v.status)
                                      for m, v in zip(models, votes)}}
    attempts = max((v.attempts for v in votes), default=1)
    if not parsed:
        status = "error" if all(v.status == "error" for v in votes) else "unparseable"
        return Judgment(item_id=item_id, judge=name, status=status, value={}, raw=None, attempts=attempts,
                        meta={**meta, "error": "no juror gave a parseable verdict"})
    fields = _fields(judge, [f for _, f in parsed])
    decided: dict[str, Any] = {}
    ties: list[str] = []
    for fld in fields:
        counts = Counter(_key(f[fld]) for _, f in parsed if fld in f)
        (top, n_top), *rest = counts.most_common()
        if rest and rest[0][1] == n_top:
            ties.append(fld)
        else:
            decided[fld] = json.loads(top)
    # a representative juror: the first whose verdict agrees with the decision on the most fields
    best = max(range(len(parsed)), key=lambda i: (sum(parsed[i][1].get(f, object()) == v for f, v in decided.items()), -i))
    rep_model = parsed[best][0]
    rep = next(v for m, v in zip(models, votes) if m == rep_model)
    if ties:
        value: dict[str, Any] = {}
        for fld, v in decided.items():
            _set(value, fld, v)
    else:
        value = json.loads(json.dumps(rep.value, default=str))
        for fld, v in decided.items():
            _set(value, fld, v)
    render = getattr(judge, "verdict_text", None)
    raw = render(value) if callable(render) else (rep.raw if not ties else None)
    meta.update({"ties": ties, "representative": rep_model})
    return Judgment(item_id=item_id, judge=name, status="tie" if ties else "ok", value=value, raw=raw,
                    attempts=attempts, request_key=None, meta=meta)


class Jury:
    """Several judge models judging the same items with one judge (see the module docstring).

    Attribute access falls through to the wrapped judge (``jury.questions``, ``jury.map_back`` …),
    so family code that reads its judge's settings works unchanged.
    """

    is_jury = True

    def __init__(self, judge: Judge[Any], models: Sequence[str], role: str = ""):
        if len(models) < 2:
            raise ValueError("a jury needs at least two judge models")
        if len(set(models)) != len(models):
            raise ValueError(f"a jury names a judge model twice: {list(models)}")
        self.judge = judge
        self.models = list(models)
        self.role = role
        #: every juror's verdict, in the order judged: (model, judgment)
        self.members: list[tuple[str, Judgment]] = []
        #: every decision, in the order judged
        self.decisions: list[Judgment] = []
        #: the jurors' verdicts of the last :meth:`run`, per model (aligned with its items)
        self.last_members: dict[str, list[Judgment]] = {}

    def __getattr__(self, name: str) -> Any:
        if name in ("judge", "__setstate__", "__getstate__"):
            raise AttributeError(name)
        return getattr(self.judge, name)

    @property
    def name(self) -> str:
        return self.judge.name

    def run(self, runner: Any, items: Sequence[tuple[str, Any]], *, max_attempts: int = 3,
            desc: str | None = None, constrain: bool = True) -> list[Judgment]:
        """Every model judges every item (with retries); returns one decision per item, in order."""
        per = {m: run_judge(runner, self.judge, items, m, max_attempts=max_attempts, constrain=constrain,
                            desc=f"{desc or 'judge ' + self.name} [{m}]") for m in self.models}
        self.last_members = per
        out = []
        for i in range(len(items)):
            votes = [per[m][i] for m in self.models]
            self.members.extend((m, v) for m, v in zip(self.models, votes))
            out.append(decide(self.judge, votes, self.models))
        self.decisions.extend(out)
        return out


def member_rows(juries: Sequence[Jury]) -> pd.DataFrame:
    """The jurors' verdicts as ``judgments`` rows (``judge_model`` = the model, ``jury = member``)."""
    rows = [{**j.to_row(), "judge_model": m, "jury": "member", "jury_role": jury.role}
            for jury in juries for m, j in jury.members]
    return pd.DataFrame(rows)


def _votes_frame(juries: Sequence[Jury]) -> pd.DataFrame:
    """Long table: judge, role, item_id, rater (model or jury), status, field, label."""
    rows: list[dict[str, Any]] = []
    for jury in juries:
        for rater, j in [*jury.members, *[(JURY, d) for d in jury.decisions]]:
            base = {"judge": jury.name, "role": jury.role, "item_id": j.item_id, "rater": rater, "status": j.status}
            flat = flatten_value(j.value) if j.status in ("ok", "tie") else {}
            fields = _fields(jury.judge, [flat]) if flat else []
            rows.append({**base, "field": "", "label": None})
            rows += [{**base, "field": f, "label": _key(flat[f])} for f in fields]
    return pd.DataFrame(rows, columns=["judge", "role", "item_id", "rater", "status", "field", "label"])


def jury_tables(juries: Sequence[Jury], *, cases: Mapping[str, str] | None = None,
                human: pd.DataFrame | None = None, n_resamples: int = 1000, seed: int = 0) -> dict[str, pd.DataFrame]:
    """The jury tables (:data:`JURY_TABLES`) of the juries of one run.

    ``cases``: item id → case id (the cluster of the α bootstrap; default: each item its own case).
    ``human``: human labels, columns ``judge, item_id, field, label`` (a label compared as text with
    the verdict's JSON value, so ``1`` matches ``1``); κ (Cohen, scikit-learn) per rater and field.
    """
    from ..stats import cohens_kappa, percent_agreement
    from ..stats.agreement import krippendorff_alpha

    votes = _votes_frame(juries)
    status = votes[votes["field"] == ""].drop_duplicates(["judge", "role", "item_id", "rater"])
    pr = []
    for (judge, rater), g in status.groupby(["judge", "rater"], sort=False):
        n = len(g)
        c = Counter(g["status"])
        pr.append({"judge": judge, "judge_model": rater, "n": n, "ok": c.get("ok", 0),
                   "unparseable": c.get("unparseable", 0), "error": c.get("error", 0), "tie": c.get("tie", 0),
                   "parse_rate": (c.get("ok", 0) + (c.get("tie", 0) if rater == JURY else 0)) / n if n else float("nan"),
                   "note": "jury decision (majority of parsed verdicts)" if rater == JURY else "juror"})
    fv = votes[votes["field"] != ""]
    agree, dec = [], []
    for judge in dict.fromkeys(votes["judge"]):
        jury = next(j for j in juries if j.name == judge)
        members = fv[(fv["judge"] == judge) & (fv["rater"] != JURY)]
        items = list(dict.fromkeys(status[(status["judge"] == judge) & (status["rater"] != JURY)]["item_id"]))
        for fld in dict.fromkeys(members["field"]):
            m = members[members["field"] == fld].drop_duplicates(["item_id", "rater"], keep="last")
            wide = m.pivot(index="rater", columns="item_id", values="label").reindex(index=jury.models, columns=items)
            units = wide.to_numpy(dtype=object)
            case_of = [str((cases or {}).get(i, i)) for i in items]
            a = krippendorff_alpha(units, case_of, n_resamples=n_resamples, seed=seed)
            rated = pd.DataFrame(units).notna().sum(axis=0)
            unanimous = sum(1 for k in range(units.shape[1]) if rated[k] >= 2
                            and len({x for x in units[:, k] if x is not None and not pd.isna(x)}) == 1)
            agree.append({"judge": judge, "field": fld, "alpha": a.alpha, "ci_low": a.ci_low, "ci_high": a.ci_high,
                          "level": a.level, "n_units": a.n_units, "n_cases": a.n_cases, "n_judges": a.n_raters,
                          "unanimous_rate": unanimous / a.n_units if a.n_units else float("nan"),
                          "ci_method": "" if math.isnan(a.ci_low) else f"percentile bootstrap over cases ({n_resamples} resamples)",
                          "note": a.note})
        ds = [d for d in jury.decisions]
        for fld in dict.fromkeys(members["field"]):
            n_ok = sum(1 for d in ds if d.status in ("ok", "tie") and fld in flatten_value(d.value))
            n_tie = sum(1 for d in ds if fld in d.meta.get("ties", []))
            n_none = sum(1 for d in ds if d.status in ("unparseable", "error"))
            dec.append({"judge": judge, "field": fld, "n_items": len(ds), "decided": n_ok, "ties": n_tie,
                        "no_parsed_verdict": n_none, "rule": "majority of parsed verdicts; a shared top count is a tie; "
                        "unparseable verdicts are not votes"})
    kap = []
    if human is not None and len(human):
        h = human.assign(label=human["label"].map(lambda x: _key(_num(x))))
        for (judge, fld), hh in h.groupby(["judge", "field"], sort=False):
            truth = dict(zip(hh["item_id"].astype(str), hh["label"]))
            g = fv[(fv["judge"] == judge) & (fv["field"] == fld)]
            raters = [*(next((j.models for j in juries if j.name == judge), [])), JURY]
            for rater in raters:
                r = g[g["rater"] == rater].drop_duplicates("item_id", keep="last")
                got = dict(zip(r["item_id"].astype(str), r["label"]))
                keys = [k for k in truth if k in got]
                k = cohens_kappa([truth[x] for x in keys], [got[x] for x in keys])
                kap.append({"judge": judge, "field": fld, "rater": rater, "n": k.n, "n_human": len(truth),
                            "n_without_verdict": len(truth) - len(keys), "kappa": k.statistic,
                            "percent_agreement": percent_agreement([truth[x] for x in keys], [got[x] for x in keys])
                            if keys else float("nan"), "note": k.note})
    return {
        "jury_parse_rates": pd.DataFrame(pr, columns=["judge", "judge_model", "n", "ok", "unparseable", "error", "tie",
                                                      "parse_rate", "note"]),
        "jury_agreement": pd.DataFrame(agree, columns=["judge", "field", "alpha", "ci_low", "ci_high", "level", "n_units",
                                                       "n_cases", "n_judges", "unanimous_rate", "ci_method", "note"]),
        "jury_decisions": pd.DataFrame(dec, columns=["judge", "field", "n_items", "decided", "ties", "no_parsed_verdict",
                                                     "rule"]),
        "jury_kappa": pd.DataFrame(kap, columns=["judge", "field", "rater", "n", "n_human", "n_without_verdict", "kappa",
                                                 "percent_agreement", "note"]),
    }


def _num(x: Any) -> Any:
    """A human label as the verdicts store it: ``"1"``/``1.0``/``"yes"`` → 1, ``"0"``/``"no"`` → 0, else the text."""
    s = str(x).strip()
    low = s.lower()
    if low in ("1", "1.0", "yes", "true", "y"):
        return 1
    if low in ("0", "0.0", "no", "false", "n"):
        return 0
    return s
