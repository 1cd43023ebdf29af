"""The local decode loop on a GPU (issue 40): clinaudit's ``hf:`` engine vs plain transformers ``generate``.

    python benchmarks/bench_gpu.py --smoke                 # CPU, tiny config, a few prompts: < 1 min (tested);
                                                           # also what it does without a CUDA device (--quick too)
    python benchmarks/bench_gpu.py                         # CUDA: the issue's table, then the P2-shaped audit
    python benchmarks/bench_gpu.py --shapes llama-1.2b --batches 64 --prompts 128
    python benchmarks/bench_gpu.py --json out.json --bandwidth-gbs 4800

**Decode table.** Random-weight models of real shapes, built from a config on the device (nothing downloaded,
no weights carried): ``smollm2-135m`` (hidden 576, 30 layers, 9 heads / 3 KV heads, vocab 49,152) and
``llama-1.2b`` (hidden 2,048, 16 layers, 32 heads / 8 KV heads, vocab 128,256), with the SmolLM2 tokenizer
(``--tokenizer DIR``; default: the embedded model's converted folder). ``--prompts`` (512) patient questions
through the chat template, 128 new tokens each, greedy, with no end-of-sequence token (every row makes exactly
128 tokens on both sides, so both do the same work), at each of ``--batches`` (8, 64, 256), in one process:

* *clinaudit*: :class:`clinaudit.models.hf.HFCausalBackend` (``engine: continuous``, ``max_batch`` = batch) on
  the very model object, all prompts in one ``generate`` call;
* *transformers*: ``model.generate`` on left-padded batches of that size, in the same order;
* *transformers static cache* and *transformers generate_batch* (its continuous batching): the same, where this
  transformers has them (a failure is recorded, not fatal).

Per row: tokens/s (new tokens / wall time), prefill ms per prompt (the same prompts with 1 new token),
ms per decode step ((wall - prefill wall) / decode steps), peak GPU memory (``torch.cuda.max_memory_allocated``;
none on a CPU) and the fraction of the memory-bandwidth bound: at batch B a decode step must read the weights
once and every row's cache, so tokens/s <= B x bandwidth / (weight bytes + B x mean cache bytes). The bandwidth
is the card's (H100 SXM 3,350 GB/s, H200 4,800 GB/s, A100 80GB 2,039 GB/s; ``--bandwidth-gbs`` otherwise).
Ratios *clinaudit / transformers* are printed as ``RATIO`` lines.

**P2-shaped audit.** A treatment-shift audit on ``embedded`` (or, with ``--audit-model hf-random``, a random
SmolLM2-shaped ``hf:`` model when the embedded model cannot be converted there: it needs the ``gguf`` package)
over ``--audit-messages`` (100) demo patient messages, the 5 regex perturbations, seeds 0/1/42, on the chosen
device and dtype with ``batch_size: 64``, ``max_batch: 256``: wall time including model load, calls, calls/s,
and the verdict lines. ``--smoke`` runs it with a tiny random model on 2 messages.

**What each part needs.** The decode table: torch, transformers, and clinaudit's own modules, which import
pydantic (a GPU machine without it needs the wheels ``pydantic``, ``pydantic_core``, ``annotated-types``,
``typing-inspection`` installed first: ``pip install --no-index wheels/*.whl``). The audit needs those plus
llguidance (the judges' answer grammars), krippendorff and vaderSentiment; ``embedded`` needs gguf to convert
its GGUF once. A part whose packages are missing is reported as not run, with the packages it lacks; the rest
runs. No network is used.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import platform
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

SHAPES: dict[str, dict[str, Any]] = {
    "smollm2-135m": dict(hidden_size=576, intermediate_size=1536, num_hidden_layers=30, num_attention_heads=9,
                         num_key_value_heads=3, vocab_size=49152, max_position_embeddings=8192,
                         rope_theta=100000.0, tie_word_embeddings=True, rms_norm_eps=1e-5),
    "llama-1.2b": dict(hidden_size=2048, intermediate_size=8192, num_hidden_layers=16, num_attention_heads=32,
                       num_key_value_heads=8, vocab_size=128256, max_position_embeddings=8192,
                       rope_theta=500000.0, tie_word_embeddings=True, rms_norm_eps=1e-5),
    "tiny": dict(hidden_size=64, intermediate_size=128, num_hidden_layers=2, num_attention_heads=4,
                 num_key_value_heads=2, vocab_size=49152, max_position_embeddings=2048, tie_word_embeddings=True),
}
#: memory bandwidth in bytes/s by a substring of the CUDA device name
BANDWIDTH = {"H200": 4.8e12, "H100": 3.35e12, "A100": 2.039e12, "L40S": 0.864e12, "A10": 0.6e12, "L4": 0.3e12}

QUESTIONS = [
    "I am {a} and have had a headache and a fever of 39C for two days, and my neck feels stiff. What should I do?",
    "My {a}-year-old mother has chest pain when she climbs stairs and it goes away when she rests. Should she "
    "see a doctor today or can it wait until her appointment next month?",
    "I am {a} and my ankle is swollen after a fall yesterday. Can I walk on it?",
    "I have been coughing for {a} days with green phlegm and I feel tired all the time. Do I need antibiotics, "
    "or will it go away by itself? I also have asthma and use an inhaler twice a day.",
    "Since starting the new blood pressure tablets {a} days ago I feel dizzy when I stand up. Should I stop them?",
]


def missing(*mods: str) -> list[str]:
    return [m for m in mods if importlib.util.find_spec(m) is None]


def default_tokenizer_dir() -> Path | None:
    try:
        from clinaudit.models import embedded as emb

        folder = emb.converted_model_dir()
        if (folder / "tokenizer.json").is_file():
            return folder
        return emb.ensure_converted()  # needs gguf
    except Exception as exc:  # noqa: BLE001 - reported by the caller
        print(f"note: no SmolLM2 tokenizer from the embedded model ({type(exc).__name__}: {str(exc)[:120]})")
        return None


def model_folder(shape: str, tokenizer_dir: Path, dest: Path) -> Path:
    """A folder with the shape's config and the SmolLM2 tokenizer (no weights): what ``hf:`` resolves."""
    import transformers

    folder = dest / shape
    folder.mkdir(parents=True, exist_ok=True)
    cfg = transformers.LlamaConfig(bos_token_id=1, eos_token_id=2, pad_token_id=2, **SHAPES[shape])
    cfg.save_pretrained(folder)
    for name in ("tokenizer.json", "tokenizer_config.json", "special_tokens_map.json", "chat_template.jinja"):
        if (tokenizer_dir / name).is_file():
            shutil.copy(tokenizer_dir / name, folder / name)
    return folder


