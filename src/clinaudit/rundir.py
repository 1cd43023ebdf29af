"""Run directory: manifest, stage tables, logs and (by default) the response cache.

Layout::

    RUN_DIR/
      manifest.json        version, spec, models, seeds, data fingerprints, start/end, calls, tokens
      spec.yaml            the spec as given (if any)
      cache.sqlite         request-hash -> response (unless a user cache dir is configured)
      tables/<stage>.csv   one tidy table per stage (cases, variants, responses, judgments, metrics ...)
      logs/run.log         log with secrets redacted

No API key is written anywhere: requests carry none, backend descriptions omit
them and the log handler redacts the values of secret-looking environment variables.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
import logging
import os
import platform
from dataclasses import asdict
from pathlib import Path
from typing import Any

import pandas as pd

from . import __version__
from .cache import ResponseCache
from .errors import ClinauditError
from .redact import RedactingFilter
from .atomic import write_text

__all__ = ["RunDir", "read_store_table", "RunDirLock", "RunDirBusyError", "RunDirReuseError", "spec_fingerprint", "check_reuse",
           "file_fingerprint", "RedactingFilter", "LOCK_FILE", "LOCK_OWNER_FILE", "read_manifest"]

#: The lock file of a run directory (an OS-level exclusive lock via ``filelock``) and its companion,
#: which names the holder (pid, host, start time, command) for the error a second process gets.
LOCK_FILE = ".clinaudit.lock"
LOCK_OWNER_FILE = ".clinaudit.lock.json"


class RunDirBusyError(ClinauditError):
    """Another process holds the run directory's lock."""


class RunDirReuseError(ClinauditError):
    """The run directory holds a run of another audit or spec (use --force to start over in it)."""


class RunDirLock:
    """One writer per run directory: an exclusive, re-entrant (within this process) lock.

    The lock is an OS lock (``fcntl.flock`` through the maintained ``filelock`` package), so it is
    released when the holding process exits, even after ``kill -9``; there are no stale locks.
    A second process gets :class:`RunDirBusyError` naming the holder.
    """

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self._lock: Any = None

    def _filelock(self) -> Any:
        if self._lock is None:
            from filelock import FileLock

            # one instance per absolute path in this process (re-entrant: `run` holds it across its estimate)
            self._lock = FileLock(str(self.path.resolve() / LOCK_FILE), timeout=0, thread_local=False,
                                  is_singleton=True)
        return self._lock

    def acquire(self, command: str = "") -> "RunDirLock":
        from filelock import Timeout

        self.path.mkdir(parents=True, exist_ok=True)
        lock = self._filelock()
        try:
            lock.acquire(timeout=0)
        except Timeout:
            raise RunDirBusyError(
                f"run directory {self.path} is in use by another clinaudit process ({self.holder_text()}); "
                "wait for it to finish or choose another --out"
            ) from None
        if lock.lock_counter == 1:
            owner = {"pid": os.getpid(), "host": platform.node(), "started": _now(), "command": command}
            tmp = self.path / (LOCK_OWNER_FILE + ".tmp")
            tmp.write_text(json.dumps(owner), encoding="utf-8")
            tmp.replace(self.path / LOCK_OWNER_FILE)
        return self

    def holder(self) -> dict[str, Any]:
        try:
            data = json.loads((self.path / LOCK_OWNER_FILE).read_text(encoding="utf-8"))
            return data if isinstance(data, dict) else {}
        except (OSError, ValueError):
            return {}

    def holder_text(self) -> str:
        h = self.holder()
        if not h:
            return "holder unknown: it has just started"
        text = f"pid {h.get('pid')} on host {h.get('host')}, started {h.get('started')}"
        return text + (f": {h['command']}" if h.get("command") else "")

    def release(self) -> None:
        lock = self._lock
        if lock is None or not lock.is_locked:
            return
        if lock.lock_counter == 1:
            try:
                (self.path / LOCK_OWNER_FILE).unlink()
            except OSError:
                pass
        lock.release()

    @property
    def held(self) -> bool:
        return self._lock is not None and self._lock.is_locked

    def __enter__(self) -> "RunDirLock":
        return self.acquire()

    def __exit__(self, *exc: Any) -> None:
        self.release()


#: Spec fields that change no result: a run may resume after they change.
#: spec fields a run may be resumed under when they changed: they change no model call (``verdicts``: the
#: margins and thresholds are applied afresh when the re-run recomputes its results; a run made before
#: the field existed resumes too)
RESUMABLE_FIELDS = ("runner", "name", "verdicts")


def spec_fingerprint(spec: Any) -> str:
    """SHA-256 of a spec's canonical JSON without the fields a run may be resumed under (``runner``, ``name``,
    ``verdicts``: :data:`RESUMABLE_FIELDS`)."""
    if isinstance(spec, dict):
        spec = {k: v for k, v in spec.items() if k not in RESUMABLE_FIELDS}
    return hashlib.sha256(json.dumps(spec, sort_keys=True, default=str).encode("utf-8")).hexdigest()


