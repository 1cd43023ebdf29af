"""Judges: LLM-as-judge and rule-based parsers with schema validation and retries."""

from .base import Judge, Unparseable, apply_parser, extract_json, parse_rate, run_judge

__all__ = ["Judge", "Unparseable", "apply_parser", "extract_json", "parse_rate", "run_judge"]
