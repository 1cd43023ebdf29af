"""The executor interface and the default ``local`` executor (the runner's own path)."""

from __future__ import annotations

from typing import Any

__all__ = ["Executor", "LocalExecutor"]


class Executor:
    """Sends a runner's uncached calls somewhere and stores every answer through ``runner.store``
    (or ``runner.store_many``: a chunk in one transaction).

    ``attach(runner)`` installs the executor on a runner (``runner.executor``); the runner then calls
    ``await dispatch(runner, requests_by_key, bar)`` with the distinct requests the cache could not
    answer and expects ``{request_key: stored ModelResponse}`` back. ``close()`` releases what the
    executor started (workers, a local cluster).
    """

    name = "executor"

    def attach(self, runner: Any) -> Any:
        runner.executor = self
        return runner

    async def dispatch(self, runner: Any, requests: dict[str, Any], bar: Any) -> dict[str, Any]:
        raise NotImplementedError

    def describe(self) -> dict[str, Any]:
        """What the manifest records about how the calls were sent."""
        return {"executor": self.name}

    def close(self) -> None:
        pass


class LocalExecutor(Executor):
    """Today's path: the runner sends the calls from this process (``runner.executor`` stays ``None``)."""

    name = "local"

    def attach(self, runner: Any) -> Any:
        runner.executor = None
        return runner
