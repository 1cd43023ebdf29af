"""A worker process ends with the process that started it, whatever ended that one (``kill -9`` included).

A worker left behind after its driver died keeps sending calls whose answers nothing stores (issue 51: after one
``kill -9`` of a ``--executor processes`` run, its workers were alive 90 s later and 642 answers were paid for and
lost). Every worker of an executor calls :func:`die_with_driver` as it starts:

* on Linux, ``prctl(PR_SET_PDEATHSIG, SIGKILL)``: the kernel kills the worker as soon as its parent *thread* ends;
  only asked for where the worker was started from the driver's main thread (a pool started from a helper thread
  would otherwise lose its workers when that thread ends);
* everywhere, a daemon thread that looks every ``interval`` seconds whether the driver still runs (its parent
  process id changed, or, for a worker that is not the driver's child, e.g. a Ray actor, the driver's pid is
  gone on this host) and kills the worker when it does not: the portable fallback, and the only guard for a
  worker that is not the driver's child.

An answer the dead worker had received and not handed back is lost with it; the worker journaled its key before
sending (:class:`clinaudit.cache.SentJournal`), so the next run counts that call as re-sent.
"""

from __future__ import annotations

import os
import signal
import socket
import sys
import threading
import time
from typing import Any

__all__ = ["INTERVAL_S", "die_with_driver", "driver_identity", "end_if_driver_gone"]

#: seconds between two looks of the watchdog thread
INTERVAL_S = 0.5
_PR_SET_PDEATHSIG = 1


def driver_identity(*, child: bool) -> dict[str, Any]:
    """What a worker needs to watch this (driver) process: its pid, host, and whether the worker is its direct
    child (a process pool's worker) started from the main thread (then ``PR_SET_PDEATHSIG`` is safe)."""
    return {"pid": os.getpid(), "host": socket.gethostname(), "child": child,
            "main_thread": threading.current_thread() is threading.main_thread()}


def _set_pdeathsig() -> bool:
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)) == 0
    except (OSError, AttributeError):  # pragma: no cover - no libc prctl
        return False


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # pragma: no cover - someone else's process took the pid
        return True
    return True


def _end_now() -> None:
    """End this worker at once: no cleanup (its calls' answers have nowhere to go)."""
    try:
        os.kill(os.getpid(), signal.SIGKILL)
    finally:  # pragma: no cover - SIGKILL is not delivered on this platform
        os._exit(1)


def _gone(driver: dict[str, Any]) -> bool:
    pid = int(driver["pid"])
    if driver.get("child"):
        return os.getppid() != pid
    return driver.get("host") == socket.gethostname() and pid != os.getpid() and not _pid_alive(pid)


def end_if_driver_gone(driver: dict[str, Any] | None) -> None:
    """End this worker now if its driver is gone: called before each chunk, so that a chunk the pool had queued
    before the driver died is never sent (the watchdog may look only ``interval`` seconds later)."""
    if driver and _gone(driver):
        _end_now()


def die_with_driver(driver: dict[str, Any] | None, *, interval: float = INTERVAL_S) -> str:
    """Make this worker end within about ``interval`` seconds of the driver ``driver`` (:func:`driver_identity`).
    Returns how it watches (for tests and logs): ``"pdeathsig+watchdog"``, ``"watchdog"`` or ``"none"`` (no
    driver given, or a driver on another host)."""
    if not driver:
        return "none"
    pid = int(driver["pid"])
    child = bool(driver.get("child"))
    if not child and (driver.get("host") != socket.gethostname() or pid == os.getpid()):
        return "none"  # a worker on another machine: its cluster ends it (Ray kills a dead driver's actors)
    end_if_driver_gone(driver)  # the driver died before this worker got here

    def gone() -> bool:
        return _gone(driver)
    how = "watchdog"
    if child and driver.get("main_thread") and _set_pdeathsig():
        how = "pdeathsig+watchdog"
        if os.getppid() != pid:  # died between the first look and the prctl call
            _end_now()

    def watch() -> None:
        while True:
            time.sleep(interval)
            if gone():
                _end_now()

    threading.Thread(target=watch, name="clinaudit-lifeline", daemon=True).start()
    return how
