"""The viewer reads a run directory's own files only: no symbolic link below it is followed, no special file
(a FIFO, a socket, a device) is opened, no path outside it is read (issue 51).

The run directory itself may be reached through a link (``runs/latest``): what the user named is resolved once;
below it, every part of a path must be a real folder or a regular file. :func:`refusal` says why a path is not
read (a note the pages show); :func:`mirror` builds a folder of links to the run directory's regular files only,
for the report the viewer renders (its renderer reads the run directory on its own).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

__all__ = ["refusal", "mirror"]


def _kind(mode: int) -> str:
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "not a regular file"


def refusal(run_dir: Path, path: Path, *, folder: bool = False) -> str | None:
    """``None`` when ``path`` (inside ``run_dir``, as joined from it) is a regular file (``folder``: a folder)
    reached through real folders; else why it is not read (it does not exist: ``"missing"``)."""
    root = Path(run_dir).resolve()
    path = Path(path)
    for base in (Path(run_dir), root):
        try:
            rel = path.relative_to(base)
            break
        except ValueError:
            continue
    else:
        return f"outside the run directory ({path})"
    if ".." in rel.parts:
        return f"outside the run directory ({path})"
    cur = root
    for i, part in enumerate(rel.parts):
        cur = cur / part
        try:
            mode = os.lstat(cur).st_mode
        except FileNotFoundError:
            return "missing"
        except OSError as exc:
            return f"unreadable ({exc.strerror or exc})"
        last = i == len(rel.parts) - 1
        if stat.S_ISLNK(mode):
            target = os.readlink(cur)
            return f"a symbolic link (to {target}): not followed, the viewer reads only the run directory's own files"
        if last and not (stat.S_ISDIR(mode) if folder else stat.S_ISREG(mode)):
            return f"{_kind(mode)}: skipped"
        if not last and not stat.S_ISDIR(mode):
            return f"{_kind(mode)}: skipped"
    return None


def mirror(run_dir: Path, dest: Path) -> list[str]:
    """``dest`` made a copy of ``run_dir``'s tree of folders, holding a link to each regular file (no symbolic
    link, special file or anything outside is taken). Returns the notes of what was left out."""
    root = Path(run_dir).resolve()
    notes: list[str] = []
    dest.mkdir(parents=True, exist_ok=True)
    for here, dirs, files in os.walk(root, followlinks=False):
        rel = Path(here).relative_to(root)
        for name in sorted(dirs):
            if os.path.islink(Path(here) / name):
                notes.append(f"{rel / name}: a symbolic link to a folder: not followed")
        dirs[:] = [d for d in dirs if not os.path.islink(Path(here) / d)]
        (dest / rel).mkdir(parents=True, exist_ok=True)
        for name in files:
            src = Path(here) / name
            why = refusal(root, src)
            if why is None:
                os.symlink(src, dest / rel / name)
            elif why != "missing":
                notes.append(f"{rel / name}: {why}")
    return notes
