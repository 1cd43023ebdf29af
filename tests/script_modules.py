"""Load a repository script (benchmarks/, scripts/) as a module, for tests that check it or reuse its simulators."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]


def load_script(relpath: str, name: str) -> ModuleType:
    """Import ``ROOT/relpath`` under ``name`` (registered in sys.modules, so its dataclasses and pickles resolve)."""
    spec = importlib.util.spec_from_file_location(name, ROOT / relpath)
    assert spec is not None and spec.loader is not None, relpath
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod
