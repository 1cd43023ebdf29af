"""Options shared by commands that call models."""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable

from ..checks import in_range, number_rule
from ..runner import RunnerConfig

__all__ = ["add_executor_args", "add_runner_args", "runner_config_from_args", "add_backend_args",
           "backend_options_from_args", "parse_int_list", "int_at_least", "positive_int", "nonneg_int",
           "positive_float", "nonneg_float", "float_between", "probability", "open_unit", "plain_text", "regex",
           "report_dropped"]


# --------------------------------------------------------------------------- argparse value types
# Each returns a converter for ``type=``; a bad value makes argparse print one line
# ("argument --limit: must be an integer >= 1, got 0") and exit with status 2.


def int_at_least(minimum: int) -> Callable[[str], int]:
    """``type=`` for an integer >= ``minimum`` (``"1.5"``, ``"x"`` and smaller values are refused)."""

    def conv(text: str) -> int:
        try:
            value = int(text.strip())
        except (ValueError, AttributeError):
            raise argparse.ArgumentTypeError(f"must be an integer >= {minimum}, got {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be an integer >= {minimum}, got {text!r}")
        return value

    conv.__name__ = f"integer >= {minimum}"
    return conv


positive_int = int_at_least(1)
nonneg_int = int_at_least(0)


def float_between(low: float | None = None, high: float | None = None, *, low_open: bool = False,
                  high_open: bool = False) -> Callable[[str], float]:
    """``type=`` for a finite number in ``[low, high]`` (``low_open``/``high_open`` exclude the bound); the
    rule of :mod:`clinaudit.checks`, which the Python API applies to the same options."""
    what = number_rule(low, high, low_open=low_open, high_open=high_open)

    def conv(text: str) -> float:
        try:
            value = float(text.strip())
        except (ValueError, AttributeError):
            raise argparse.ArgumentTypeError(f"must be {what}, got {text!r}") from None
        if not in_range(value, low, high, low_open=low_open, high_open=high_open):
            raise argparse.ArgumentTypeError(f"must be {what}, got {text!r}")
        return value

    conv.__name__ = what
    return conv


positive_float = float_between(0.0, low_open=True)
nonneg_float = float_between(0.0)
probability = float_between(0.0, 1.0)
open_unit = float_between(0.0, 1.0, low_open=True, high_open=True)  # a confidence level or alpha


_ROLE = re.compile(r":(?:[a-z]+:)?[a-z]+:`~?([^`]+)`")


def plain_text(text: str) -> str:
    """A docstring line for the terminal: Sphinx roles and literals as plain words
    (``:meth:`parse``` -> ``parse``, ``:func:`~a.b.f``` -> ``f``, double backquotes -> none)."""

    def role(m: re.Match[str]) -> str:
        target = m.group(1)
        shown = target.rsplit(".", 1)[-1] if m.group(0).count("~") else target
        return shown if not shown.endswith("()") else shown[:-2]

    return _ROLE.sub(role, text).replace("``", "")


def regex(text: str) -> str:
    """``type=`` for a regular expression: refused with re's own message when it does not compile."""
    try:
        re.compile(text)
    except re.error as exc:
        raise argparse.ArgumentTypeError(f"invalid regular expression {text!r}: {exc}") from None
    return text


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not value >= 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"expected a finite number of seconds >= 0, got {text!r}")
    return value


def add_executor_args(p: argparse.ArgumentParser, overrides: str = "",
                      split: str = "split the calls by case_id into N shards") -> None:
    """``--executor``, ``--ray-address`` and ``--shards``: where the uncached calls are sent from
    (:mod:`clinaudit.executors`)."""
    p.add_argument("--executor", choices=["local", "processes", "ray"], default=None,
                   help="where the uncached model calls are sent from: this process (local, the default), worker "
                   "processes of this machine (processes: every core makes calls, for fast local endpoints) or a Ray "
                   f"cluster (ray; needs `pip install 'clinaudit[ray]'`){overrides}. See docs/scale-out.md")
    p.add_argument("--ray-address", default=None, metavar="ADDR",
                   help="with --executor ray: a running Ray cluster (e.g. ray://head:10001 or auto); "
                   "without it a local Ray instance sized to this machine is started for the run")
    p.add_argument("--shards", type=positive_int, default=None, metavar="N",
                   help=f"with --executor ray: {split}, one Ray actor each (default: the cluster's CPUs, or its "
                   "GPUs for local models); with --executor processes: N worker processes (default: this "
                   "machine's CPUs)")