def random_model(shape: str, device: str, dtype: Any) -> Any:
    import torch
    import transformers

    cfg = transformers.LlamaConfig(bos_token_id=1, eos_token_id=2, pad_token_id=2, **SHAPES[shape])
    torch.manual_seed(0)
    with torch.device(device):
        model = transformers.AutoModelForCausalLM.from_config(cfg, dtype=dtype)
    model.generation_config.eos_token_id = None  # random weights: no row may stop early (equal work both sides)
    return model.eval()


def sync(device: str) -> None:
    import torch

    if device.startswith("cuda"):
        torch.cuda.synchronize()


def peak_reset(device: str) -> None:
    import torch

    if device.startswith("cuda"):
        torch.cuda.reset_peak_memory_stats()


def peak_gib(device: str) -> float | None:
    import torch

    return round(torch.cuda.max_memory_allocated() / 2**30, 2) if device.startswith("cuda") else None


def bandwidth(device: str, override_gbs: float | None) -> tuple[float | None, str]:
    import torch

    if override_gbs:
        return override_gbs * 1e9, "given"
    if device.startswith("cuda"):
        name = torch.cuda.get_device_name()
        for key, bw in BANDWIDTH.items():
            if key in name:
                return bw, name
        return None, name
    return None, platform.processor() or "cpu"


def bound_tok_s(model: Any, batch: int, ctx: float, bw: float | None) -> float | None:
    """batch x bandwidth / (bytes of weights + batch x bytes of one row's cache at mean context ``ctx``)."""
    if bw is None:
        return None
    cfg = model.config
    item = next(model.parameters()).element_size()
    weights = sum(p.numel() for p in model.parameters()) * item
    head_dim = getattr(cfg, "head_dim", None) or cfg.hidden_size // cfg.num_attention_heads
    per_row = 2 * cfg.num_hidden_layers * cfg.num_key_value_heads * head_dim * ctx * item
    return batch * bw / (weights + batch * per_row)


def prompts(tok: Any, n: int) -> list[list[int]]:
    out = []
    for i in range(n):
        text = QUESTIONS[i % len(QUESTIONS)].format(a=18 + (i * 7) % 70)
        if getattr(tok, "chat_template", None):
            text = tok.apply_chat_template([{"role": "user", "content": text}], tokenize=False,
                                           add_generation_prompt=True)
        out.append(tok(text, add_special_tokens=False)["input_ids"])
    return out


