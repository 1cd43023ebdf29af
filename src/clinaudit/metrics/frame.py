"""Disaggregate any metric by group (fairlearn ``MetricFrame`` style), with CIs.

A metric is a plain function ``f(y_true, y_pred) -> float``. :class:`Disaggregate`
evaluates each metric overall and within each group (or intersection of
groups, optionally within levels of control features), takes differences
between groups or to a reference group, finds each group's largest gap, and
adds percentile bootstrap CIs in which every group, difference and gap comes
from the same resamples.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import pandas as pd

from .classifier import accuracy, multigroup_gaps, positive_rate, recall, specificity

__all__ = ["Disaggregate"]

MetricFn = Callable[[Any, Any], float]
_COUNT_METRICS: dict[Any, str] = {
    positive_rate: "positive_rate",
    recall: "recall",
    specificity: "specificity",
    accuracy: "accuracy",
}


def _as_frame(features: Any, prefix: str) -> pd.DataFrame | None:
    if features is None:
        return None
    if isinstance(features, pd.DataFrame):
        return features.reset_index(drop=True)
    if isinstance(features, pd.Series):
        return features.reset_index(drop=True).to_frame(features.name if features.name is not None else f"{prefix}_0")
    if isinstance(features, Mapping):
        return pd.DataFrame({k: np.asarray(v) for k, v in features.items()})
    arr = np.asarray(features, dtype=object)
    if arr.ndim == 1:
        return pd.DataFrame({f"{prefix}_0": arr})
    return pd.DataFrame({f"{prefix}_{i}": arr[:, i] for i in range(arr.shape[1])})


class Disaggregate:
    """Metrics overall and by group, with differences, max gaps and bootstrap CIs.

    Parameters
    ----------
    metrics:
        One metric function or ``{name: function}``; each is called as
        ``f(y_true, y_pred)`` on the rows of a group and returns a float (NaN
        when undefined, e.g. recall in a group with no positives).
    y_true, y_pred:
        Row-aligned labels and predictions.
    sensitive_features:
        A Series / 1-D array (one attribute) or a DataFrame / dict of several
        (their intersections become the groups).
    control_features:
        Optional features within whose levels groups are compared (e.g. the
        task); overall values and differences are then given per level.

    Groups are identified by the tuple of sensitive values (a plain value for
    one attribute); in result rows a group is written as the values joined
    with ``"|"``. Rows with a missing sensitive or control value are dropped.
    """

    def __init__(
        self,
        metrics: Mapping[str, MetricFn] | MetricFn,
        y_true: Any,
        y_pred: Any,
        sensitive_features: Any,
        control_features: Any = None,
    ) -> None:
        if callable(metrics) and not isinstance(metrics, Mapping):
            metrics = {getattr(metrics, "__name__", "metric"): metrics}
        self.metrics: dict[str, MetricFn] = dict(metrics)
        sf = _as_frame(sensitive_features, "sensitive_feature")
        if sf is None:
            raise ValueError("sensitive_features is required")
        cf = _as_frame(control_features, "control_feature")
        yt = np.asarray(y_true).ravel()
        yp = np.asarray(y_pred).ravel()
        if not (len(yt) == len(yp) == len(sf)) or (cf is not None and len(cf) != len(yt)):
            raise ValueError("y_true, y_pred and the features must have the same number of rows")
        keep = np.array(sf.notna().all(axis=1).to_numpy(), dtype=np.bool_)
        if cf is not None:
            keep = keep & cf.notna().all(axis=1).to_numpy()
        self._keep = keep
        self.y_true = yt[keep]
        self.y_pred = yp[keep]
        self.sensitive = sf[keep].reset_index(drop=True)
        self.control = None if cf is None else cf[keep].reset_index(drop=True)
        self.sensitive_names = list(self.sensitive.columns)
        self.control_names = [] if self.control is None else list(self.control.columns)
        self._ci: pd.DataFrame | None = None
        self._ci_method = ""
        self._by_group = self._compute_by_group()
        self._overall = self._compute_overall()

    # ------------------------------------------------------------------ core
    def _keys(self) -> list[str]:
        return self.control_names + self.sensitive_names

    def _frame(self) -> pd.DataFrame:
        parts = [self.control] if self.control is not None else []
        parts.append(self.sensitive)
        return pd.concat(parts, axis=1)

    def _compute_by_group(self) -> pd.DataFrame:
        feats = self._frame()
        out = {}
        for key, idx in feats.groupby(self._keys(), sort=True).indices.items():
            out[key] = {name: fn(self.y_true[idx], self.y_pred[idx]) for name, fn in self.metrics.items()}
        df = pd.DataFrame.from_dict(out, orient="index")
        df.index = pd.MultiIndex.from_tuples(
            [k if isinstance(k, tuple) else (k,) for k in df.index], names=self._keys()
        ) if len(self._keys()) > 1 else pd.Index([k[0] if isinstance(k, tuple) else k for k in df.index], name=self._keys()[0])
        return df[list(self.metrics)].astype(float)

    def _compute_overall(self) -> pd.Series | pd.DataFrame:
        if self.control is None:
            return pd.Series({n: fn(self.y_true, self.y_pred) for n, fn in self.metrics.items()}, dtype=float)
        out = {}
        for key, idx in self.control.groupby(self.control_names, sort=True).indices.items():
            out[key] = {n: fn(self.y_true[idx], self.y_pred[idx]) for n, fn in self.metrics.items()}
        df = pd.DataFrame.from_dict(out, orient="index")
        df.index.names = self.control_names
        return df[list(self.metrics)].astype(float)

    # --------------------------------------------------------------- public
    @property
    def overall(self) -> pd.Series | pd.DataFrame:
        """Each metric on all rows (a Series; a DataFrame by control level when controls are given)."""
        return self._overall

    @property
    def by_group(self) -> pd.DataFrame:
        """Each metric within each group (rows: groups, or control levels × groups; columns: metrics)."""
        return self._by_group

    @property
    def group_sizes(self) -> pd.Series:
        """Number of rows per group."""
        return self._frame().groupby(self._keys(), sort=True).size()

    def _within_control(self, df: pd.DataFrame, fn: Callable[[pd.DataFrame], Any]) -> Any:
        if not self.control_names:
            return fn(df)
        return df.groupby(level=self.control_names, sort=True, group_keys=True).apply(
            lambda g: fn(g.droplevel(self.control_names))
        )

    def difference(self, method: str = "between_groups", reference: Any = None) -> pd.Series | pd.DataFrame:
        """Differences between groups.

        - ``"between_groups"``: max − min of each metric over the groups (as
          fairlearn's ``MetricFrame.difference()``); NaN groups are skipped.
          A Series by metric (DataFrame by control level).
        - ``"to_reference"``: each group's value minus the ``reference``
          group's value (signed; the reference row is 0). A DataFrame shaped
          like :attr:`by_group`.
        """
        bg = self.by_group
        if method == "between_groups":
            return self._within_control(bg, lambda g: g.max(skipna=True) - g.min(skipna=True))
        if method == "to_reference":
            if reference is None:
                raise ValueError("method='to_reference' needs reference=<group>")

            def _to_ref(g: pd.DataFrame) -> pd.DataFrame:
                if reference not in g.index:
                    raise KeyError(f"reference group {reference!r} not among groups {list(g.index)}")
                return g - g.loc[reference]

            return self._within_control(bg, _to_ref)
        raise ValueError("method must be 'between_groups' or 'to_reference'")

    def max_gap(self) -> pd.DataFrame:
        """Each group's gap to the group it differs from most (:func:`multigroup_gaps`).

        Long table: (control columns), ``group``, ``metric``, ``value``,
        ``gap``, ``reference``.
        """
        rows = []
        bg = self.by_group
        levels = [((), bg)] if not self.control_names else list(bg.groupby(level=self.control_names, sort=True))
        for ctl, g in levels:
            g = g.droplevel(self.control_names) if self.control_names else g
            ctl_t = ctl if isinstance(ctl, tuple) else (ctl,)
            for name in self.metrics:
                gaps = multigroup_gaps(g[name].to_dict())
                for grp, info in gaps.items():
                    row = dict(zip(self.control_names, ctl_t))
                    row.update(group=grp, metric=name, value=float(g.loc[grp, name]), gap=info["gap"], reference=info["reference"])
                    rows.append(row)
        return pd.DataFrame(rows)

    # ------------------------------------------------------------ bootstrap
    def _resampled_by_group(self, idx: np.ndarray) -> tuple[list[Any], np.ndarray]:
        """Metric values per resample: (groups, array R × G × M)."""
        feats = self._frame()
        codes, uniques = pd.factorize(
            pd.MultiIndex.from_frame(feats) if len(self._keys()) > 1 else feats.iloc[:, 0], sort=True
        )
        groups = list(uniques)
        G, M, R = len(groups), len(self.metrics), idx.shape[0]
        out = np.full((R, G, M), np.nan)
        fns = list(self.metrics.values())
        binary = np.isin(self.y_true, (0, 1)).all() and np.isin(self.y_pred, (0, 1)).all()
        fast = [j for j, fn in enumerate(fns) if fn in _COUNT_METRICS and binary]
        if fast:
            from ..stats import metrics_from_counts

            cell = codes.astype(np.int64) * 4 + self.y_true.astype(np.int64) * 2 + self.y_pred.astype(np.int64)
            flat = (cell[idx] + (np.arange(R)[:, None] * G * 4)).ravel()
            counts = np.bincount(flat, minlength=R * G * 4).reshape(R, G, 2, 2).transpose(1, 2, 3, 0)
            vals = metrics_from_counts(counts, [_COUNT_METRICS[fns[j]] for j in fast])  # G × M' × R
            for k, j in enumerate(fast):
                out[:, :, j] = vals[:, k, :].T
        slow = [j for j in range(M) if j not in fast]
        if slow:
            for r in range(R):
                rows = idx[r]
                rc = codes[rows]
                for g in range(G):
                    sel = rows[rc == g]
                    for j in slow:
                        out[r, g, j] = fns[j](self.y_true[sel], self.y_pred[sel]) if sel.size else math.nan
        return groups, out

    def with_ci(
        self,
        n_resamples: int = 1000,
        seed: int = 0,
        strata: Any = None,
        confidence: float = 0.95,
        reference: Any = None,
    ) -> pd.DataFrame:
        """Percentile bootstrap CIs for group values, differences and max gaps.

        Rows are resampled with replacement (within each level of ``strata``
        when given, e.g. ``strata=y_true`` to keep the number of positives
        fixed; ``strata="label"`` is a shortcut for that; an array may be given
        for the rows as passed in, before rows with missing features were dropped). Control levels are
        always kept as strata, so each level keeps its size. All quantities
        come from the same resamples. Returns a long table (``kind`` is
        ``"group"``, ``"between_groups"``, ``"to_reference"`` or
        ``"max_gap"``) with ``value``, ``ci_low``, ``ci_high``; it is also
        stored so :meth:`to_results` includes the CIs.
        """
        from ..stats import bootstrap_indices, percentile_ci

        n = len(self.y_true)
        if isinstance(strata, str) and strata == "label":
            strata = self.y_true
        st: Any = None
        parts = []
        if strata is not None:
            arr = np.asarray(strata).ravel()
            if len(arr) == len(self._keep) and len(arr) != n:
                arr = arr[self._keep]  # given for the original rows: drop the same rows
            if len(arr) != n:
                raise ValueError(f"strata has {len(arr)} values for {n} rows")
            parts.append(pd.Series(arr).astype(str))
        if self.control is not None:
            parts.extend(self.control[c].astype(str) for c in self.control_names)
        if parts:
            st = pd.concat(parts, axis=1).agg("|".join, axis=1).to_numpy()
        idx = bootstrap_indices(n, n_resamples, strata=st, seed=seed)
        groups, res = self._resampled_by_group(idx)  # R × G × M
        names = list(self.metrics)
        ctl_of = (lambda g: g[: len(self.control_names)]) if self.control_names else (lambda g: ())
        grp_of = (
            (lambda g: g[len(self.control_names) :] if len(self.sensitive_names) > 1 else g[-1])
            if self.control_names
            else (lambda g: g)
        )
        rows: list[dict[str, Any]] = []
        point = self.by_group
        by_ctl: dict[tuple, list[int]] = {}
        for gi, g in enumerate(groups):
            by_ctl.setdefault(tuple(ctl_of(g)) if self.control_names else (), []).append(gi)
        for m, name in enumerate(names):
            for ctl, gis in by_ctl.items():
                base = dict(zip(self.control_names, ctl))
                for gi in gis:
                    lo, hi = percentile_ci(res[:, gi, m], confidence)
                    rows.append({**base, "kind": "group", "metric": name, "group": grp_of(groups[gi]), "reference": None,
                                 "value": float(point.loc[groups[gi], name]), "ci_low": lo, "ci_high": hi})
                sub = res[:, gis, m]
                with np.errstate(all="ignore"):
                    import warnings

                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore", RuntimeWarning)
                        spread = np.nanmax(sub, axis=1) - np.nanmin(sub, axis=1)
                pvals = np.array([point.loc[groups[gi], name] for gi in gis], dtype=float)
                value = float(np.nanmax(pvals) - np.nanmin(pvals)) if (~np.isnan(pvals)).any() else math.nan
                lo, hi = percentile_ci(spread, confidence)
                rows.append({**base, "kind": "between_groups", "metric": name, "group": "max-min", "reference": None,
                             "value": value, "ci_low": lo, "ci_high": hi})
                gmap = {grp_of(groups[gi]): gi for gi in gis}
                vals = {grp_of(groups[gi]): float(point.loc[groups[gi], name]) for gi in gis}
                for grp, info in multigroup_gaps(vals).items():
                    if info["reference"] is None:
                        lo = hi = math.nan
                    else:
                        lo, hi = percentile_ci(res[:, gmap[grp], m] - res[:, gmap[info["reference"]], m], confidence)
                    rows.append({**base, "kind": "max_gap", "metric": name, "group": grp, "reference": info["reference"],
                                 "value": info["gap"], "ci_low": lo, "ci_high": hi})
                if reference is not None and reference in gmap:
                    for grp, gi in gmap.items():
                        lo, hi = percentile_ci(res[:, gi, m] - res[:, gmap[reference], m], confidence)
                        rows.append({**base, "kind": "to_reference", "metric": name, "group": grp, "reference": reference,
                                     "value": vals[grp] - vals[reference], "ci_low": lo, "ci_high": hi})
        self._ci = pd.DataFrame(rows)
        self._ci_method = f"percentile bootstrap ({n_resamples} resamples" + (", stratified)" if st is not None else ")")
        return self._ci

    # --------------------------------------------------------------- export
    @staticmethod
    def _label(g: Any) -> str:
        if isinstance(g, tuple):
            return "|".join(str(x) for x in g)
        if g is None or (isinstance(g, float) and math.isnan(g)):
            return ""
        return str(g)

    def to_results(self, audit: str = "", **extra: Any) -> pd.DataFrame:
        """Tidy rows in the result schema (:mod:`clinaudit.results`).

        One row per group × metric (``metric`` = name), one ``<name>_difference``
        row per metric (max − min, ``group="max-min"``) and one
        ``<name>_max_gap`` row per group. CIs are filled when :meth:`with_ci`
        was called. ``extra`` keyword values become extra columns on every row.
        """
        from ..results import result_row, results_frame

        if self._ci is not None:
            table = self._ci
        else:
            rows = []
            bg = self.by_group
            for key in bg.index:
                k = key if isinstance(key, tuple) else (key,)
                ctl = dict(zip(self.control_names, k[: len(self.control_names)]))
                grp = k[len(self.control_names) :]
                grp = grp[0] if len(grp) == 1 else grp
                for name in self.metrics:
                    rows.append({**ctl, "kind": "group", "metric": name, "group": grp, "reference": None,
                                 "value": float(bg.loc[key, name])})
            diff = self.difference()
            if self.control_names:
                for ctl_key, r in diff.iterrows():
                    ck = ctl_key if isinstance(ctl_key, tuple) else (ctl_key,)
                    for name in self.metrics:
                        rows.append({**dict(zip(self.control_names, ck)), "kind": "between_groups", "metric": name,
                                     "group": "max-min", "reference": None, "value": float(r[name])})
            else:
                for name in self.metrics:
                    rows.append({"kind": "between_groups", "metric": name, "group": "max-min", "reference": None,
                                 "value": float(diff[name])})
            for r in self.max_gap().to_dict("records"):
                rows.append({**{c: r[c] for c in self.control_names}, "kind": "max_gap", "metric": r["metric"],
                             "group": r["group"], "reference": r["reference"], "value": r["gap"]})
            table = pd.DataFrame(rows)
        sizes = self.group_sizes
        out = []
        for r in table.to_dict("records"):
            ctl = {c: r[c] for c in self.control_names}
            suffix = {"group": "", "between_groups": "_difference", "max_gap": "_max_gap", "to_reference": "_difference"}[r["kind"]]
            grp = r["group"]
            if r["kind"] in ("group", "max_gap", "to_reference"):
                key = tuple(ctl.values()) + (grp if isinstance(grp, tuple) else (grp,))
                n = int(sizes.loc[key if len(key) > 1 else key[0]])
                if r["kind"] != "group" and r["reference"] is not None:
                    rk = tuple(ctl.values()) + (r["reference"] if isinstance(r["reference"], tuple) else (r["reference"],))
                    n += int(sizes.loc[rk if len(rk) > 1 else rk[0]])
            else:
                n = int(len(self.y_true)) if self.control is None or not self.control_names else int(
                    (self.control.astype(str).agg("|".join, axis=1) == "|".join(str(v) for v in ctl.values())).sum()
                )
            out.append(
                result_row(
                    audit=audit,
                    metric=r["metric"] + suffix,
                    group=self._label(grp),
                    reference=self._label(r["reference"]),
                    value=r["value"],
                    n=n,
                    ci_low=r.get("ci_low", math.nan),
                    ci_high=r.get("ci_high", math.nan),
                    ci_method=self._ci_method if self._ci is not None else "",
                    **ctl,
                    **extra,
                )
            )
        return results_frame(out)