def add_runner_args(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("model calls")
    d = RunnerConfig  # the defaults are the runner's own (declared once, in clinaudit.runner)
    g.add_argument("--concurrency", type=positive_int, default=d.concurrency,
                   help=f"concurrent calls to remote endpoints (default {d.concurrency})")
    g.add_argument("--max-retries", type=nonneg_int, default=d.max_retries,
                   help=f"retries on 429/5xx/timeouts (default {d.max_retries})")
    g.add_argument("--timeout", type=positive_float, default=d.timeout_s,
                   help=f"per-call timeout in seconds (default {d.timeout_s:g})")
    g.add_argument("--rate-limit", type=positive_float, default=d.rate_limit_per_min,
                   help="max call starts per minute (default: none)")
    g.add_argument("--retry-after-max", type=_seconds, default=d.retry_after_max_s, metavar="SECONDS",
                   help=f"wait at most this long when a server's Retry-After asks for more "
                   f"(default {d.retry_after_max_s:g})")
    g.add_argument("--no-progress", action="store_true", help="no progress bars")


def runner_config_from_args(args: argparse.Namespace) -> RunnerConfig:
    return RunnerConfig(
        concurrency=args.concurrency,
        max_retries=args.max_retries,
        timeout_s=args.timeout,
        rate_limit_per_min=args.rate_limit,
        retry_after_max_s=getattr(args, "retry_after_max", RunnerConfig.retry_after_max_s),
        progress=not args.no_progress,
    )


def add_backend_args(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("backend")
    g.add_argument("--base-url", default=None,
                   help="base URL of an OpenAI-compatible endpoint (openai:<model>); several, comma-separated "
                   "(URL1,URL2,...): a pool of endpoints serving the same model (least outstanding requests first)")
    g.add_argument("--endpoint-concurrency", type=positive_int, default=None, metavar="N",
                   help="with several --base-url endpoints: at most N calls in flight on each (default: no limit "
                   "beyond --concurrency)")
    g.add_argument("--api-key-env", default="OPENAI_API_KEY",
                   help="name of the environment variable holding the API key (default OPENAI_API_KEY); "
                   "the key itself is never written anywhere")
    g.add_argument("--completion", action="store_true", help="use plain completions instead of chat (openai:)")
    g.add_argument("--batch-poll-interval", type=positive_float, default=None, metavar="SECONDS",
                   help="openai-batch:<model>: first wait between two looks at a batch (default 10; grows to 300)")
    g.add_argument("--batch-max-wait", type=_seconds, default=None, metavar="SECONDS",
                   help="openai-batch:<model>: stop waiting after this long; unfinished requests are reported as "
                   "failed and a re-run re-attaches to their batches (default: wait until they end)")
    g.add_argument("--mock-rules", default=None, help="YAML/JSON rules file for the mock backend")
    g.add_argument("--batch-size", type=positive_int, default=None, help="batch size for local models")


def backend_options_from_args(args: argparse.Namespace, spec: str) -> dict:
    prefix = spec.partition(":")[0]
    opts: dict = {}
    if prefix == "openai":
        if args.base_url:
            opts["base_url"] = args.base_url
        if getattr(args, "endpoint_concurrency", None):
            opts["endpoint_concurrency"] = args.endpoint_concurrency
        opts["api_key_env"] = args.api_key_env
        if getattr(args, "completion", False):
            opts["completion"] = True
    if prefix == "openai-batch":
        if args.base_url:
            opts["base_url"] = args.base_url
        opts["api_key_env"] = args.api_key_env
        if getattr(args, "batch_poll_interval", None) is not None:
            opts["poll_interval_s"] = args.batch_poll_interval
        if getattr(args, "batch_max_wait", None) is not None:
            opts["max_wait_s"] = args.batch_max_wait
    if prefix == "mock" and args.mock_rules:
        opts["rules_file"] = args.mock_rules
    if args.batch_size and prefix in {"hf", "hf-mlm", "embedded", "embedded-embedder"}:
        opts["batch_size"] = args.batch_size
    return opts


def parse_int_list(text: str) -> list[int]:
    try:
        return [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected comma-separated integers, got {text!r}") from None


def report_dropped(command: str, dropped: int, total: int, rows: str, reason: str, where: str) -> int:
    """Say on stderr, in one line, that ``dropped`` of ``total`` input ``rows`` were left out and why (``where``: the
    file that lists them); the command's exit status for it: 1 when more than half of the rows were dropped (the
    results rest on a minority of the input: not a plain success, as `clinaudit run` exits 1 when some calls
    failed), else 0. Nothing is printed when nothing was dropped."""
    import sys

    if dropped <= 0:
        return 0
    if 2 * dropped > total:
        print(f"clinaudit {command}: warning: {dropped} of {total} {rows} excluded ({reason}), more than half: the "
              f"results rest on the other {total - dropped} (exit 1; listed in {where})", file=sys.stderr)
        return 1
    print(f"clinaudit {command}: {dropped} of {total} {rows} excluded ({reason}; listed in {where})", file=sys.stderr)
    return 0
