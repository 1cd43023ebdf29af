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
from .redact import RedactingFilter

__all__ = ["RunDir", "file_fingerprint", "RedactingFilter"]


def file_fingerprint(path: str | Path) -> dict[str, Any]:
    p = Path(path)
    h = hashlib.sha256()
    with p.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return {"path": str(p), "sha256": h.hexdigest(), "bytes": p.stat().st_size}


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
        self.manifest: dict[str, Any] = (
            json.loads(self.manifest_path.read_text(encoding="utf-8")) if self.manifest_path.exists() else {}
        )
        self.cache_path = Path(cache_path) if cache_path else self.path / "cache.sqlite"
        self._cache: ResponseCache | None = None
        self._handler: logging.Handler | None = None

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

    def close(self) -> None:
        if self._handler is not None:
            logging.getLogger("clinaudit").removeHandler(self._handler)
            self._handler.close()
            self._handler = None
        if self._cache is not None:
            self._cache.close()
            self._cache = None

    # ---- manifest ---------------------------------------------------------
    def start(self, *, spec: dict[str, Any] | None = None, models: list[dict[str, Any]] | None = None,
              seeds: list[int] | None = None, data_files: list[str | Path] | None = None, command: str = "") -> None:
        runs = self.manifest.get("runs", [])
        runs.append({"started": _now(), "command": command})
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
        tmp = self.manifest_path.with_suffix(".json.tmp")
        tmp.write_text(json.dumps(self.manifest, indent=2, sort_keys=True, default=str), encoding="utf-8")
        tmp.replace(self.manifest_path)

    # ---- tables -----------------------------------------------------------
    def table_path(self, name: str) -> Path:
        return self.tables_dir / f"{name}.csv"

    def write_table(self, name: str, df: pd.DataFrame) -> Path:
        path = self.table_path(name)
        tmp = path.with_suffix(".csv.tmp")
        df.to_csv(tmp, index=False)
        tmp.replace(path)
        return path

    def read_table(self, name: str) -> pd.DataFrame:
        return pd.read_csv(self.table_path(name), keep_default_na=False, na_values=[""])

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
