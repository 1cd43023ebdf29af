"""Sharding the calls of a run by ``case_id`` (every executor that spreads work uses these)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from ..errors import InputError
from ..records import stable_hash

__all__ = ["MAX_SHARDS", "check_shards", "chunked", "shard_of", "split_by_shard"]

#: the most shards (worker processes, Ray actors) a run may ask for; more is refused, not attempted
MAX_SHARDS = 1024


def check_shards(shards: Any) -> int | None:
    """``shards`` as given to an executor (``--shards``, ``runner.shards``), checked: a whole number from 1 to
    :data:`MAX_SHARDS`, or ``None`` (the executor's default)."""
    if shards is None:
        return None
    if isinstance(shards, bool) or not isinstance(shards, int):
        raise InputError(f"--shards must be a whole number, got {shards!r}", field="runner.shards")
    if shards < 1:
        raise InputError(f"--shards must be at least 1, got {shards}", field="runner.shards")
    if shards > MAX_SHARDS:
        raise InputError(f"--shards {shards} is more than {MAX_SHARDS}, the most clinaudit starts; the workers are "
                         "capped at the usable CPUs (processes) or the cluster's CPUs/GPUs (ray) anyway, and at "
                         "the calls there are: leave --shards out for the default", field="runner.shards")
    return shards


def shard_of(case_id: Any, shards: int) -> int:
    """The shard (0 .. shards-1) of a case: a stable hash of its id, the same on every machine and run."""
    return int(stable_hash("clinaudit-shard-v1", str(case_id), length=12), 16) % max(1, int(shards))


def split_by_shard(requests: dict[str, Any], shards: int) -> list[list[str]]:
    """Request keys per shard: all calls of one case in the same shard, grouped by case (then by key).

    ``requests`` maps request keys to requests whose ``meta`` may carry ``case_id`` (calls without one
    are spread by their own key)."""
    out: list[list[tuple[str, str]]] = [[] for _ in range(max(1, int(shards)))]
    for key, req in requests.items():
        case = (getattr(req, "meta", None) or {}).get("case_id")
        unit = f"case:{case}" if case not in (None, "") else f"key:{key}"
        out[shard_of(unit, len(out))].append((unit, key))
    return [[key for _, key in sorted(shard)] for shard in out]


def chunked(keys: Sequence[str], size: int) -> Iterator[list[str]]:
    """``keys`` in consecutive pieces of at most ``size``."""
    size = max(1, int(size))
    for start in range(0, len(keys), size):
        yield list(keys[start : start + size])
