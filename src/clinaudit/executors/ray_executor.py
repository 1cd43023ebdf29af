"""The ``ray`` executor: a run's uncached calls on Ray actors, sharded by ``case_id``.

How a call travels:

1. the driver's runner looks every request up in the cache and hands :meth:`RayExecutor.dispatch`
   only the distinct requests not stored yet;
2. they are split into ``shards`` (capped at the cluster's CPUs, or GPUs for local models on GPUs, and
   at the cases there are; ``--shards`` above ``MAX_SHARDS`` is refused) by a stable hash of their ``case_id`` (all calls of one case in one
   shard), and each shard into small chunks;
3. shard *i* runs on actor *i* (:class:`ShardWorker`): the actor builds each backend once (a local
   model is loaded once per actor, on its own device slot when ``num_gpus`` is set; a remote endpoint
   gets a client with the run's retry, timeout and rate settings, its concurrency split over the
   actors) and answers a chunk with the same runner code a local run uses, without a cache;
4. the driver keeps two chunks in flight per actor and takes them back with ``ray.wait`` as they
   complete, storing its answers in the run's cache at once, in one transaction (``Runner.store_many``).

A worker that dies mid-chunk is restarted by Ray (``max_restarts``) and its unfinished chunks are
retried (``max_task_retries``); chunks already returned were stored and are never sent again.
API keys never travel: workers get the backend options (``api_key_env`` is a variable's *name*) and
read the key from their own environment — on a local instance they inherit the driver's.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from typing import Any

from ..errors import BackendError, ClinauditError, InputError
from .local import Executor
from .lifeline import driver_identity
from .shard_worker import ChunkJournals, ShardWorker, backend_recipes, store_chunk, worker_config
from .sharding import check_shards, chunked, split_by_shard

__all__ = ["RayExecutor", "ShardWorker", "backend_recipes", "require_ray", "require_ray_client"]

log = logging.getLogger("clinaudit.executors.ray")

#: chunks kept in flight per actor: one running, one queued behind it
IN_FLIGHT_PER_ACTOR = 2


def require_ray() -> Any:
    """``import ray``, or an error that says how to install it."""
    try:
        import ray
    except ImportError:
        raise InputError("the ray executor needs the optional package 'ray': install it with "
                         "`pip install 'clinaudit[ray]'` (ray==2.60.0), or run with --executor local") from None
    return ray


def require_ray_client(address: str | None) -> None:
    """For a ``ray://`` address, Ray Client's extra dependency (``grpc``), or an error that says how to install it."""
    if not (address or "").startswith("ray://"):
        return
    import importlib.util

    if importlib.util.find_spec("grpc") is None:
        raise InputError(f"--ray-address {address}: a ray:// address connects through Ray Client, which needs "
                         "`pip install 'ray[client]'`; or give the cluster's GCS address (host:6379, or auto on a "
                         "cluster node)", field="runner.ray_address")


