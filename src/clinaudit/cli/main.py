"""``clinaudit`` entry point.

Each command lives in its own module under :mod:`clinaudit.cli` exposing
``register(subparsers)``; commands import heavy modules only when they run.
"""

from __future__ import annotations

import argparse
import logging
import sys
import traceback

from .. import __version__
from ..errors import ClinauditError

def command_order() -> list[str]:
    """Every registered command (built-in and plugin), in the order `clinaudit --help` lists them: each
    command's own ``order`` (``@register_command(name, order=)``), then its name."""
    from ..registry import registry

    commands = registry("command")
    return sorted(commands.names(), key=lambda name: (commands.get(name).order, name))


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="clinaudit",
        description="Audit clinical language models for bias and brittleness "
        "(treatment shift, note generation, reasoning/CARE, association and classifier-fairness audits).",
        epilog="Run `clinaudit COMMAND --help` for the options of a command. Docs: README.md and docs/.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"clinaudit {__version__}")
    parser.add_argument("-v", "--verbose", action="store_true", help="log progress details to stderr")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    from ..registry import registry

    commands = registry("command")
    for name in command_order():
        commands.get(name)(sub)
    listing = listing_commands()
    for name, cmd in sub.choices.items():
        _consistent(name, cmd, name in listing)
    return parser


def listing_commands() -> frozenset[str]:
    """Commands that only list what is installed (``@register_command(..., progress=False)``): no progress to
    show, no ``--no-progress``."""
    from ..registry import registry

    return frozenset(name for name, cmd in registry("command").items() if not cmd.progress)


def _consistent(name: str, cmd: argparse.ArgumentParser, listing: bool) -> None:
    """What every command shares, whoever registered it: descriptions and epilogs printed as written (argparse
    %-formats only a text naming ``%(prog)s``, so a ``%%`` written for it would show doubled), and
    ``--no-progress`` on every command that may show progress bars."""
    for attr in ("description", "epilog"):
        text = getattr(cmd, attr)
        if text and "%(" not in text:
            setattr(cmd, attr, text.replace("%%", "%"))
    if not listing and "--no-progress" not in cmd._option_string_actions:
        cmd.add_argument("--no-progress", action="store_true", help="no progress bars")


def main(argv: list[str] | None = None) -> int:
    """The ``clinaudit`` command; returns its exit status. A reader that stops reading (``clinaudit --help | head -1``)
    ends it quietly with status 141 (as a process killed by SIGPIPE), with no BrokenPipeError on stderr."""
    try:
        try:
            return _main(argv)
        finally:
            _flush_stdout()  # here, not at exit: a closed pipe is seen while it can still be handled
    except BrokenPipeError:
        _stdout_to_devnull()
        return 141


def _flush_stdout() -> None:
    try:
        sys.stdout.flush()
    except ValueError:  # a closed stream: nothing left to write
        pass


def _stdout_to_devnull() -> None:
    """Point stdout's file descriptor at /dev/null, so the interpreter's last flush at exit does not fail again."""
    import os

    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # a stream without a file descriptor (tests' StringIO)
        pass


def _main(argv: list[str] | None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    level = logging.INFO if args.verbose else logging.WARNING
    logging.basicConfig(level=level, format="%(levelname)s %(name)s: %(message)s")
    # The run directory's log file records INFO; the terminal shows only what -v asks for.
    # Stderr gets the same secret masking as the run log (keys and 8-character fragments of them).
    from ..redact import RedactingFilter

    redacting = RedactingFilter()
    for handler in logging.getLogger().handlers:
        handler.setLevel(level)
        if not any(isinstance(f, RedactingFilter) for f in handler.filters):
            handler.addFilter(redacting)
    import os

    quiet = bool(getattr(args, "no_progress", False)) and "TQDM_DISABLE" not in os.environ
    if quiet:  # --no-progress: also the bars of libraries a command calls (tqdm reads TQDM_DISABLE)
        os.environ["TQDM_DISABLE"] = "1"
    try:
        return int(args.func(args) or 0)
    except ClinauditError as exc:
        print(f"clinaudit: error: {redacting.redact(str(exc))}", file=sys.stderr)
        return int(getattr(exc, "exit_code", 2))
    except BrokenPipeError:  # the reader of stdout went away: main ends quietly
        raise
    except KeyboardInterrupt:
        if _made_model_calls():
            print("\nclinaudit: interrupted; completed model calls are stored (with --executor processes or ray: "
                  "those of the chunks that came back), re-run the same command to resume.", file=sys.stderr)
        else:  # e.g. `clinaudit view`, `report`: no model call to resume
            print("\nclinaudit: interrupted.", file=sys.stderr)
        return 130
    except OSError as exc:
        # the file system refused (unwritable folder, a file where a folder should be, disk full ...)
        _log_traceback(args)
        print(f"clinaudit: error: {redacting.redact(describe_os_error(exc))}", file=sys.stderr)
        return 2
    except Exception as exc:  # noqa: BLE001  (last resort: one line, the traceback only with -v)
        _log_traceback(args)
        text = redacting.redact(" ".join(str(exc).split()))
        if len(text) > 300:
            text = text[:300] + " ..."
        hint = "" if args.verbose else "; run with -v for the traceback"
        print(f"clinaudit: error: unexpected {type(exc).__name__}: {text}{hint} (please report it)", file=sys.stderr)
        return 1
    finally:
        if quiet:
            os.environ.pop("TQDM_DISABLE", None)


def _made_model_calls() -> bool:
    """Whether this process set up a model-call runner (only then does Ctrl-C leave calls to resume)."""
    runner = sys.modules.get("clinaudit.runner")
    return bool(runner is not None and getattr(runner.Runner, "made", False))


def describe_os_error(exc: OSError) -> str:
    """One line for a file-system error, naming the path: ``cannot write /x/y: Permission denied``."""
    from ..atomic import WriteError

    if isinstance(exc, WriteError):  # a report, table or export that could not be written (clinaudit.atomic)
        return str(exc)
    what = exc.strerror or type(exc).__name__
    names = [n for n in (exc.filename, exc.filename2) if n is not None]
    if isinstance(exc, (IsADirectoryError, NotADirectoryError, FileExistsError)) and names:
        hint = {IsADirectoryError: "a folder is in the way of a file",
                NotADirectoryError: "a file is in the way of a folder (choose another path)",
                FileExistsError: "a file is in the way of a folder (choose another path)"}[type(exc)]
        return f"cannot use {names[0]}: {what} ({hint})"
    if names:
        return f"cannot access {' -> '.join(map(str, names))}: {what}"
    detail = " ".join(str(exc).split())[:300] if exc.strerror is None else what
    return f"{type(exc).__name__}: {detail or 'the operating system refused (no detail given)'}"


def _log_traceback(args: argparse.Namespace) -> None:
    if getattr(args, "verbose", False):
        traceback.print_exc(file=sys.stderr)

if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
