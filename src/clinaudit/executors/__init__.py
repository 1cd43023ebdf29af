"""Executors: where the runner sends the model calls the cache cannot answer.

* ``local`` (default) — this process, as always: the runner's async pool for remote endpoints,
  batches in a worker thread for local models (:mod:`clinaudit.runner`).
* ``processes`` — worker processes of this machine (a stdlib process pool): every core makes calls,
  for endpoints fast enough that one process's CPU is the limit (a local vLLM server or a pool of
  them); each returned chunk is stored by the driver (:mod:`clinaudit.executors.processes`).
* ``ray`` — a Ray cluster (or a local Ray instance started for the run): the uncached calls are
  sharded by ``case_id`` over Ray actors; each completed chunk comes back to the driver, which
  stores it in the run's cache (:mod:`clinaudit.executors.ray_executor`).

Whatever the executor, the cache stays the source of truth: the runner looks every request up
first and hands an executor only the calls not yet stored, and the executor stores each answer
through :meth:`clinaudit.runner.Runner.store` (or a chunk at once, in one transaction, through
:meth:`~clinaudit.runner.Runner.store_many`) as if the runner had made the call. A run started
with one executor can be resumed with another.

Nothing here imports Ray; ``ray`` is an optional extra (``pip install 'clinaudit[ray]'``).
"""

from __future__ import annotations

from typing import Any

from ..errors import InputError
from .local import Executor, LocalExecutor
from .sharding import chunked, shard_of, split_by_shard

__all__ = ["EXECUTORS", "Executor", "LocalExecutor", "make_executor", "shard_of", "split_by_shard", "chunked"]

#: executor names a spec (``runner.executor``) or ``clinaudit run --executor`` may give
EXECUTORS = ("local", "processes", "ray")


def make_executor(name: str = "local", *, address: str | None = None, shards: int | None = None,
                  **options: Any) -> Executor:
    """The executor called ``name`` (``local``, ``processes`` or ``ray``); Ray is imported only when a call is
    sent."""
    if name == "local":
        if address is not None or shards is not None:
            raise InputError("--ray-address and --shards only apply to the processes and ray executors "
                             "(--executor processes|ray)", field="runner.executor")
        return LocalExecutor()
    if name == "processes":
        if address is not None:
            raise InputError("--ray-address only applies to the ray executor (--executor ray)",
                             field="runner.executor")
        from .processes import ProcessExecutor

        return ProcessExecutor(shards=shards, **options)
    if name == "ray":
        from .ray_executor import RayExecutor, require_ray, require_ray_client

        require_ray()  # fail before the run starts, with the install hint
        require_ray_client(address)
        return RayExecutor(address=address, shards=shards, **options)
    raise InputError(f"unknown executor '{name}'; choose one of: {', '.join(EXECUTORS)}", field="runner.executor")