def check_reuse(path: str | Path, spec: dict[str, Any], audit: str, *, force: bool = False,
                resume: bool = False) -> str:
    """Whether ``path`` may take a run of ``spec``: ``"new"`` (no run there yet), ``"resume"`` (the same
    audit and spec ran there before) or ``"force"`` (another audit or spec, allowed by ``force``).

    Raises :class:`RunDirReuseError` for another audit or spec without ``force``, and for ``resume``
    when there is nothing to resume.
    """
    p = Path(path)
    mpath = p / "manifest.json"
    old: dict[str, Any] = {}
    if mpath.is_file():
        try:
            data = json.loads(mpath.read_text(encoding="utf-8"))
            old = data if isinstance(data, dict) else {}
        except (OSError, ValueError):
            old = {}
    old_spec = old.get("spec")
    if not old.get("runs") or not isinstance(old_spec, dict):
        if resume:
            raise RunDirReuseError(f"--resume: run directory {p} holds no earlier run to resume")
        return "new"
    old_audit = str(old.get("audit") or old_spec.get("audit") or old_spec.get("command") or "")
    same = old_audit == audit and spec_fingerprint(old_spec) == spec_fingerprint(spec)
    if same:
        return "resume"
    if force:
        return "force"
    differ = sorted(k for k in set(old_spec) | set(spec)
                    if k not in RESUMABLE_FIELDS and old_spec.get(k) != spec.get(k))
    what = f"audit '{old_audit}'" if old_audit != audit else f"another spec of audit '{audit}'"
    raise RunDirReuseError(
        f"run directory {p} holds a run of {what} (fields that differ: {', '.join(differ) or 'audit'}); "
        "resuming is only possible with the same spec. Choose another --out, or pass --force to start over "
        "in it (its tables are removed; stored model answers are kept and reused)"
    )


def file_fingerprint(path: str | Path) -> dict[str, Any]:
    p = Path(path)
    h = hashlib.sha256()
    with p.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return {"path": str(p), "sha256": h.hexdigest(), "bytes": p.stat().st_size}


#: text columns of run-store tables that always hold text: an empty cell there is the empty string it was written
#: as (an excluded case's blanked text, an empty rewrite), never a missing value. (A response's ``text`` is not one:
#: a failed call's text is missing; :func:`clinaudit.pipeline.stages` reads it.)
STORE_TEXT_COLUMNS: dict[str, tuple[str, ...]] = {"cases": ("text",), "variants": ("text",)}


def read_store_table(path: str | Path, **read_csv: Any) -> pd.DataFrame:
    """A run-store CSV (``RUN/tables/*.csv``) with its exact values: empty cells NaN, the text "NA" kept, the
    spreadsheet-safety prefix taken off (:func:`clinaudit.export.read_store_frame`). The one reader of the run
    store; a run directory written before the prefix reads the same.

    The text columns of :data:`STORE_TEXT_COLUMNS` (by the table's file name: ``cases.csv``'s ``text`` ...) read
    an empty cell as ``""``, the text written, so a reader can hash, diff or show every case's text (under pandas 3
    ``astype(str)`` keeps a missing value missing)."""
    from .export import read_store_frame

    df = read_store_frame(pd.read_csv(path, keep_default_na=False, na_values=[""], **read_csv))
    for col in STORE_TEXT_COLUMNS.get(Path(path).stem, ()):
        if col in df.columns and df[col].isna().any():
            df[col] = df[col].astype(object).where(df[col].notna(), "")
    return df


def read_manifest(path: Path) -> dict[str, Any]:
    """A run directory's ``manifest.json``; a broken one is an InputError naming the file."""
    from .errors import InputError

    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise InputError(f"broken manifest ({exc}); it may have been cut off while being written: move it "
                         "away (or use a new --out) and re-run", file=str(path)) from None
    if not isinstance(data, dict):
        raise InputError(f"broken manifest: expected a JSON object, got {type(data).__name__}", file=str(path))
    return data


