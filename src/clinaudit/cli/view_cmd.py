"""``clinaudit view``: a local web viewer of runs' cases, calls and judgments (docs/viewer.md)."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..registry import register_command

__all__ = ["add_view", "cmd_view"]


@register_command("view", order=940)
def add_view(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "view",
        help="browse a run's cases, answers, judgments and model calls in a local web viewer",
        description="Start a local web viewer over one or more run directories, read straight from the run store "
        "(nothing is copied, uploaded or written): a grid of every answer (case x variant x seed x model) with the "
        "change against the baseline text, the judge's labels and parse status and the flips, filtered, searched "
        "and sorted on the server; a page per case with every variant side by side, the exact prompts and raw "
        "responses from the cache; two runs side by side with the flips that differ marked. It listens on "
        "127.0.0.1 only and prints a URL with a token (as Jupyter does); stop it with Ctrl-C. Needs the extra "
        "'view': pip install 'clinaudit[view]'.",
        epilog="Examples:\n  clinaudit view runs/mine\n  clinaudit view runs/v1 runs/v2 --port 8765 --no-browser\n"
        "  clinaudit view runs/demo          # every run directory below it",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("run_dirs", nargs="+", type=Path, metavar="RUN",
                   help="run directory (two or more: side by side), or a folder with run directories below it")
    p.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (default: a free port chosen at random)")
    p.add_argument("--no-browser", action="store_true", help="print the URL only; do not open a browser")
    p.set_defaults(func=cmd_view)


def cmd_view(args: argparse.Namespace) -> int:
    from ..errors import InputError
    from ..viewer import serve

    if not 0 <= args.port <= 65535:
        raise InputError(f"--port must be 0..65535, got {args.port}")
    return serve(args.run_dirs, port=args.port, open_browser=not args.no_browser)
