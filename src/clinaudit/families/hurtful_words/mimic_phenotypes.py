"""The 25 HCUP CCS phenotype groups and P4's 57 binary tasks (Hurtful Words Table 1).

The code lists come from the MIMIC-III benchmark (Harutyunyan et al. 2019,
github.com/YerevaNN/mimic3-benchmarks, MIT licence), shipped as
``clinaudit/data/hcup_ccs_2015_phenotypes.csv`` (one row per ICD-9 code; its
header names the source commit and licence). A diagnosis belongs to a group
when its ``ICD9_CODE`` equals one of the group's codes exactly (after removing
spaces and dots), as in the benchmark.

Tasks: ``Inhosp Mort`` (in-hospital mortality), then per phenotype cohort
(``PA`` = phenotyping using all notes, ``PF`` = using the first note) the 25
groups under P4's shorthand (``PA Acute Renal`` …) and the three OR tasks
``Chronic`` (any chronic group), ``Acute`` (any acute group) and ``Disease``
(any of the 25): 1 + 2 × 28 = 57.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from ...errors import InputError

__all__ = ["PhenotypeGroup", "TaskDef", "load_phenotype_groups", "task_definitions", "phenotype_labels",
           "normalize_icd9", "OR_TASKS", "MORTALITY_TASK", "COHORT_PREFIX", "PHENOTYPE_DATA_FILE"]

PHENOTYPE_DATA_FILE = "hcup_ccs_2015_phenotypes.csv"
MORTALITY_TASK = "Inhosp Mort"
COHORT_PREFIX = {"phenotype_all": "PA", "phenotype_first": "PF"}
# P4's derived tasks: logical ORs over the groups of a type (None = every group).
OR_TASKS: dict[str, str | None] = {"Chronic": "chronic", "Acute": "acute", "Disease": None}


@dataclass(frozen=True)
class PhenotypeGroup:
    """One HCUP CCS group: its CCS id, name, P4 shorthand, acute/chronic type and ICD-9 codes."""

    ccs_id: int
    name: str
    abbrev: str
    type: str
    codes: frozenset[str]


@dataclass(frozen=True)
class TaskDef:
    """One of the 57 tasks: its name (the column of the task tables), cohort and definition."""

    name: str
    cohort: str  # inhosp_mort | phenotype_all | phenotype_first
    kind: str  # mortality | phenotype | or
    description: str
    groups: tuple[str, ...] = ()  # abbreviations of the groups it covers (one for a phenotype, several for an OR)


def normalize_icd9(code: str) -> str:
    """``'428.0 '`` → ``'4280'`` (MIMIC-III writes ICD-9 codes without the dot)."""
    return code.strip().replace(".", "").replace(" ", "").upper()


@lru_cache(maxsize=1)
def load_phenotype_groups() -> dict[str, PhenotypeGroup]:
    """The 25 groups keyed by group name, in the file's order (CCS id)."""
    text = (resources.files("clinaudit.data") / PHENOTYPE_DATA_FILE).read_text(encoding="utf-8")
    lines = [ln for ln in text.splitlines() if ln and not ln.startswith("#")]
    rows: dict[str, dict] = {}
    for n, rec in enumerate(csv.DictReader(io.StringIO("\n".join(lines))), start=1):
        try:
            g = rows.setdefault(rec["group"], {"ccs_id": int(rec["ccs_id"]), "abbrev": rec["abbrev"],
                                                "type": rec["type"], "codes": set()})
        except (KeyError, ValueError) as e:
            raise InputError(f"bad phenotype definition row: {e}", file=PHENOTYPE_DATA_FILE, row=n) from None
        g["codes"].add(normalize_icd9(rec["icd9_code"]))
    return {name: PhenotypeGroup(ccs_id=g["ccs_id"], name=name, abbrev=g["abbrev"], type=g["type"],
                                 codes=frozenset(g["codes"])) for name, g in rows.items()}


@lru_cache(maxsize=1)
def _code_map() -> dict[str, str]:
    return {code: g.abbrev for g in load_phenotype_groups().values() for code in g.codes}


def phenotype_labels(codes: list[str] | set[str]) -> dict[str, int]:
    """0/1 per group shorthand and per OR task (``Chronic``, ``Acute``, ``Disease``) for one admission's codes."""
    cmap = _code_map()
    present = {cmap[c] for c in (normalize_icd9(x) for x in codes) if c in cmap}
    groups = sorted(load_phenotype_groups().values(), key=lambda g: g.name.casefold())
    out = {g.abbrev: int(g.abbrev in present) for g in groups}
    for name, typ in OR_TASKS.items():
        out[name] = int(any(out[g.abbrev] for g in groups if typ is None or g.type == typ))
    return out


@lru_cache(maxsize=1)
def task_definitions() -> tuple[TaskDef, ...]:
    """The 57 tasks in P4's Table 1 order: mortality; per cohort the 25 groups (by full name) and the 3 ORs."""
    groups = sorted(load_phenotype_groups().values(), key=lambda g: g.name.casefold())
    out = [TaskDef(MORTALITY_TASK, "inhosp_mort", "mortality",
                   "in-hospital mortality from the notes of the first 48 h of the ICU stay")]
    for cohort, prefix in COHORT_PREFIX.items():
        for g in groups:
            out.append(TaskDef(f"{prefix} {g.abbrev}", cohort, "phenotype", g.name, (g.abbrev,)))
        for name, typ in OR_TASKS.items():
            covered = tuple(g.abbrev for g in groups if typ is None or g.type == typ)
            out.append(TaskDef(f"{prefix} {name}", cohort, "or",
                               f"any {typ or 'of the 25'} phenotype group (logical OR)", covered))
    return tuple(out)
