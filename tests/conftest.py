"""Suite-wide check of every ``clinaudit`` command the tests run (issue 33 acceptance): no traceback, no masked
internal error, no exit status 0 after an error line.

Every in-process call of :func:`clinaudit.cli.main.main` (``invoke`` in test_cli_fuzz.py, the tests that call
``main`` directly) goes through a wrapper that records what the call wrote to stdout and stderr; every
``subprocess.run`` of ``python -m clinaudit`` / the ``clinaudit`` script with captured output is recorded from
its result. After each test, the calls it made (module fixtures' calls count for the first test that used them)
must not contain

* ``Traceback (most recent call last)``,
* the wording of ``main``'s last-resort handler for an unexpected exception
  (``clinaudit: error: unexpected <Type>: ... (please report it)``),
* an exit status 0 after a ``clinaudit...: error:`` line (a bad input reported but not refused),

unless the test is marked ``@pytest.mark.cli_errors_expected`` (a test of that handler itself). The terminal
summary prints the counts over the whole session.
"""

from __future__ import annotations

import re
import subprocess
import sys
from dataclasses import dataclass
from typing import Any

import pytest

import clinaudit.cli.main as _cli

TRACEBACK = "Traceback (most recent call last)"
MASKED = re.compile(r"clinaudit: error: unexpected [\w.]+: .*\(please report it\)")
ERROR_LINE = re.compile(r"^clinaudit(?: [\w-]+)?: error:", re.MULTILINE)
MARKER = "cli_errors_expected"


@dataclass
class Call:
    argv: list[str]
    rc: Any
    out: str
    err: str
    how: str  # "in-process" or "subprocess"
    expected: bool = False  # made by a test marked cli_errors_expected

    def problems(self) -> list[str]:
        text = self.out + self.err
        found = []
        if TRACEBACK in text:
            found.append("a traceback")
        if MASKED.search(text):
            found.append("a masked internal error")
        if self.rc == 0 and ERROR_LINE.search(self.err):
            found.append("exit 0 after an error line")
        return found


CALLS: list[Call] = []
_checked = [0]


class _Tee:
    """A stream that records what is written while the command runs and passes it on."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner
        self.seen: list[str] = []
        self.active = True

    def write(self, s: str) -> int:
        if self.active and isinstance(s, str):
            self.seen.append(s)
        return self._inner.write(s)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


_real_main = _cli.main


def _recorded_main(argv: list[str] | None = None) -> int:
    out, err = _Tee(sys.stdout), _Tee(sys.stderr)
    sys.stdout, sys.stderr = out, err  # type: ignore[assignment]
    rc: Any = None
    try:
        rc = _real_main(argv)
        return rc
    except SystemExit as exc:  # argparse: --help, usage errors
        rc = exc.code if isinstance(exc.code, int) or exc.code is None else 2
        rc = 0 if rc is None else rc
        raise
    except BaseException as exc:  # escaped main: its own traceback is the test's failure
        rc = f"raised {type(exc).__name__}"
        raise
    finally:
        if sys.stdout is out:
            sys.stdout = out._inner
        if sys.stderr is err:
            sys.stderr = err._inner
        out.active = err.active = False
        CALLS.append(Call(list(argv) if argv is not None else sys.argv[1:], rc, "".join(out.seen),
                          "".join(err.seen), "in-process"))


_cli.main = _recorded_main  # before the test modules import it (`from clinaudit.cli.main import main`)

_real_run = subprocess.run


def _is_clinaudit(args: Any) -> bool:
    if not isinstance(args, (list, tuple)) or not args:
        return False
    parts = [str(a) for a in args]
    return parts[0].endswith("clinaudit") or any(a == "-m" and b == "clinaudit" for a, b in zip(parts, parts[1:]))


def _recorded_run(*args: Any, **kwargs: Any) -> Any:
    proc = _real_run(*args, **kwargs)
    argv = args[0] if args else kwargs.get("args")
    if _is_clinaudit(argv) and (proc.stdout is not None or proc.stderr is not None):
        def text(x: Any) -> str:
            return x.decode("utf-8", "replace") if isinstance(x, bytes) else (x or "")

        CALLS.append(Call([str(a) for a in argv], proc.returncode, text(proc.stdout), text(proc.stderr),
                          "subprocess"))
    return proc


subprocess.run = _recorded_run  # type: ignore[assignment]


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", f"{MARKER}: the test provokes a traceback or a masked internal error on "
                                       "purpose (the suite-wide CLI check in tests/conftest.py lets it pass)")
    config.addinivalue_line("markers", "csv_scan(*commands): the test runs these clinaudit commands on payload data "
                                       "and scans every CSV they wrote (tests/test_csv_payloads.py checks that every "
                                       "command has one)")


@pytest.fixture(autouse=True)
def _cli_calls_are_clean(request: pytest.FixtureRequest):
    yield
    calls, _checked[0] = CALLS[_checked[0]:], len(CALLS)
    if request.node.get_closest_marker(MARKER):
        for c in calls:
            c.expected = True
        return
    bad = [f"clinaudit {' '.join(c.argv)} ({c.how}, exit {c.rc}): {', '.join(c.problems())}\n"
           f"{(c.err or c.out)[-1500:]}" for c in calls if c.problems()]
    if bad:
        pytest.fail("a clinaudit command printed what no user should see:\n" + "\n".join(bad), pytrace=False)


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if not CALLS:
        return
    n_in = sum(c.how == "in-process" for c in CALLS)
    kinds = ("a traceback", "a masked internal error", "exit 0 after an error line")

    def counts(calls: list[Call]) -> str:
        return ", ".join(f"{what}: {sum(what in c.problems() for c in calls)}" for what in kinds)

    expected = [c for c in CALLS if c.expected]
    terminalreporter.write_line(
        f"clinaudit CLI calls checked: {len(CALLS)} ({n_in} in-process, {len(CALLS) - n_in} subprocess); "
        f"{counts([c for c in CALLS if not c.expected])}; in the {len(expected)} call(s) of tests marked "
        f"{MARKER}: {counts(expected)}")
