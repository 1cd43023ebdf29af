"""Template expansion for language-model association tests (P4 §3.4, Algorithm 1).

Templates carry a demographic slot ``[GEND]`` and an attribute slot named by a
category code (``[CVD]``, ``[DRUG]``, ...); attributes come per category (with an
optional subgroup, e.g. DRUG low/med/high); target words per group (default
male: man, he, male, m; female: woman, she, female, f).

:func:`expand_templates` fills every (template, attribute, target) combination and
records where the target and the attribute sit in the sentence (character spans).
:func:`mask_for_mlm` builds the two masked inputs of Algorithm 1 — the target slot
masked in the sentence with the attribute (``mask_attribute=False``) and in the
*prior* sentence whose attribute is masked too (``mask_attribute=True``) — and
locates the target slot by **token** position. (The published scorer read the
model output at the slot's *word* index, which is wrong as soon as an earlier word
splits into several tokens; ``MaskedSentence.word_index`` keeps that index for
comparison.) Attribute masking: ``mode="word"`` puts one mask per attribute word
(the published code), ``mode="token"`` one per attribute token (the correct
generalization). Multi-token targets get one mask per target token.

File formats:

* templates: HurtfulWords ``templates.txt`` (one per line; CRLF tolerated) or YAML
  (a list of strings, or ``{templates: [...]}``). Published quirks handled: a line
  with no slot is skipped and reported; a line wrapped in literal quotes is unquoted
  (so character positions are not off by one).
* attributes: HurtfulWords ``attributes.csv`` (``attribute,category,subgroup``) or
  YAML ``{CAT: [words]}`` / ``{CAT: {subgroup: [words]}}``.
* targets: YAML ``{group: [words]}``; ``None`` gives :data:`DEFAULT_TARGETS`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import InputError
from ..loaders.formats import read_utf8_text, read_yaml_file

if TYPE_CHECKING:  # pragma: no cover
    from ..models.base import MaskedItem

__all__ = [
    "DEMOGRAPHIC_SLOT",
    "DEFAULT_TARGETS",
    "Template",
    "Attribute",
    "TemplateSentence",
    "MaskedSentence",
    "SkippedLine",
    "load_templates",
    "load_attributes",
    "load_targets",
    "expand_templates",
    "mask_for_mlm",
]

DEMOGRAPHIC_SLOT = "[GEND]"
DEFAULT_TARGETS: dict[str, tuple[str, ...]] = {"male": ("man", "he", "male", "m"), "female": ("woman", "she", "female", "f")}
_SLOT = re.compile(r"\[([A-Z][A-Z0-9_]*)\]")


@dataclass(frozen=True)
class Template:
    """A template: ``text`` holds ``[GEND]`` and one ``[CATEGORY]`` slot."""

    template_id: str
    text: str
    category: str
    line: int | None = None  # 1-based line in the source file


@dataclass(frozen=True)
class Attribute:
    """An attribute phrase of a category (``subgroup`` "-" when the file has none)."""

    attribute: str
    category: str
    subgroup: str = "-"


@dataclass(frozen=True)
class SkippedLine:
    """A template line that was not used (or was repaired), and why."""

    line: int
    text: str
    reason: str


@dataclass(frozen=True)
class TemplateSentence:
    """One filled template (P4 Algorithm 1 unit)."""

    template_id: str
    category: str
    attribute: str
    subgroup: str  # attribute subgroup from the attribute file ("low"/"med"/"high" for DRUG, else "-")
    group: str  # target group ("male" | "female" | ...)
    target: str  # target word at the demographic slot
    sentence: str  # template with target and attribute filled in
    target_span: tuple[int, int]  # characters of the target in ``sentence``
    attribute_span: tuple[int, int]  # characters of the attribute in ``sentence``
    template: str = ""

    def to_row(self) -> dict[str, Any]:
        d = dict(self.__dict__)
        d["target_span"] = list(self.target_span)
        d["attribute_span"] = list(self.attribute_span)
        return d


@dataclass(frozen=True)
class MaskedSentence:
    """A masked-LM input for one :class:`TemplateSentence`.

    ``text`` has the tokenizer's mask token at the target slot (one per target
    token) and, with ``mask_attribute``, at the attribute. ``target_positions``
    are token indices (in the tokenizer's encoding of ``text``, special tokens
    included) of the target masks; ``score_masks`` are their indices among all mask
    tokens (for :class:`~clinaudit.models.base.MaskedItem`); ``target_ids`` the
    target token ids, one per target mask.
    """

    text: str
    target_positions: tuple[int, ...]
    target_ids: tuple[int, ...]
    score_masks: tuple[int, ...]
    mask_attribute: bool
    mode: str
    word_index: int  # the slot's word index (what the published scorer used)

    def to_masked_item(self) -> MaskedItem:
        """The :class:`~clinaudit.models.base.MaskedItem` that scores the target slot."""
        from ..models.base import MaskedItem

        return MaskedItem(text=self.text, targets=tuple(self.target_ids), score_masks=tuple(self.score_masks))


# --------------------------------------------------------------------------- loading


def _parse_template_line(raw: str, lineno: int, file: str | None) -> tuple[Template | None, list[SkippedLine]]:
    notes: list[SkippedLine] = []
    text = raw.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        notes.append(SkippedLine(lineno, raw, "wrapped in literal quotes: unquoted"))
        text = text[1:-1].strip()
    if not text:
        return None, notes
    slots = _SLOT.findall(text)
    cats = [s for s in slots if f"[{s}]" != DEMOGRAPHIC_SLOT]
    if DEMOGRAPHIC_SLOT not in text or not cats:
        missing = "demographic slot [GEND]" if DEMOGRAPHIC_SLOT not in text else "attribute slot"
        notes.append(SkippedLine(lineno, raw, f"no {missing}: skipped"))
        return None, notes
    if text.count(DEMOGRAPHIC_SLOT) > 1 or len(cats) > 1:
        notes.append(SkippedLine(lineno, raw, "more than one [GEND] or attribute slot: skipped"))
        return None, notes
    return Template(template_id=f"t{lineno:03d}", text=text, category=cats[0], line=lineno), notes


def load_templates(path: str | Path) -> tuple[list[Template], list[SkippedLine]]:
    """Templates and a report of skipped / repaired lines (HurtfulWords txt or YAML)."""
    p = Path(path)
    if not p.exists():
        raise InputError("file not found", file=str(p))
    if p.suffix.lower() in (".yaml", ".yml"):
        data = read_yaml_file(p)
        if isinstance(data, dict):
            data = data.get("templates")
        if not isinstance(data, list) or not all(isinstance(x, str) for x in data):
            raise InputError("expected a list of template strings (or {templates: [...]})", file=str(p),
                             field="templates")
        lines = data
    else:
        lines = read_utf8_text(p).replace("\r\n", "\n").replace("\r", "\n").split("\n")
    templates: list[Template] = []
    report: list[SkippedLine] = []
    for i, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        t, notes = _parse_template_line(raw, i, str(p))
        report.extend(notes)
        if t is not None:
            templates.append(t)
    return templates, report


def load_attributes(path: str | Path) -> list[Attribute]:
    """Attribute phrases with category and subgroup (HurtfulWords CSV or YAML)."""
    p = Path(path)
    if not p.exists():
        raise InputError("file not found", file=str(p))
    out: list[Attribute] = []
    if p.suffix.lower() in (".yaml", ".yml"):
        data = read_yaml_file(p)
        if not isinstance(data, dict):
            raise InputError("expected a mapping CATEGORY: [attributes] or CATEGORY: {subgroup: [attributes]}",
                             file=str(p))
        for cat, val in data.items():
            if isinstance(val, list):
                out += [Attribute(str(a).strip(), str(cat), "-") for a in val]
            elif isinstance(val, dict):
                for sub, words in val.items():
                    if not isinstance(words, list):
                        raise InputError("expected a list of attributes", file=str(p), field=f"{cat}.{sub}")
                    out += [Attribute(str(a).strip(), str(cat), str(sub)) for a in words]
            else:
                raise InputError("expected a list or a mapping of lists", file=str(p), field=str(cat))
        return out
    from ..loaders.formats import read_csv_table

    table = read_csv_table(p)  # strict: bad bytes, unterminated quotes and ragged rows name the row
    cols = [c.strip().lower() for c in table.header]
    if "attribute" not in cols or "category" not in cols:
        raise InputError(f"needs columns 'attribute' and 'category' (found: {', '.join(cols) or 'none'})",
                         file=str(p), field="attribute")
    for row_no, row in table.rows:
        row = {(k or "").strip().lower(): (v or "").strip() for k, v in row.items()}
        if not row.get("attribute"):
            raise InputError("empty attribute", file=str(p), row=row_no, field="attribute")
        if not row.get("category"):
            raise InputError("empty category", file=str(p), row=row_no, field="category")
        out.append(Attribute(row["attribute"], row["category"], row.get("subgroup") or "-"))
    return out


def load_targets(path: str | Path | None = None) -> dict[str, tuple[str, ...]]:
    """Target words per group from YAML ``{group: [words]}``, or :data:`DEFAULT_TARGETS`."""
    if path is None:
        return dict(DEFAULT_TARGETS)
    p = Path(path)
    if not p.exists():
        raise InputError("file not found", file=str(p))
    data = read_yaml_file(p)
    if isinstance(data, dict) and "targets" in data and isinstance(data["targets"], dict):
        data = data["targets"]
    if not isinstance(data, dict) or len(data) < 2:
        raise InputError("expected a mapping with at least two groups: {group: [words]}", file=str(p))
    out: dict[str, tuple[str, ...]] = {}
    for g, words in data.items():
        if not isinstance(words, list) or not words:
            raise InputError("expected a non-empty list of target words", file=str(p), field=str(g))
        out[str(g)] = tuple(str(w).strip() for w in words)
    return out


# --------------------------------------------------------------------------- expansion


def _as_attributes(attributes: Sequence[Attribute] | Mapping[str, Sequence[str]]) -> list[Attribute]:
    if isinstance(attributes, Mapping):
        return [Attribute(str(a), str(cat), "-") for cat, words in attributes.items() for a in words]
    return list(attributes)


def _fill(template: str, slot: str, value: str, other_slot: str, other_value: str) -> tuple[str, tuple[int, int], tuple[int, int]]:
    """Fill both slots; return the sentence and the spans of ``value`` and ``other_value``."""
    i, j = template.index(slot), template.index(other_slot)
    if i < j:
        a = template[:i] + value
        span1 = (i, len(a))
        b = a + template[i + len(slot): j]
        span2 = (len(b), len(b) + len(other_value))
        sentence = b + other_value + template[j + len(other_slot):]
    else:
        b = template[:j] + other_value
        span2 = (j, len(b))
        a = b + template[j + len(other_slot): i]
        span1 = (len(a), len(a) + len(value))
        sentence = a + value + template[i + len(slot):]
    return sentence, span1, span2


def expand_templates(
    templates: Sequence[Template],
    attributes: Sequence[Attribute] | Mapping[str, Sequence[str]],
    targets: Mapping[str, Sequence[str]] | None = None,
) -> list[TemplateSentence]:
    """P4 Algorithm 1 expansion: every template × attribute of its category × target word.

    Order: template, attribute, group, target (as in Algorithm 1's loops).
    Templates whose category has no attribute contribute nothing.
    """
    attrs = _as_attributes(attributes)
    targets = dict(targets) if targets is not None else dict(DEFAULT_TARGETS)
    by_cat: dict[str, list[Attribute]] = {}
    for a in attrs:
        by_cat.setdefault(a.category, []).append(a)
    out: list[TemplateSentence] = []
    for t in templates:
        slot = f"[{t.category}]"
        for a in by_cat.get(t.category, []):
            for group, words in targets.items():
                for w in words:
                    sentence, tspan, aspan = _fill(t.text, DEMOGRAPHIC_SLOT, w, slot, a.attribute)
                    out.append(TemplateSentence(
                        template_id=t.template_id, category=t.category, attribute=a.attribute, subgroup=a.subgroup,
                        group=group, target=w, sentence=sentence, target_span=tspan, attribute_span=aspan,
                        template=t.text,
                    ))
    return out


# --------------------------------------------------------------------------- masking


def _tokens(tokenizer: Any, text: str) -> list[str]:
    return list(tokenizer.tokenize(text))


def _word_tokens(tokenizer: Any, text: str, preceded_by_space: bool) -> list[str]:
    """Tokens of ``text`` as it appears inside a sentence (after a space, when it does)."""
    if preceded_by_space:
        # Byte-level BPE tokenizers mark a leading space; tokenize with a sentinel word before it.
        probe = _tokens(tokenizer, "a " + text)
        head = _tokens(tokenizer, "a")
        if probe[: len(head)] == head:
            return probe[len(head):]
    return _tokens(tokenizer, text)


def mask_for_mlm(item: TemplateSentence, tokenizer: Any, mask_attribute: bool, mode: str = "word") -> MaskedSentence:
    """Masked text for Algorithm 1, with the target slot located by token position.

    ``mask_attribute=False``: the target slot masked in the sentence with the
    attribute (p_i); ``True``: the attribute masked as well (p_prior). ``mode``:
    ``"word"`` one mask per attribute word (published) or ``"token"`` one per
    attribute token. ``tokenizer`` is a Hugging Face tokenizer with a mask token.
    """
    if mode not in ("word", "token"):
        raise ValueError(f"mode must be 'word' or 'token', got {mode!r}")
    mask = getattr(tokenizer, "mask_token", None)
    if not mask:
        raise InputError("the tokenizer has no mask token; is this a masked LM?", field="tokenizer")
    s = item.sentence
    (ts, te), (as_, ae) = item.target_span, item.attribute_span
    target_toks = _word_tokens(tokenizer, s[ts:te], ts > 0 and s[ts - 1] == " ")
    if not target_toks:
        raise InputError(f"target {item.target!r} has no tokens", field="targets")
    target_ids = tuple(int(i) for i in tokenizer.convert_tokens_to_ids(target_toks))
    target_masks = " ".join([mask] * len(target_toks))
    pieces: list[tuple[int, int, str, str]] = [(ts, te, target_masks, "target")]
    if mask_attribute:
        attr = s[as_:ae]
        if mode == "word":
            n = len(attr.split())
        else:
            n = len(_word_tokens(tokenizer, attr, as_ > 0 and s[as_ - 1] == " "))
        pieces.append((as_, ae, " ".join([mask] * max(1, n)), "attribute"))
    pieces.sort()
    text = ""
    pos = 0
    target_char: tuple[int, int] = (0, 0)
    for start, end, rep, kind in pieces:
        text += s[pos:start]
        if kind == "target":
            target_char = (len(text), len(text) + len(rep))
        text += rep
        pos = end
    text += s[pos:]
    # masks before the target slot, counted in the text
    n_before = text[: target_char[0]].count(mask)
    score_masks = tuple(range(n_before, n_before + len(target_toks)))
    enc = tokenizer(text, add_special_tokens=True)
    ids = list(enc["input_ids"])
    mask_id = tokenizer.mask_token_id
    mask_pos = [k for k, t in enumerate(ids) if t == mask_id]
    if len(mask_pos) < n_before + len(target_toks):
        raise InputError(f"could not locate the target masks in the tokenized text {text!r}", field="tokenizer")
    target_positions = tuple(mask_pos[j] for j in score_masks)
    word_index = len(s[:ts].split())
    return MaskedSentence(text=text, target_positions=target_positions, target_ids=target_ids,
                          score_masks=score_masks, mask_attribute=mask_attribute, mode=mode, word_index=word_index)
