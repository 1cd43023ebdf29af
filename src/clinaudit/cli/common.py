"""Options shared by commands that call models."""

from __future__ import annotations

import argparse

from ..runner import RunnerConfig

__all__ = ["add_runner_args", "runner_config_from_args", "add_backend_args", "backend_options_from_args", "parse_int_list"]


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not value >= 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"expected a finite number of seconds >= 0, got {text!r}")
    return value


def add_runner_args(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("model calls")
    g.add_argument("--concurrency", type=int, default=8, help="concurrent calls to remote endpoints (default 8)")
    g.add_argument("--max-retries", type=int, default=6, help="retries on 429/5xx/timeouts (default 6)")
    g.add_argument("--timeout", type=float, default=120.0, help="per-call timeout in seconds (default 120)")
    g.add_argument("--rate-limit", type=float, default=None, help="max call starts per minute (default: none)")
    g.add_argument("--retry-after-max", type=_seconds, default=60.0, metavar="SECONDS",
                   help="wait at most this long when a server's Retry-After asks for more (default 60)")
    g.add_argument("--no-progress", action="store_true", help="no progress bars")


def runner_config_from_args(args: argparse.Namespace) -> RunnerConfig:
    return RunnerConfig(
        concurrency=args.concurrency,
        max_retries=args.max_retries,
        timeout_s=args.timeout,
        rate_limit_per_min=args.rate_limit,
        retry_after_max_s=getattr(args, "retry_after_max", 60.0),
        progress=not args.no_progress,
    )


def add_backend_args(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("backend")
    g.add_argument("--base-url", default=None, help="base URL of an OpenAI-compatible endpoint (openai:<model>)")
    g.add_argument("--api-key-env", default="OPENAI_API_KEY",
                   help="name of the environment variable holding the API key (default OPENAI_API_KEY); "
                   "the key itself is never written anywhere")
    g.add_argument("--completion", action="store_true", help="use plain completions instead of chat (openai:)")
    g.add_argument("--mock-rules", default=None, help="YAML/JSON rules file for the mock backend")
    g.add_argument("--batch-size", type=int, default=None, help="batch size for local models")


def backend_options_from_args(args: argparse.Namespace, spec: str) -> dict:
    prefix = spec.partition(":")[0]
    opts: dict = {}
    if prefix == "openai":
        if args.base_url:
            opts["base_url"] = args.base_url
        opts["api_key_env"] = args.api_key_env
        if getattr(args, "completion", False):
            opts["completion"] = True
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