def timed(fn: Any, device: str) -> tuple[Any, float]:
    sync(device)
    t0 = time.perf_counter()
    out = fn()
    sync(device)
    return out, time.perf_counter() - t0


# ---- the two ways ---------------------------------------------------------------------------------------
def run_clinaudit(model: Any, folder: Path, ids: list[list[int]], batch: int, new: int, device: str,
                  dtype: str) -> tuple[float, float, int]:
    """(wall s of prefill + 1 token, wall s of the whole run, decode steps) through HFCausalBackend."""
    from clinaudit.models.hf import HFCausalBackend
    from clinaudit.records import ModelRequest

    b = HFCausalBackend(f"hf:{folder}", device=device, dtype=dtype, batch_size=batch, max_batch=batch)
    b._model = model
    b._tokenizer = __import__("transformers").AutoTokenizer.from_pretrained(folder, local_files_only=True)
    b.eos_ids = lambda: set()  # type: ignore[method-assign]  # as plain generate with eos_token_id None
    b.prompt_ids = lambda req: req.extra["ids"]  # type: ignore[method-assign]  # the same ids as plain generate
    reqs = [ModelRequest(model="hf:x", kind="completion", prompt=str(i), max_tokens=new, extra={"ids": x})
            for i, x in enumerate(ids)]
    first = [r.model_copy(update={"max_tokens": 1}) for r in reqs]
    _, pre = timed(lambda: b.generate(first), device)
    resps, wall = timed(lambda: b.generate(reqs), device)
    assert sum(r.completion_tokens for r in resps) == new * len(ids), "clinaudit made fewer tokens than asked"
    return pre, wall, int(b.last_engine_stats.get("decode_steps", 0))


def run_transformers(model: Any, ids: list[list[int]], batch: int, new: int, device: str, pad: int,
                     how: str = "dynamic") -> tuple[float, float, int]:
    """(wall s of prefill + 1 token, wall s of the whole run, decode steps) with plain ``generate``."""
    import torch
    import transformers

    def once(max_new: int) -> int:
        steps = 0
        if how == "generate_batch":
            cfg = transformers.GenerationConfig(max_new_tokens=max_new, do_sample=False, eos_token_id=None,
                                                pad_token_id=pad)
            out = model.generate_batch(inputs=ids, generation_config=cfg)
            assert len(out) == len(ids)
            return -1
        for s in range(0, len(ids), batch):
            chunk = ids[s : s + batch]
            width = max(len(x) for x in chunk)
            inp = torch.tensor([[pad] * (width - len(x)) + x for x in chunk], device=device)
            mask = torch.tensor([[0] * (width - len(x)) + [1] * len(x) for x in chunk], device=device)
            kw: dict[str, Any] = {"cache_implementation": "static"} if how == "static" else {}
            with torch.no_grad():
                out = model.generate(input_ids=inp, attention_mask=mask, max_new_tokens=max_new, min_new_tokens=max_new,
                                     do_sample=False, eos_token_id=None, pad_token_id=pad, **kw)
            assert out.shape[1] == width + max_new
            steps += max_new - 1
        return steps

    _, pre = timed(lambda: once(1), device)
    steps, wall = timed(lambda: once(new), device)
    return pre, wall, steps


