"""Adversarial shapes for de-identification's running time (issue 50, tenth session: no input super-linear).

Each shape builds a text of about ``n`` characters from a repeated unit (a long word before a bracket, runs of
combining marks, "a-a-a-…", "dr. dr. …", "van der van der …", a 200 kB line with no newline …); every shape is tried
as it is and with a combining mark earlier in the text (the tokeniser takes another path then). The script times
``deidentify_text`` on ``n`` and ``4n`` characters (CPU seconds, each call in a worker process killed after
``--timeout`` seconds) and flags any shape whose time grows more than ``--flag`` times (quadratic or worse):

    PYTHONPATH=src python benchmarks/deid_fuzz.py [--n 4000] [--timeout 30] [--flag 6] [--only SUBSTRING]

``tests/test_deid_fuzz.py`` runs the same shapes at short lengths with a loose bound.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import sys
import time
from collections.abc import Callable

MARK = "Cafe\u0301 with Zoe\u0308 said: "  # a combining acute and diaeresis before the shape


def _fill(unit: str, n: int, head: str = "", tail: str = "") -> str:
    """``head``, then ``unit`` repeated to about ``n`` characters, then ``tail``."""
    return head + unit * max(1, n // max(1, len(unit))) + tail


def _word(n: int) -> str:
    return "a" * max(1, n)


PUNCT = ".,;:!?)]}>\"'-/([{<"

SHAPES: dict[str, Callable[[int], str]] = {}
for _i, _p in enumerate(PUNCT):
    SHAPES[f"word_before_{_i:02d}{_p}"] = lambda n, p=_p: "Dr. " + _word(n) + p + " and " + "b" * 60 + p
    SHAPES[f"word_after_{_i:02d}{_p}"] = lambda n, p=_p: "said " + p + _word(n) + " to Anna"
SHAPES.update({
    "cap_word_before_bracket": lambda n: "Mr " + "A" + "b" * n + "] and Smith]",
    "words_before_bracket": lambda n: _fill("abcdefghij] ", n),
    "combining_run": lambda n: "Jose" + "\u0301" * n + " came",
    "letter_mark_pairs": lambda n: _fill("a\u0301", n, "Dr. ", "] x"),
    "hyphen_letters": lambda n: _fill("a-", n, "Mr. ", "a said"),
    "hyphen_words": lambda n: _fill("Anna-", n, "dear ", "Lee]"),
    "apostrophe_letters": lambda n: _fill("o'", n, "Ms ", "o]"),
    "apostrophe_hyphen": lambda n: _fill("o'a-", n, "Mrs. ", "b's"),
    "mc_run": lambda n: _fill("mc", n, "dr ", "donald"),
    "capitals_run": lambda n: "Dr. " + "A" * n + " said",
    "capital_words": lambda n: _fill("ABC ", n, "DOCTOR: ", "OK"),
    "capitalised_words": lambda n: _fill("Anna ", n, "Dr. ", "said"),
    "initials": lambda n: _fill("A. ", n, "Dr. ", "Smith"),
    "digits_letters": lambda n: _fill("a1", n, "Mr ", "b"),
    "digit_words": lambda n: _fill("12ab ", n, "patient ", "ok"),
    "spaces": lambda n: "Dr." + " " * n + "Smith came",
    "tabs_spaces": lambda n: "Dr." + " \t" * (n // 2) + "Smith came",
    "newlines": lambda n: "Dr." + "\n" * n + "Smith came",
    "open_brackets": lambda n: "[" * n + "doctor] hi",
    "close_brackets": lambda n: "Anna" + "]" * n,
    "bracket_pairs": lambda n: _fill("[a]", n, "[doctor] ", "Smith"),
    "titles_lower": lambda n: _fill("dr. ", n, "", "smith"),
    "titles_cased": lambda n: _fill("Dr. ", n, "", "Smith"),
    "titles_mixed": lambda n: _fill("Mr Mrs Ms Dr ", n, "", "Lee"),
    "van_der": lambda n: _fill("van der ", n, "Dr. ", "berg"),
    "de_la_cased": lambda n: _fill("De La ", n, "Mrs. ", "Cruz"),
    "address": lambda n: _fill("sir ", n, "thank you ", "."),
    "address_mixed": lambda n: _fill("ma'am, honey, dear ", n, "ok ", "."),
    "possessives": lambda n: _fill("anna's ", n, "", "mother"),
    "and_names": lambda n: _fill("smith and ", n, "with ", "jones"),
    "comma_names": lambda n: _fill("Lee, ", n, "with ", "Kim"),
    "speaker_labels": lambda n: _fill("[doctor] ", n, "", "hi"),
    "label_lines": lambda n: _fill("DOCTOR: hi Anna\nPATIENT: ok\n", n),
    "dots": lambda n: "Anna" + "." * n + "Lee",
    "dashes": lambda n: "Anna" + "-" * n + "Lee",
    "apostrophes": lambda n: "Anna" + "'" * n + "s",
    "dotted_word": lambda n: _fill("a.", n, "Dr ", "b"),
    "email_like": lambda n: _fill("a.b@", n, "mail ", "c.com"),
    "quoted_words": lambda n: _fill('"Anna" ', n, "called ", "."),
    "one_long_line": lambda n: _fill("the patient told dr. lee that her sister anna had a cough. ", n),
})


def shape_text(name: str, n: int, mark: bool) -> str:
    """The text of shape ``name`` at about ``n`` characters, after a combining mark when ``mark``."""
    return (MARK if mark else "") + SHAPES[name](n)


def _worker(conn) -> None:  # type: ignore[no-untyped-def]
    from clinaudit.perturb.deid import deidentify_text
    from clinaudit.perturb.name_detect import load_word_lists

    load_word_lists()
    deidentify_text("Dr. Lee saw Anna.")
    conn.send("ready")
    while True:
        job = conn.recv()
        if job is None:
            return
        text = shape_text(*job)
        c0 = time.process_time()
        deidentify_text(text)
        conn.send(time.process_time() - c0)


class Timer:
    """A worker process that times ``deidentify_text``; a call over ``timeout`` seconds kills it (a new one starts)."""

    def __init__(self, timeout: float) -> None:
        self.timeout = timeout
        self.proc: mp.Process | None = None

    def _start(self) -> None:
        self.conn, child = mp.Pipe()
        self.proc = mp.Process(target=_worker, args=(child,), daemon=True)
        self.proc.start()
        self.conn.recv()

    def time(self, name: str, n: int, mark: bool) -> float | None:
        if self.proc is None:
            self._start()
        self.conn.send((name, n, mark))
        if self.conn.poll(self.timeout):
            return float(self.conn.recv())
        assert self.proc is not None
        self.proc.kill()
        self.proc.join()
        self.proc = None
        return None

    def close(self) -> None:
        if self.proc is not None:
            self.conn.send(None)
            self.proc.join(5)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=4000)
    ap.add_argument("--timeout", type=float, default=30.0)
    ap.add_argument("--flag", type=float, default=6.0)
    ap.add_argument("--only", default="")
    args = ap.parse_args(argv)
    timer = Timer(args.timeout)
    flagged = []
    print(f"{'shape':28} mark {'t(n) s':>9} {'t(4n) s':>9} ratio")
    for name in SHAPES:
        if args.only not in name:
            continue
        for mark in (False, True):
            t1 = timer.time(name, args.n, mark)
            t4 = timer.time(name, 4 * args.n, mark) if t1 is not None else None
            if t1 is None or t4 is None:
                print(f"{name:28} {mark!s:5} {'TIMEOUT' if t1 is None else f'{t1:9.3f}':>9} {'TIMEOUT':>9}  FLAG")
                flagged.append((name, mark))
                continue
            ratio = t4 / max(t1, 1e-3)
            flag = ratio > args.flag and t4 > 0.05
            print(f"{name:28} {mark!s:5} {t1:9.3f} {t4:9.3f} {ratio:5.1f}{'  FLAG' if flag else ''}", flush=True)
            if flag:
                flagged.append((name, mark))
    timer.close()
    print(f"{len(flagged)} flagged: {flagged}")
    return 1 if flagged else 0


if __name__ == "__main__":
    sys.exit(main())