def summary_item(run_dir: Any, key: str) -> dict[str, Any] | None:
    """The run directory's manifest summary's ``key`` (an object), or None: no manifest, a broken one, no summary or
    no such object (a run made before the key was recorded). For the readers that must not fail on an old run
    (:func:`clinaudit.deid_reach.run_counts`, :func:`clinaudit.deid_groups.run_changes`)."""
    try:
        manifest = json.loads((Path(run_dir) / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    summary = manifest.get("summary") if isinstance(manifest, dict) else None
    item = summary.get(key) if isinstance(summary, dict) else None
    return dict(item) if isinstance(item, dict) else None


def _now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")


class RunDir:
    def __init__(self, path: str | Path, cache_path: str | Path | None = None):
        self.path = Path(path)
        self.tables_dir = self.path / "tables"
        self.logs_dir = self.path / "logs"
        for d in (self.path, self.tables_dir, self.logs_dir):
            d.mkdir(parents=True, exist_ok=True)
        self.manifest_path = self.path / "manifest.json"
        self.manifest: dict[str, Any] = read_manifest(self.manifest_path) if self.manifest_path.exists() else {}
        self.cache_path = Path(cache_path) if cache_path else self.path / "cache.sqlite"
        self._cache: ResponseCache | None = None
        self._handler: logging.Handler | None = None
        self._lock: RunDirLock | None = None

    # ---- cache / logging --------------------------------------------------
    @property
    def cache(self) -> ResponseCache:
        if self._cache is None:
            self._cache = ResponseCache(self.cache_path)
        return self._cache

    def attach_log(self, level: int = logging.INFO) -> logging.Logger:
        logger = logging.getLogger("clinaudit")
        if self._handler is None:
            handler = logging.FileHandler(self.logs_dir / "run.log", encoding="utf-8")
            handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
            handler.addFilter(RedactingFilter())
            logger.addHandler(handler)
            logger.setLevel(min(level, logger.level or level))
            self._handler = handler
        return logger

    # ---- one writer --------------------------------------------------------
    def lock(self, command: str = "") -> None:
        """Take the run directory's exclusive lock (released by :meth:`close`); see :class:`RunDirLock`."""
        if self._lock is None:
            self._lock = RunDirLock(self.path)
        self._lock.acquire(command)
        if self.manifest_path.exists():  # re-read: a previous holder may have finished since __init__
            self.manifest = read_manifest(self.manifest_path)

    def start_over(self) -> None:
        """``--force``: drop the tables and exports of an earlier run of another spec (the cache stays:
        its answers are addressed by request hash, so they are valid for any spec that asks the same)."""
        for p in self.tables_dir.glob("*.csv"):
            p.unlink()
        exports = self.path / "exports"
        if exports.is_dir():
            import shutil

            shutil.rmtree(exports)
        prior = self.manifest.get("runs", [])
        self.manifest = {"runs": [{**r, "superseded": True} for r in prior]}

    def close(self) -> None:
        if self._handler is not None:
            logging.getLogger("clinaudit").removeHandler(self._handler)
            self._handler.close()
            self._handler = None
        if self._cache is not None:
            self._cache.close()
            self._cache = None
        if self._lock is not None:  # last: everything above is written while we hold it
            self._lock.release()

    # ---- manifest ---------------------------------------------------------
    def start(self, *, spec: dict[str, Any] | None = None, models: list[dict[str, Any]] | None = None,
              seeds: list[int] | None = None, data_files: list[str | Path] | None = None, command: str = "",
              **run_info: Any) -> None:
        """Record a run's start; ``run_info`` (e.g. ``case_limit``) goes into this run's entry of ``runs``."""
        runs = self.manifest.get("runs", [])
        runs.append({"started": _now(), "command": command, **run_info})
        self.manifest.update(
            {
                "clinaudit_version": __version__,
                "python": platform.python_version(),
                "platform": platform.platform(),
                "spec": spec,
                "models": models or [],
                "seeds": seeds or [],
                "data": [file_fingerprint(f) for f in (data_files or []) if Path(f).is_file()],
                "cache": str(self.cache_path),
                "runs": runs,
            }
        )
        self.save_manifest()

    def finish(self, usage: dict[str, Any] | None = None, **extra: Any) -> None:
        runs = self.manifest.setdefault("runs", [{}])
        runs[-1]["finished"] = _now()
        if usage is not None:
            usage = {k: (asdict(v) if hasattr(v, "__dataclass_fields__") else v) for k, v in usage.items()}
            runs[-1]["usage"] = usage
            totals: dict[str, float] = {}
            for u in usage.values():
                for k, v in u.items():
                    totals[k] = totals.get(k, 0) + v
            runs[-1]["usage_total"] = totals
        self.manifest.update(extra)
        self.save_manifest()

    def save_manifest(self) -> None:
        write_text(self.manifest_path, json.dumps(self.manifest, indent=2, sort_keys=True, default=str))

    # ---- tables -----------------------------------------------------------
    def table_path(self, name: str) -> Path:
        return self.tables_dir / f"{name}.csv"

    def write_table(self, name: str, df: pd.DataFrame) -> Path:
        """Write ``tables/NAME.csv``: safe to open in a spreadsheet (formula-like text prefixed with ``'``,
        reversibly: :func:`clinaudit.export.store_frame`); :meth:`read_table` gives the exact values back."""
        from .export import store_csv

        path = self.table_path(name)
        store_csv(df, path)  # atomically (clinaudit.atomic)
        return path

    def read_table(self, name: str) -> pd.DataFrame:
        """``tables/NAME.csv`` with its exact values (:func:`read_store_table`)."""
        return read_store_table(self.table_path(name))

    def table_or_empty(self, name: str) -> pd.DataFrame:
        """The table, or an empty frame when the stage has not written it (or wrote no columns)."""
        if not self.has_table(name):
            return pd.DataFrame()
        try:
            return self.read_table(name)
        except pd.errors.EmptyDataError:
            return pd.DataFrame()

    def has_table(self, name: str) -> bool:
        return self.table_path(name).exists()

    def tables(self) -> list[str]:
        return sorted(p.stem for p in self.tables_dir.glob("*.csv"))
