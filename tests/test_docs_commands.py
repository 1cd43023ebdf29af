"""The docs match the tool: README's command table lists exactly the subcommands of `clinaudit --help`, and every
`clinaudit ...` command line in a code block of README.md or docs/ is one the CLI accepts."""

from __future__ import annotations

import argparse
import contextlib
import io
import re
import shlex
from pathlib import Path

import pytest

from clinaudit.cli.main import build_parser

REPO = Path(__file__).resolve().parents[1]
DOCS = [REPO / "README.md", *sorted((REPO / "docs").rglob("*.md"))]
_SHELL_OPS = {"&&", "||", "|", ";", ">", ">>", "2>&1", "&"}


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def command_lines(path: Path) -> list[tuple[int, str]]:
    """(line number, command) for each `clinaudit ...` line in the file's fenced code blocks; a line ending in a
    backslash continues on the next."""
    out: list[tuple[int, str]] = []
    lines = path.read_text(encoding="utf-8").splitlines()
    in_code, i = False, 0
    while i < len(lines):
        text = lines[i].strip()
        if text.startswith("```"):
            in_code = not in_code
        elif in_code:
            text = text.removeprefix("$ ")
            if text.startswith("clinaudit "):
                start = i
                while text.endswith("\\") and i + 1 < len(lines):
                    i += 1
                    text = text[:-1] + " " + lines[i].strip()
                out.append((start + 1, text))
        i += 1
    return out


def _argv(command: str) -> list[str]:
    argv = shlex.split(command, comments=True)[1:]
    for n, tok in enumerate(argv):
        if tok in _SHELL_OPS:
            return argv[:n]
    return argv


def _problem(parser: argparse.ArgumentParser, command: str) -> str | None:
    """None when the CLI accepts the command line, else what is wrong. A usage line (optional parts in [brackets],
    elided arguments as ... or …) is checked for its command and option names only."""
    try:
        argv = _argv(command)
    except ValueError as exc:
        return f"not a shell command line: {exc}"
    if any(mark in command for mark in ("[", "...", "…")):
        subs = _subcommands(parser)
        if not argv or argv[0] not in subs:
            return f"unknown command {argv[0] if argv else ''!r}"
        known = set(subs[argv[0]]._option_string_actions)
        names = {t.strip("[]").split("=")[0] for t in argv[1:] if t.strip("[").startswith("--")}
        unknown = sorted(n for n in names if n not in known)
        return f"unknown option(s) {', '.join(unknown)}" if unknown else None
    err = io.StringIO()
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            parser.parse_args(argv)
    except SystemExit as exc:
        if exc.code:
            return err.getvalue().strip().splitlines()[-1] if err.getvalue().strip() else f"exit {exc.code}"
    return None


def test_every_documented_command_line_is_accepted_by_the_cli():
    parser = build_parser()
    seen, bad = 0, []
    for path in DOCS:
        for line, command in command_lines(path):
            seen += 1
            problem = _problem(parser, command)
            if problem:
                bad.append(f"{path.relative_to(REPO)}:{line}: {command}\n    {problem}")
    assert seen >= 50, f"only {seen} command lines found in README.md and docs/"
    assert not bad, "\n".join(bad)


def test_the_checker_catches_a_wrong_command_line():
    parser = build_parser()
    assert _problem(parser, "clinaudit run spec.yaml --out r --limit 3") is None
    assert "unrecognized" in _problem(parser, "clinaudit run spec.yaml --out r --limmit 3")
    assert "required" in _problem(parser, "clinaudit run spec.yaml")
    assert _problem(parser, "clinaudit run SPEC --out DIR [--limit N] [--dry-run]") is None
    assert "unknown option" in _problem(parser, "clinaudit run SPEC --out DIR [--lmit N]")
    assert "unknown command" in _problem(parser, "clinaudit frobnicate [--x]")


def readme_command_table() -> list[str]:
    """The command names of README's "Commands" table (its first column, `clinaudit NAME`)."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    match = re.search(r"^## Commands\n(.*?)(?=^## )", text, re.S | re.M)
    assert match, "README.md has no '## Commands' section"
    return re.findall(r"^\| `clinaudit ([a-z-]+)`", match.group(1), re.M)


def test_readme_lists_exactly_the_commands_of_clinaudit_help():
    listed = readme_command_table()
    assert len(listed) == len(set(listed)), "a command is listed twice in README's Commands table"
    assert sorted(listed) == sorted(_subcommands(build_parser()))


@pytest.mark.parametrize("name", ["README.md"])
def test_readme_states_how_many_commands_there_are_only_if_it_is_right(name):
    text = (REPO / name).read_text(encoding="utf-8")
    n = len(_subcommands(build_parser()))
    for said in re.findall(r"\b(\d+) (?:commands|subcommands)\b", text):
        assert int(said) == n, f"{name} says {said} commands; clinaudit --help has {n}"
