"""Association audit inputs: target words per group and the sentences of the templates (P4 §4.3).

Templates × attributes × target words (:mod:`clinaudit.perturb.templates`) → one
sentence per template, attribute and target word, with its pairing columns
(``template_id``, ``attribute``, ``target_index``). Target words per group come from a
YAML file ``{groups: {name: [words]}}`` (or ``{name: [words]}``; default male/female),
paired across groups by their index in the lists (man↔woman, he↔she, ...).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from ...errors import InputError, SpecError
from ...loaders.formats import read_yaml_file

__all__ = ["load_targets_file", "select_groups", "build_sentences"]

log = logging.getLogger("clinaudit.families.hurtful_words.association")


def load_targets_file(path: str | Path | None, target_set: str | None = None) -> dict[str, tuple[str, ...]]:
    """Target words per group from a targets YAML (``docs/data-formats.md``), or the gender default.

    Schema: ``{groups: {name: [words...]}}`` (optionally ``version``, ``slot``
    and ``sets: {set_name: {groups: {...}, description: ...}}``, one of which
    ``target_set`` picks); a bare ``{name: [words...]}`` mapping also works.
    ``None`` gives male (man, he, male, m) / female (woman, she, female, f).
    Raises :class:`InputError` naming the file and the field.
    """
    from ...perturb.templates import DEMOGRAPHIC_SLOT, load_targets

    if path is None:
        if target_set is not None:
            raise InputError(f"target set {target_set!r} needs a targets file", field="target_set")
        return load_targets(None)
    p = Path(path)
    if not p.is_file():
        raise InputError("targets file not found", file=str(p))
    data = read_yaml_file(p)
    if not isinstance(data, dict):
        raise InputError("expected a mapping {groups: {name: [words]}}", file=str(p))
    slot = data.get("slot", DEMOGRAPHIC_SLOT)
    if slot != DEMOGRAPHIC_SLOT:
        raise InputError(f"only the slot {DEMOGRAPHIC_SLOT} is supported, got {slot!r}", file=str(p), field="slot")
    field = "groups"
    if target_set is not None:
        sets = data.get("sets")
        if not isinstance(sets, dict) or target_set not in sets:
            known = sorted(sets) if isinstance(sets, dict) else []
            raise InputError(f"no target set {target_set!r} (sets: {', '.join(known) or 'none'})", file=str(p),
                             field="sets")
        entry = sets[target_set]
        if not isinstance(entry, dict) or "groups" not in entry:
            raise InputError("a target set needs 'groups'", file=str(p), field=f"sets.{target_set}")
        groups, field = entry["groups"], f"sets.{target_set}.groups"
    elif "groups" in data:
        groups = data["groups"]
    else:
        return _equal_lengths(load_targets(p), p, "groups")
    if not isinstance(groups, dict):
        raise InputError("must map each group name to a list of words", file=str(p), field=field)
    if len(groups) < 2:
        raise InputError("at least two groups are needed", file=str(p), field=field)
    out: dict[str, tuple[str, ...]] = {}
    for g, words in groups.items():
        if not isinstance(words, list) or not words or not all(
            isinstance(w, (str, int)) and str(w).strip() for w in words
        ):
            raise InputError("expected a non-empty list of target words", file=str(p), field=f"{field}.{g}")
        out[str(g)] = tuple(" ".join(str(w).split()) for w in words)
    return _equal_lengths(out, p, field)


def _equal_lengths(targets: dict[str, tuple[str, ...]], path: Path, field: str) -> dict[str, tuple[str, ...]]:
    """Groups are compared word by word (the i-th word of one group with the i-th of another), so every
    group needs the same number of target words; unequal lists would silently drop the unpaired words."""
    sizes = {g: len(w) for g, w in targets.items()}
    if len(set(sizes.values())) > 1:
        shown = ", ".join(f"{g}: {n}" for g, n in sizes.items())
        raise InputError(f"target word lists must have equal lengths, paired by position ({shown})",
                         file=str(path), field=field)
    return targets


def select_groups(targets: dict[str, tuple[str, ...]], groups: Sequence[str] | None) -> dict[str, tuple[str, ...]]:
    """The target groups to compare (``params.groups``, reference first; ``None``: all, in file order)."""
    if groups is None:
        return targets
    unknown = [g for g in groups if g not in targets]
    if unknown or len(groups) < 2:
        raise SpecError(f"params.groups {groups}: need at least two of the target groups {list(targets)}")
    return {g: targets[g] for g in groups}


def build_sentences(
    templates_path: str | Path,
    attributes_path: str | Path,
    targets: Mapping[str, Sequence[str]],
    *,
    categories: Sequence[str] | None = None,
    max_templates_per_category: int | None = None,
) -> tuple[list[Any], pd.DataFrame, list[Any]]:
    """Expand the templates: ``(sentences, sentence table, skipped-line report)``.

    Only categories that have both templates and attributes are kept; with
    ``categories`` only those (an unknown name is an :class:`InputError`).
    """
    from ...perturb.templates import expand_templates, load_attributes, load_templates

    templates, skipped = load_templates(templates_path)
    attributes = load_attributes(attributes_path)
    attr_cats = {a.category for a in attributes}
    tmpl_cats = {t.category for t in templates}
    if categories is not None:
        unknown = sorted(set(categories) - (attr_cats & tmpl_cats))
        if unknown:
            raise InputError(
                f"categories {unknown} have no templates or no attributes (available: {sorted(attr_cats & tmpl_cats)})",
                file=str(templates_path), field="categories",
            )
        templates = [t for t in templates if t.category in set(categories)]
    if max_templates_per_category is not None:
        kept: list[Any] = []
        seen: dict[str, int] = {}
        for t in templates:
            if seen.get(t.category, 0) < max_templates_per_category:
                kept.append(t)
                seen[t.category] = seen.get(t.category, 0) + 1
        templates = kept
    orphan = sorted(tmpl_cats - attr_cats)
    if orphan:
        log.warning("templates of categories %s have no attributes in %s: not used", orphan, attributes_path)
    sentences = expand_templates(templates, attributes, targets)
    if not sentences:
        raise InputError("no sentences: no template has a category with attributes", file=str(templates_path))
    index = {g: {w: i for i, w in enumerate(words)} for g, words in targets.items()}
    table = pd.DataFrame(
        [
            {
                "template_id": s.template_id,
                "template": s.template,
                "category": s.category,
                "attribute": s.attribute,
                "subgroup": s.subgroup,
                "group": s.group,
                "target": s.target,
                "target_index": index[s.group][s.target],
                "sentence": s.sentence,
            }
            for s in sentences
        ]
    )
    return sentences, table, skipped
