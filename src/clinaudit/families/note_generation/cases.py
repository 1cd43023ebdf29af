"""The cases stage: dialogs checked, the ACI in-context example found, de-identified, filtered (METHODS §1.3)."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ...errors import InputError, SpecError
from ...records import Case, Variant
from ...pipeline import AuditContext
from .params import AUDIT, NoteGenerationParams

__all__ = ["Prepared", "style_of", "note_style", "check_dialogs", "find_example", "prepare", "deidentify_example"]

log = logging.getLogger("clinaudit.families.note_generation")


def style_of(case: Case) -> str:
    from ...perturb.counterfactual import detect_style

    return detect_style(case.text)


def check_dialogs(cases: Sequence[Case]) -> tuple[list[Case], list[dict[str, Any]]]:
    """Dialogs that parse into >= 2 speaker turns with a doctor or patient, and one exclusion row per other case.

    A file with a few unusable dialogs (MTS-Dialog's second test set has one single doctor turn) is
    audited without them; only when no case is a dialog is it an error.
    """
    from ...loaders.dialog import parse_dialog

    kept: list[Case] = []
    excluded: list[dict[str, Any]] = []
    for c in cases:
        turns = parse_dialog(c.text)
        speakers = {t.speaker for t in turns}
        if len(turns) < 2 or not ({"doctor", "patient"} & speakers):
            where = f"{c.source}, row {c.source_row}" if c.source else "input"
            excluded.append({"case_id": c.case_id, "dataset": c.dataset,
                             "reason": f"not a doctor-patient dialog ({len(turns)} speaker turn(s), speakers: "
                                       f"{', '.join(sorted(speakers)) or 'none'}; {where})"})
        else:
            kept.append(c)
    if not kept:
        c = cases[0]
        raise InputError(
            "not a doctor-patient dialog: need lines starting with 'Doctor:'/'Patient:' or "
            "'[doctor]'/'[patient]'", file=c.source or None, row=c.source_row, field="text")
    if excluded:
        log.warning("%d case(s) excluded as not doctor-patient dialogs (see the excluded table)", len(excluded))
    return kept, excluded



@dataclass
class Prepared:
    cases: list[Case]
    excluded: list[dict[str, Any]]
    deid_variants: list[Variant]
    example: tuple[str, str] | None
    example_id: str | None
    residuals: list[dict[str, Any]] = field(default_factory=list)  # one row per residual item (kept or excluded)
    # replacements by (dataset, text, kind, source) -> [replacements, texts] (counts only, never the words);
    # text: "dialog" (the loaded dialog) or "variant" (a final variant text: augmentation + counterfactual turn)
    deid_counts: dict[tuple[str, str, str, str], list[int]] = field(default_factory=dict)
    # the names each audited dialog's data lists (in memory only: the final variant texts are checked with them)
    known: dict[str, list[str]] = field(default_factory=dict)

    def count(self, dataset: str, counts: dict[tuple[str, str], int], text: str = "dialog") -> None:
        """Add one text's replacements by (kind, source) to :attr:`deid_counts`."""
        for (kind, source), n in counts.items():
            cell = self.deid_counts.setdefault((dataset, text, kind, source), [0, 0])
            cell[0] += n
            cell[1] += 1


def find_example(ctx: AuditContext, params: NoteGenerationParams, cases: list[Case]) -> tuple[Case | None, bool]:
    """The ACI in-context example case and whether it came from the audited cases."""
    from ...loaders.base import load_cases

    needs = params.aci_shots == 1 and (
        params.note_style == "aci" or (params.note_style == "auto" and any(style_of(c) == "aci" for c in cases)))
    if not needs:
        return None, False
    if params.aci_example_source is not None:
        pool = load_cases(params.aci_example_source, ctx.base_dir)
        from_data = False
    else:
        pool = [c for c in cases if style_of(c) == "aci" or params.note_style == "aci"]
        from_data = True
    if params.aci_example_id is not None:
        hits = [c for c in pool if c.case_id == params.aci_example_id]
        if not hits:
            raise SpecError(f"field 'params.aci_example_id': no case {params.aci_example_id!r} in "
                            + ("params.aci_example_source" if not from_data else "the spec's data"))
        ex = hits[0]
    else:
        with_note = [c for c in pool if str(c.fields.get("note") or "").strip()]
        if not with_note:
            raise SpecError("field 'params.aci_example_id': no ACI dialog with a reference note to use as the "
                            "in-context example; set params.aci_example_source, or params.aci_shots: 0")
        ex = with_note[0]
    if not str(ex.fields.get("note") or "").strip():
        raise InputError("the in-context example has no reference note", file=ex.source or None, row=ex.source_row,
                         field="note")
    return ex, from_data


#: free-text fields of the dialog formats (ACI's reference note, MTS's section summary): names replaced too
_TEXT_FIELDS = ("note", "section_text")


def _deidentified_fields(case: Case, text: str, names: list[str], deidentify: bool) -> dict[str, Any]:
    """The audited copy's fields: no identifier column the loaders kept, the turns of the de-identified
    ``text``, and (with de-identification on) the free-text fields with their names replaced."""
    from ...loaders.dialog import parse_dialog
    from ...loaders.dialog_formats import ACI_NAME_COLUMNS
    from ...perturb.deid import IDENTIFIER_FIELDS, deidentify_names

    out = {k: v for k, v in case.fields.items() if k not in IDENTIFIER_FIELDS and k not in ACI_NAME_COLUMNS}
    if "turns" in out:
        out["turns"] = [t.to_dict() for t in parse_dialog(text)]
    if deidentify:
        for k in _TEXT_FIELDS:
            if isinstance(out.get(k), str):
                out[k] = deidentify_names(out[k], names)[0]
    return out


def exclude_residual(ctx: AuditContext, params: NoteGenerationParams) -> bool:
    """Whether dialogs with residual identifiers are excluded: ``params.keep_residual_identifiers`` when a spec
    sets it (the older switch), else the spec's ``deid.exclude_residual`` (default false: replaced and kept)."""
    if params.keep_residual_identifiers is not None:
        return not params.keep_residual_identifiers
    deid = getattr(ctx.spec, "deid", None)
    return bool(deid.exclude_residual) if deid is not None else False


def prepare(ctx: AuditContext, params: NoteGenerationParams) -> Prepared:
    from ...perturb.deid import (
        deidentify_case_report,
        filter_min_turns,
        filter_residual_identifiers,
        known_names,
        removal_counts,
        residual_items,
    )

    loaded = list(ctx.cases())
    if not loaded:
        raise SpecError(f"audit '{AUDIT}' needs dialogs: field 'data' is empty")
    loaded, excluded = check_dialogs(loaded)
    ex_case, from_data = find_example(ctx, params, loaded)
    if ex_case is not None and from_data:
        loaded = [c for c in loaded if c.case_id != ex_case.case_id]
        excluded.append({"case_id": ex_case.case_id, "dataset": ex_case.dataset, "rule": "in_context_example",
                         "reason": "used as the in-context example of the ACI note prompt"})
    deid_variants: list[Variant] = []
    cases: list[Case] = []
    remaining: dict[str, list[dict[str, Any]]] = {}
    prep = Prepared([], excluded, deid_variants, None, None)
    for c in loaded:
        prep.known[c.case_id] = known_names(c)
        if params.deidentify:
            v, report = deidentify_case_report(c, seed=ctx.spec.seed)
            deid_variants.append(v)
            cases.append(c.model_copy(update={"text": v.text, "fields": _deidentified_fields(
                c, v.text, prep.known[c.case_id], True)}))
            remaining[c.case_id] = residual_items(report)
            prep.count(c.dataset, removal_counts(report.removed))
        else:
            cases.append(c.model_copy(update={"fields": _deidentified_fields(c, c.text, [], False)}))
    kept: list[Case] = []
    for style in ("mts", "aci"):
        group = [c for c in cases if style_of(c) == style]
        res = filter_min_turns(group, params.min_turns.get(style, 0))
        kept_ids = {c.case_id for c in res.kept}
        for c, reason in res.removed:
            excluded.append({"case_id": c.case_id, "dataset": c.dataset, "rule": "min_turns", "reason": reason})
        kept.extend(c for c in group if c.case_id in kept_ids)
    order = {c.case_id: i for i, c in enumerate(cases)}
    kept.sort(key=lambda c: order[c.case_id])
    # dialogs in which identifiers / gendered terms remain: possible names replaced, every item listed; excluded only
    # with the spec's deid.exclude_residual: true (or the older params.keep_residual_identifiers: false)
    res, residuals = filter_residual_identifiers(
        kept, remaining, kinds=params.residual_kinds, allow=params.residual_allow,
        keep=not exclude_residual(ctx, params), deidentified=params.deidentify)
    excluded += [{"case_id": c.case_id, "dataset": c.dataset, "rule": "residual_identifiers", "reason": reason}
                 for c, reason in res.removed]
    kept = res.kept
    example = None
    if ex_case is not None:
        dialog, note = ex_case.text, str(ex_case.fields["note"])
        if params.deidentify:
            dialog = deidentify_example(dialog, known_names(ex_case))
            note = deidentify_example(note, known_names(ex_case))
        example = (dialog, note)
    prep.cases, prep.example, prep.example_id, prep.residuals = kept, example, \
        ex_case.case_id if ex_case else None, residuals
    prep.known = {c.case_id: prep.known.get(c.case_id, []) for c in kept}
    return prep



def deidentify_example(text: str, names: list[str]) -> str:
    """The in-context example of every note prompt, de-identified, and any possible name left after that
    (a residual ``possible_name`` not explained by the vocabulary) replaced with ``[NAME]`` too: the example
    goes into every prompt, hence into the cache and the responses table, so nothing of a name may be left
    in it (an audited dialog with a residual is excluded or kept and reported instead)."""
    from ...perturb.deid import deidentify_text, residual_identifiers

    out, report = deidentify_text(text, names=names)
    left = residual_identifiers(report.remaining, kinds=("possible_name",))
    for r in sorted(left, key=lambda r: -int(r["start"])):
        out = out[:int(r["start"])] + "[NAME]" + out[int(r["end"]):]
    return out


def note_style(params: NoteGenerationParams, case: Case) -> str:
    return style_of(case) if params.note_style == "auto" else params.note_style

