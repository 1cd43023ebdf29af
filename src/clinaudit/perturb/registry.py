"""One registry of input transformations, HELM style.

A *transform* turns one :class:`~clinaudit.records.Case` into one or more
:class:`~clinaudit.records.Variant` records that keep the case id, name the
transform (``name``) and its ``family``, and say in words and in
``provenance`` what was done (parameters, mode, model spec, quality-gate results).

Two kinds of transform exist:

* ``rule`` transforms are pure functions ``apply(case, rng, **params) -> list[Variant]``;
* ``llm`` transforms additionally build model requests (``build``) and turn the
  responses into variants (``finish``) so that :func:`perturb_cases` can send the
  requests of *all* cases through one ``runner.generate`` call (concurrent and cached).
  Their ``apply`` runs a single case through a runner passed as ``runner=``/``model=``.

In ``default`` mode the generator passed to ``apply`` is a
:class:`numpy.random.Generator` seeded from ``(case_id, transform name, seed)``
via :func:`~clinaudit.records.stable_hash` (:func:`case_rng`), so results are
reproducible per case and independent across cases. In ``compat`` mode the
regex transforms reproduce the published code instead (see :mod:`.regex`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import InputError
from ..registry import Registry, origin_of, registry
from ..records import Case, ModelRequest, ModelResponse, Variant, stable_hash

if TYPE_CHECKING:  # pragma: no cover
    from ..runner import ModelCalls

__all__ = [
    "Transform",
    "register_transform",
    "get_transform",
    "list_transforms",
    "case_rng",
    "case_seed",
    "perturb_cases",
]

ApplyFn = Callable[..., list[Variant]]
BuildFn = Callable[..., list[ModelRequest]]
FinishFn = Callable[..., list[Variant]]


@dataclass
class Transform:
    """A registered transformation.

    ``apply(case, rng, **params) -> list[Variant]`` is always available. LLM
    transforms (``kind == "llm"``) also have ``build(case, *, model, seed, **params)
    -> list[ModelRequest]`` and ``finish(case, requests, responses, *, runner,
    embedder, **params) -> list[Variant]`` used for batching across cases.
    """

    name: str
    family: str
    summary: str
    apply: ApplyFn
    kind: str = "rule"  # "rule" | "llm" (row-wise) | "audit" (applied by an audit: perturb.audit_transforms)
    modes: tuple[str, ...] = ("default",)
    build: BuildFn | None = None
    finish: FinishFn | None = None
    #: optional batch step over all finished ``(case, variant)`` pairs of this transform
    #: (e.g. one embedding call for the similarity gate): ``post(pairs, runner=, embedder=, **params)``
    post: Callable[..., None] | None = None
    defaults: dict[str, Any] = field(default_factory=dict)

    def __call__(self, case: Case, rng: Any = None, **params: Any) -> list[Variant]:
        if rng is None:
            rng = case_rng(case.case_id, self.name, int(params.get("seed", 0) or 0))
        return self.apply(case, rng, **params)


# The shared registry of transforms (clinaudit.registry, kind "transform"): each built-in module
# declares its own with @register_transform (imported when first asked for); plugins by entry point.
_TRANSFORMS: Registry[Transform] = registry("transform")


def register_transform(
    name: str,
    family: str,
    summary: str,
    *,
    kind: str = "rule",
    modes: tuple[str, ...] = ("default",),
    build: BuildFn | None = None,
    finish: FinishFn | None = None,
    post: Callable[..., None] | None = None,
    defaults: dict[str, Any] | None = None,
) -> Callable[[ApplyFn], ApplyFn]:
    """Decorator registering ``apply(case, rng, **params) -> list[Variant]`` under ``name``.

    ``family`` is the :attr:`Variant.family` the transform sets (e.g. ``"perturbation"``);
    ``summary`` is the one-line description ``clinaudit perturbations`` prints.
    """

    def deco(fn: ApplyFn) -> ApplyFn:
        _TRANSFORMS.add(name, Transform(
            name=name, family=family, summary=summary, apply=fn, kind=kind, modes=tuple(modes),
            build=build, finish=finish, post=post, defaults=dict(defaults or {}),
        ), origin=origin_of(fn))
        return fn

    return deco


def get_transform(name: str) -> Transform:
    """The transform registered as ``name``; InputError listing the known names otherwise."""
    try:
        return _TRANSFORMS.get(name)
    except KeyError:
        raise InputError(_TRANSFORMS.unknown(name).replace("unknown transform", "unknown perturbation", 1),
                         field="perturbation") from None


def list_transforms() -> dict[str, Transform]:
    """All registered transforms by name (sorted): built-ins and plugins."""
    return dict(_TRANSFORMS.items())


def case_seed(case_id: str, name: str, seed: int = 0) -> int:
    """A 64-bit integer derived from ``(case_id, name, seed)`` (stable across runs and machines)."""
    return int(stable_hash("clinaudit-perturb-v1", str(case_id), name, int(seed), length=16), 16)


def case_rng(case_id: str, name: str, seed: int = 0) -> np.random.Generator:
    """Per-case generator for ``default`` mode: seeded from ``(case_id, name, seed)``."""
    return np.random.default_rng(case_seed(case_id, name, seed))


def perturb_cases(
    cases: Sequence[Case] | Iterable[Case],
    names: str | Sequence[str],
    *,
    mode: str = "default",
    seed: int = 0,
    runner: "ModelCalls | None" = None,
    model: str | None = None,
    embedder: str | None = None,
    protected: Any = None,
    **params: Any,
) -> list[Variant]:
    """Apply every transform in ``names`` to every case; variants ordered by case, then name.

    Rule transforms run locally. LLM transforms need ``runner`` and ``model``; the
    requests of all cases and all LLM transforms go through **one**
    ``runner.generate`` call, so they run concurrently and are cached. ``embedder``
    (default ``"embedded-embedder"``) scores the similarity gate of LLM rewrites.
    ``protected`` (spans, regex line patterns, or ``"ehr"``) is passed to the regex
    transforms. Extra ``params`` go to every transform that accepts them.
    """
    cases = list(cases)
    if isinstance(names, str):
        names = [n.strip() for n in names.split(",") if n.strip()]
    transforms = [get_transform(n) for n in names]
    for t in transforms:
        if t.kind not in ("rule", "llm"):
            raise InputError(f"perturbation '{t.name}' (kind '{t.kind}') is applied by an audit with inputs of its "
                             "own, not row-wise; see docs/perturbations.md", field="perturbation")
        if mode not in t.modes:
            raise InputError(f"perturbation '{t.name}' has no mode '{mode}' (modes: {', '.join(t.modes)})", field="mode")
    llm = [t for t in transforms if t.kind == "llm"]
    if llm and (runner is None or model is None):
        raise InputError(
            f"LLM perturbations ({', '.join(t.name for t in llm)}) need a runner and a model spec", field="model"
        )
    out: dict[tuple[int, int], list[Variant]] = {}
    # Build all LLM requests first, send them in one batch.
    pending: list[tuple[int, int, list[ModelRequest]]] = []
    for ci, case in enumerate(cases):
        for ti, t in enumerate(transforms):
            if t.kind == "llm":
                assert t.build is not None
                pending.append((ci, ti, t.build(case, model=model, seed=seed, **params)))
            else:
                rng = case_rng(case.case_id, t.name, seed)
                out[(ci, ti)] = t.apply(case, rng, mode=mode, seed=seed, protected=protected, **params)
    if pending:
        assert runner is not None
        flat = [r for _, _, reqs in pending for r in reqs]
        resps = runner.generate(flat, desc="LLM perturbations")
        pos = 0
        for ci, ti, reqs in pending:
            t = transforms[ti]
            assert t.finish is not None
            chunk: list[ModelResponse] = resps[pos : pos + len(reqs)]
            pos += len(reqs)
            out[(ci, ti)] = t.finish(
                cases[ci], reqs, chunk, runner=runner, model=model, embedder=embedder, seed=seed, **params
            )
        for ti, t in enumerate(transforms):
            if t.kind == "llm" and t.post is not None:
                pairs = [(cases[ci], v) for (ci, tj), vs in sorted(out.items()) if tj == ti for v in vs]
                t.post(pairs, runner=runner, embedder=embedder, **params)
    return [v for key in sorted(out) for v in out[key]]
