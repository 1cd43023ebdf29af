"""Atomic file writes: every report, table and export is written to a temporary file in its own folder and moved
over the target with ``os.replace``, so a reader (or a later run) finds the previous version or the new one,
never a truncated file; a write that fails (a full disk, a folder that went away) removes its temporary file and
raises an ``OSError`` naming the file it was writing (the CLI prints ``cannot write <file>: <why>``).

The temporary file is ``.<name>.<pid>.tmp`` beside the target (hidden, and no ``*.csv`` / ``*.json`` glob sees it).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

__all__ = ["WriteError", "replacing", "temp_path", "write_bytes", "write_text"]


def temp_path(path: str | Path) -> Path:
    """The temporary file a write of ``path`` goes through (same folder)."""
    p = Path(path)
    return p.with_name(f".{p.name}.{os.getpid()}.tmp")


class WriteError(OSError):
    """A failed write, naming its file: ``cannot write <file>: <why>``."""

    def __str__(self) -> str:
        return f"cannot write {self.filename}: {self.strerror or 'the operating system refused'}"


def _named(exc: OSError, path: Path) -> OSError:
    if exc.filename == str(path):
        return exc
    return WriteError(exc.errno or 0, exc.strerror or type(exc).__name__, str(path))


@contextmanager
def replacing(path: str | Path, mode: str = "w", **open_args: Any) -> Iterator[IO[Any]]:
    """``open(path, mode)`` that writes a temporary file and puts it in place only when the block ends without an
    error (``mode``: ``"w"`` or ``"wb"``; ``encoding="utf-8"`` unless given, for text)."""
    if mode not in ("w", "wb"):
        raise ValueError(f"replacing() writes whole files: mode 'w' or 'wb', not {mode!r}")
    target = Path(path)
    tmp = temp_path(target)
    if mode == "w":
        open_args.setdefault("encoding", "utf-8")
    try:
        with open(tmp, mode, **open_args) as fh:
            yield fh
        os.replace(tmp, target)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise _named(exc, target) from exc
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def write_text(path: str | Path, text: str, encoding: str = "utf-8", newline: str | None = None) -> Path:
    """``Path(path).write_text(text)``, atomically (see the module docstring). Returns the path."""
    with replacing(path, "w", encoding=encoding, newline=newline) as fh:
        fh.write(text)
    return Path(path)


def write_bytes(path: str | Path, data: bytes) -> Path:
    """``Path(path).write_bytes(data)``, atomically. Returns the path."""
    with replacing(path, "wb") as fh:
        fh.write(data)
    return Path(path)