def decode_table(args: argparse.Namespace, tok_dir: Path, work: Path) -> list[dict[str, Any]]:
    import torch
    import transformers

    dtype = getattr(torch, args.dtype)
    bw, card = bandwidth(args.device, args.bandwidth_gbs)
    rows: list[dict[str, Any]] = []
    tok = transformers.AutoTokenizer.from_pretrained(tok_dir, local_files_only=True)
    ids = prompts(tok, args.prompts)
    mean_prompt = sum(len(x) for x in ids) / len(ids)
    ways = ["clinaudit", "transformers"] + [w for w in args.also if w]
    for shape in args.shapes:
        folder = model_folder(shape, tok_dir, work)
        model = random_model(shape, args.device, dtype)
        pad = tok.pad_token_id if tok.pad_token_id is not None else 0
        # warm-up (kernels, allocator): both ways, a few prompts
        run_clinaudit(model, folder, ids[:4], 4, 4, args.device, args.dtype)
        run_transformers(model, ids[:4], 4, 4, args.device, pad)
        for batch in args.batches:
            for way in ways:
                peak_reset(args.device)
                try:
                    if way == "clinaudit":
                        pre, wall, steps = run_clinaudit(model, folder, ids, batch, args.new_tokens, args.device,
                                                         args.dtype)
                    else:
                        how = {"transformers": "dynamic", "static-cache": "static",
                               "generate_batch": "generate_batch"}[way]
                        pre, wall, steps = run_transformers(model, ids, batch, args.new_tokens, args.device, pad, how)
                except Exception as exc:  # noqa: BLE001 - recorded: a way this transformers lacks
                    rows.append({"shape": shape, "batch": batch, "way": way,
                                 "error": f"{type(exc).__name__}: {str(exc)[:200]}"})
                    print(f"{shape} batch {batch} {way}: failed ({rows[-1]['error']})", flush=True)
                    continue
                toks = args.new_tokens * len(ids)
                bound = bound_tok_s(model, batch, mean_prompt + args.new_tokens / 2, bw)
                row = {"shape": shape, "batch": batch, "way": way, "prompts": len(ids), "new_tokens": args.new_tokens,
                       "tok_s": round(toks / wall, 1), "wall_s": round(wall, 3),
                       "prefill_ms_per_prompt": round(1000 * pre / len(ids), 2),
                       "ms_per_step": round(1000 * (wall - pre) / steps, 2) if steps > 0 else None,
                       "decode_steps": steps, "peak_gib": peak_gib(args.device),
                       "bound_tok_s": round(bound, 1) if bound else None,
                       "fraction_of_bound": round(toks / wall / bound, 5) if bound else None}
                rows.append(row)
                print(json.dumps(row), flush=True)
        del model
        if args.device.startswith("cuda"):
            torch.cuda.empty_cache()
    print(f"device: {args.device} ({card}), dtype {args.dtype}, bandwidth "
          f"{'%.0f GB/s' % (bw / 1e9) if bw else 'unknown (no bound)'}, mean prompt {mean_prompt:.0f} tokens")
    for shape in args.shapes:
        for batch in args.batches:
            mine = [r for r in rows if r["shape"] == shape and r["batch"] == batch and "tok_s" in r]
            ours = next((r for r in mine if r["way"] == "clinaudit"), None)
            for r in mine:
                if ours is not None and r is not ours:
                    print(f"RATIO bench_gpu: {shape} batch {batch}: clinaudit / {r['way']} tokens/s = "
                          f"{ours['tok_s'] / r['tok_s']:.2f} (prefill ms/prompt {ours['prefill_ms_per_prompt']} vs "
                          f"{r['prefill_ms_per_prompt']}; ms/step {ours['ms_per_step']} vs {r['ms_per_step']})")
    return rows


