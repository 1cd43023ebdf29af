"""Load a repository script (benchmarks/, scripts/) as a module, for tests that check it or reuse its simulators."""

from __future__ import annotations

import importlib.util
import re
import sys
import unicodedata
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]


def load_script(relpath: str, name: str) -> ModuleType:
    """Import ``ROOT/relpath`` under ``name`` (registered in sys.modules, so its dataclasses and pickles resolve)."""
    spec = importlib.util.spec_from_file_location(name, ROOT / relpath)
    assert spec is not None and spec.loader is not None, relpath
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


_PARTICLES = frozenset("o mc mac de da di del la le van von den der dos das ben bin ibn nic ni al el te".split())


def name_parts(name: str) -> set[str]:
    """A name's parts as the development sets compare them: lower case, diacritics folded, particles left out."""
    s = name.lower().translate(str.maketrans({"ł": "l", "ı": "i", "ß": "ss", "ø": "o", "đ": "d"}))
    folded = "".join(c for c in unicodedata.normalize("NFKD", s) if not unicodedata.combining(c))
    return {p for p in re.split(r"[\s\-'’ʻ]+", folded) if len(p) >= 2} - _PARTICLES


def table_parts(table: Mapping[str, tuple[Sequence[str], Sequence[str]]]) -> set[str]:
    """Every name part of a benchmark's origin -> (given names, surnames) table."""
    return {p for given, sur in table.values() for n in [*given, *sur] for p in name_parts(n)}


#: each benchmark name table's script and the attribute holding its origin -> (given names, surnames) table
NAME_TABLES = {"deid_names.py": "ORIGINS", "deid_dev2.py": "DEV2_NAMES", "deid_dev3_names.py": "DEV3_NAMES",
               "deid_dev4.py": "DEV4_NAMES", "deid_dev6.py": "DEV6_NAMES", "deid_dev8.py": "DEV8_NAMES",
               "deid_dev9.py": "DEV9_NAMES", "deid_dev11.py": "DEV11_NAMES", "deid_dev12.py": "DEV12_NAMES",
               "deid_dev14.py": "DEV14_NAMES", "deid_dev15.py": "DEV15_NAMES",
               "deid_dev18.py": "DEV18_NAMES", "deid_dev21.py": "DEV21_NAMES"}


def parts_shared(table: Mapping[str, tuple[Sequence[str], Sequence[str]]], *scripts: str) -> dict[str, int]:
    """How many name parts ``table`` shares with each of ``scripts``' tables (benchmarks/, :data:`NAME_TABLES`): a
    count, never the parts, so that a failing test prints no held-out name (``deid_names.py``'s odd positions)."""
    new = table_parts(table)
    return {s: len(table_parts(getattr(load_script(f"benchmarks/{s}", "clinaudit_" + s[:-3]), NAME_TABLES[s])) & new)
            for s in scripts}


#: each benchmark form list's script and the attribute holding its (who, form) pairs
FORM_LISTS = {"deid_dev.py": "DEV_FORMS", "deid_dev2.py": "DEV2_FORMS", "deid_dev_prep.py": "PREP_FORMS",
              "deid_dev_prep2.py": "PREP2_FORMS", "deid_dev4.py": "DEV4_FORMS", "deid_dev5.py": "DEV5_FORMS",
              "deid_dev6.py": "DEV6_FORMS", "deid_dev8.py": "DEV8_FORMS", "deid_dev9.py": "DEV9_FORMS",
              "deid_dev10.py": "DEV10_FORMS", "deid_dev11.py": "DEV11_FORMS", "deid_dev12.py": "DEV12_FORMS"}


def forms_of(*scripts: str) -> set[str]:
    """Every form of ``scripts``' form lists (benchmarks/, :data:`FORM_LISTS`), the speaker left out."""
    return {f for s in scripts
            for _, f in getattr(load_script(f"benchmarks/{s}", "clinaudit_" + s[:-3]), FORM_LISTS[s])}


def dev_set(n: int) -> ModuleType:
    """The ``n``-th development set's script, ``benchmarks/deid_dev{n}.py`` (its tables are ``DEV{n}_NAMES``,
    ``DEV{n}_FORMS`` and ``DEV{n}_WORD_USES``)."""
    return load_script(f"benchmarks/deid_dev{n}.py", f"clinaudit_deid_dev{n}")


def dev_forms(*numbers: int) -> set[str]:
    """Every form of :data:`FORM_LISTS` and of the development sets ``numbers``, in lower case, the speaker left out:
    what a newer set's forms must not repeat."""
    forms = {f.lower() for f in forms_of(*FORM_LISTS)}
    return forms | {f.lower() for n in numbers for _, f in getattr(dev_set(n), f"DEV{n}_FORMS")}


def dev_parts_shared(table: Mapping[str, tuple[Sequence[str], Sequence[str]]], *numbers: int) -> dict[int, int]:
    """How many name parts ``table`` shares with each of the development sets ``numbers`` (tables outside
    :data:`NAME_TABLES`): a count per set, never the parts."""
    new = table_parts(table)
    return {n: len(table_parts(getattr(dev_set(n), f"DEV{n}_NAMES")) & new) for n in numbers}


def check_dev_set(mod: ModuleType, n: int, *, origins: set[str], min_parts: int, min_forms: int, min_uses: int,
                  own_words: int) -> None:
    """The shape every development set keeps: its ``origins``, each origin's given names and surnames
    (``min_parts`` or more together, both present), ``min_forms`` forms, none repeated (in lower case), each spoken
    by the doctor or the patient and holding a name slot, no name part inside a form; ``min_uses`` sentences of words
    as words, none repeated, using ``own_words`` or more of the names' own words as words."""
    names, forms, uses = (getattr(mod, f"DEV{n}_{t}") for t in ("NAMES", "FORMS", "WORD_USES"))
    assert set(names) == origins
    assert all(g and s and len(g) + len(s) >= min_parts for g, s in names.values())
    assert len(forms) >= min_forms and len({f.lower() for _, f in forms}) == len(forms)  # no repeated form
    assert all(who in ("D", "P") and re.search(r"\{[gs]\}", f) for who, f in forms)
    parts = table_parts(names)
    assert not {w for _, f in forms for w in re.findall(r"[a-z]+", f.lower())} & parts
    assert len(uses) >= min_uses and len({s.lower() for _, s in uses}) == len(uses)
    used = {w for _, s in uses for w in re.findall(r"[a-z]+", s.lower())}
    assert len(used & parts) >= own_words  # the names' own words, used as words
