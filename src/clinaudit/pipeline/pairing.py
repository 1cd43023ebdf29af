"""The baseline pairing every counterfactual audit needs, once: each answer under a change paired with
the unchanged (baseline) answer of the same unit, and the baseline re-sampled against itself (the
noise floor).

The rule (P2's; docs/metrics.md), per unit (the ``keys``: e.g. case × model × question):

- two or more baseline seeds: an answer at seed *s'* is paired with every baseline answer at a
  seed *s* ≠ *s'* (as the floor pairs are), so a change is never compared with the very same
  sampling draw; the ``noise_floor`` rows are the unordered pairs {*s*, *s'*} of two different
  baseline seeds, each once (``seed_b`` the lower seed, ``seed`` the higher);
- one baseline seed: every answer is paired with it (no floor rows);
- no baseline answer: the row is kept with the reference missing (not usable);
- unseeded answers (``seed=None``, e.g. clinicians' labels): every answer is paired with every
  baseline answer of its unit, and there is no floor.

The statistics of the pairs are the paired layer's (:class:`clinaudit.stats.PairedFrame`, with the
floor as its control arm).
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

__all__ = ["NOISE_FLOOR", "pair_with_baseline"]

#: the arm of the baseline-vs-baseline (re-sampled) pairs
NOISE_FLOOR = "noise_floor"


def pair_with_baseline(answers: pd.DataFrame, *, keys: Sequence[str], baseline: str | pd.Series = "baseline",
                       arm: str = "arm", seed: str | None = "seed", value: str = "value",
                       floor: str = NOISE_FLOOR, carry: Sequence[str] = ()) -> pd.DataFrame:
    """One row per pair: ``keys``, ``arm``, ``seed``, ``alt`` (the answer), ``seed_b``, ``ref`` (the baseline's).

    ``answers`` has one row per answer: the unit ``keys``, its ``arm`` (the change made, or the
    baseline), its ``seed`` and its ``value``. ``baseline`` names the baseline arm, or is a boolean
    Series marking the baseline rows (when the baseline's name differs by dataset). The changed
    answers' pairs come first (in the order of ``answers``), then the floor pairs, whose ``arm``
    is ``floor``.

    ``seed=None``: the answers have no seed; each is paired with every baseline answer of its unit
    (a left join on ``keys``), columns ``keys, arm, alt, ref``, no floor rows. ``carry``: further
    columns kept from both sides, the answer's under its name, the baseline's as ``<name>_b``.
    """
    keys, carry = list(keys), list(carry)
    is_base = (answers[arm] == baseline) if isinstance(baseline, str) else baseline.astype(bool)
    base, changed = answers[is_base], answers[~is_base]
    if seed is None:
        b = base[keys + [value] + carry].rename(columns={value: "ref", **{c: f"{c}_b" for c in carry}})
        return changed[keys + [arm, value] + carry].rename(columns={value: "alt"}).merge(b, on=keys, how="left")
    if carry:
        raise ValueError("pair_with_baseline: carry is only supported for unseeded answers (seed=None)")
    b = base[keys + [seed, value]].rename(columns={seed: "seed_b", value: "ref"})
    b = b.assign(_kb=b.groupby(keys, sort=False)["seed_b"].transform("size"))
    p = changed[keys + [arm, seed, value]].rename(columns={value: "alt"})
    p = p.merge(b, on=keys, how="left")
    # several baseline seeds: pair across different seeds only (like the floor); one seed: pair with it
    p = p[~(p["_kb"].ge(2) & (p["seed_b"] == p[seed]))].drop(columns="_kb")
    # the noise floor: unordered pairs of two different baseline seeds, each once
    b = b.drop(columns="_kb")
    fl = b.merge(b.rename(columns={"seed_b": seed, "ref": "alt"}), on=keys)
    fl = fl[fl["seed_b"] < fl[seed]].assign(**{arm: floor})
    return pd.concat([p, fl[list(p.columns)]], ignore_index=True)