# ---- the P2-shaped audit ------------------------------------------------------------------------------------
def p2_audit(args: argparse.Namespace, tok_dir: Path | None, work: Path) -> dict[str, Any]:
    lacking = missing("pydantic", "llguidance", "krippendorff", "vaderSentiment")
    if lacking:
        return {"not_run": f"needs the packages {', '.join(lacking)}"}
    from clinaudit.api import run_audit

    if args.smoke or args.audit_model == "hf-random":
        if tok_dir is None:
            return {"not_run": "no SmolLM2 tokenizer (needs the embedded model's converted folder, or gguf)"}
        import torch

        shape = "tiny" if args.smoke else "smollm2-135m"
        folder = model_folder(shape, tok_dir, work / "audit")
        random_model(shape, "cpu", torch.float32).save_pretrained(folder)
        spec = f"hf:{folder}"
    else:
        if missing("gguf") and default_tokenizer_dir() is None:
            return {"not_run": "embedded needs the gguf package to convert its GGUF (or --audit-model hf-random)"}
        spec = "embedded"
    opts = {"device": args.device, "dtype": args.dtype, "batch_size": 8 if args.smoke else 64,
            "max_batch": 8 if args.smoke else 256}
    n_msgs = 2 if args.smoke else args.audit_messages
    params: dict[str, Any] = {"perturbations": ["exclamation", "typo"] if args.smoke else
                              ["exclamation", "typo", "whitespace", "lowercase", "uppercase"],
                              "mode": "default", "seeds": [0] if args.smoke else [0, 1, 42], "temperature": 0.7,
                              "parser": "tolerant", "n_resamples": 50 if args.smoke else 200}
    if args.smoke:
        params.update(max_tokens=8, judge_max_tokens=40, infer_gender=False)
    spec_dict = {"audit": "treatment_shift", "name": "bench-gpu-p2", "seed": 0,
                 "data": [{"format": "demo:patient_messages", "limit": n_msgs}],
                 "models": {"target": [spec], "judge": spec}, "backends": {spec: opts}, "params": params}
    out = work / "p2-run"
    t0 = time.perf_counter()
    try:
        res = run_audit(spec_dict, out, force=True)
    except Exception as exc:  # noqa: BLE001 - reported as the result of this part
        return {"error": f"{type(exc).__name__}: {str(exc)[:300]}", "wall_s": round(time.perf_counter() - t0, 1)}
    wall = time.perf_counter() - t0
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    total = ((manifest.get("runs") or [{}])[-1].get("usage_total") or {})
    calls = int(total.get("calls", 0)) + int(total.get("failures", 0))
    summary = manifest.get("summary") or {}
    try:
        from clinaudit.cli.headline import headline_lines

        verdicts = headline_lines(res.path)
    except Exception as exc:  # noqa: BLE001 - the headline's API is not this benchmark's concern
        verdicts = [f"(no verdict lines: {type(exc).__name__}: {str(exc)[:100]})"]
    return {"model": spec, "messages": n_msgs, "wall_s_including_load": round(wall, 1), "calls": calls,
            "calls_per_s": round(calls / wall, 2) if calls else None, "failed_calls": total.get("failures"),
            "annotations": summary.get("annotations"), "annotator_parse_rate": summary.get("annotator_parse_rate"),
            "status": manifest.get("status"),
            "verdicts": verdicts[:6]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--smoke", "--quick", action="store_true",
                    help="CPU, tiny config, 6 prompts, 8 new tokens, batch 4 (the default without a CUDA device)")
    ap.add_argument("--device", default=None)
    ap.add_argument("--dtype", default=None)
    ap.add_argument("--shapes", nargs="+", default=None, choices=sorted(SHAPES))
    ap.add_argument("--batches", nargs="+", type=int, default=None)
    ap.add_argument("--prompts", type=int, default=None)
    ap.add_argument("--new-tokens", type=int, default=None)
    ap.add_argument("--also", nargs="*", default=None, choices=["static-cache", "generate_batch"],
                    help="transformers' other ways to compare (default: both, on CUDA; none in --smoke)")
    ap.add_argument("--tokenizer", type=Path, default=None, help="folder with SmolLM2's tokenizer files")
    ap.add_argument("--bandwidth-gbs", type=float, default=None)
    ap.add_argument("--no-audit", action="store_true")
    ap.add_argument("--audit-model", choices=["embedded", "hf-random"], default="embedded")
    ap.add_argument("--audit-messages", type=int, default=100)
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args()
    lacking = missing("torch", "transformers", "pydantic")
    if lacking:
        sys.exit(f"bench_gpu: needs {', '.join(lacking)} (clinaudit's records import pydantic; "
                 "carry its wheels: pip install --no-index wheels/*.whl)")
    import torch

    cuda = torch.cuda.is_available()
    if not cuda and not args.smoke and args.device is None:
        print("bench_gpu: no CUDA device: running the smoke configuration (--device cpu forces the full table)")
        args.smoke = True
    args.device = args.device or ("cpu" if args.smoke or not cuda else "cuda")
    args.dtype = args.dtype or ("bfloat16" if args.device.startswith("cuda") else "float32")
    args.shapes = args.shapes or (["tiny"] if args.smoke else ["smollm2-135m", "llama-1.2b"])
    args.batches = args.batches or ([4] if args.smoke else [8, 64, 256])
    args.prompts = args.prompts or (6 if args.smoke else 512)
    args.new_tokens = args.new_tokens or (8 if args.smoke else 128)
    args.also = args.also if args.also is not None else ([] if args.smoke else ["static-cache", "generate_batch"])
    if not args.device.startswith("cuda"):
        print("bench_gpu: no GPU used (device cpu): the table shows the CPU, not the hardware the issue asks about")
    tok_dir = args.tokenizer or default_tokenizer_dir()
    result: dict[str, Any] = {"device": args.device, "dtype": args.dtype, "torch": torch.__version__,
                              "transformers": __import__("transformers").__version__,
                              "gpu": torch.cuda.get_device_name() if args.device.startswith("cuda") else None}
    with tempfile.TemporaryDirectory(prefix="bench-gpu-") as tmp:
        work = Path(tmp)
        if tok_dir is None:
            result["decode"] = {"not_run": "no SmolLM2 tokenizer: pass --tokenizer DIR"}
        else:
            result["decode"] = decode_table(args, tok_dir, work)
        if not args.no_audit:
            t0 = time.perf_counter()
            result["p2_audit"] = p2_audit(args, tok_dir, work)
            print("p2 audit:", json.dumps(result["p2_audit"]), f"({time.perf_counter() - t0:.1f} s)", flush=True)
    if args.json:
        args.json.write_text(json.dumps(result, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
