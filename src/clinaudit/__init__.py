"""clinaudit: audit clinical language models for bias and brittleness.

Public API (small on purpose):

* records: :class:`Case`, :class:`Variant`, :class:`ModelRequest`, :class:`ModelResponse`, :class:`Judgment`
* models: :func:`get_backend`, :func:`list_backends`
* running: :class:`Runner`, :class:`RunnerConfig`, :class:`RunDir`
* audits: :func:`load_spec`, :func:`run_spec`
* notebooks (:mod:`clinaudit.api`, docs/python-api.md): :func:`make_spec`, :func:`run_audit`,
  :func:`open_run`, :func:`open_runs`, :func:`compare_runs`, :func:`gate_run`, :class:`RunResults`,
  :class:`RunSet`
"""

__version__ = "0.1.0"

import os as _os  # noqa: E402

# OpenMP threads (torch's, on CPU) wait for the next parallel region sleeping instead of spinning, unless the user
# chose otherwise: on a shared machine spinning threads fight the other processes for the cores. Measured on the
# 2-core machine at load average ~20: 16 sentence log-likelihoods of the embedded model took 48 s with 2 spinning
# threads, 2-5 s with 2 passive ones (1 thread: 6-7 s). Set before torch is imported (it reads it once).
_os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

from typing import Any  # noqa: E402

from .errors import ClinauditError, InputError, SpecError  # noqa: E402
from .records import Case, Judgment, ModelRequest, ModelResponse, Variant, to_frame  # noqa: E402

__all__ = [
    "__version__",
    "Case",
    "Variant",
    "ModelRequest",
    "ModelResponse",
    "Judgment",
    "to_frame",
    "ClinauditError",
    "InputError",
    "SpecError",
    "get_backend",
    "list_backends",
    "Runner",
    "RunnerConfig",
    "RunDir",
    "load_spec",
    "run_spec",
    "make_spec",
    "run_audit",
    "open_run",
    "open_runs",
    "compare_runs",
    "gate_run",
    "RunResults",
    "RunSet",
]


def __getattr__(name: str) -> Any:  # lazy re-exports keep `import clinaudit` light
    if name in {"get_backend", "list_backends"}:
        from .models import base

        return getattr(base, name)
    if name in {"Runner", "RunnerConfig"}:
        from . import runner

        return getattr(runner, name)
    if name == "RunDir":
        from .rundir import RunDir

        return RunDir
    if name in {"load_spec", "run_spec"}:
        from . import spec

        return getattr(spec, name)
    if name in {"make_spec", "run_audit", "open_run", "open_runs", "compare_runs", "gate_run", "RunResults", "RunSet"}:
        from . import api

        return getattr(api, name)
    raise AttributeError(name)
