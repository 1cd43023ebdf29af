"""The ``adaptive_attack`` audit, declared over the pipeline's stages (beyond the papers; MedFuzz-style).

``variants`` runs the attack loop of :mod:`.attack` for every target model (its model calls go
through the framework's call log, so they are recorded, cached and counted by the estimate)
and writes the ``transcripts`` table (every turn of every attacker); the stage table holds
each accepted background passage as a variant. ``judgments``: the target's parsed answers
and the guard's verdicts. ``paired``: one row per case × model × attacker (flipped, turns to
flip). ``results`` (through :class:`clinaudit.stats.PairedFrame`, the case is the unit):

* ``attack_success_rate`` per attacker: share of cases whose answer flipped within K turns,
  with a percentile bootstrap CI over cases (a level: no test);
* ``attack_success_excess``: attack − control success rate, CI over cases, one-sided sign-flip
  test over cases of the per-case difference (H0: the attacker flips answers no more often
  than the control's neutral edits), corrected over the target models;
* ``turns_to_flip``: mean turn of the flip among the cases that flipped (descriptive, CI over
  those cases).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ...errors import InputError, SpecError
from ...pipeline import Audit, Calls, StageOutput, register
from ...records import Case, Judgment, Variant, to_frame
from ...results import results_frame
from .attack import Item, Outcome, Turn, run_attacks
from .params import ARMS, AttackParams

AUDIT = "adaptive_attack"


@dataclass
class Attacked:
    """What the ``variants`` stage hands on (``self.stages.variants``): the attack loop's whole record."""

    items: list[Item]
    outcomes: list[Outcome]
    turns: list[Turn]
    verdicts: list[Judgment]
    #: every turn of every attacker (the ``transcripts`` table)
    transcripts: pd.DataFrame


