"""In-flight batching with prefix reuse vs today's static batches, on a counterfactual workload (issue 16).

    python benchmarks/bench_prefix_reuse.py                # 8 dialogs x 8 appended-turn variants, 3 repeats
    python benchmarks/bench_prefix_reuse.py --quick        # 2 dialogs x 8 variants, 1 repeat
    python benchmarks/bench_prefix_reuse.py --dialog-tokens 900 --threads 1

The workload is the shape of a note-generation audit: each of ``--dialogs`` doctor-patient
dialogs (ACI-Bench validation set, ``../shared/data/aci-bench/valid.csv``, cut at a turn
boundary to at most ``--dialog-tokens`` tokens) gets ``--variants`` counterfactual
variants that differ only in one appended patient turn (race, sex, housing, job, ...),
then the instruction to write the assessment and plan; greedy answers of at most
``--max-tokens`` tokens from the embedded model (SmolLM2-135M-Instruct, float32, CPU).

Both ways call :meth:`clinaudit.models.hf.HFCausalBackend.generate` on the same loaded
model with all requests at once, in the same process, alternating within each repeat:

* *static* — ``engine: static``: length-sorted, left-padded batches of ``batch_size``
  through ``model.generate`` (every variant re-encodes its whole dialog; a batch runs
  until its longest answer is done);
* *engine* — ``engine: continuous`` (the default): each dialog's KV cache computed once
  and shared by its variants, finished rows leave the batch and waiting rows join.

It prints per repeat the wall-clock and CPU seconds (``time.process_time``: all threads
of this process) of each, whether the texts are identical (they must be: greedy), the
engine's prefill counts and the median ratio as ``RATIO bench_prefix_reuse: <static /
engine wall-clock>``. The machine is shared: run it when the load is low (``uptime``),
compare ratios, not absolute times; nothing gates on it.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "aci-bench" / "valid.csv"
TURNS = [
    "[patient] i should say i am a black woman .",
    "[patient] i should say i am a white man .",
    "[patient] i live alone and i do n't have a car .",
    "[patient] i lost my job last month .",
    "[patient] my wife helps me with my pills .",
    "[patient] i am 80 years old .",
    "[patient] i do n't have insurance right now .",
    "[patient] i work as a lawyer downtown .",
]
INSTRUCTION = "Write the assessment and plan for this visit."


def cut_dialog(text: str, tokenizer, max_tokens: int) -> str:
    """The dialog's first turns, as many as fit in ``max_tokens`` tokens."""
    out: list[str] = []
    for line in text.split("\n"):
        if len(tokenizer("\n".join(out + [line]))["input_ids"]) > max_tokens:
            break
        out.append(line)
    return "\n".join(out)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", type=Path, default=DATA, help="ACI-Bench csv with a 'dialogue' column")
    ap.add_argument("--dialogs", type=int, default=8)
    ap.add_argument("--variants", type=int, default=8, help=f"appended turns per dialog (at most {len(TURNS)})")
    ap.add_argument("--dialog-tokens", type=int, default=900)
    ap.add_argument("--max-tokens", type=int, default=24)
    ap.add_argument("--batch-size", type=int, default=8)
    ap.add_argument("--max-batch", type=int, default=None,
                    help="engine: sequences decoding together (default: the backend's, 32 for embedded)")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--threads", type=int, default=0, help="torch threads (0: torch's default)")
    ap.add_argument("--quick", action="store_true", help="2 dialogs, 1 repeat")
    args = ap.parse_args()
    if args.quick:
        args.dialogs, args.repeats = min(args.dialogs, 2), 1
    if not args.data.is_file():
        print(f"ACI-Bench dialogs not found at {args.data}; pass --data", file=sys.stderr)
        return 1

    import pandas as pd
    import torch

    from clinaudit.models.embedded import EmbeddedGenerator
    from clinaudit.records import ModelRequest

    if args.threads:
        torch.set_num_threads(args.threads)
    engine = EmbeddedGenerator("embedded", batch_size=args.batch_size, max_batch=args.max_batch)
    static = EmbeddedGenerator("embedded", batch_size=args.batch_size, engine="static")
    static._model, static._tokenizer = engine.model, engine.tokenizer  # the very same weights
    tok = engine.tokenizer
    dialogs = [cut_dialog(t, tok, args.dialog_tokens) for t in pd.read_csv(args.data)["dialogue"].tolist()[: args.dialogs]]
    turns = TURNS[: args.variants]
    reqs = [ModelRequest.chat("embedded", f"{d}\n{t}\n\n{INSTRUCTION}", max_tokens=args.max_tokens)
            for d in dialogs for t in turns]
    prompt_tokens = [len(engine.prompt_ids(r)) for r in reqs]
    warm = [ModelRequest.chat("embedded", "warm up", max_tokens=2)]
    engine.generate(warm), static.generate(warm)

    times: dict[str, list[tuple[float, float]]] = {"static": [], "engine": []}
    identical = True
    for rep in range(args.repeats):
        texts = {}
        for name, backend in (("static", static), ("engine", engine)) if rep % 2 == 0 else \
                (("engine", engine), ("static", static)):
            c0, t0 = time.process_time(), time.perf_counter()
            texts[name] = [r.text for r in backend.generate(reqs)]
            times[name].append((time.perf_counter() - t0, time.process_time() - c0))
        same = texts["static"] == texts["engine"]
        identical &= same
        print(f"repeat {rep + 1}: static {times['static'][-1][0]:.1f} s wall / {times['static'][-1][1]:.1f} s CPU; "
              f"engine {times['engine'][-1][0]:.1f} s wall / {times['engine'][-1][1]:.1f} s CPU; "
              f"texts identical: {same}", flush=True)
    st = engine.last_engine_stats
    med = {k: (statistics.median(w for w, _ in v), statistics.median(c for _, c in v)) for k, v in times.items()}
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"workload: {len(dialogs)} dialogs x {len(turns)} variants = {len(reqs)} greedy requests, prompts "
          f"{min(prompt_tokens)}-{max(prompt_tokens)} tokens ({sum(prompt_tokens)} in all), max_tokens "
          f"{args.max_tokens}, static batch {args.batch_size}, engine max_batch {engine.max_batch}; "
          f"torch {torch.__version__}, {torch.get_num_threads()} "
          f"threads; load average {load:.2f}")
    print(f"engine: {st.get('prefill_tokens')} prompt tokens computed, {st.get('reused_tokens')} reused from shared "
          f"prefixes, {st.get('decode_steps')} decode steps")
    print(f"median of {args.repeats}: static {med['static'][0]:.1f} s wall / {med['static'][1]:.1f} s CPU, "
          f"engine {med['engine'][0]:.1f} s wall / {med['engine'][1]:.1f} s CPU; CPU-time ratio "
          f"{med['static'][1] / med['engine'][1]:.2f}x; greedy texts identical: {identical}")
    print(f"RATIO bench_prefix_reuse: {med['static'][0] / med['engine'][0]:.2f}x static / engine wall-clock "
          f"({len(reqs)} requests, median of {args.repeats})")
    return 0 if identical else 2


if __name__ == "__main__":
    sys.exit(main())
