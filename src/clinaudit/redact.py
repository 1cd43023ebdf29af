"""Secret redaction shared by the backends, the runner and the run log.

A secret must not reach any file or terminal, not even in part: a server that
echoes the key in its error text, a message cut to N characters across the key,
or a log line quoting a fragment of it. :func:`redact` therefore replaces the
full value *and every fragment of at least* :data:`MIN_FRAGMENT` *characters* of
each secret with ``***``, and :func:`redact_and_cut` redacts **before** cutting a
text to its display length (cutting first could split the key so that neither
half matches the full value).

How: every ``MIN_FRAGMENT``-character window of a secret is a "gram"; each
position of the text where a gram starts marks that window as secret; the marked
runs become one ``***`` each. Any fragment of length >= ``MIN_FRAGMENT`` contains
a gram at each of its offsets, so it is covered entirely. Secrets shorter than
``MIN_FRAGMENT`` are replaced only as whole values.
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Iterable

__all__ = ["MIN_FRAGMENT", "MASK", "redact", "key_like", "redact_and_cut", "secret_env_values", "SECRET_ENV_NAME", "RedactingFilter"]

#: Shortest fragment of a secret that is masked wherever it appears.
MIN_FRAGMENT = 8
MASK = "***"
#: Environment variables whose values are treated as secrets by the run log.
SECRET_ENV_NAME = re.compile(r"(KEY|TOKEN|SECRET|PASSWORD)", re.I)


def secret_env_values(min_len: int = 6) -> list[str]:
    """Values of secret-looking environment variables (names with KEY, TOKEN, SECRET or PASSWORD)."""
    return [v for k, v in os.environ.items() if SECRET_ENV_NAME.search(k) and v and len(v) >= min_len]


def key_like(value: str) -> bool:
    """Does an environment value look like a generated credential (so its fragments are masked too)?

    At least 12 characters, no whitespace, letters and digits, and not the path of an existing file
    (``SSL_KEY_FILE=/etc/ssl/...``). Other values of secret-looking variables (e.g.
    ``PYTHON_KEYRING_BACKEND=keyring.backends.null.Keyring``) are masked only as whole values, so
    their common 8-character pieces ("backends") do not vanish from every log line.
    """
    return (len(value) >= 12 and not any(c.isspace() for c in value) and any(c.isdigit() for c in value)
            and any(c.isalpha() for c in value) and not os.path.exists(value))


def redact(text: str, secrets: Iterable[str | None], whole_only: Iterable[str | None] = ()) -> str:
    """``text`` with each secret, and each >= ``MIN_FRAGMENT``-character fragment of it, replaced by ``***``;
    ``whole_only`` values are replaced only where they appear whole."""
    if not text:
        return text
    fragmented = sorted({s for s in secrets if s}, key=len, reverse=True)
    whole = sorted({s for s in whole_only if s} | set(fragmented), key=len, reverse=True)
    if not whole:
        return text
    for s in whole:  # whole values first (also the short ones)
        if s in text:
            text = text.replace(s, MASK)
    grams: set[str] = set()
    for s in fragmented:
        for i in range(len(s) - MIN_FRAGMENT + 1):
            grams.add(s[i : i + MIN_FRAGMENT])
    if not grams:
        return text
    marked = bytearray(len(text))
    found = False
    for i in range(len(text) - MIN_FRAGMENT + 1):
        if text[i : i + MIN_FRAGMENT] in grams:
            marked[i : i + MIN_FRAGMENT] = b"\x01" * MIN_FRAGMENT
            found = True
    if not found:
        return text
    out: list[str] = []
    i = 0
    while i < len(text):
        if marked[i]:
            out.append(MASK)
            while i < len(text) and marked[i]:
                i += 1
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def redact_and_cut(text: str, secrets: Iterable[str | None], limit: int = 200) -> str:
    """Redact first, then keep the first ``limit`` characters (the order matters: see the module doc)."""
    return redact(text, secrets)[:limit]


class RedactingFilter(logging.Filter):
    """Masks the values of secret-looking environment variables in each record's message and traceback
    (used by the run log and the CLI's stderr): whole values always, and every >= 8-character fragment
    of values that look like generated keys (:func:`key_like`)."""

    def __init__(self, extra_secrets: list[str] | None = None):
        super().__init__()
        env = secret_env_values()
        extra = [s for s in (extra_secrets or []) if s]
        self.secrets = sorted(set([v for v in env if key_like(v)] + extra), key=len, reverse=True)  # + fragments
        self.whole_only = sorted({v for v in env if not key_like(v)}, key=len, reverse=True)

    def redact(self, text: str) -> str:
        return redact(text, self.secrets, self.whole_only)

    def filter(self, record: logging.LogRecord) -> bool:
        msg = record.getMessage()
        red = self.redact(msg)
        if red != msg:
            record.msg, record.args = red, None
        if record.exc_info and not record.exc_text:
            record.exc_text = self.redact(logging.Formatter().formatException(record.exc_info))
        return True