class RayExecutor(Executor):
    """Send a run's uncached calls to Ray actors (see the module docstring).

    ``address``: a running cluster (``ray://host:10001``, ``auto``, ``host:6379``); ``None`` starts a local
    Ray instance sized to the machine for the run (and shuts it down at :meth:`close`); an instance
    already started in this process (``ray.init`` by the caller) is used as is. ``shards``: number of
    shards = actors (default: the cluster's GPUs when local models run on GPUs, else its CPUs).
    ``chunk_size``: calls per chunk (the unit stored at once and retried after a crash).
    ``num_gpus``: GPUs per actor (default: 1 when the cluster has GPUs and the first calls go to a local
    model, else 0). ``init_options``: more ``ray.init`` arguments (e.g. ``num_cpus``, ``runtime_env``).
    """

    name = "ray"

    def __init__(self, address: str | None = None, shards: int | None = None, *, chunk_size: int | None = None,
                 num_gpus: float | None = None, max_restarts: int = 4, max_task_retries: int = 4,
                 init_options: dict[str, Any] | None = None):
        check_shards(shards)
        if chunk_size is not None and int(chunk_size) < 1:
            raise InputError(f"chunk_size must be at least 1, got {chunk_size}")
        self.address = address
        self.shards = int(shards) if shards is not None else None
        self.chunk_size = int(chunk_size) if chunk_size is not None else None
        self.num_gpus = num_gpus
        self.max_restarts = int(max_restarts)
        self.max_task_retries = int(max_task_retries)
        self.init_options = dict(init_options or {})
        self._started = False  # this executor called ray.init (and shuts Ray down at close)
        self._actors: list[Any] = []
        self._chunk = 1
        self._num_gpus: float | None = None  # GPUs per actor, decided with the first actors

    # ---- the cluster and its actors ----------------------------------------------------------
    def _ray(self) -> Any:
        ray = require_ray()
        if not ray.is_initialized():
            kwargs: dict[str, Any] = {"include_dashboard": False, "logging_level": logging.WARNING}
            kwargs.update(self.init_options)
            if self.address:
                kwargs["address"] = self.address
            log.info("starting Ray (%s)", f"address {self.address}" if self.address else "a local instance")
            require_ray_client(self.address)
            try:
                ray.init(**kwargs)
            except (ValueError, ConnectionError, TimeoutError, RuntimeError) as exc:
                where = f"the Ray cluster at {self.address}" if self.address else "a local Ray instance"
                raise BackendError(f"cannot start {where} (--ray-address): {type(exc).__name__}: "
                                   f"{' '.join(str(exc).split())[:300]}") from None
            self._started = True
        return ray

    def _ensure_actors(self, runner: Any, specs: set[str], units: int) -> None:
        """Actors for ``units`` cases to send: ``shards`` (default: the cluster's GPUs for local models on
        GPUs, else its CPUs), never more than the cluster's CPUs (GPUs) nor than the cases; a later batch
        with more cases adds actors up to that cap."""
        ray = self._ray()
        resources = ray.cluster_resources()
        gpus = int(resources.get("GPU", 0))
        if self._num_gpus is None:
            local_models = any(not runner.backend(s).is_remote for s in specs)
            self._num_gpus = self.num_gpus if self.num_gpus is not None else (1 if gpus and local_models else 0)
        cap = max(1, gpus if self._num_gpus else int(resources.get("CPU", 1)))
        if self.shards and self.shards > cap and not self._actors:
            log.warning("ray executor: --shards %d is more than the cluster's %d %s; starting at most %d actors",
                        self.shards, cap, "GPUs" if self._num_gpus else "CPUs", cap)
        n = max(1, min(self.shards or cap, cap, units))
        if n <= len(self._actors):
            return
        worker_cfg = worker_config(runner.config, min(self.shards or cap, cap))
        per_actor = worker_cfg["concurrency"]
        self._chunk = self.chunk_size or min(64, max(8, 2 * per_actor))
        options: dict[str, Any] = {"max_restarts": self.max_restarts, "max_task_retries": self.max_task_retries,
                                   "num_cpus": 0, "scheduling_strategy": "SPREAD"}
        if self._num_gpus:
            options["num_gpus"] = self._num_gpus
        actor_cls = ray.remote(ShardWorker)
        driver = driver_identity(child=False)  # an actor on this machine ends with this process (lifeline.py)
        self._actors += [actor_cls.options(**options).remote(worker_cfg, driver) for _ in range(n - len(self._actors))]
        log.info("ray executor: %d actor(s), %d call(s) per chunk, concurrency %d per actor", n, self._chunk,
                 per_actor)

    # ---- sending -------------------------------------------------------------------------------
    async def dispatch(self, runner: Any, requests: dict[str, Any], bar: Any) -> dict[str, Any]:
        from ray.exceptions import RayActorError, RayTaskError

        specs = {r.model for r in requests.values()}
        units = {(getattr(r, "meta", None) or {}).get("case_id") or f"key:{k}" for k, r in requests.items()}
        self._ensure_actors(runner, specs, len(units))
        ray = self._ray()
        recipes = ray.put(backend_recipes(runner, specs))
        queues = [deque(chunked(shard, self._chunk)) for shard in split_by_shard(requests, len(self._actors))]
        in_flight: dict[Any, tuple[int, list[str], str | None]] = {}
        journals = ChunkJournals(runner)
        journals.count_resent(runner, requests)

        def submit(i: int) -> None:
            if queues[i]:
                keys = queues[i].popleft()
                path = journals.new()
                ref = self._actors[i].run_chunk.remote(recipes, [requests[k] for k in keys], path)
                in_flight[ref] = (i, keys, path)

        for i in range(len(queues)):
            for _ in range(IN_FLIGHT_PER_ACTOR):
                submit(i)
        out: dict[str, Any] = {}
        try:
            while in_flight:
                ready, _ = await asyncio.to_thread(ray.wait, list(in_flight), num_returns=1, timeout=1.0)
                for ref in ready:
                    i, keys, path = in_flight.pop(ref)
                    try:
                        resps, retries = ray.get(ref)
                    except RayTaskError as exc:
                        cause = getattr(exc, "cause", None)
                        if isinstance(cause, ClinauditError):
                            raise cause from None
                        raise BackendError(f"a Ray worker failed: {exc}") from None
                    except RayActorError as exc:
                        raise BackendError(
                            f"Ray worker {i} died more than {self.max_restarts} times ({type(exc).__name__}); "
                            "the calls it completed are stored: re-run the same command to resume") from None
                    out.update(store_chunk(runner, requests, keys, resps, retries, bar))
                    journals.stored(path)
                    submit(i)
        finally:
            for ref in in_flight:  # stopped early (error, Ctrl-C): queued chunks need not run
                try:
                    ray.cancel(ref)
                except Exception:  # noqa: BLE001 - best effort; close() ends the actors anyway
                    pass
        journals.settle()
        return out

    def describe(self) -> dict[str, Any]:
        return {"executor": self.name, "address": self.address or "local", "shards": len(self._actors) or self.shards,
                "chunk_size": self.chunk_size}

    def close(self) -> None:
        if not self._actors and not self._started:
            return
        ray = require_ray()
        try:  # each actor closes its connections first (best effort: a dead or busy actor is killed anyway)
            ray.get([actor.close.remote() for actor in self._actors], timeout=5)
        except Exception:  # noqa: BLE001
            pass
        for actor in self._actors:
            try:
                ray.kill(actor)
            except Exception:  # noqa: BLE001 - already gone
                pass
        self._actors = []
        if self._started:
            ray.shutdown()
            self._started = False
