"""``clinaudit`` entry point.

Each command lives in its own module under :mod:`clinaudit.cli` exposing
``register(subparsers)``; commands import heavy modules only when they run.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import sys
import traceback

from .. import __version__
from ..errors import ClinauditError

# The core's command modules; each family's come between them (clinaudit.families, COMMANDS).
CORE_COMMANDS = ["clinaudit.cli.init_cmd", "clinaudit.cli.core",  # init; models, audits, run, generate
                 "clinaudit.cli.perturb_cmd"]  # perturb
LAST_COMMANDS = ["clinaudit.cli.report_cmd", "clinaudit.cli.compare_cmd"]  # report, demo; compare


def command_modules() -> list[str]:
    """Every built-in command module, in the order `clinaudit --help` lists them."""
    from ..families import family_modules

    return CORE_COMMANDS + [m for fam in family_modules() for m in fam.COMMANDS] + LAST_COMMANDS


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
    for mod_name in command_modules():
        try:
            mod = importlib.import_module(mod_name)
        except ModuleNotFoundError as exc:
            if exc.name == mod_name:
                continue
            raise
        mod.register(sub)
    # commands added by plugins (clinaudit.registry, kind "command"): `register(subparsers)` functions
    from ..registry import registry

    for _name, add in registry("command").items():
        add(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
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
    try:
        return int(args.func(args) or 0)
    except ClinauditError as exc:
        print(f"clinaudit: error: {redacting.redact(str(exc))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\nclinaudit: interrupted; completed model calls are stored (with --executor processes or ray: those "
              "of the chunks that came back), re-run the same command to resume.", file=sys.stderr)
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


def describe_os_error(exc: OSError) -> str:
    """One line for a file-system error, naming the path: ``cannot write /x/y: Permission denied``."""
    what = exc.strerror or type(exc).__name__
    names = [n for n in (exc.filename, exc.filename2) if n is not None]
    if isinstance(exc, (IsADirectoryError, NotADirectoryError, FileExistsError)) and names:
        hint = {IsADirectoryError: "a folder is in the way of a file",
                NotADirectoryError: "a file is in the way of a folder (choose another path)",
                FileExistsError: "a file is in the way of a folder (choose another path)"}[type(exc)]
        return f"cannot use {names[0]}: {what} ({hint})"
    if names:
        return f"cannot access {' -> '.join(map(str, names))}: {what}"
    return f"{type(exc).__name__}: {what}"


def _log_traceback(args: argparse.Namespace) -> None:
    if getattr(args, "verbose", False):
        traceback.print_exc(file=sys.stderr)

if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
