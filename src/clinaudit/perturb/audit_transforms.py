"""The transforms audits apply with inputs of their own, registered so they are listed and nameable.

Counterfactuals (P1's appended turn, P3's CARE quadruplet), context augmentation (P1)
and the conversational settings (P2/P3, CRAFT-MD) need more than one row of text —
attribute values, stereotype contexts, a runner and a model — so they are not
row-wise (``clinaudit perturb`` refuses them). They are registered here with kind
``"audit"`` so that ``clinaudit perturbations`` lists every transform in one place and
a plugin can apply any of them by name (``get_transform(name)(case, runner=..., ...)``),
each returning :class:`~clinaudit.records.Variant` records like every other transform.
"""

from __future__ import annotations

from typing import Any

from ..records import Case, Variant
from .augment import augment_context
from .conversation import SETTINGS, run_conversations
from .counterfactual import appended_turn_counterfactuals, care_quadruplet
from .registry import register_transform

__all__ = ["AUDIT_KIND", "conversation_setting"]

#: Transform.kind of the transforms in this module (not row-wise)
AUDIT_KIND = "audit"


@register_transform("appended_turn", "counterfactual", "P1 counterfactual: baseline + one variant per attribute "
                    "value, stated in a turn appended to the dialog (needs attribute=)", kind=AUDIT_KIND)
def appended_turn(case: Case, rng: Any = None, *, attribute: Any, **params: Any) -> list[Variant]:
    return appended_turn_counterfactuals(case, attribute, **params)


@register_transform("care_quadruplet", "counterfactual", "P3 CARE quadruplet: male / female / two identical "
                    "neutral controls, on the gender-neutralized text", kind=AUDIT_KIND)
def care_quadruplet_transform(case: Case, rng: Any = None, **params: Any) -> list[Variant]:
    return care_quadruplet(case, **params)


@register_transform("augment_context", "augmentation", "P1 augmentation: an LLM inserts a stereotype context into "
                    "the dialog (needs runner=, model=; validated, retried)", kind=AUDIT_KIND)
def augment_context_transform(case: Case, rng: Any = None, *, runner: Any, model: str, **params: Any
                              ) -> list[Variant]:
    variants, _rejections = augment_context([case], runner=runner, model=model, **params)
    return variants


def conversation_setting(setting: str) -> Any:
    """The transform running one conversational setting on a case (the diagnosis is in provenance)."""

    def apply(case: Case, rng: Any = None, *, runner: Any, doctor_model: str, **params: Any) -> list[Variant]:
        return [conv.to_variant() for conv in run_conversations([case], setting, runner=runner,
                                                                 doctor_model=doctor_model, **params)]

    apply.__name__ = f"conversation_{setting}"
    return apply


for _setting in SETTINGS:
    register_transform(_setting, "setting", f"conversational setting '{_setting}' (P2/P3, CRAFT-MD): a doctor "
                       "agent reaches a diagnosis (needs runner=, doctor_model=)", kind=AUDIT_KIND)(
        conversation_setting(_setting))