@register
class AdaptiveAttack(Audit[AttackParams, list[Case], Attacked, None, pd.DataFrame, pd.DataFrame, pd.DataFrame]):
    name = AUDIT
    summary = ("adaptive attacker (MedFuzz-style): non-clinical background rewritten up to K turns until the "
               "answer flips, against a neutral-edit control; clinical-content guard")
    params_model = AttackParams
    judges = {"answer": "mcq_answer", "guard": "clinical_guard"}

    def variants(self, cases: list[Case]) -> StageOutput[Attacked]:
        from ...judges.mcq import mcq_fields

        p: AttackParams = self.params
        items = []
        for c in cases:
            try:
                choices, gold = mcq_fields(c)
            except InputError as exc:
                self.ctx.exclude("variants", c.case_id, "not a multiple-choice case", detail=str(exc))
                continue
            items.append(Item(c.case_id, c.text, list(choices), gold))
        if not items and cases:
            raise InputError("adaptive_attack needs multiple-choice cases (fields 'choices' or 'options' and "
                             "'answer'); none of the cases has them", field="data")
        attackers = self.ctx.models("attacker")
        if len(attackers) != 1:  # one attacker per run: a second would silently never be called
            raise SpecError(f"invalid audit spec: field 'models.attacker': adaptive_attack runs one attacker model, "
                            f"got {len(attackers)} ({', '.join(attackers) or 'none'}); run the spec once per attacker")
        arms = list(ARMS) if p.control else ["attack"]
        guard = self.judge("guard") if p.guard == "rules_then_judge" else None
        judge_model = self.ctx.models("judge")[0] if guard is not None else None
        all_outcomes: list[Outcome] = []
        all_turns: list[Turn] = []
        all_verdicts: list[Judgment] = []
        for target in self.ctx.models("target"):
            outcomes, turns, verdicts = run_attacks(self.ctx.runner, items, target=target, attacker=attackers[0],
                                          arms=arms, params=p, answer_judge=lambda **kw: self.judge("answer", **kw),
                                          guard_judge=guard, judge_model=judge_model, dry=self.dry)
            all_outcomes += outcomes
            all_turns += turns
            all_verdicts += verdicts
        for o in all_outcomes:
            if o.original is None and not self.dry:
                self.ctx.exclude("variants", o.case_id, "target's answer to the question as written is unparseable",
                                 model=o.model, arm=o.arm)
            elif not o.usable and not self.dry:
                self.ctx.exclude("variants", o.case_id, "no usable attacker attempt: every attacker call failed or "
                                 f"returned empty text ({o.attacker_failed} of {o.turns_used} turns)",
                                 model=o.model, arm=o.arm)
        transcripts = pd.DataFrame([t.to_row() for t in all_turns], columns=list(Turn("", "", "", 0).to_row()))
        self.ctx.write_table("transcripts", transcripts)
        by_id = {it.case_id: it for it in items}
        variants = [Variant(variant_id=Variant.make_id(t.case_id, "attack", f"{t.model}|{t.arm}", t.turn),
                            case_id=t.case_id, family="attack", name=t.arm, seed=t.turn,
                            text=f"{t.background}\n\n{by_id[t.case_id].text}",
                            description=f"{t.arm} turn {t.turn} against {t.model}: {t.status}",
                            provenance={"model": t.model, "arm": t.arm, "turn": t.turn, "background": t.background})
                    for t in all_turns if t.guard == "accepted"]
        return StageOutput(table=pd.DataFrame([v.to_row() for v in variants]) if variants else pd.DataFrame(),
                           value=Attacked(items, all_outcomes, all_turns, all_verdicts, transcripts))

    def judgments(self, _: Calls[None]) -> pd.DataFrame:
        """Every verdict: the target's parsed answers (``mcq_answer``), the rule guard's, the guard judge's."""
        verdicts = self.stages.variants.verdicts  # the attack loop judged as it went (no calls stage)
        table = to_frame(verdicts)
        if table.empty:
            return table
        meta = pd.DataFrame([j.meta for j in verdicts])[["case_id", "model", "arm", "turn"]]
        return pd.concat([table.drop(columns=["meta"], errors="ignore"), meta], axis=1)

    def paired(self, _: pd.DataFrame) -> pd.DataFrame:
        rows = [o.to_row() for o in self.stages.variants.outcomes if o.original is not None and o.usable]
        cols = list(Outcome("", "", "", None, None, 0, np.nan, 0, 0, 0, None).to_row())
        return pd.DataFrame(rows, columns=cols)

    def results(self, paired: pd.DataFrame) -> pd.DataFrame:
        from ...stats import PairedFrame

        p = self.params
        if paired.empty:
            return results_frame([])
        d = paired.assign(flipped=paired["flipped"].astype(float))
        level = PairedFrame(d, case="case_id", arm="arm", score="flipped", by=["model"]).compare(
            metric="attack_success_rate", audit=AUDIT, n_resamples=p.n_resamples, seed=self.ctx.spec.seed)
        level = level.assign(reference="", test="", statistic=np.nan, p=np.nan, null_hypothesis="", alternative="",
                             comparison="share of cases whose answer flipped within max_turns")
        parts = [level]
        if p.control:
            ex = PairedFrame(d, case="case_id", arm="arm", score="flipped", by=["model"], control="control").compare(
                metric="attack_success_excess", audit=AUDIT, alternative="greater", n_resamples=p.n_resamples,
                seed=self.ctx.spec.seed, family="target models", correction=p.correction)
            parts.append(ex.assign(comparison="attack − control success rate",
                                   null_hypothesis="the attacker flips answers no more often than the control's "
                                                   "neutral edits (per-case difference symmetric about 0)"))
        flipped = d[d["flipped"] == 1]
        if len(flipped):
            tt = PairedFrame(flipped, case="case_id", arm="arm", score="turns_to_flip", by=["model"]).compare(
                metric="turns_to_flip", audit=AUDIT, n_resamples=p.n_resamples, seed=self.ctx.spec.seed)
            parts.append(tt.assign(reference="", test="", statistic=np.nan, p=np.nan, null_hypothesis="", alternative="",
                                   comparison="mean turn of the flip, among cases that flipped"))
        out = pd.concat(parts, ignore_index=True)
        return results_frame(out.drop(columns=["floor", "rate"], errors="ignore"))

    def finish(self) -> dict[str, Any]:
        attacked: Attacked = self.stages.variants
        t = attacked.transcripts
        asked = t[t["turn"] > 0]
        flips: dict[str, int] = {}
        for o in attacked.outcomes:
            flips[f"{o.model}|{o.arm}"] = flips.get(f"{o.model}|{o.arm}", 0) + o.flipped
        return {"cases": len(attacked.items), "max_turns": self.params.max_turns, "attacker_turns": int(len(asked)),
                "guard_rejected": int((asked["guard"] == "rejected").sum()),
                "target_unparseable": int((t["status"] == "unparseable").sum()),
                "attacker_failed": int((asked["status"] == "failed").sum()), "flips": flips}

    def estimate_notes(self) -> list[str]:
        return [f"upper bound: every case runs all {self.params.max_turns} attacker turns (a flip stops earlier)"]
