"""``clinaudit generate``: send every row of a CSV/JSONL file to a model, N samples each.

Example::

    clinaudit generate --input questions.csv --id-column id --text-column question \\
        --model embedded --samples 3 --seeds 0,1,42 --temperature 0.7 --out runs/gen

writes ``runs/gen/responses.csv`` (one row per input row and sample: the id
column, ``sample``, ``seed``, ``model``, ``response``, ``finish_reason``,
token counts, ``cached``, ``error``, ``request_key``), the same table as
``tables/responses.csv``, a ``manifest.json``, ``logs/run.log`` and the
response cache ``cache.sqlite``. Re-running the same command makes no new
model calls; a run that was interrupted (even killed) resumes where it stopped.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from ..registry import register_command
from .common import (add_backend_args, add_executor_args, add_runner_args, backend_options_from_args, float_between,
                     nonneg_float, parse_int_list, positive_int, runner_config_from_args)

__all__ = ["register_generate", "cmd_generate", "sample_seeds", "read_input_rows"]


def _may_need_neutralising(csv_text: str) -> bool:
    """False when no cell of this CSV text starts with a formula character (``= + - @ tab``) or ``'``, right after a line
    start or a comma, quoted or not) or holds a carriage return: then no cell needs neutralising. (True may
    be a false alarm, e.g. a line of a multi-line cell starting with "-"; that block is then done cell by
    cell.) Plain substring searches: a regular expression over the block costs more than writing it."""
    if "\r" in csv_text:
        return True
    for c in "=+-@\t'":  # "'": the run store doubles a leading apostrophe (its prefix is reversible)
        if c in csv_text and (csv_text.startswith(c) or csv_text.startswith('"' + c) or "," + c in csv_text
                              or ',"' + c in csv_text or "\n" + c in csv_text or '\n"' + c in csv_text):
            return True
    return False


_RESPONSE_COLUMNS = ["sample", "seed", "model", "response", "finish_reason", "prompt_tokens", "completion_tokens",
                     "cached", "error", "request_key"]


@register_command("generate", order=60)
def register_generate(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "generate",
        help="generate model responses for every row of a CSV/JSONL file",
        description="Send the text column of every input row to a model (N samples per row, one seed per sample) "
        "and write OUT/responses.csv. Calls are cached in OUT/cache.sqlite: re-running makes no new calls, "
        "and an interrupted run resumes where it stopped.",
        epilog="Examples:\n"
        "  clinaudit generate --input q.csv --id-column id --text-column question --model embedded --out runs/g\n"
        "  clinaudit generate --input q.jsonl --id-column id --text-column text --model openai:gpt-4o-mini \\\n"
        "      --api-key-env OPENAI_API_KEY --samples 3 --seeds 0,1,42 --temperature 0.7 --out runs/g2",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--input", type=Path, required=True, help="input file: .csv, or .jsonl (one JSON object per line)")
    p.add_argument("--id-column", required=True, help="column holding a unique row id")
    p.add_argument("--text-column", required=True, help="column holding the text sent to the model")
    p.add_argument("--model", required=True,
                   help="model spec, e.g. embedded, openai:gpt-4o-mini, hf:/path/to/model, mock (see `clinaudit models`)")
    p.add_argument("--out", type=Path, required=True, help="run directory to create or resume")
    p.add_argument("--system", default=None, help="system message sent before every text")
    p.add_argument("--samples", type=positive_int, default=None,
                   help="samples per row (default: the number of --seeds, else 1)")
    p.add_argument("--seeds", type=parse_int_list, default=None,
                   help="comma-separated seeds, one per sample (default: 0,1,2,...)")
    p.add_argument("--temperature", type=nonneg_float, default=0.0, help="sampling temperature (default 0 = greedy)")
    p.add_argument("--max-tokens", type=positive_int, default=256, help="maximum tokens per response (default 256)")
    p.add_argument("--top-p", type=float_between(0.0, 1.0, low_open=True), default=None,
                   help="nucleus sampling threshold (default: model default)")
    p.add_argument("--limit", type=positive_int, default=None, help="use only the first N input rows")
    p.add_argument("--force", action="store_true",
                   help="start over in --out even if it holds a run with other settings (its tables are removed; "
                   "stored answers are kept)")
    add_backend_args(p)
    add_runner_args(p)
    add_executor_args(p, split="spread the calls over N shards by request key")
    p.set_defaults(func=cmd_generate)


def sample_seeds(samples: int | None, seeds: list[int] | None) -> list[int]:
    """Seed of each sample: ``seeds[i]`` when seeds are given, else ``i``."""
    if samples is not None and samples < 1:
        raise ValueError(f"--samples must be at least 1, got {samples}")
    if seeds:
        if len(set(seeds)) != len(seeds):
            raise ValueError(f"--seeds has repeated values: {seeds}")
        n = len(seeds) if samples is None else samples
        if n > len(seeds):
            raise ValueError(f"--samples {n} needs at least {n} --seeds, got {len(seeds)}")
        return list(seeds[:n])
    return list(range(samples or 1))


def read_input_rows(path: Path, id_column: str, text_column: str, limit: int | None = None) -> list[tuple[str, str]]:
    """``(id, text)`` per input row; bad input raises InputError naming file, row and field."""
    return list(open_input(path, id_column, text_column, limit))


def open_input(path: Path, id_column: str, text_column: str, limit: int | None = None) -> Any:
    """The input rows as :class:`~clinaudit.loaders.stream.InputRows`: checked now, read again row by row as the
    runner takes them (memory flat in the number of rows)."""
    from ..loaders.stream import open_input_rows

    return open_input_rows(path, id_column, text_column, limit)


def _build_requests(args: argparse.Namespace, rows: Iterable[tuple[str, str]], seeds: list[int]) -> Iterator[Any]:
    """The requests, one per input row and sample, made as the runner takes them (never all at once)."""
    from ..records import ModelRequest

    common: dict[str, Any] = {"temperature": args.temperature, "max_tokens": args.max_tokens, "top_p": args.top_p}
    for row_id, text in rows:
        for i, seed in enumerate(seeds):
            meta = {"id": row_id, "sample": i}
            if args.completion:
                prompt = f"{args.system}\n\n{text}" if args.system else text
                yield ModelRequest(model=args.model, kind="completion", prompt=prompt, seed=seed, meta=meta, **common)
            else:  # ModelRequest.chat, with the messages validated from dicts (a third less time per request)
                messages = [{"role": "user", "content": text}]
                if args.system:
                    messages.insert(0, {"role": "system", "content": args.system})
                yield ModelRequest(model=args.model, kind="chat", messages=messages, seed=seed, meta=meta, **common)


class _ResponseWriter:
    """Writes the responses table as answers arrive (in request order), a block of rows at a time, to
    ``OUT/responses.csv`` (the export: formula cells neutralised) and ``OUT/tables/responses.csv`` (the run
    store: exact); both are written under a temporary name and renamed when the run completes.

    Rows go through the ``csv`` module (the writer pandas' ``to_csv`` uses, with its settings: minimal
    quoting, ``\n`` line ends, None as an empty cell): the same bytes as writing each block as a DataFrame,
    at a third of the cost per row. Every cell of the export passes :func:`~clinaudit.export.neutralize_cell`
    (which changes only text cells, as :func:`~clinaudit.export.neutralize_frame` does); a block none of whose
    cells can need it is written once and copied."""

    BLOCK = 2048

    def __init__(self, targets: list[tuple[Path, bool]], columns: list[str], id_column: str, model: str):
        import operator

        self.targets = [(path, path.with_suffix(".csv.tmp"), safe) for path, safe in targets]
        self.columns, self.id_column, self.model = columns, id_column, model
        self.block: list[list[Any]] = []
        self.written = 0
        self.failed = 0
        self.handles = [open(tmp, "w", encoding="utf-8", newline="") for _, tmp, _ in self.targets]
        self._cells = operator.itemgetter(*columns)
        self._plain = columns == [id_column, *_RESPONSE_COLUMNS]
        self._cr_in_names = any("\r" in c for c in columns)

    def add(self, req: Any, resp: Any) -> None:
        ok = resp.error is None
        if self._plain:  # the columns in their order, straight
            meta = req.meta
            self.block.append([meta["id"], meta["sample"], req.seed, self.model, resp.text if ok else None,
                               resp.finish_reason, resp.prompt_tokens, resp.completion_tokens, resp.cached,
                               resp.error, resp.request_key])
            self.failed += not ok
            if len(self.block) >= self.BLOCK:
                self.flush()
            return
        row = {  # a dict first: an id column named like a response column is overwritten, as it always was
            self.id_column: req.meta["id"],
            "sample": req.meta["sample"],
            "seed": req.seed,
            "model": self.model,
            "response": resp.text if ok else None,
            "finish_reason": resp.finish_reason,
            "prompt_tokens": resp.prompt_tokens,
            "completion_tokens": resp.completion_tokens,
            "cached": resp.cached,
            "error": resp.error,
            "request_key": resp.request_key,
        }
        self.block.append(list(self._cells(row)))
        self.failed += not ok
        if len(self.block) >= self.BLOCK:
            self.flush()

    def flush(self) -> None:
        import csv
        import io

        from ..export import neutralize_cell, store_cell

        if not self.block and self.written:
            return
        buf = io.StringIO()
        csv.writer(buf, lineterminator="\n").writerows(self.block)
        safe = store = buf.getvalue()
        store_end = "\n"
        if _may_need_neutralising(safe) or self._cr_in_names:  # a cell may need neutralising (rare): cell by cell
            buf = io.StringIO()
            csv.writer(buf, lineterminator="\n").writerows([[neutralize_cell(v) for v in row] for row in self.block])
            safe = buf.getvalue()
            # the run store: the same, reversibly (read back exactly by read_store_table); a carriage return is
            # kept, in a quoted cell: the block's lines end in \r\n, as export.store_csv writes them
            if any(isinstance(v, str) and "\r" in v for row in [self.columns, *self.block] for v in row):
                store_end = "\r\n"
            buf = io.StringIO()
            csv.writer(buf, lineterminator=store_end).writerows([[store_cell(v) for v in row] for row in self.block])
            store = buf.getvalue()
        for (_, _, is_safe), fh in zip(self.targets, self.handles):
            if self.written == 0:
                csv.writer(fh, lineterminator="\n" if is_safe else store_end).writerow(
                    [(neutralize_cell if is_safe else store_cell)(c) for c in self.columns])
            fh.write(safe if is_safe else store)
        self.written += len(self.block)
        self.block = []

    def close(self, complete: bool) -> None:
        """Flush and close; ``complete``: move the files into place (else remove the partial ones)."""
        try:
            if complete:
                self.flush()
        finally:
            for fh in self.handles:
                fh.close()
        for path, tmp, _ in self.targets:
            if complete:
                tmp.replace(path)
            else:
                tmp.unlink(missing_ok=True)


def cmd_generate(args: argparse.Namespace) -> int:
    from ..errors import ClinauditError
    from ..rundir import RunDir, check_reuse
    from ..runner import Runner

    if args.max_tokens < 1:
        raise ClinauditError("--max-tokens must be at least 1")
    try:
        seeds = sample_seeds(args.samples, args.seeds)
    except ValueError as exc:
        raise ClinauditError(str(exc)) from None
    if len(seeds) > 1 and args.temperature == 0:
        print("note: several samples at temperature 0 (greedy) are usually identical; "
              "pass --temperature (e.g. 0.7) for varied samples", file=sys.stderr)
    from ..executors import make_executor

    # an unusable executor (Ray not installed, --shards without --executor ray) is refused before anything runs
    execution = make_executor(args.executor or "local", address=args.ray_address, shards=args.shards)
    rows = open_input(args.input, args.id_column, args.text_column, args.limit)

    settings = {"command": "generate", "input": str(args.input), "id_column": args.id_column,
                "text_column": args.text_column, "model": args.model, "system": args.system,
                "samples": len(seeds), "temperature": args.temperature, "max_tokens": args.max_tokens,
                "top_p": args.top_p, "limit": args.limit, "completion": bool(args.completion)}
    rundir = RunDir(args.out)
    try:
        # one writer per run directory; a directory of other settings is refused unless --force
        rundir.lock(" ".join(sys.argv))
        if check_reuse(rundir.path, settings, "generate", force=getattr(args, "force", False)) == "force":
            rundir.start_over()
    except BaseException:
        rundir.close()
        raise
    rundir.attach_log()
    try:
        from ..models.options import with_state_dir

        # backends that keep state between runs (openai-batch: its batch ids) keep it in the run directory
        opts = with_state_dir({args.model: backend_options_from_args(args, args.model)}, [args.model],
                              rundir.path / "batches")[args.model]
        runner = Runner(cache=rundir.cache, config=runner_config_from_args(args), backend_options={args.model: opts})
        backend = runner.backend(args.model)  # fails early on an unknown or missing model
        execution.attach(runner)
        rundir.start(spec=settings, models=[backend.describe()], seeds=seeds, data_files=[args.input],
                     command="clinaudit generate")
        rundir.manifest["runs"][-1]["executor"] = execution.describe()  # how this run's calls were sent
        columns = [args.id_column] + [c for c in _RESPONSE_COLUMNS if c != args.id_column]
        out_path = rundir.path / "responses.csv"  # the user-facing copy: an export (formula cells neutralised)
        writer = _ResponseWriter([(out_path, True), (rundir.table_path("responses"), False)], columns,
                                 args.id_column, args.model)
        complete = False
        try:
            runner.generate_each(_build_requests(args, rows, seeds), writer.add, desc="generate",
                                 total=len(rows) * len(seeds))
            complete = True
        finally:
            writer.close(complete)
        usage = runner.total_usage()
        failed, total = writer.failed, writer.written
        rundir.finish(usage=runner.usage, outputs={"responses": str(out_path)})
    finally:
        try:
            execution.close()
        finally:
            rundir.close()
    print(f"{total - failed}/{total} responses ({len(rows)} rows x {len(seeds)} sample(s)); "
          f"model calls: {usage.calls} new, {usage.cache_hits} from cache, {usage.failures} failed"
          + (f", {usage.resent} re-sent (sent by an earlier run that was stopped before storing them)"
             if usage.resent else ""))
    print(f"responses: {out_path}")
    if failed:
        print(f"clinaudit generate: {failed} call(s) failed after retries (see the 'error' column and "
              f"{rundir.logs_dir / 'run.log'}); re-run the same command to retry them", file=sys.stderr)
        return 1
    return 0
